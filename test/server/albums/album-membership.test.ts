/**
 * Album membership over HTTP on a real catalog: positions after append, insert, remove and move
 * (stored positions stay 0..n-1 after every step), covers, assets in the Trash, a purged asset, and
 * species albums: their jobs are queued and wait visibly (`scheduled`, "no model installed") because
 * no species model is installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1 } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';
import { albumAssets, createAlbum, del, fails, ok, setup, storedOrder, type Album, type World } from './helpers.ts';

describe('albums: order, covers, Trash, species', { timeout: 300_000 }, () => {
  let w: World;
  let p: string[];
  const add = (albumId: number, assetId: string, body?: unknown) => w.alice.post(`${V1}/albums/${albumId}/assets/${assetId}`, body);
  const move = (albumId: number, assetId: string, body: unknown) => w.alice.put(`${V1}/albums/${albumId}/assets/${assetId}/position`, body);
  const order = async (albumId: number) => (await albumAssets(w.alice, albumId)).assets.map((a) => a.asset_id);
  const album = async (albumId: number) => ok<Album>(w.alice, await w.alice.get(`${V1}/albums/${albumId}`));
  /** Stored positions are exactly 0..n-1, and the listing shows the same order. */
  const assertCompact = async (albumId: number, expected: string[]) => {
    const stored = storedOrder(w.srv, albumId);
    assert.deepEqual(stored.map((s) => s.position), expected.map((_, i) => i), 'stored positions 0..n-1');
    assert.deepEqual(stored.map((s) => s.asset_id), expected);
    const listed = await albumAssets(w.alice, albumId, '?include_deleted=true');
    assert.deepEqual(listed.assets.map((a) => [a.asset_id, a.position]), expected.map((id, i) => [id, i]));
  };
  const speciesJobs = () =>
    w.srv.container.db
      .prepare(
        `SELECT id, json_extract(args, '$.asset_id') AS asset_id, state, progress_message FROM jobs
          WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.task') = 'bioclip' ORDER BY id`,
      )
      .all() as { id: number; asset_id: string; state: string; progress_message: string | null }[];
  /** Cancels species jobs the way an administrator does (getJob/cancel), optionally only for one asset. */
  const cancelSpeciesJobs = (assetId?: string) => {
    for (const j of speciesJobs()) if (j.state === 'scheduled' && (!assetId || j.asset_id === assetId)) assert.ok(w.srv.container.jobs.cancel(j.id));
  };

  before(async () => {
    w = await setup(
      {
        p0: 'exif/Canon_40D.jpg',
        p1: 'duplicates/bee.jpg',
        p2: 'exif/Nikon_D70.jpg',
        p3: 'exif/Pentax_K10D.jpg',
        p4: 'exif/Olympus_E-P3.jpg',
        video: 'video/with-gps.mp4',
        corrupt: 'exif/corrupted.jpg',
      },
      { bobs: 'gps/DSCN0010.jpg' },
    );
    p = ['p0', 'p1', 'p2', 'p3', 'p4'].map((k) => w.ids[k]!);
    // The Trash test marks files missing that are still on disk: a watcher event or scan arriving after that (the
    // copies above are seen by both) would find them back and restore them while the test compares. The catalog is
    // the test's alone.
    await w.srv.container.repositories.stop();
    await w.srv.container.jobRunner.whenIdle();
  });
  after(() => w.srv.stop({ removeData: true }));

  test('append, insert at a position, re-add, remove and move keep positions 0..n-1', async () => {
    const a = await createAlbum(w.alice, { album_name: 'Order' });
    for (const id of [p[0]!, p[1]!, p[2]!]) ok(w.alice, await add(a.album_id, id));
    await assertCompact(a.album_id, [p[0]!, p[1]!, p[2]!]);
    const listed = await albumAssets(w.alice, a.album_id);
    assert.equal(listed.album_id, a.album_id);
    assert.equal(listed.count, 3);
    const first = listed.assets[0]!;
    assert.equal(first.original_filename, 'Canon_40D.jpg');
    assert.equal(first.type, 'PHOTO');
    assert.equal(first.owner_id, w.aliceId);
    assert.deepEqual(first.species_predictions, []);
    assert.ok(Date.parse(first.added_time) > 0);
    assert.equal((await album(a.album_id)).asset_count, 3);

    // Insert at 1: the rest shift back.
    assert.match(ok(w.alice, await add(a.album_id, p[3]!, { position: 1 })).message, /position 1/);
    await assertCompact(a.album_id, [p[0]!, p[3]!, p[1]!, p[2]!]);
    // Insert at 0, and at n (the end).
    ok(w.alice, await add(a.album_id, p[4]!, { position: 0 }));
    await assertCompact(a.album_id, [p[4]!, p[0]!, p[3]!, p[1]!, p[2]!]);
    // Already a member: 200, nothing moves (even with a position).
    assert.match(ok(w.alice, await add(a.album_id, p[2]!, { position: 0 })).message, /Already/);
    await assertCompact(a.album_id, [p[4]!, p[0]!, p[3]!, p[1]!, p[2]!]);

    // Remove from the middle: the gap closes.
    ok(w.alice, await del(w.alice, `${V1}/albums/${a.album_id}/assets/${p[3]}`));
    await assertCompact(a.album_id, [p[4]!, p[0]!, p[1]!, p[2]!]);
    fails(w.alice, await del(w.alice, `${V1}/albums/${a.album_id}/assets/${p[3]}`), 404, { code: 'asset_not_in_album', field: 'path.assetId' });
    ok(w.alice, await add(a.album_id, p[3]!, { position: 4 }));
    await assertCompact(a.album_id, [p[4]!, p[0]!, p[1]!, p[2]!, p[3]!]);

    // Move forward, backward, to the same place, to both ends.
    ok(w.alice, await move(a.album_id, p[4]!, { position: 3 }));
    await assertCompact(a.album_id, [p[0]!, p[1]!, p[2]!, p[4]!, p[3]!]);
    ok(w.alice, await move(a.album_id, p[3]!, { position: 1 }));
    await assertCompact(a.album_id, [p[0]!, p[3]!, p[1]!, p[2]!, p[4]!]);
    assert.match(ok(w.alice, await move(a.album_id, p[1]!, { position: 2 })).message, /nothing changed/);
    ok(w.alice, await move(a.album_id, p[0]!, { position: 4 }));
    ok(w.alice, await move(a.album_id, p[4]!, { position: 0 }));
    await assertCompact(a.album_id, [p[4]!, p[3]!, p[1]!, p[2]!, p[0]!]);

    // Out of range and bad bodies: 422 naming body.position, nothing changes.
    fails(w.alice, await add(a.album_id, w.ids.video!, { position: 6 }), 422, { code: 'position_out_of_range', field: 'body.position' });
    fails(w.alice, await move(a.album_id, p[0]!, { position: 5 }), 422, { code: 'position_out_of_range', field: 'body.position' });
    for (const body of [{ position: -1 }, { position: 1.5 }, { position: '2' }, {}, { position: 1, x: 1 }]) {
      const r = await move(a.album_id, p[0]!, body);
      const prob = fails(w.alice, r, 422);
      assert.ok(prob.errors?.some((e) => e.field.startsWith('body')), JSON.stringify(prob));
    }
    fails(w.alice, await add(a.album_id, w.ids.video!, { position: -2 }), 422, { field: 'body.position' });
    fails(w.alice, await move(a.album_id, w.ids.video!, { position: 0 }), 404, { code: 'asset_not_in_album' });
    await assertCompact(a.album_id, [p[4]!, p[3]!, p[1]!, p[2]!, p[0]!]);
    const before = Date.parse((await album(a.album_id)).updated_at);
    ok(w.alice, await move(a.album_id, p[0]!, { position: 0 }));
    assert.ok(Date.parse((await album(a.album_id)).updated_at) >= before, 'a change moves updated_at');
  });

  test('covers: the owner’s choice among the members, else the first by position', async () => {
    const a = await createAlbum(w.alice, { album_name: 'Covers' });
    for (const id of [p[0]!, p[1]!, p[2]!]) ok(w.alice, await add(a.album_id, id));
    let got = await album(a.album_id);
    assert.equal(got.cover_asset_id, null);
    assert.equal(got.display_cover_asset_id, p[0]);

    const set = ok<Album>(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: p[2] }));
    assert.equal(set.cover_asset_id, p[2]);
    assert.equal(set.display_cover_asset_id, p[2]);
    // Not a member (own asset, another user's asset, unknown id): 422 naming the field; the cover stays.
    for (const bad of [p[3]!, w.ids.bobs!, '0190a0a0-0000-7000-8000-000000000000']) {
      fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: bad }), 422, {
        code: 'cover_not_in_album',
        field: 'body.cover_asset_id',
      });
    }
    assert.equal((await album(a.album_id)).cover_asset_id, p[2]);
    // Moving the first asset changes the fallback, not the chosen cover.
    ok(w.alice, await move(a.album_id, p[1]!, { position: 0 }));
    got = await album(a.album_id);
    assert.equal(got.display_cover_asset_id, p[2]);
    // Cleared: the first by position stands in.
    got = ok<Album>(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: null }));
    assert.equal(got.cover_asset_id, null);
    assert.equal(got.display_cover_asset_id, p[1]);
    // The cover leaves the album: the choice is cleared.
    ok(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: p[0] }));
    ok(w.alice, await del(w.alice, `${V1}/albums/${a.album_id}/assets/${p[0]}`));
    got = await album(a.album_id);
    assert.equal(got.cover_asset_id, null);
    assert.equal(got.display_cover_asset_id, p[1]);
    assert.equal(got.asset_count, 2);
  });

  test('assets in the Trash stay members but are not counted, listed or displayed unless asked', async () => {
    const a = await createAlbum(w.alice, { album_name: 'Trash rules' });
    for (const id of [p[0]!, p[1]!, p[2]!]) ok(w.alice, await add(a.album_id, id));
    ok(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: p[1] }));
    const repo = w.srv.container.repositories.primary()!;
    // p0 (the first) and p1 (the cover) go to the Trash the way a missing file does.
    assert.ok(w.srv.container.ingest.markMissing(repo.repository_id, 'p0/Canon_40D.jpg'));
    assert.ok(w.srv.container.ingest.markMissing(repo.repository_id, 'p1/bee.jpg'));

    const got = await album(a.album_id);
    assert.equal(got.asset_count, 1);
    assert.equal(got.cover_asset_id, p[1], 'the choice is kept for when it is restored');
    assert.equal(got.display_cover_asset_id, p[2]);
    const visible = await albumAssets(w.alice, a.album_id);
    assert.deepEqual(visible.assets.map((x) => [x.asset_id, x.position]), [[p[2], 2]]);
    assert.equal(visible.count, 1);
    const all = await albumAssets(w.alice, a.album_id, '?include_deleted=true');
    assert.deepEqual(all.assets.map((x) => [x.asset_id, x.is_deleted]), [[p[0], true], [p[1], true], [p[2], false]]);
    fails(w.alice, await w.alice.get(`${V1}/albums/${a.album_id}/assets?include_deleted=maybe`), 422, { field: 'query.include_deleted' });
    // A trashed asset can be neither added nor chosen as cover; re-adding a trashed member changes nothing.
    const other = await createAlbum(w.alice, { album_name: 'Elsewhere' });
    fails(w.alice, await add(other.album_id, p[0]!), 409, { code: 'asset_in_trash' });
    fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: p[0] }), 422, { code: 'cover_not_in_album' });
    assert.match(ok(w.alice, await add(a.album_id, p[0]!)).message, /Already/);
    // Still listed among the albums of the trashed asset.
    assert.ok(ok(w.alice, await w.alice.get(`${V1}/assets/${p[0]}/albums`)).albums.some((x: Album) => x.album_id === a.album_id));

    // The files come back: both return to their places, the cover shows again.
    for (const rel of ['p0/Canon_40D.jpg', 'p1/bee.jpg']) {
      const r = await w.srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId: w.aliceId, source: 'scan' });
      assert.equal(r.outcome, 'restored', JSON.stringify(r));
    }
    await w.srv.container.jobRunner.whenIdle();
    const back = await album(a.album_id);
    assert.equal(back.asset_count, 3);
    assert.equal(back.display_cover_asset_id, p[1]);
    assert.deepEqual(await order(a.album_id), [p[0], p[1], p[2]]);
  });

  test('an asset purged for good leaves no gap in what clients see, and the next change closes it', async () => {
    const db = w.srv.container.db;
    const repo = w.srv.container.repositories.primary()!;
    const purged = '01900000-0000-7000-8000-00000000a001';
    catalogOf(db).asset({ asset_id: purged, owner_id: w.aliceId, repository_id: repo.repository_id, storage_path: 'gone/purged.jpg', file_size: 10 });
    const a = await createAlbum(w.alice, { album_name: 'Purge' });
    for (const id of [p[0]!, purged, p[1]!, p[2]!]) ok(w.alice, await add(a.album_id, id));
    db.prepare('DELETE FROM assets WHERE asset_id = ?').run(purged);
    assert.deepEqual(storedOrder(w.srv, a.album_id).map((s) => s.position), [0, 2, 3], 'the cascade left a gap');
    const listed = await albumAssets(w.alice, a.album_id);
    assert.deepEqual(listed.assets.map((x) => [x.asset_id, x.position]), [[p[0], 0], [p[1], 1], [p[2], 2]]);
    ok(w.alice, await move(a.album_id, p[2]!, { position: 1 }));
    await assertCompact(a.album_id, [p[0]!, p[2]!, p[1]!]);
  });

  test('species albums: adding a photo queues its species job, which waits visibly without a model', async () => {
    // Species recognition on, as on a household's install (the test servers start with the ML tasks off).
    assert.equal((await w.alice.patch(`${V1}/settings/system`, { ml: { species_enabled: true } })).status, 200);
    const bio = await createAlbum(w.alice, { album_name: 'Wildlife', album_type: 'bio' });
    const m = ok(w.alice, await add(bio.album_id, p[1]!));
    assert.match(m.message, /Species recognition is queued/);
    ok(w.alice, await add(bio.album_id, w.ids.video!));
    ok(w.alice, await add(bio.album_id, w.ids.corrupt!));
    await w.srv.container.jobRunner.whenIdle();
    let jobs = speciesJobs();
    assert.deepEqual(jobs.map((j) => j.asset_id), [p[1]], 'one job, for the photo only (not the video, not the failed file)');
    assert.equal(jobs[0]!.state, 'scheduled', 'waiting, not failed');
    assert.match(jobs[0]!.progress_message ?? '', /no model is installed/);

    // A regular album queues nothing.
    const plain = await createAlbum(w.alice, { album_name: 'Plain' });
    ok(w.alice, await add(plain.album_id, p[2]!));
    assert.equal(speciesJobs().length, 1);
    fails(w.alice, await w.alice.post(`${V1}/albums/${plain.album_id}/bioclip/rebuild`), 409, { code: 'album_not_bio' });

    // The rebuild: photos without predictions, each queued once; one with predictions is skipped.
    // p4 already has species predictions: adding it queues nothing.
    const cat = catalogOf(w.srv.container.db);
    cat.species(p[4]!, 'Apis mellifera', 0.91);
    cat.species(p[4]!, 'Bombus', 0.05);
    ok(w.alice, await add(bio.album_id, p[3]!));
    assert.doesNotMatch(ok(w.alice, await add(bio.album_id, p[4]!)).message, /Species/);
    ok(w.alice, await add(bio.album_id, p[0]!));
    await w.srv.container.jobRunner.whenIdle();
    const before = speciesJobs().length;
    const r = ok(w.alice, await w.alice.post(`${V1}/albums/${bio.album_id}/bioclip/rebuild`));
    assert.equal(r.status, 'queued');
    assert.equal(r.queued_assets, 3, 'p1, p3, p0 lack predictions; p4 has them');
    assert.match(r.message, /No species model is installed/);
    await w.srv.container.jobRunner.whenIdle();
    jobs = speciesJobs();
    assert.equal(jobs.length, before, 'all three were already waiting: no duplicates');
    assert.deepEqual(new Set(jobs.map((j) => j.asset_id)), new Set([p[1], p[3], p[0]]));
    assert.ok(!jobs.some((j) => j.asset_id === p[4]));
    for (const j of jobs) {
      assert.equal(j.state, 'scheduled');
      assert.match(j.progress_message ?? '', /no model is installed/);
    }
    // Cancelled jobs are queued again by the rebuild.
    cancelSpeciesJobs(p[3]);
    ok(w.alice, await w.alice.post(`${V1}/albums/${bio.album_id}/bioclip/rebuild`));
    await w.srv.container.jobRunner.whenIdle();
    assert.equal(speciesJobs().filter((j) => j.asset_id === p[3] && j.state === 'scheduled').length, 1);
    // The listing shows the predictions, best first.
    const listed = await albumAssets(w.alice, bio.album_id);
    assert.deepEqual(listed.assets.find((x) => x.asset_id === p[4])!.species_predictions, [
      { label: 'Apis mellifera', score: 0.91 },
      { label: 'Bombus', score: 0.05 },
    ]);
    // Bob cannot queue on Alice's album.
    fails(w.bob, await w.bob.post(`${V1}/albums/${bio.album_id}/bioclip/rebuild`), 404, { code: 'album_not_found' });
  });

  test('turning an album into a bio album queues its photos; species turned off is 409 and queues nothing', async () => {
    // Species recognition on, as on a household's install (the test servers start with the ML tasks off).
    assert.equal((await w.alice.patch(`${V1}/settings/system`, { ml: { species_enabled: true } })).status, 200);
    const a = await createAlbum(w.alice, { album_name: 'Becomes bio' });
    ok(w.alice, await add(a.album_id, p[2]!));
    assert.ok(!speciesJobs().some((j) => j.asset_id === p[2]));
    ok(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { album_type: 'bio' }));
    await w.srv.container.jobRunner.whenIdle();
    const j = speciesJobs().find((x) => x.asset_id === p[2]);
    assert.ok(j, 'queued when the album became a bio album');
    assert.equal(j.state, 'scheduled');

    const off = await w.alice.patch(`${V1}/settings/system`, { ml: { species_enabled: false } });
    assert.equal(off.status, 200, off.text);
    try {
      fails(w.alice, await w.alice.post(`${V1}/albums/${a.album_id}/bioclip/rebuild`), 409, { code: 'species_disabled' });
      const count = speciesJobs().length;
      const bio2 = await createAlbum(w.alice, { album_name: 'Bio while off', album_type: 'bio' });
      cancelSpeciesJobs();
      const added = ok(w.alice, await add(bio2.album_id, p[3]!));
      assert.doesNotMatch(added.message, /Species/);
      assert.equal(speciesJobs().length, count, 'nothing queued while species recognition is off');
    } finally {
      assert.equal((await w.alice.patch(`${V1}/settings/system`, { ml: { species_enabled: true } })).status, 200);
    }
  });
});
