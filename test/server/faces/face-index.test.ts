/**
 * The `face` index task on real photos (../shared/corpus/faces, copied at test time) with the real models:
 * queued after ingest, faces stored (box, landmarks, score, unit 128-d embedding, owner), counted in
 * getIndexingStats (both variants), the same person's faces grouped into one person and two people in one
 * photo kept apart, idempotent per model version (a rebuild does not read a photo again), run on the ML
 * runtime's worker threads, and obedient to the `face_enabled` switch.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { SHARED_MODELS } from '../ml/models.ts';
import { FACE_MODEL_ID } from '../../../server/src/features/faces/index.ts';
import { toVector } from '../../../server/src/features/faces/faces.store.ts';

const PHOTOS = ['faces/face_001.jpg', 'faces/face_002.jpg', 'faces/face_012.jpg', 'faces/face_007.jpg'];

describe('face indexing', { timeout: 300_000 }, () => {
  const src = copyCorpus(PHOTOS);
  let srv: TestServer;
  let alice: Client;
  let userId: number;
  const ids = new Map<string, string>();
  before(async () => {
    srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    alice = new Client(srv.url);
    userId = (await registerAdmin(alice)).session.user.user_id;
    await srv.container.indexing.indexers.settled();
    for (const rel of PHOTOS) {
      const up = await uploadFile(srv, alice.token!, src.file(rel));
      assert.equal(up.status, 200, up.text);
      ids.set(rel, up.body.asset_id as string);
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    fs.rmSync(src.dir, { recursive: true, force: true });
  });

  const facesOf = (rel: string) => srv.container.faces.facesOf(ids.get(rel)!);

  test('faces are found after ingest and stored with box, landmarks, score, embedding and owner', () => {
    assert.ok(srv.container.indexing.indexers.available('face'));
    assert.deepEqual(PHOTOS.map((p) => facesOf(p).length), [1, 1, 2, 1], 'one face each, two in the Obama–Biden photo');
    for (const rel of PHOTOS) {
      for (const f of facesOf(rel)) {
        assert.equal(f.owner_id, userId);
        assert.equal(f.model_id, FACE_MODEL_ID);
        assert.ok(f.score >= 0.8 && f.score <= 1, `score ${f.score}`);
        for (const v of [f.x, f.y, f.w, f.h]) assert.ok(v >= 0 && v <= 1, `box inside the image: ${v}`);
        assert.ok(f.w > 0.03 && f.h > 0.03);
        const lm = JSON.parse(f.landmarks) as [number, number][];
        assert.equal(lm.length, 5);
        // The eyes lie inside the box, the image-left eye left of the other.
        assert.ok(lm[0]![0] < lm[1]![0] && lm[0]![0] > f.x && lm[1]![0] < f.x + f.w, rel);
        const e = toVector(f.embedding);
        assert.equal(e.length, 128);
        assert.ok(Math.abs(Math.hypot(...e) - 1) < 1e-4, 'unit length');
      }
    }
    const diag = srv.container.ml.pool.diagnostics();
    assert.ok(JSON.stringify(diag).includes('faces'), 'the face models ran on the pool: ' + JSON.stringify(diag));
  });

  test('the same person is one person; two people in one photo are two', () => {
    const obama1 = facesOf('faces/face_001.jpg')[0]!.person_id;
    const obama2 = facesOf('faces/face_002.jpg')[0]!.person_id;
    assert.ok(obama1 != null);
    assert.equal(obama2, obama1);
    const pair = facesOf('faces/face_012.jpg').map((f) => f.person_id);
    assert.ok(pair.includes(obama1), 'Obama in the pair photo joins him');
    const biden = pair.find((p) => p !== obama1);
    assert.ok(biden != null, 'Biden is a person of his own');
    assert.equal(facesOf('faces/face_007.jpg')[0]!.person_id, biden, 'and his portrait joins him');
  });

  test('getIndexingStats counts the photos read (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const c = new Client(srv.url, variant);
      c.token = alice.token;
      const stats = data(c, await c.get(`${V1}/assets/indexing/stats`));
      assert.equal(stats.tasks.face.indexed_count, PHOTOS.length, variant);
      assert.equal(stats.tasks.face.total_count, PHOTOS.length, variant);
    }
  });

  test('a rebuild of the face task keeps the faces (same model version: not read again)', async () => {
    const before = PHOTOS.flatMap((p) => facesOf(p).map((f) => [f.face_id, f.person_id]));
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['face'], limit: 100 });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual(PHOTOS.flatMap((p) => facesOf(p).map((f) => [f.face_id, f.person_id])), before);
    const entries = srv.container.db.prepare("SELECT count(*) AS n FROM asset_index_entries WHERE task = 'face' AND model_id = ?").get(FACE_MODEL_ID) as { n: number };
    assert.equal(entries.n, PHOTOS.length);
  });

  test('face_enabled off: a face rebuild is refused (409 problem+json) and new photos queue no face job', async () => {
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { face_enabled: false } })).status, 200);
    for (const variant of ['A', 'B'] as const) {
      const c = new Client(srv.url, variant);
      c.token = alice.token;
      const r = await c.post(`${V1}/assets/indexing/rebuild`, { tasks: ['face'], limit: 10 });
      assert.equal(r.status, 409);
      assert.equal(problem(c, r).code, 'index_tasks_disabled');
    }
    const extra = copyCorpus(['faces/face_003.jpg']);
    try {
      const up = await uploadFile(srv, alice.token!, extra.file('faces/face_003.jpg'));
      assert.equal(up.status, 200, up.text);
      await srv.container.jobRunner.whenIdle();
      assert.deepEqual(srv.container.faces.facesOf(up.body.asset_id as string), []);
      const queued = srv.container.db
        .prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.task') = 'face' AND json_extract(args, '$.asset_id') = ?")
        .get(up.body.asset_id) as { n: number };
      assert.equal(queued.n, 0);
    } finally {
      fs.rmSync(extra.dir, { recursive: true, force: true });
    }
  });
});
