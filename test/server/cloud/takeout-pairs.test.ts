/**
 * Google Takeout's edited copies and Live Photo clips end up with their originals (issue 28), as a client sees them:
 * through the asset's media item (GET /assets/{id}/media-item) and the timeline (POST /assets/query, one tile per
 * media item). An edited copy (`-edited`, and the German `-bearbeitet`) joins its original's item as its
 * `edited_version` with the original primary; a motion clip with no Apple content identifier inside joins its still
 * as one `live_photo` item; so do a still and a clip in two parts of one export, and a clip whose part came in a
 * later run than its still. A second run states nothing twice, and stack detection does not take the pairs apart.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, signedInHousehold } from '../helpers/api.ts';
import { buildTakeout, sidecar, type TakeoutFile } from '../helpers/takeout-archive.ts';

const YEAR = 'Photos from 2021';

/** Two originals with edited copies (English and German suffixes); every file different content. */
function editedCopies(): TakeoutFile[] {
  return [
    { path: `${YEAR}/IMG_0001.jpg`, corpus: 'exif/Canon_40D.jpg' },
    { path: `${YEAR}/IMG_0001.jpg.json`, json: sidecar({ title: 'IMG_0001.jpg', taken: '2021-05-01T10:00:00Z' }) },
    { path: `${YEAR}/IMG_0001-edited.jpg`, corpus: 'duplicates/tanners_ridge_edited.jpg' },
    { path: `${YEAR}/IMG_0002.jpg`, corpus: 'exif/Nikon_D70.jpg' },
    { path: `${YEAR}/IMG_0002.jpg.json`, json: sidecar({ title: 'IMG_0002.jpg', taken: '2021-05-02T10:00:00Z' }) },
    { path: `${YEAR}/IMG_0002-bearbeitet.jpg`, corpus: 'exif/Pentax_K10D.jpg' },
  ];
}

/**
 * A Live Photo as Takeout exports it: the still and `IMG_2929.MP4` beside it. The clip is a plain MP4 with no
 * content identifier (the still's is not in it), so only the source's word can pair them. `clipPart`: the part the
 * clip and the sidecar go in (the still is in part 0).
 */
function livePhoto(clipPart: number): TakeoutFile[] {
  return [
    { path: `${YEAR}/IMG_2929.HEIC`, corpus: 'live/IMG_2929.HEIC', part: 0 },
    { path: `${YEAR}/IMG_2929.HEIC.json`, json: sidecar({ title: 'IMG_2929.HEIC', taken: '2021-06-01T12:00:00Z' }), part: clipPart },
    { path: `${YEAR}/IMG_2929.MP4`, corpus: 'video/with-gps.mp4', part: clipPart },
  ];
}

interface Tile {
  media_item: { media_item_id: string; media_kind: string; composition: { component_count: number; has_edited: boolean; has_live_motion: boolean }; primary_asset: { asset_id: string } };
}

interface MediaItem {
  media_item_id: string;
  media_kind: string;
  primary_asset_id: string;
  components: { asset_id: string; position: number; relation: string }[];
}

describe('Google Takeout: edited copies and live photo clips join their originals', () => {
  let srv: TestServer;
  let repositoryId: string;
  let members: Record<'anna' | 'ben' | 'cara' | 'dan', { client: Client; id: number }>;
  const parts = { edits: [] as string[], live: [] as string[], split: [] as string[], later: [] as string[] };

  const finished = async (c: Client, runId: string) => {
    for (;;) {
      const run = data(c, await c.get(`${V1}/cloud/import-runs/${runId}`));
      if (!['queued', 'running'].includes(run.status)) return run;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** Imports the parts as the member, waits for the pipeline, answers the run and its files' asset ids by name. */
  const importParts = async (c: Client, names: string[]) => {
    const run = await finished(c, data(c, await c.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: names })).run.id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.equal(run.failed_count, 0, JSON.stringify(run));
    await srv.container.jobRunner.whenIdle();
    const files = data(c, await c.get(`${V1}/cloud/import-runs/${run.id}/files?outcome=imported,unchanged,skipped`)).files as { name: string; asset_id: string | null }[];
    return { run, ids: Object.fromEntries(files.filter((f) => f.asset_id).map((f) => [f.name, f.asset_id!])) as Record<string, string> };
  };

  const mediaItem = async (c: Client, assetId: string): Promise<MediaItem> => data(c, await c.get(`${V1}/assets/${assetId}/media-item`)).media_item;
  const timeline = async (c: Client): Promise<Tile[]> => data(c, await c.post(`${V1}/assets/query`, {})).items;
  const relations = (item: MediaItem) => item.components.map((x) => [x.asset_id, x.relation]);

  before(async () => {
    srv = await startServer();
    ({ members } = await signedInHousehold(srv.url, 'A', ['anna', 'ben', 'cara', 'dan'] as const));
    const repo = srv.container.repositories.primary()!;
    repositoryId = repo.repository_id;
    const rel = (abs: string) => path.relative(repo.path, abs).split(path.sep).join('/');
    const dir = path.join(repo.path, 'Takeout');
    parts.edits = (await buildTakeout(dir, { format: 'zip', files: editedCopies(), stem: 'takeout-20240301T000000Z' })).map(rel);
    parts.live = (await buildTakeout(dir, { format: 'zip', files: livePhoto(0), stem: 'takeout-20240302T000000Z' })).map(rel);
    parts.split = (await buildTakeout(dir, { format: 'tgz', files: livePhoto(1), stem: 'takeout-20240303T000000Z' })).map(rel);
    // Another export for dan: runs of one archive set share its cursors, whoever starts them.
    parts.later = (await buildTakeout(dir, { format: 'zip', files: livePhoto(1), stem: 'takeout-20240304T000000Z' })).map(rel);
    assert.deepEqual([parts.split.length, parts.later.length], [2, 2]);
  });
  after(() => srv?.stop({ removeData: true }));

  test('an edited copy is an edited_version of its original, the original first, one tile', async () => {
    const { client: anna } = members.anna;
    const { run, ids } = await importParts(anna, parts.edits);
    assert.equal(run.imported_count, 4);
    for (const [original, edited] of [
      ['IMG_0001.jpg', 'IMG_0001-edited.jpg'],
      ['IMG_0002.jpg', 'IMG_0002-bearbeitet.jpg'],
    ] as const) {
      const item = await mediaItem(anna, ids[edited]!);
      assert.equal(item.primary_asset_id, ids[original], `${original} stands for the item`);
      assert.deepEqual(relations(item), [
        [ids[original], 'jpeg_original'],
        [ids[edited], 'edited_version'],
      ]);
      assert.equal((await mediaItem(anna, ids[original]!)).media_item_id, item.media_item_id);
      const detail = data(anna, await anna.get(`${V1}/assets/${ids[edited]}`));
      assert.equal(detail.media_item_id, item.media_item_id);
    }
    const tiles = await timeline(anna);
    assert.equal(tiles.length, 2, 'one tile per original with its edit');
    for (const t of tiles) {
      assert.deepEqual([t.media_item.media_kind, t.media_item.composition.component_count, t.media_item.composition.has_edited], ['photo', 2, true]);
      assert.ok([ids['IMG_0001.jpg'], ids['IMG_0002.jpg']].includes(t.media_item.primary_asset.asset_id));
    }
  });

  test('a second run states nothing twice, and stack detection keeps the pairs', async () => {
    const { client: anna } = members.anna;
    const pairs = () => srv.container.db.prepare('SELECT asset_id, partner_id, said_as, created_at FROM asset_source_pairs ORDER BY asset_id').all();
    const before = pairs();
    assert.equal(before.length, 2);
    const itemsBefore = (await timeline(anna)).map((t) => t.media_item.media_item_id).sort();
    const { run } = await importParts(anna, parts.edits);
    assert.equal(run.imported_count, 0);
    assert.equal(run.unchanged_count, 4);
    assert.deepEqual(pairs(), before, 'the same pairs, not written again');
    const detect = await anna.post(`${V1}/repositories/${repositoryId}/stacks/detect`, {});
    assert.equal(detect.status, 200, detect.text);
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual((await timeline(anna)).map((t) => t.media_item.media_item_id).sort(), itemsBefore);
  });

  /** The member's timeline is one live photo tile: the still primary, its clip the motion. */
  const assertOneLivePhoto = async (c: Client, ids: Record<string, string>) => {
    const still = ids['IMG_2929.HEIC']!;
    const clip = ids['IMG_2929.MP4']!;
    assert.equal(data(c, await c.get(`${V1}/assets/${clip}`)).content_id, null, 'the clip carries no content identifier');
    const item = await mediaItem(c, clip);
    assert.equal(item.media_kind, 'live_photo');
    assert.deepEqual(relations(item), [
      [still, 'live_photo_still'],
      [clip, 'live_photo_video'],
    ]);
    const tiles = await timeline(c);
    assert.equal(tiles.length, 1, 'not a separate video');
    assert.equal(tiles[0]!.media_item.primary_asset.asset_id, still);
    assert.deepEqual([tiles[0]!.media_item.media_kind, tiles[0]!.media_item.composition.has_live_motion, tiles[0]!.media_item.composition.component_count], ['live_photo', true, 2]);
  };

  test('a Live Photo clip without a content identifier joins its still as one live photo', async () => {
    const { client: ben } = members.ben;
    const { ids } = await importParts(ben, parts.live);
    await assertOneLivePhoto(ben, ids);
  });

  test('a still and its clip in two parts of one export pair', async () => {
    const { client: cara } = members.cara;
    const { ids } = await importParts(cara, parts.split);
    await assertOneLivePhoto(cara, ids);
  });

  test('a clip whose part comes in a later run than its still pairs then', async () => {
    const { client: dan } = members.dan;
    const first = await importParts(dan, [parts.later[0]!]);
    assert.equal(first.run.imported_count, 1);
    const alone = await timeline(dan);
    assert.deepEqual([alone.length, alone[0]!.media_item.media_kind], [1, 'photo'], 'the still alone at first');
    const second = await importParts(dan, parts.later);
    assert.equal(second.run.imported_count, 1, 'only the clip is new');
    assert.equal(second.ids['IMG_2929.HEIC'], first.ids['IMG_2929.HEIC'], 'the still is the one from the first run');
    await assertOneLivePhoto(dan, second.ids);
  });
});
