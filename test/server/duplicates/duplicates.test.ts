/**
 * Duplicates over HTTP on a real catalog (issue 14 point 3).
 *
 * The corpus's duplicates folder (16 files in 7 labelled groups: byte-identical copies, same pixels in
 * other bytes, resized, HDR/non-HDR, JPEG/HEIC, a re-encoded crop) plus ten unrelated camera photos as
 * distractors are copied into the primary repository at test time and go through the real ingest and
 * media pipeline (real thumbnails, real pHash). Detection runs after ingest (the job) and on demand;
 * its pairs are compared with labels.json (precision and recall printed). Then merge, dismiss,
 * ownership and bad input, in both response variants.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { indexInto } from '../stacks/helpers.ts';
import { CORPUS } from '../media/corpus.ts';
import { uploadFile } from '../uploads/helpers.ts';
import { hammingDistance, PHASH_VERSION, phashesFromRaw } from '../../../server/src/adapters/media/index.ts';
import { phashFromGrey32 } from '../../../server/src/adapters/media/phash.ts';
import { backfillPhashesJob } from '../../../server/src/features/duplicates/index.ts';

type Group = {
  group_id: string;
  status: string;
  method: string;
  detection_version: string;
  keeper_asset_id: string | null;
  recommended_keeper_asset_id: string | null;
  asset_count: number;
  total_size: number;
  recoverable_bytes: number;
  assets: { asset: { asset_id: string; original_filename: string; is_deleted: boolean }; file_size: number; role: string }[];
  edges: { asset_id_a: string; asset_id_b: string; method: string; distance: number; confidence: number }[];
};

const DISTRACTORS = [
  'Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Olympus_C8080WZ.jpg', 'Panasonic_DMC-FZ30.jpg',
  'Ricoh_Caplio_RR330.jpg', 'Samsung_Digimax_i50_MP3.jpg', 'Konica_Minolta_DiMAGE_Z3.jpg', 'Fujifilm_FinePix6900ZOOM.jpg', 'Sony_DSLR-A200.jpg',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

describe('duplicates', { timeout: 900_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let aliceId: number;
  let bobId: number;
  let repoId: string;
  const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, 'duplicates/labels.json'), 'utf8')) as Record<string, { dup_group: string; expected_metadata: { bytes: number } }>;
  /** file name → asset id (alice's). */
  const ids: Record<string, string> = {};
  const nameOf = (assetId: string) => Object.entries(ids).find(([, v]) => v === assetId)?.[0] ?? assetId;

  const groups = async (c: Client, query = ''): Promise<{ groups: Group[]; total: number; limit: number; offset: number }> => {
    const r = await c.get(`${V1}/duplicates/groups?limit=100${query}`);
    assert.equal(r.status, 200, r.text);
    return data(c, r);
  };
  const groupOf = (list: Group[], file: string) => list.find((g) => g.assets.some((a) => a.asset.asset_id === ids[file]));
  const assetRow = (id: string) => srv.container.db.prepare('SELECT is_deleted, deleted_reason, rating, liked, description FROM assets WHERE asset_id = ?').get(id) as {
    is_deleted: number; deleted_reason: string | null; rating: number; liked: number; description: string | null;
  };

  const detectionJobs = () => srv.container.db.prepare("SELECT state FROM jobs WHERE kind = 'duplicates.detect-duplicates'").pluck().all() as string[];
  /** Waits until the detection jobs queued after ingest (10 s ahead) have run. */
  const settleDetections = async () => {
    for (let i = 0; i < 240 && detectionJobs().some((s) => s !== 'completed'); i++) {
      await srv.container.jobRunner.whenIdle();
      await sleep(500);
    }
  };

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
    repoId = srv.container.repositories.primary()!.repository_id;
    for (const f of Object.keys(labels)) ids[f] = await indexInto(srv, `duplicates/${f}`, `dups/${f}`, aliceId);
    for (const f of DISTRACTORS) ids[f] = await indexInto(srv, `exif/${f}`, `other/${f}`, aliceId);
    await srv.container.jobRunner.whenIdle();
  });

  after(async () => {
    await srv?.stop({ removeData: true });
  });

  test('detection runs by itself after ingest (one debounced job for the repository)', async () => {
    assert.ok(detectionJobs().length >= 1, 'a detection job was queued when the photos became ready');
    assert.ok(detectionJobs().length <= 2, `one job per repository (plus at most one follow-up), not one per photo: ${detectionJobs().join(',')}`);
    await settleDetections();
    assert.deepEqual([...new Set(detectionJobs())], ['completed']);
    const { groups: found } = await groups(alice);
    assert.equal(found.length, 7, found.map((g) => g.assets.map((a) => a.asset.original_filename).join('+')).join(' / '));
    const sum = data(alice, await alice.get(`${V1}/duplicates/summary?repository_id=${repoId}`));
    assert.equal(sum.pending_groups, 7);
    assert.ok(sum.last_detected_at, 'the job records when it detected');
  });

  test('on-demand detection matches the corpus labels (precision and recall ≥ 0.95, pairs) and keeps group ids', async () => {
    const before = new Set((await groups(alice)).groups.map((g) => g.group_id));
    for (const [variant, c] of Object.entries(inBothVariants(alice))) {
      const r = await c.post(`${V1}/duplicates/detect`, { repository_id: repoId });
      assert.equal(r.status, 200, `${variant}: ${r.text}`);
      const counts = data(c, r);
      assert.equal(counts.groups, 7, variant);
      assert.equal(counts.groups, counts.exact_groups + counts.phash_groups + counts.mixed_groups);
      assert.equal(counts.assets_affected, 16);
      assert.ok(!Number.isNaN(Date.parse(counts.generated_at)));
    }
    const { groups: found, total } = await groups(alice);
    assert.equal(total, 7);
    assert.deepEqual(new Set(found.map((g) => g.group_id)), before, 'a group found again with the same photos keeps its id');

    const predicted = new Set<string>();
    for (const g of found) for (const a of g.assets) for (const b of g.assets) if (a.asset.asset_id < b.asset.asset_id) predicted.add(pairKey(nameOf(a.asset.asset_id), nameOf(b.asset.asset_id)));
    const truth = new Set<string>();
    const files = Object.keys(labels);
    for (const a of files) for (const b of files) if (a < b && labels[a]!.dup_group === labels[b]!.dup_group) truth.add(pairKey(a, b));
    const tp = [...predicted].filter((p) => truth.has(p)).length;
    const precision = predicted.size ? tp / predicted.size : 0;
    const recall = tp / truth.size;
    console.log(`duplicates quality on ${files.length} labelled files + ${DISTRACTORS.length} distractors: pairs predicted ${predicted.size}, true ${truth.size}, correct ${tp}; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    assert.ok(precision >= 0.95, `precision ${precision}: wrong pairs ${[...predicted].filter((p) => !truth.has(p)).join(', ')}`);
    assert.ok(recall >= 0.95, `recall ${recall}: missed ${[...truth].filter((p) => !predicted.has(p)).join(', ')}`);

    // The evidence: byte-identical copies are an exact group with distance 0, confidence 1.
    const d1 = groupOf(found, 'exact_el_torcal_rocks.jpg')!;
    assert.equal(d1.method, 'exact');
    assert.equal(d1.detection_version, 'duplicates-v2');
    assert.deepEqual(d1.edges.map((e) => [e.method, e.distance, e.confidence]), [['exact', 0, 1]]);
    // Near copies: pHash edges with confidence 1 − d/64, ordered a < b.
    const d7 = groupOf(found, 'tanners_ridge.jpg')!;
    assert.equal(d7.method, 'phash');
    for (const e of d7.edges) {
      assert.ok(e.asset_id_a < e.asset_id_b);
      assert.ok(e.distance <= 6);
      assert.equal(e.confidence, 1 - e.distance / 64);
    }
    // Keeper recommendation: the larger file (the original, not its downscaled copy).
    const d3 = groupOf(found, 'IMG_20180725_163423.jpg')!;
    assert.equal(d3.recommended_keeper_asset_id, ids['IMG_20180725_163423.jpg']);
    assert.equal(d3.assets.find((a) => a.role === 'keeper')?.asset.asset_id, ids['IMG_20180725_163423.jpg']);
    assert.equal(d3.keeper_asset_id, null, 'no keeper is chosen until a person merges');
    assert.equal(d3.recoverable_bytes, labels['IMG_20180725_163423-tiny.jpg']!.expected_metadata.bytes);
    const d4 = groupOf(found, 'portrait_1080p.jpg')!;
    assert.equal(d4.asset_count, 4);
    assert.equal(d4.recommended_keeper_asset_id, ids['portrait_1080p.jpg']);
  });

  test('merge unions albums, tags, best rating, like and description onto the keeper and trashes the others (all or nothing)', async () => {
    const d4 = groupOf((await groups(alice)).groups, 'portrait_1080p.jpg')!;
    const keeper = ids['portrait_1080p.jpg']!;
    const [d240, d480, d720] = ['portrait_240p.jpg', 'portrait_480p.jpg', 'portrait_720p.jpg'].map((f) => ids[f]!) as [string, string, string];
    const album = data(alice, await alice.post(`${V1}/albums`, { album_name: 'Portraits' }));
    assert.equal((await alice.post(`${V1}/albums/${album.album_id}/assets/${d480}`, {})).status, 200);
    const tagged = await alice.post(`${V1}/assets/${d720}/tags`, { tag_name: 'president' });
    assert.ok(tagged.status < 300, tagged.text);
    assert.equal((await alice.put(`${V1}/assets/${d240}/rating`, { rating: 4 })).status, 200);
    assert.equal((await alice.put(`${V1}/assets/${d720}/rating`, { rating: 2 })).status, 200);
    assert.equal((await alice.put(`${V1}/assets/${d480}/like`, { liked: true })).status, 200);
    assert.equal((await alice.put(`${V1}/assets/${d720}/description`, { description: 'Official portrait' })).status, 200);

    // A keeper that is not a member: 422 naming the field, and nothing changed.
    const bad = await alice.post(`${V1}/duplicates/groups/${d4.group_id}/merge`, { keeper_asset_id: ids['bee.jpg'] });
    const p = problem(alice, bad);
    assert.equal(p.status, 422);
    assert.equal(p.code, 'keeper_not_member');
    assert.deepEqual(p.errors?.map((e) => e.field), ['body.keeper_asset_id']);
    assert.equal(assetRow(d240).is_deleted, 0);
    assert.equal(assetRow(keeper).rating, 0);
    assert.equal(data(alice, await alice.get(`${V1}/duplicates/groups/${d4.group_id}`)).status, 'pending');

    // A duplicate that is not a member: 422 naming its index; still nothing changed.
    const badDup = problem(alice, await alice.post(`${V1}/duplicates/groups/${d4.group_id}/merge`, { keeper_asset_id: keeper, duplicate_asset_ids: [d240, ids['bee.jpg']] }));
    assert.equal(badDup.status, 422);
    assert.deepEqual(badDup.errors?.map((e) => e.field), ['body.duplicate_asset_ids.1']);
    assert.equal(assetRow(d240).is_deleted, 0);

    const r = await alice.post(`${V1}/duplicates/groups/${d4.group_id}/merge`, { keeper_asset_id: keeper });
    assert.equal(r.status, 200, r.text);
    const out = data(alice, r);
    assert.equal(out.group_id, d4.group_id);
    assert.equal(out.keeper_asset_id, keeper);
    assert.deepEqual([...out.merged_duplicates].sort(), [d240, d480, d720].sort());
    const sizes = ['portrait_240p.jpg', 'portrait_480p.jpg', 'portrait_720p.jpg'].reduce((n, f) => n + labels[f]!.expected_metadata.bytes, 0);
    assert.equal(out.recovered_bytes, sizes);

    const k = assetRow(keeper);
    assert.equal(k.rating, 4, 'the best rating');
    assert.equal(k.liked, 1, 'liked if any was');
    assert.equal(k.description, 'Official portrait');
    assert.equal(k.is_deleted, 0);
    const albumAssets = data(alice, await alice.get(`${V1}/albums/${album.album_id}/assets`));
    assert.ok(albumAssets.assets.some((a: { asset_id: string }) => a.asset_id === keeper), 'the keeper joined the duplicate’s album');
    const keeperTags = srv.container.db.prepare('SELECT t.tag_name FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id WHERE at.asset_id = ?').pluck().all(keeper) as string[];
    assert.ok(keeperTags.includes('president'), `keeper tags: ${keeperTags.join(',')}`);
    for (const d of [d240, d480, d720]) {
      const row = assetRow(d);
      assert.equal(row.is_deleted, 1, 'a merged duplicate is in the Trash');
      assert.equal(row.deleted_reason, 'user', 'recorded as a person’s deletion, like deleteAsset');
    }
    const trash = data(alice, await alice.get(`${V1}/assets/trash`));
    assert.ok(trash.count >= 3);

    const merged = data(alice, await alice.get(`${V1}/duplicates/groups/${d4.group_id}`)) as Group;
    assert.equal(merged.status, 'merged');
    assert.equal(merged.keeper_asset_id, keeper);
    assert.deepEqual(merged.assets.map((a) => a.role).sort(), ['duplicate', 'duplicate', 'duplicate', 'keeper']);
    // Merging again: 409, the group is resolved.
    const again = problem(alice, await alice.post(`${V1}/duplicates/groups/${d4.group_id}/merge`, { keeper_asset_id: keeper }));
    assert.equal(again.status, 409);
    assert.equal(again.code, 'duplicate_group_resolved');
  });

  test('merge in variant B, with a policy and the default duplicates', async () => {
    const b = inBothVariants(alice).B;
    const d3 = groupOf((await groups(alice)).groups, 'IMG_20180725_163423.jpg')!;
    const tiny = ids['IMG_20180725_163423-tiny.jpg']!;
    assert.equal((await alice.put(`${V1}/assets/${tiny}/rating`, { rating: 5 })).status, 200);
    const r = await b.post(`${V1}/duplicates/groups/${d3.group_id}/merge`, { keeper_asset_id: d3.recommended_keeper_asset_id, policy: { rating: false } });
    assert.equal(r.status, 200, r.text);
    const out = data(b, r);
    assert.deepEqual(out.merged_duplicates, [tiny]);
    assert.equal(out.recovered_bytes, labels['IMG_20180725_163423-tiny.jpg']!.expected_metadata.bytes);
    assert.equal(assetRow(d3.recommended_keeper_asset_id!).rating, 0, 'rating: false leaves the keeper’s rating');
    // The policy as applied is recorded with the group (faces: off by default; the faces feature's hook reads it through).
    const policy = JSON.parse(srv.container.db.prepare('SELECT merge_policy FROM duplicate_groups WHERE group_id = ?').pluck().get(d3.group_id) as string);
    assert.deepEqual(policy, { albums: true, tags: true, rating: false, liked: true, description: true, faces: false });
    const bad = await b.post(`${V1}/duplicates/groups/${crypto.randomUUID()}/merge`, { keeper_asset_id: tiny });
    assert.equal(problem(b, bad).status, 404);
  });

  test('a dismissed group stays dismissed and merged photos stay merged when detection runs again', async () => {
    const d5 = groupOf((await groups(alice)).groups, 'iphone_hdr_NO.jpg')!;
    for (const [variant, c] of Object.entries(inBothVariants(alice))) {
      const r = await c.post(`${V1}/duplicates/groups/${d5.group_id}/dismiss`);
      if (variant === 'A') {
        assert.equal(r.status, 200, r.text);
        assert.equal(typeof data(c, r).message, 'string');
      } else {
        assert.equal(problem(c, r).code, 'duplicate_group_resolved');
      }
    }
    const r = await alice.post(`${V1}/duplicates/detect`, { repository_id: repoId });
    assert.equal(r.status, 200, r.text);
    const pending = (await groups(alice)).groups;
    assert.equal(groupOf(pending, 'iphone_hdr_NO.jpg'), undefined, 'the dismissed pair does not come back as pending');
    assert.equal(groupOf(pending, 'portrait_1080p.jpg'), undefined, 'the merged keeper has no pending group');
    assert.equal(pending.length, 4);
    const dismissed = (await groups(alice, '&status=dismissed')).groups;
    assert.deepEqual(dismissed.map((g) => g.group_id), [d5.group_id]);
    const merged = (await groups(alice, '&status=merged')).groups;
    assert.equal(merged.length, 2);
    const sum = data(alice, await alice.get(`${V1}/duplicates/summary`));
    assert.deepEqual(
      { p: sum.pending_groups, m: sum.merged_groups, d: sum.dismissed_groups, pa: sum.pending_assets, ra: sum.recoverable_assets },
      { p: 4, m: 2, d: 1, pa: 8, ra: 4 },
    );
    assert.ok(sum.recoverable_bytes > 0);
  });

  test('a pending group whose copy was sent to the Trash by hand is no longer proposed', async () => {
    const d1 = groupOf((await groups(alice)).groups, 'exact_el_torcal_rocks.jpg')!;
    const del = await alice.req('DELETE', `${V1}/assets/${ids['exact_el_torcal_rocks_copy.jpeg']}`);
    assert.equal(del.status, 200, del.text);
    const pending = (await groups(alice)).groups;
    assert.equal(groupOf(pending, 'exact_el_torcal_rocks.jpg'), undefined, 'one photo left: nothing to merge');
    assert.equal(pending.length, 3);
    const sum = data(alice, await alice.get(`${V1}/duplicates/summary?repository_id=${repoId}`));
    assert.equal(sum.pending_groups, 3);
    assert.equal(sum.pending_assets, 6);
    // The group itself is still there by id (a page open on it), with the trashed copy shown as such.
    const g = data(alice, await alice.get(`${V1}/duplicates/groups/${d1.group_id}`)) as Group;
    assert.ok(g.assets.some((a) => a.asset.is_deleted));
  });

  test('groups are per owner: never across owners, another member’s group is 404, listing is per caller', async () => {
    // Bob has a byte-identical copy of one of Alice's photos, and two copies of his own.
    const bobCopy = await indexInto(srv, 'duplicates/bee.jpg', 'bob/bee.jpg', bobId);
    const bobA = await indexInto(srv, 'exif/Nikon_D70.jpg', 'bob/a.jpg', bobId);
    const bobB = await indexInto(srv, 'exif/Nikon_D70.jpg', 'bob/b.jpg', bobId);
    await srv.container.jobRunner.whenIdle();
    // A member detects over their own photos only.
    const r = await bob.post(`${V1}/duplicates/detect`, { repository_id: repoId });
    assert.equal(r.status, 200, r.text);
    assert.equal(data(bob, r).groups, 1);
    const bobs = (await groups(bob)).groups;
    assert.equal(bobs.length, 1);
    assert.deepEqual(bobs[0]!.assets.map((a) => a.asset.asset_id).sort(), [bobA, bobB].sort());
    assert.equal(bobs[0]!.method, 'exact');
    // The administrator's run covers everyone, and still never links Bob's bee to Alice's.
    assert.equal((await alice.post(`${V1}/duplicates/detect`, { repository_id: repoId })).status, 200);
    const alices = (await groups(alice)).groups;
    assert.ok(alices.every((g) => g.assets.every((a) => a.asset.asset_id !== bobCopy && a.asset.asset_id !== bobA)), 'no group crosses owners');
    assert.equal((await groups(bob)).groups.length, 1, 'Bob still sees only his');
    const bobSummary = data(bob, await bob.get(`${V1}/duplicates/summary`));
    assert.equal(bobSummary.pending_groups, 1);
    assert.equal(bobSummary.merged_groups, 0);

    const alicesGroup = alices[0]!.group_id;
    for (const c of Object.values(inBothVariants(bob))) {
      for (const req of [
        () => c.get(`${V1}/duplicates/groups/${alicesGroup}`),
        () => c.post(`${V1}/duplicates/groups/${alicesGroup}/merge`, { keeper_asset_id: alices[0]!.assets[0]!.asset.asset_id }),
        () => c.post(`${V1}/duplicates/groups/${alicesGroup}/dismiss`),
      ]) {
        const p = problem(c, await req());
        assert.equal(p.status, 404);
        assert.equal(p.code, 'duplicate_group_not_found');
      }
    }
    assert.equal(data(alice, await alice.get(`${V1}/duplicates/groups/${alicesGroup}`)).status, 'pending', 'Bob’s attempts changed nothing');
    // The administrator does not see Bob's group either.
    const p = problem(alice, await alice.get(`${V1}/duplicates/groups/${bobs[0]!.group_id}`));
    assert.equal(p.status, 404);
  });

  test('never two files of one stack: stacking copies on purpose takes them out of detection', async () => {
    const [g] = (await groups(bob)).groups;
    assert.ok(g, 'Bob has his pair of copies');
    const stacked = await bob.post(`${V1}/assets/stacks`, { asset_ids: g.assets.map((a) => a.asset.asset_id) });
    assert.equal(stacked.status, 201, stacked.text);
    const r = await bob.post(`${V1}/duplicates/detect`, { repository_id: repoId });
    assert.equal(r.status, 200, r.text);
    assert.equal(data(bob, r).groups, 0);
    assert.equal((await groups(bob)).total, 0, 'the pending group of the stacked pair is gone');
  });

  test('bad input answers problem+json naming the field', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const cases: [() => Promise<any>, number, string | null][] = [
        [() => c.post(`${V1}/duplicates/detect`, { repository_id: crypto.randomUUID() }), 404, 'body.repository_id'],
        [() => c.post(`${V1}/duplicates/detect`, { repository_id: 'not-a-uuid' }), 422, 'body.repository_id'],
        [() => c.post(`${V1}/duplicates/detect`, {}), 422, 'body.repository_id'],
        [() => c.get(`${V1}/duplicates/groups?status=bogus`), 422, 'query.status'],
        [() => c.get(`${V1}/duplicates/groups?limit=0`), 422, 'query.limit'],
        [() => c.get(`${V1}/duplicates/groups/not-a-uuid`), 422, 'path.id'],
        [() => c.get(`${V1}/duplicates/groups/${crypto.randomUUID()}`), 404, null],
        [() => c.post(`${V1}/duplicates/groups/${crypto.randomUUID()}/dismiss`), 404, null],
        [() => c.get(`${V1}/duplicates/summary?repository_id=x`), 422, 'query.repository_id'],
      ];
      for (const [req, status, field] of cases) {
        const r = await req();
        const p = problem(c, r);
        assert.equal(p.status, status, r.text);
        if (field) assert.ok(p.errors?.some((e) => e.field === field), `${field} in ${r.text}`);
      }
      const g = (await groups(alice)).groups[0]!;
      const merge = (body: unknown) => c.post(`${V1}/duplicates/groups/${g.group_id}/merge`, body);
      for (const [body, field] of [
        [{}, 'body.keeper_asset_id'],
        [{ keeper_asset_id: 'x' }, 'body.keeper_asset_id'],
        [{ keeper_asset_id: g.assets[0]!.asset.asset_id, policy: { faces: 'yes' } }, 'body.policy.faces'],
        [{ keeper_asset_id: g.assets[0]!.asset.asset_id, extra: 1 }, null],
        [{ keeper_asset_id: g.assets[0]!.asset.asset_id, duplicate_asset_ids: [g.assets[0]!.asset.asset_id] }, 'body.duplicate_asset_ids.0'],
      ] as const) {
        const r = await merge(body);
        const p = problem(c, r);
        assert.equal(p.status, 422, r.text);
        if (field) assert.ok(p.errors?.some((e) => e.field === field), `${field} in ${r.text}`);
      }
      assert.equal(data(alice, await alice.get(`${V1}/duplicates/groups/${g.group_id}`)).status, 'pending', 'nothing applied');
      assert.ok(g.assets.every((a) => assetRow(a.asset.asset_id).is_deleted === 0));
    }
  });

  test('a second detection while one runs for the repository is 409, not a second run', async () => {
    // The job queued by Bob's photos has run: from here on, only the runs this test starts.
    await settleDetections();
    // A large library (synthetic rows of a third member: random 64-bit pHashes) so that a run lasts a while.
    const carol = new Client(srv.url);
    const carolId = (await addMember(alice, carol, 'carol')).session.user.user_id;
    const now = Date.now();
    const insert = srv.container.db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, hash, phash, upload_time, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', ?, ?, ?, ?, 'ready', ?, ?)`,
    );
    srv.container.db.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        const name = `synthetic/${i}.jpg`;
        insert.run(crypto.randomUUID(), carolId, repoId, name, `${i}.jpg`, 1000 + i, crypto.randomBytes(32).toString('hex'), crypto.randomBytes(8).toString('hex'), now, now, now);
      }
    })();
    // Two detections asked at the same time: one runs, the other is told one is running.
    const t0 = Date.now();
    const answers = await Promise.all([alice, carol].map((c) => c.post(`${V1}/duplicates/detect`, { repository_id: repoId })));
    console.log(`two detections over ${20_000 + 29} assets answered in ${Date.now() - t0} ms: ${answers.map((r) => r.status).join(', ')}`);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], answers.map((r) => r.text).join('\n'));
    const loser = answers.find((r) => r.status === 409)!;
    const conflict = problem(loser === answers[0] ? alice : carol, loser);
    assert.equal(conflict.code, 'duplicate_detection_running');
    assert.ok(conflict.errors?.some((e: { field: string }) => e.field === 'body.repository_id'));
    // Once it is done, detection can run again.
    const r2 = await carol.post(`${V1}/duplicates/detect`, { repository_id: repoId });
    assert.equal(r2.status, 200, r2.text);
  });

  test('cropped copies (up to 10 %), exposure and HDR variants and a burst neighbour are found; another scene 40 s later is not (issue 24)', async () => {
    // A member of her own: her photos go through the real upload, ingest (thumbnail, pHash, window pHashes)
    // and detection over HTTP; the copies are made here from a real camera photo with sharp.
    const dave = new Client(srv.url);
    await addMember(alice, dave, 'dave');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-dups-copies-'));
    try {
      const source = path.join(CORPUS, 'gps/DSCN0021.jpg'); // Nikon P6000, 640×480, 2008:10:22 16:38:20
      const up = await sharp(source).rotate().toBuffer({ resolveWithObject: true });
      const { width: w, height: h } = up.info;
      const cut = (l: number, t: number, r: number, b: number) =>
        sharp(up.data).extract({ left: Math.round(w * l), top: Math.round(h * t), width: Math.round(w * (1 - l - r)), height: Math.round(h * (1 - t - b)) });
      const copies: Record<string, Buffer> = {
        // Metadata stripped (sharp's default): only the pixels can find these.
        'crop-10-right.jpg': await cut(0, 0, 0.1, 0).jpeg({ quality: 90 }).toBuffer(),
        'crop-8-top-left.jpg': await cut(0.08, 0.08, 0, 0).jpeg({ quality: 90 }).toBuffer(),
        'crop-10-top.png': await cut(0, 0.1, 0, 0).png().toBuffer(),
        'exposure-plus-1ev.jpg': await sharp(up.data).linear(2 ** (1 / 2.2), 0).jpeg({ quality: 90 }).toBuffer(),
        'hdr.jpg': await sharp(up.data).clahe({ width: 80, height: 60, maxSlope: 3 }).gamma(2.2, 1.8).modulate({ saturation: 1.3 }).jpeg({ quality: 90 }).toBuffer(),
        // The next shot of a burst, 26 s later by the same camera in HDR mode, the camera moved 4 % down.
        'burst-26s-hdr.jpg': await sharp(await cut(0, 0.04, 0, 0).toBuffer())
          .clahe({ width: 80, height: 60, maxSlope: 3 })
          .gamma(2.2, 1.8)
          .keepExif()
          .withExifMerge({ IFD0: { DateTime: '2008:10:22 16:38:46' }, IFD2: { DateTimeOriginal: '2008:10:22 16:38:46', DateTimeDigitized: '2008:10:22 16:38:46' } })
          .jpeg({ quality: 90 })
          .toBuffer(),
      };
      const ids: Record<string, string> = {};
      const send = async (name: string, file: string) => {
        const r = await uploadFile(srv, dave.token!, file, { name });
        assert.equal(r.status, 200, r.text);
        ids[name] = r.body.asset_id as string;
      };
      await send('DSCN0021.jpg', source);
      for (const [name, bytes] of Object.entries(copies)) {
        fs.writeFileSync(path.join(work, name), bytes);
        await send(name, path.join(work, name));
      }
      // Two different street scenes shot 40 s apart by the same camera: near in time, not copies.
      await send('DSCN0025.jpg', path.join(CORPUS, 'gps/DSCN0025.jpg'));
      await send('DSCN0027.jpg', path.join(CORPUS, 'gps/DSCN0027.jpg'));
      await srv.container.jobRunner.whenIdle();
      const windows = srv.container.db.prepare('SELECT phash_windows FROM assets WHERE asset_id = ?').pluck().get(ids['DSCN0021.jpg']) as string | null;
      assert.match(windows ?? '', /^[0-9a-f]{144}$/, 'ingest stores the nine window pHashes');
      const taken = srv.container.db.prepare('SELECT taken_time FROM assets WHERE asset_id = ?').pluck().get(ids['burst-26s-hdr.jpg']) as number | null;
      assert.equal(taken! - (srv.container.db.prepare('SELECT taken_time FROM assets WHERE asset_id = ?').pluck().get(ids['DSCN0021.jpg']) as number), 26_000);

      const mine = new Set(Object.values(ids));
      const nameOfDave = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
      for (const [variant, c] of Object.entries(inBothVariants(dave))) {
        const r = await c.post(`${V1}/duplicates/detect`, { repository_id: repoId });
        assert.equal(r.status, 200, `${variant}: ${r.text}`);
        assert.equal(data(c, r).groups, 1, `${variant}: one group`);
        const listed = await c.get(`${V1}/duplicates/groups?limit=100`);
        assert.equal(listed.status, 200, listed.text);
        const { groups: found } = data(c, listed) as { groups: Group[] };
        assert.equal(found.length, 1, `${variant}: ${found.map((g) => g.assets.map((a) => nameOfDave(a.asset.asset_id)).join('+')).join(' / ')}`);
        const members = found[0]!.assets.map((a) => nameOfDave(a.asset.asset_id)).sort();
        assert.deepEqual(members, ['DSCN0021.jpg', ...Object.keys(copies)].sort(), `${variant}: the photo and its six copies, nothing else`);
        assert.ok(found[0]!.assets.every((a) => mine.has(a.asset.asset_id)));
        for (const e of found[0]!.edges) {
          assert.ok(['exact', 'phash'].includes(e.method));
          assert.equal(e.confidence, 1 - e.distance / 64);
          assert.ok(e.distance <= 10, `edge distance ${e.distance}`);
        }
      }
      // A photo catalogued before window hashes existed gets them from its small thumbnail (the backfill job).
      const before = windows!;
      srv.container.db.prepare('UPDATE assets SET phash_windows = NULL WHERE asset_id = ?').run(ids['DSCN0021.jpg']);
      assert.ok(srv.container.duplicates.phashes.pending());
      srv.container.jobs.enqueue(backfillPhashesJob, {});
      await srv.container.jobRunner.whenIdle();
      const after = srv.container.db.prepare('SELECT phash_windows FROM assets WHERE asset_id = ?').pluck().get(ids['DSCN0021.jpg']) as string | null;
      assert.match(after ?? '', /^[0-9a-f]{144}$/);
      for (let k = 0; k < 9; k++) assert.ok(hammingDistance(after!.slice(16 * k, 16 * k + 16), before.slice(16 * k, 16 * k + 16)) <= 6, `window ${k}`);
      // Other tests of this file seed photos by SQL with a pHash and no thumbnail: those stay without windows
      // (nothing to compute them from), so the check is on this member's photos.
      const lacking = srv.container.db
        .prepare('SELECT COUNT(*) FROM assets WHERE owner_id = (SELECT owner_id FROM assets WHERE asset_id = ?) AND phash IS NOT NULL AND phash_windows IS NULL')
        .pluck()
        .get(ids['DSCN0021.jpg']);
      assert.equal(lacking, 0, 'every photo of the member has its window hashes after the backfill');

      // pHashes of the older recipe (version 1, libvips: greyscale + resize to 32×32, as a catalog made before
      // migration 0029 holds them) are never compared with current ones; the backfill job recomputes them
      // from the small thumbnail, shows its progress on the job, and queues a detection that finds them again.
      const daveRows = () =>
        srv.container.db.prepare('SELECT asset_id, phash, phash_windows, phash_version FROM assets WHERE owner_id = (SELECT owner_id FROM assets WHERE asset_id = ?) ORDER BY asset_id').all(ids['DSCN0021.jpg']) as {
          asset_id: string;
          phash: string;
          phash_windows: string;
          phash_version: number;
        }[];
      const current = daveRows();
      assert.ok(current.every((r) => r.phash_version === PHASH_VERSION), 'ingest writes the current recipe');
      const oldRecipe = async (assetId: string) =>
        phashFromGrey32(await sharp(srv.container.derivatives.thumbnail(assetId, 'small')).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer());
      for (const name of ['DSCN0021.jpg', 'crop-10-right.jpg']) {
        srv.container.db.prepare('UPDATE assets SET phash = ?, phash_version = 1 WHERE asset_id = ?').run(await oldRecipe(ids[name]!), ids[name]);
      }
      const detectNow = async () => {
        const r = await dave.post(`${V1}/duplicates/detect`, { repository_id: repoId });
        assert.equal(r.status, 200, r.text);
        const listed = await dave.get(`${V1}/duplicates/groups?limit=100`);
        return (listed.body.groups as Group[]).map((g) => g.assets.map((a) => nameOfDave(a.asset.asset_id)).sort());
      };
      const whileOld = await detectNow();
      for (const members of whileOld) {
        assert.ok(!members.includes('DSCN0021.jpg') && !members.includes('crop-10-right.jpg'), `a version-1 pHash was compared: ${members.join('+')}`);
      }
      assert.ok(srv.container.duplicates.phashes.pending());
      const job = srv.container.jobs.enqueue(backfillPhashesJob, {}).job;
      await srv.container.jobRunner.whenIdle();
      const done = srv.container.db.prepare('SELECT state, progress, progress_message, result FROM jobs WHERE id = ?').get(job.id) as { state: string; progress: number; progress_message: string; result: string };
      assert.equal(done.state, 'completed');
      assert.equal(done.progress, 1);
      assert.match(done.progress_message, /pHashes recomputed/);
      assert.ok((JSON.parse(done.result) as { computed: number }).computed >= 2, done.result);
      for (const r of daveRows()) {
        assert.equal(r.phash_version, PHASH_VERSION, nameOfDave(r.asset_id));
        const { data, info } = await sharp(srv.container.derivatives.thumbnail(r.asset_id, 'small')).raw().toBuffer({ resolveWithObject: true });
        const fromThumbnail = phashesFromRaw({ data, raw: { width: info.width, height: info.height, channels: info.channels as 3 } });
        if (['DSCN0021.jpg', 'crop-10-right.jpg'].includes(nameOfDave(r.asset_id))) assert.deepEqual({ phash: r.phash, windows: r.phash_windows }, fromThumbnail, nameOfDave(r.asset_id));
        else assert.equal(r.phash, current.find((c) => c.asset_id === r.asset_id)!.phash, 'a current hash is left as ingest made it');
      }
      // The backfill queued a detection of the repository (it may have joined one already waiting); run now,
      // detection finds the photo and its six copies as one group again.
      const queued = srv.container.db
        .prepare("SELECT count(*) FROM jobs WHERE kind = 'duplicates.detect-duplicates' AND json_extract(args, '$.repository_id') = ? AND state IN ('available', 'scheduled', 'running', 'retryable')")
        .pluck()
        .get(repoId) as number;
      assert.ok(queued >= 1, 'a detection of the repository is queued');
      assert.deepEqual(await detectNow(), [['DSCN0021.jpg', ...Object.keys(copies)].sort()]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
