/**
 * Media items and stacks over HTTP on a real catalog.
 *
 * Real corpus files go through the real ingest path and media pipeline: the RAW+JPEG pair
 * (raw/RAW_NIKON_D1.JPG + .NEF) and the live photo (live/IMG_7943.HEIC + IMG_7943_HEVC.MOV). The
 * corpus holds no burst sequence, so bursts and edit iterations are made here: one corpus photo
 * (exif/orientation_landscape_1.jpg) re-encoded with sharp at different brightness (distinct
 * content), with real EXIF (camera model, DateTimeOriginal + SubSecTimeOriginal) and, for the EXIF
 * burst, an XMP BurstUUID; those files are indexed like any other. For the synchronous detection,
 * corpus photos without camera or time (exif/orientation_*) are indexed under burst-like names and
 * given a camera and capture times with SQL afterwards.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { frame, indexInto, settle, tempDir } from './helpers.ts';

type Stack = { stack_id: string; stack_kind: string; member_count: number; cover_media_item_id: string; members: { media_item_id: string; position: number; primary_asset_id: string }[] };
type Item = { media_item: { media_item_id: string; media_kind: string; composition: Record<string, boolean | number>; primary_asset: { asset_id: string } } };

describe('media items and stacks', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let aliceId: number;
  let bobId: number;
  let repoId: string;
  let tmp: string;
  type IdKey =
    | 'nikonJpeg' | 'nikonRaw' | 'liveStill' | 'liveMotion'
    | 'original' | 'edit2' | 'edit3' | 'edit10' | 'editLate' | 'orphanEdit'
    | `burst${0 | 1 | 2 | 3 | 4}` | 'burstLate' | `pairOnly${0 | 1}` | 'exifA' | 'exifB'
    | 'canon' | 'nikon' | 'gps' | 'fuji' | 'pentax' | 'olympus' | 'bob' | 'bob2';
  const ids = {} as Record<IdKey, string>;
  const T0 = Date.parse('2024-06-01T10:00:00.000Z');

  const stackOf = async (c: Client, assetId: string): Promise<Stack | null> => {
    const r = await c.get(`${V1}/assets/${assetId}/stack`);
    assert.equal(r.status, 200, r.text);
    const body = data(c, r);
    assert.equal(body.asset_id, assetId);
    return body.stack;
  };
  const itemOf = (assetId: string) => srv.container.db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ?').pluck().get(assetId) as string;
  const detect = async (c: Client, repo = repoId) => {
    const r = await c.post(`${V1}/repositories/${repo}/stacks/detect`);
    assert.equal(r.status, 200, r.text);
    return data(c, r);
  };
  const stackCount = () => srv.container.db.prepare('SELECT count(*) FROM stacks').pluck().get() as number;
  const items = async (c: Client): Promise<Item[]> => {
    const r = await c.post(`${V1}/assets/query`, { pagination: { limit: 200 } });
    assert.equal(r.status, 200, r.text);
    return data(c, r).items;
  };

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
    repoId = srv.container.repositories.primary()!.repository_id;
    tmp = tempDir();

    // Real pairs from the corpus.
    ids.nikonJpeg = await indexInto(srv, 'raw/RAW_NIKON_D1.JPG', 'pair/RAW_NIKON_D1.JPG', aliceId);
    ids.nikonRaw = await indexInto(srv, 'raw/RAW_NIKON_D1.NEF', 'pair/RAW_NIKON_D1.NEF', aliceId);
    ids.liveMotion = await indexInto(srv, 'live/IMG_7943_HEVC.MOV', 'live/IMG_7943_HEVC.MOV', aliceId);
    ids.liveStill = await indexInto(srv, 'live/IMG_7943.HEIC', 'live/IMG_7943.HEIC', aliceId);

    // Edit iterations (the edit before its original; one exported to another folder; one too late).
    const tEdit = Date.parse('2023-03-03T12:00:00.000Z');
    const edit = async (name: string, rel: string, dt: number, v: number) =>
      indexInto(srv, await frame(tmp, name, { model: 'Canon EOS R6', taken: new Date(tEdit + dt), variant: v }), rel, aliceId);
    ids.edit2 = await edit('IMG_5000-2.jpg', 'edits/IMG_5000-2.jpg', 2_000, 1);
    ids.original = await edit('IMG_5000.jpg', 'edits/IMG_5000.jpg', 0, 2);
    ids.edit10 = await edit('IMG_5000-10.jpg', 'edits/IMG_5000-10.jpg', 3_000, 14);
    ids.edit3 = await edit('IMG_5000-3.jpg', 'export/IMG_5000-3.jpg', 4_000, 3);
    ids.editLate = await edit('IMG_5000-4.jpg', 'edits/IMG_5000-4.jpg', 60_000, 4);
    ids.orphanEdit = await edit('IMG_6000-1.jpg', 'edits/IMG_6000-1.jpg', 0, 5);

    // A burst by file numbers and time: 5 frames 300 ms apart, then a frame 5 s later.
    for (let i = 0; i < 5; i++) {
      ids[`burst${i}` as IdKey] = await indexInto(srv, await frame(tmp, `DSC_010${i + 1}.JPG`, { model: 'Canon EOS R6', taken: new Date(T0 + i * 300), variant: i }), `burst/DSC_010${i + 1}.JPG`, aliceId);
    }
    ids.burstLate = await indexInto(srv, await frame(tmp, 'DSC_0106.JPG', { model: 'Canon EOS R6', taken: new Date(T0 + 5_200), variant: 6 }), 'burst/DSC_0106.JPG', aliceId);
    // Only two consecutive frames: no burst.
    for (let i = 0; i < 2; i++) {
      ids[`pairOnly${i}` as IdKey] = await indexInto(srv, await frame(tmp, `DSC_020${i + 1}.JPG`, { model: 'Canon EOS R6', taken: new Date(T0 + 60_000 + i * 200), variant: 7 + i }), `burst/DSC_020${i + 1}.JPG`, aliceId);
    }
    // A burst by EXIF id, names not in sequence.
    ids.exifA = await indexInto(srv, await frame(tmp, 'sunset.jpg', { model: 'iPhone 15', taken: new Date(T0 + 100_000), variant: 9, burstId: 'BURST-ABC-123' }), 'xburst/sunset.jpg', aliceId);
    ids.exifB = await indexInto(srv, await frame(tmp, 'harbour.jpg', { model: 'iPhone 15', taken: new Date(T0 + 103_000), variant: 10, burstId: 'BURST-ABC-123' }), 'xburst/harbour.jpg', aliceId);

    // Singles for manual stacks.
    ids.canon = await indexInto(srv, 'exif/Canon_40D.jpg', 'singles/Canon_40D.jpg', aliceId);
    ids.nikon = await indexInto(srv, 'exif/Nikon_D70.jpg', 'singles/Nikon_D70.jpg', aliceId);
    ids.gps = await indexInto(srv, 'gps/DSCN0010.jpg', 'singles/DSCN0010.jpg', aliceId);
    ids.fuji = await indexInto(srv, 'exif/Fujifilm_FinePix6900ZOOM.jpg', 'singles/Fujifilm_FinePix6900ZOOM.jpg', aliceId);
    ids.pentax = await indexInto(srv, 'exif/Pentax_K10D.jpg', 'singles/Pentax_K10D.jpg', aliceId);
    ids.olympus = await indexInto(srv, 'exif/Olympus_C8080WZ.jpg', 'singles/Olympus_C8080WZ.jpg', aliceId);

    // Bob's assets.
    ids.bob = await indexInto(srv, 'exif/Sony_DSLR-A200.jpg', 'bob/Sony_DSLR-A200.jpg', bobId);
    ids.bob2 = await indexInto(srv, 'exif/Panasonic_DMC-FZ30.jpg', 'bob/Panasonic_DMC-FZ30.jpg', bobId);
    await settle(srv);
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('RAW+JPEG pair and live photo from the corpus are one media item each', async () => {
    assert.equal(itemOf(ids.nikonJpeg), itemOf(ids.nikonRaw));
    assert.equal(itemOf(ids.liveStill), itemOf(ids.liveMotion));
    const relations = (id: string) =>
      srv.container.db.prepare('SELECT a.original_filename, c.relation, c.position FROM media_item_components c JOIN assets a USING (asset_id) WHERE c.media_item_id = ? ORDER BY c.position').all(id);
    assert.deepEqual(relations(itemOf(ids.nikonJpeg)), [
      { original_filename: 'RAW_NIKON_D1.JPG', relation: 'jpeg_original', position: 0 },
      { original_filename: 'RAW_NIKON_D1.NEF', relation: 'raw_original', position: 1 },
    ]);
    assert.deepEqual(relations(itemOf(ids.liveStill)), [
      { original_filename: 'IMG_7943.HEIC', relation: 'live_photo_still', position: 0 },
      { original_filename: 'IMG_7943_HEVC.MOV', relation: 'live_photo_video', position: 1 },
    ]);
    const list = await items(alice);
    const pair = list.find((i) => i.media_item.primary_asset.asset_id === ids.nikonJpeg)!;
    assert.deepEqual(pair.media_item.composition, { component_count: 2, has_edited: false, has_jpeg: true, has_live_motion: false, has_raw: true });
    const live = list.find((i) => i.media_item.primary_asset.asset_id === ids.liveStill)!;
    assert.equal(live.media_item.media_kind, 'live_photo');
    assert.deepEqual(live.media_item.composition, { component_count: 2, has_edited: false, has_jpeg: false, has_live_motion: true, has_raw: false });
    assert.ok(!list.some((i) => [ids.nikonRaw, ids.liveMotion].includes(i.media_item.primary_asset.asset_id)));
  });

  test('edit iterations join their original (any arrival order, any folder, within 5 s, by number)', async () => {
    const item = itemOf(ids.original);
    assert.equal(itemOf(ids.edit2), item, 'the edit indexed before its original joined it');
    assert.equal(itemOf(ids.edit3), item, 'an exported edit in another folder joined it');
    assert.notEqual(itemOf(ids.editLate), item, 'an iteration captured a minute later is another photo');
    const comps = srv.container.db
      .prepare('SELECT asset_id, relation, position FROM media_item_components WHERE media_item_id = ? ORDER BY position')
      .all(item) as { asset_id: string; relation: string; position: number }[];
    assert.deepEqual(comps, [
      { asset_id: ids.original, relation: 'jpeg_original', position: 0 },
      { asset_id: ids.edit2, relation: 'edited_version', position: 1 },
      { asset_id: ids.edit3, relation: 'edited_version', position: 2 },
      { asset_id: ids.edit10, relation: 'edited_version', position: 3 },
    ]);
    const { composition } = await import('../../../server/src/features/assets/pipeline/media-items.ts');
    assert.deepEqual(composition(srv.container.db, item), { component_count: 4, has_edited: true, has_jpeg: true, has_live_motion: false, has_raw: false });
    assert.equal(composition(srv.container.db, '00000000-0000-7000-8000-000000000000'), null);
    const list = await items(alice);
    const row = list.find((i) => i.media_item.media_item_id === item)!;
    assert.equal(row.media_item.primary_asset.asset_id, ids.original);
    assert.equal(row.media_item.composition.has_edited, true);
    assert.equal(row.media_item.composition.component_count, 4);
    const orphan = list.find((i) => i.media_item.primary_asset.asset_id === ids.orphanEdit)!;
    assert.deepEqual(orphan.media_item.composition, { component_count: 1, has_edited: false, has_jpeg: true, has_live_motion: false, has_raw: false }, 'an edit name without its original is a plain photo');
  });

  test('bursts are detected at ingest: consecutive frames 0–1 s apart (≥3), and by EXIF burst id', async () => {
    const s = (await stackOf(alice, ids.burst2))!;
    assert.ok(s, 'the burst frame is stacked');
    assert.equal(s.stack_kind, 'burst');
    assert.equal(s.member_count, 5);
    assert.deepEqual(s.members.map((m) => m.primary_asset_id), [0, 1, 2, 3, 4].map((i) => ids[`burst${i}` as IdKey]));
    assert.deepEqual(s.members.map((m) => m.position), [0, 1, 2, 3, 4]);
    assert.equal(s.cover_media_item_id, s.members[0]!.media_item_id, 'cover = first member');
    const key = srv.container.db.prepare('SELECT group_key FROM stacks WHERE stack_id = ?').pluck().get(s.stack_id);
    assert.equal(key, `time:${aliceId}:Canon EOS R6:dsc_:${T0}`);
    assert.equal(await stackOf(alice, ids.burstLate), null, 'a frame 4 s after the run is not part of it');
    assert.equal(await stackOf(alice, ids.pairOnly0), null, 'two frames are not a burst');

    const x = (await stackOf(alice, ids.exifA))!;
    assert.equal(x.stack_kind, 'burst');
    assert.deepEqual(x.members.map((m) => m.primary_asset_id), [ids.exifA, ids.exifB], 'EXIF burst frames in capture order');
    assert.equal(srv.container.db.prepare('SELECT group_key FROM stacks WHERE stack_id = ?').pluck().get(x.stack_id), `exif:${aliceId}:BURST-ABC-123`);
    assert.equal(await stackOf(alice, ids.canon), null);
  });

  test('a batch of ready assets queues one detection job per repository', async () => {
    const active = () =>
      srv.container.db
        .prepare("SELECT count(*) FROM jobs WHERE kind = 'stacks.detect-stacks' AND state IN ('available', 'scheduled', 'running', 'retryable')")
        .pluck()
        .get() as number;
    assert.equal(active(), 0);
    // Synchronously, as several pipeline transactions finishing in a row would.
    for (let i = 0; i < 5; i++) srv.container.stacks.afterAssetReady({ repository_id: repoId });
    assert.equal(active(), 1);
    await settle(srv);
    const last = srv.container.db.prepare("SELECT state, result FROM jobs WHERE kind = 'stacks.detect-stacks' ORDER BY id DESC LIMIT 1").get() as { state: string; result: string };
    assert.equal(last.state, 'completed');
    assert.equal(JSON.parse(last.result).stacks_created, 0, 'nothing new to stack');
  });

  test('detection run again creates nothing; synchronous detection stacks what SQL made burst-like', async () => {
    const before = stackCount();
    const first = await detect(alice);
    assert.equal(first.repository_id, repoId);
    assert.equal(first.owner_id, null, 'an administrator runs it for every owner');
    assert.equal(first.stacks_created, 0);
    assert.equal(first.media_items_merged, 0);
    assert.equal(first.bursts_found, 0, 'the bursts are stacked already: no candidates left');
    assert.ok(first.photos_scanned >= 20, JSON.stringify(first));
    assert.equal(stackCount(), before);

    // Corpus photos without camera or time, named like a burst, then given both with SQL.
    const seq = async (owner: number, who: string, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(await indexInto(srv, `exif/orientation_portrait_${i + 1 + (who === 'bob' ? 4 : 0)}.jpg`, `seq-${who}/PIC_${String(i + 1).padStart(4, '0')}.jpg`, owner));
      return out;
    };
    const aliceSeq = await seq(aliceId, 'alice', 3);
    const bobSeq = await seq(bobId, 'bob', 4);
    await settle(srv);
    for (const id of [...aliceSeq, ...bobSeq]) assert.equal(await stackOf(id === aliceSeq[0] || aliceSeq.includes(id) ? alice : bob, id), null, 'no camera, no time: no burst');
    [aliceSeq, bobSeq].forEach((list) =>
      list.forEach((id, i) =>
        srv.container.db
          // As if the files said when they were taken (time_source 'file'; a modification time is no burst evidence).
          .prepare("UPDATE assets SET taken_time = ?, time_source = 'file', specific_metadata = json_set(coalesce(specific_metadata, '{}'), '$.camera_model', 'Pixel 8') WHERE asset_id = ?")
          .run(Date.parse('2025-01-01T08:00:00Z') + i * 500, id),
      ),
    );
    for (const id of aliceSeq) assert.equal(await stackOf(alice, id), null, 'not stacked before detection');

    const bobRun = await detect(bob);
    assert.equal(bobRun.owner_id, bobId, 'a member runs it over their own assets');
    assert.equal(bobRun.stacks_created, 1);
    assert.equal((await stackOf(bob, bobSeq[0]!))!.member_count, 4);
    assert.equal(await stackOf(alice, aliceSeq[0]!), null, 'a member’s run leaves other owners’ assets alone');

    const aliceRun = await detect(alice);
    assert.equal(aliceRun.stacks_created, 1);
    const s = (await stackOf(alice, aliceSeq[1]!))!;
    assert.deepEqual(s.members.map((m) => m.primary_asset_id), aliceSeq);
    const n = stackCount();
    const again = await detect(alice);
    assert.equal(again.stacks_created, 0, 'idempotent');
    assert.equal(again.stacks_extended, 0);
    assert.equal(again.stacks_dissolved, 0);
    assert.equal(stackCount(), n);
    assert.deepEqual((await stackOf(alice, aliceSeq[1]!))!, s, 'the stack is unchanged');
  });

  test('remove from stack: positions compacted, cover repaired, dissolves below 2, not detected again', async () => {
    const s = (await stackOf(alice, ids.burst0))!;
    let r = await alice.req('DELETE', `${V1}/assets/${ids.burst2}/stack`);
    assert.equal(r.status, 200, r.text);
    assert.match(data(alice, r).message, /Removed/);
    assert.equal(await stackOf(alice, ids.burst2), null, 'the frame is standalone');
    let now = (await stackOf(alice, ids.burst0))!;
    assert.equal(now.stack_id, s.stack_id);
    assert.equal(now.member_count, 4);
    assert.deepEqual(now.members.map((m) => m.position), [0, 1, 2, 3]);
    assert.deepEqual(now.members.map((m) => m.primary_asset_id), [ids.burst0, ids.burst1, ids.burst3, ids.burst4]);

    // The cover (first member) leaves: the next first member is the cover.
    r = await alice.req('DELETE', `${V1}/assets/${ids.burst0}/stack`);
    assert.equal(r.status, 200, r.text);
    now = (await stackOf(alice, ids.burst1))!;
    assert.equal(now.cover_media_item_id, itemOf(ids.burst1));
    assert.deepEqual(now.members.map((m) => m.position), [0, 1, 2]);

    r = await alice.req('DELETE', `${V1}/assets/${ids.burst1}/stack`);
    assert.equal(r.status, 200);
    r = await alice.req('DELETE', `${V1}/assets/${ids.burst3}/stack`);
    assert.equal(r.status, 200);
    assert.match(data(alice, r).message, /dissolved/);
    assert.equal(await stackOf(alice, ids.burst4), null, 'one member left: the stack dissolved');

    const nope = await alice.req('DELETE', `${V1}/assets/${ids.burst4}/stack`);
    assert.equal(nope.status, 404);
    assert.equal(problem(alice, nope).code, 'stack_not_found');

    const run = await detect(alice);
    assert.equal(run.bursts_found, 1, 'the frames still look like a burst');
    assert.equal(run.stacks_created, 0, 'a burst taken apart is not detected again');
    for (let i = 0; i < 5; i++) assert.equal(await stackOf(alice, ids[`burst${i}` as IdKey]), null);
  });

  test('createStack: manual stack in the given order; moves items; dissolves what it empties', async () => {
    let r = await alice.post(`${V1}/assets/stacks`, { asset_ids: [ids.nikon, ids.canon, ids.gps] });
    assert.equal(r.status, 201, r.text);
    const a: Stack = data(alice, r);
    assert.equal(a.stack_kind, 'manual');
    assert.equal(a.member_count, 3);
    assert.deepEqual(a.members.map((m) => m.primary_asset_id), [ids.nikon, ids.canon, ids.gps]);
    assert.deepEqual(a.members.map((m) => m.position), [0, 1, 2]);
    assert.equal(a.cover_media_item_id, itemOf(ids.nikon));
    assert.deepEqual(await stackOf(alice, ids.canon), a);

    // The RAW of a pair stands for the pair; an item in another stack moves.
    r = await alice.post(`${V1}/assets/stacks`, { asset_ids: [ids.nikonRaw, ids.gps, ids.nikonRaw] });
    assert.equal(r.status, 201, r.text);
    const b: Stack = data(alice, r);
    assert.deepEqual(b.members.map((m) => m.media_item_id), [itemOf(ids.nikonJpeg), itemOf(ids.gps)]);
    assert.equal((await stackOf(alice, ids.nikonJpeg))!.stack_id, b.stack_id);
    const aNow = (await stackOf(alice, ids.nikon))!;
    assert.equal(aNow.stack_id, a.stack_id);
    assert.deepEqual(aNow.members.map((m) => m.primary_asset_id), [ids.nikon, ids.canon]);

    r = await alice.post(`${V1}/assets/stacks`, { asset_ids: [ids.canon, ids.fuji] });
    assert.equal(r.status, 201);
    assert.equal(await stackOf(alice, ids.nikon), null, 'stack A was left with one member and dissolved');
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM stacks WHERE stack_id = ?').pluck().get(a.stack_id), 0, 'a manual stack that dissolves is deleted');

    // Bad input.
    const bad = async (body: unknown, field: string, status = 422) => {
      const res = await alice.post(`${V1}/assets/stacks`, body);
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
      const p = problem(alice, res);
      if (status === 422) assert.ok(p.errors?.some((e) => e.field === field), `${field} in ${JSON.stringify(p.errors)}`);
      return p;
    };
    await bad({}, 'body.asset_ids');
    await bad({ asset_ids: [ids.pentax] }, 'body.asset_ids');
    await bad({ asset_ids: [ids.pentax, 'not-a-uuid'] }, 'body.asset_ids.1');
    await bad({ asset_ids: [ids.pentax, ids.olympus], cover: 1 }, 'body');
    assert.equal((await bad({ asset_ids: [ids.nikonJpeg, ids.nikonRaw] }, 'body.asset_ids')).code, 'stack_too_small');
    assert.equal((await bad({ asset_ids: [ids.pentax, ids.bob] }, '', 404)).code, 'asset_not_found');
    assert.equal((await bad({ asset_ids: [ids.pentax, '00000000-0000-7000-8000-000000000000'] }, '', 404)).code, 'asset_not_found');
    srv.container.db.prepare('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id = ?').run(Date.now(), ids.olympus);
    assert.equal((await bad({ asset_ids: [ids.pentax, ids.olympus] }, '', 409)).code, 'asset_in_trash');
    srv.container.db.prepare('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id = ?').run(ids.olympus);
    assert.equal(await stackOf(alice, ids.pentax), null, 'nothing was stacked by the refused requests');
  });

  test('trashed members are not listed; restoring brings them back', async () => {
    const r = await alice.post(`${V1}/assets/stacks`, { asset_ids: [ids.pentax, ids.olympus, ids.editLate] });
    assert.equal(r.status, 201, r.text);
    srv.container.db.prepare('UPDATE assets SET is_deleted = 1 WHERE asset_id = ?').run(ids.olympus);
    const s = (await stackOf(alice, ids.pentax))!;
    assert.equal(s.member_count, 2);
    assert.deepEqual(s.members.map((m) => m.primary_asset_id), [ids.pentax, ids.editLate]);
    srv.container.db.prepare('UPDATE assets SET is_deleted = 0 WHERE asset_id = ?').run(ids.olympus);
    assert.equal((await stackOf(alice, ids.pentax))!.member_count, 3);
  });

  test('an edit of a RAW+JPEG pair joins the pair; a stacked edit keeps its place when its original arrives', async () => {
    const taken = srv.container.db.prepare('SELECT taken_time FROM assets WHERE asset_id = ?').pluck().get(ids.nikonJpeg) as number;
    const edit = await indexInto(srv, await frame(tmp, 'RAW_NIKON_D1-1.jpg', { model: 'NIKON D1', taken: new Date(taken + 1_500), variant: 11 }), 'exports/RAW_NIKON_D1-1.jpg', aliceId);
    await settle(srv);
    const item = itemOf(ids.nikonJpeg);
    assert.equal(itemOf(edit), item);
    assert.equal(itemOf(ids.nikonRaw), item);
    assert.deepEqual(
      srv.container.db.prepare('SELECT asset_id, relation, position FROM media_item_components WHERE media_item_id = ? ORDER BY position').all(item),
      [
        { asset_id: ids.nikonJpeg, relation: 'jpeg_original', position: 0 },
        { asset_id: edit, relation: 'edited_version', position: 1 },
        { asset_id: ids.nikonRaw, relation: 'raw_original', position: 2 },
      ],
    );
    const { composition } = await import('../../../server/src/features/assets/pipeline/media-items.ts');
    assert.deepEqual(composition(srv.container.db, item), { component_count: 3, has_edited: true, has_jpeg: true, has_live_motion: false, has_raw: true });

    // An edit stacked by hand before its original is indexed: the merged item keeps the stack place.
    const t = Date.parse('2022-02-02T10:00:00Z');
    const lone = await indexInto(srv, await frame(tmp, 'IMG_7000-1.jpg', { model: 'Canon EOS R6', taken: new Date(t + 1_000), variant: 12 }), 'late/IMG_7000-1.jpg', aliceId);
    await settle(srv);
    const r = await alice.post(`${V1}/assets/stacks`, { asset_ids: [ids.fuji, lone] });
    assert.equal(r.status, 201, r.text);
    const original = await indexInto(srv, await frame(tmp, 'IMG_7000.jpg', { model: 'Canon EOS R6', taken: new Date(t), variant: 13 }), 'late/IMG_7000.jpg', aliceId);
    await settle(srv);
    assert.equal(itemOf(original), itemOf(lone));
    const s = (await stackOf(alice, original))!;
    assert.equal(s.member_count, 2);
    assert.deepEqual(s.members.map((m) => m.primary_asset_id).sort(), [ids.fuji, original].sort(), 'the original now stands for the merged item in the stack');
  });

  test('another user’s assets and unknown ids answer 404; bad ids 422', async () => {
    const stacked = ids.exifA!;
    for (const [method, p] of [
      ['GET', `/assets/${stacked}/stack`],
      ['DELETE', `/assets/${stacked}/stack`],
      ['GET', '/assets/00000000-0000-7000-8000-000000000000/stack'],
    ] as const) {
      const r = await bob.req(method, `${V1}${p}`);
      assert.equal(r.status, 404, `${method} ${p}: ${r.text}`);
      assert.equal(problem(bob, r).code, 'asset_not_found');
    }
    assert.ok(await stackOf(alice, stacked), 'bob’s attempt changed nothing');
    // Admins get no exception for other members' photos.
    const r = await alice.get(`${V1}/assets/${ids.bob}/stack`);
    assert.equal(r.status, 404);
    const badId = await alice.get(`${V1}/assets/not-a-uuid/stack`);
    assert.equal(badId.status, 422);
    assert.equal(problem(alice, badId).errors?.[0]?.field, 'path.id');
    const unknownRepo = await alice.post(`${V1}/repositories/00000000-0000-7000-8000-000000000000/stacks/detect`);
    assert.equal(unknownRepo.status, 404);
    assert.equal(problem(alice, unknownRepo).code, 'repository_not_found');
    const badRepo = await alice.post(`${V1}/repositories/xyz/stacks/detect`);
    assert.equal(badRepo.status, 422);
    assert.equal(problem(alice, badRepo).errors?.[0]?.field, 'path.id');
    const anon = new Client(srv.url);
    assert.equal((await anon.get(`${V1}/assets/${stacked}/stack`)).status, 401);
    assert.equal((await anon.post(`${V1}/repositories/${repoId}/stacks/detect`)).status, 401);
  });

  test('variant B envelopes the stack answers', async () => {
    const b = new Client(srv.url, 'B');
    b.token = alice.token;
    const r = await b.get(`${V1}/assets/${ids.exifA}/stack`);
    assert.equal(r.status, 200);
    assert.equal(data(b, r).stack.stack_kind, 'burst');
  });
});
