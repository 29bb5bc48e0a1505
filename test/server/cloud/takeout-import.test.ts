/**
 * Google Takeout through the real app: archive parts built from corpus files with sidecars in Takeout's format are
 * placed in the primary repository, found and previewed over HTTP, and imported by a run through the one door. Every
 * sidecar fact lands (time, place and the album's place as fallback, description, favourite, albums, people as tags,
 * archived as a tag, trashed into the Trash), the year-folder and album copies are one asset, a second run brings
 * nothing, and the same export split into parts gives the same library as one archive.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { buildTakeout, familyTakeout, type TakeoutFile } from '../helpers/takeout-archive.ts';

interface AssetFacts {
  name: string;
  taken: number | null;
  lat: number | null;
  lon: number | null;
  description: string | null;
  liked: number;
  trashed: number;
  albums: string;
  tags: string;
}

/** One member's library as the sidecars should have made it, by original name. */
function libraryOf(srv: TestServer, ownerId: number): Map<string, AssetFacts> {
  const rows = srv.container.db
    .prepare(
      `SELECT a.original_filename AS name, a.taken_time AS taken, a.gps_latitude AS lat, a.gps_longitude AS lon, a.description, a.liked, a.is_deleted AS trashed,
              coalesce((SELECT group_concat(al.album_name, '|') FROM (SELECT al.album_name FROM album_assets aa JOIN albums al ON al.album_id = aa.album_id WHERE aa.asset_id = a.asset_id ORDER BY al.album_name) al), '') AS albums,
              coalesce((SELECT group_concat(t.tag_name, '|') FROM (SELECT t.tag_name FROM asset_tags x JOIN tags t ON t.tag_id = x.tag_id WHERE x.asset_id = a.asset_id ORDER BY t.tag_name) t), '') AS tags
       FROM assets a WHERE a.owner_id = ? ORDER BY a.original_filename`,
    )
    .all(ownerId) as AssetFacts[];
  return new Map(rows.map((r) => [r.name, r]));
}

/** The family export with every sidecar and album metadata in another part than its media (3 parts). */
function splitAcrossParts(files: TakeoutFile[]): TakeoutFile[] {
  return files.map((f, i) => ({ ...f, part: f.path.endsWith('.json') ? 2 : i % 2 }));
}

describe('Google Takeout import', () => {
  let srv: TestServer;
  let anna: Client;
  let ben: Client;
  let annaId: number;
  let benId: number;
  let repositoryId: string;
  let whole: string[];
  let split: string[];

  const finished = async (c: Client, runId: string) => {
    for (;;) {
      const run = data(c, await c.get(`${V1}/cloud/import-runs/${runId}`));
      if (!['queued', 'running'].includes(run.status)) return run;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    srv = await startServer();
    const household = await signedInHousehold(srv.url, 'A', ['anna', 'ben'] as const);
    ({ client: anna, id: annaId } = household.members.anna);
    ({ client: ben, id: benId } = household.members.ben);
    const repo = srv.container.repositories.primary()!;
    repositoryId = repo.repository_id;
    const rel = (abs: string) => path.relative(repo.path, abs).split(path.sep).join('/');
    whole = (await buildTakeout(path.join(repo.path, 'Takeout'), { format: 'zip', files: familyTakeout(), stem: 'takeout-20240101T000000Z' })).map(rel);
    split = (await buildTakeout(path.join(repo.path, 'Takeout'), { format: 'zip', files: splitAcrossParts(familyTakeout()), stem: 'takeout-20240202T000000Z' })).map(rel);
  });
  after(() => srv?.stop({ removeData: true }));

  test('the parts placed in the repository are listed by export', async () => {
    const { archives } = data(anna, await anna.get(`${V1}/cloud/takeout/archives?repository_id=${repositoryId}`));
    assert.deepEqual(
      archives.map((a: { name: string; parts: { path: string }[] }) => [a.name, a.parts.map((p) => p.path)]),
      [
        ['takeout-20240202T000000Z', split],
        ['takeout-20240101T000000Z', whole],
      ],
    );
  });

  test('the preview says what the export holds before anything is imported', async () => {
    const preview = data(anna, await anna.post(`${V1}/cloud/takeout/preview`, { repository_id: repositoryId, parts: whole }));
    assert.equal(preview.photos + preview.videos, 12);
    assert.equal(preview.videos, 2);
    assert.deepEqual(preview.albums.map((a: { name: string }) => a.name).sort(), ['Best of 2019', "Kids' drawings", 'Summer trip']);
    assert.deepEqual(preview.date_range, { from: '2019-03-02T09:00:00.000Z', to: '2021-02-03T04:05:06.000Z' });
    assert.ok(preview.without_sidecar.count >= 1 && preview.without_sidecar.examples.some((e: string) => e.endsWith('no_exif.jpg')));
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM assets').pluck().get(), 0, 'a preview imports nothing');
  });

  test('parts outside the repository or missing are refused', async () => {
    const outside = await anna.post(`${V1}/cloud/takeout/preview`, { repository_id: repositoryId, parts: ['../../etc/passwd'] });
    assert.equal(problem(anna, outside).code, 'takeout_part_outside');
    const hidden = await anna.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: ['.hearth/catalog.zip'] });
    assert.ok(['takeout_part_outside', 'takeout_part_not_found'].includes(problem(anna, hidden).code));
    const missing = await anna.post(`${V1}/cloud/takeout/preview`, { repository_id: repositoryId, parts: ['Takeout/takeout-nope-001.zip'] });
    assert.equal(problem(anna, missing).code, 'takeout_part_not_found');
  });

  test('an import lands every sidecar fact on one asset per photo', async () => {
    const run = await finished(anna, data(anna, await anna.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: whole })).run.id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.equal(run.provider, 'google_takeout');
    assert.equal(run.imported_count, 12);
    assert.equal(run.failed_count, 0);
    await srv.container.jobRunner.whenIdle();
    const lib = libraryOf(srv, annaId);
    assert.equal(lib.size, 12, 'the year-folder copy and the album copies are one asset');
    const canon = lib.get('Canon_40D.jpg')!;
    assert.equal(canon.taken, Date.parse('2019-06-01T12:00:00Z'), 'the sidecar time');
    assert.deepEqual([canon.lat, canon.lon], [48.8584, 2.2945], 'the sidecar place');
    assert.equal(canon.description, 'Under the tower');
    assert.equal(canon.liked, 1, 'favourite');
    assert.equal(canon.albums, 'Summer trip');
    assert.equal(canon.tags, 'Anna|Ben', 'people named become tags');
    const pentax = lib.get('Pentax_K10D.jpg')!;
    assert.deepEqual([pentax.lat, pentax.lon], [43.7, 7.26], "the album's place where the photo has none");
    assert.equal(lib.get('Nikon_D70.jpg')!.albums, 'Best of 2019');
    assert.deepEqual([lib.get('Nikon_D70.jpg')!.lat, lib.get('Nikon_D70.jpg')!.lon], [51.5, -0.12], 'geoDataExif when geoData has none');
    const bee = lib.get('bee.jpg')!;
    assert.equal(bee.trashed, 1, "Google's trash goes to the Trash");
    assert.equal(bee.tags, 'Archived');
    assert.equal(lib.get("door-knocker.jpg")!.albums, "Kids' drawings");
    assert.ok(lib.has('no_exif.jpg'), 'a file with no sidecar is imported with its own metadata');
    const report = data(anna, await anna.get(`${V1}/cloud/import-runs/${run.id}/files?outcome=skipped,failed`));
    assert.ok(report.files.every((f: { reason_code: string }) => f.reason_code !== 'failed'));
  });

  test('a second run of the same parts imports nothing new and says so', async () => {
    const run = await finished(anna, data(anna, await anna.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: [...whole].reverse() })).run.id);
    assert.equal(run.status, 'completed');
    assert.equal(run.imported_count, 0);
    assert.equal(run.downloaded_count, 0);
    assert.match(run.summary, /^Nothing new/);
  });

  test('the same export split into parts gives the same library as one archive', async () => {
    const run = await finished(ben, data(ben, await ben.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: split })).run.id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual([...libraryOf(srv, benId).values()], [...libraryOf(srv, annaId).values()]);
  });

  test("a member's run of parts another member imported is their own: their files, never the other's", async () => {
    const run = await finished(anna, data(anna, await anna.post(`${V1}/cloud/takeout/import`, { repository_id: repositoryId, parts: split })).run.id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    const files = data(anna, await anna.get(`${V1}/cloud/import-runs/${run.id}/files?limit=500`)).files as { outcome: string; reason_code: string | null; asset_id: string | null }[];
    const media = files.filter((f) => f.asset_id);
    assert.equal(media.length, 12);
    assert.ok(media.every((f) => f.outcome === 'skipped' && f.reason_code === 'already_in_library'), 'Anna has these from the whole export: her own, not "unchanged" by Ben\'s run');
    const annas = new Set(srv.container.db.prepare('SELECT asset_id FROM assets WHERE owner_id = ?').pluck().all(annaId) as string[]);
    assert.ok(media.every((f) => annas.has(f.asset_id!)), "the report points at Anna's assets, never Ben's");
  });
});
