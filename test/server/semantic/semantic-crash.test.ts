/**
 * Semantic indexing survives SIGKILL. The crash point `semantic.stored` kills the server (SIGKILL) right after an
 * asset's vectors are committed and before its zero-shot tags and index entry are written: the widest window for
 * duplicates. The next start runs that job again and the rest of the queue: every photo ends with exactly one
 * vector, every video with one per sampled frame, no (asset, model, frame) twice, and the stats count them all.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { V1, data, login, registerAdmin } from '../helpers/api.ts';
import { U, postMultipart } from '../uploads/helpers.ts';
import { openCatalog, startChild, stopChild, until } from '../crash/child.ts';
import { BLUE, GREEN, RED, STANDIN_ENV, WHITE, colourVideo, solidJpeg, standinModelsDir } from './helpers.ts';

test('a kill while semantic indexing runs leaves no duplicate vectors; the restart finishes the rest', { timeout: 400_000 }, async () => {
  const dataDir = tempDataDir('hearth-crash-semantic-');
  const modelsDir = await standinModelsDir();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-crash-semantic-media-'));
  const env = { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV };
  try {
    const files = [
      await solidJpeg(path.join(work, 'red.jpg'), RED),
      await solidJpeg(path.join(work, 'green.jpg'), GREEN),
      await solidJpeg(path.join(work, 'blue.jpg'), BLUE),
      colourVideo(path.join(work, 'shots.mp4'), [[RED, 3], [WHITE, 3], [BLUE, 3]]),
    ];
    const child = await startChild(dataDir, { ...env, HEARTH_FAILPOINT: 'semantic.stored' });
    let killed: NodeJS.Signals | number | null = null;
    try {
      const alice = new Client(child.url);
      await registerAdmin(alice);
      // Uploaded with semantic indexing off, so all of them are processed before the first index job runs; OCR
      // (ready from its npm package) and faces (models/ of the repository) stay off throughout: this test is
      // about the semantic vectors alone.
      assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { semantic_enabled: false, ocr_enabled: false, face_enabled: false } })).status, 200);
      for (const f of files) {
        const r = await postMultipart(child.url, `${U}/files`, alice.token, [{ name: 'file', filename: path.basename(f), data: fs.readFileSync(f) }]);
        assert.equal(r.status, 200, r.text);
      }
      const catalog = openCatalog(dataDir);
      await until('every upload processed', () => catalog.prepare(`SELECT count(*) FROM assets WHERE state = 'ready'`).pluck().get() === files.length);
      catalog.close();
      assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { semantic_enabled: true } })).status, 200);
      // The rebuild queues an index job per asset; the first to store its vectors kills the server.
      await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 100 }).catch(() => null);
      killed = await Promise.race([child.exited, new Promise<null>((r) => setTimeout(() => r(null), 120_000))]);
    } finally {
      if (killed === null) await stopChild(child);
    }
    assert.equal(killed, 'SIGKILL', 'the crash point killed the server');

    // What the kill left: one asset's vectors committed, its index entry not.
    const left = openCatalog(dataDir);
    const stored = left.prepare('SELECT DISTINCT asset_id FROM semantic_vectors').pluck().all() as string[];
    assert.equal(stored.length, 1, 'one asset embedded before the kill');
    assert.equal(left.prepare('SELECT count(*) FROM asset_index_entries WHERE asset_id = ?').pluck().get(stored[0]), 0);
    left.close();

    const srv = await startServer({ dataDir, env });
    try {
      await srv.container.indexing.indexers.settled();
      await srv.container.jobRunner.whenIdle();
      const db = srv.container.db;
      const perAsset = db
        .prepare(`SELECT a.type, count(v.vector_id) AS n, count(DISTINCT v.frame_ts_ms) AS frames FROM assets a LEFT JOIN semantic_vectors v ON v.asset_id = a.asset_id GROUP BY a.asset_id ORDER BY a.type, n`)
        .all() as { type: string; n: number; frames: number }[];
      assert.deepEqual(perAsset, [
        { type: 'PHOTO', n: 1, frames: 1 },
        { type: 'PHOTO', n: 1, frames: 1 },
        { type: 'PHOTO', n: 1, frames: 1 },
        { type: 'VIDEO', n: 3, frames: 3 },
      ]);
      const jobs = db.prepare(`SELECT state, count(*) AS n FROM jobs WHERE kind = 'indexing.index-asset' GROUP BY state`).all();
      assert.deepEqual(jobs, [{ state: 'completed', n: 4 }], 'the cut-off job ran again; none was lost or left');
      for (const variant of ['A', 'B'] as const) {
        const c = new Client(srv.url, variant);
        await login(c, 'alice');
        const s = data(c, await c.get(`${V1}/assets/indexing/stats`));
        assert.deepEqual([s.tasks.semantic.indexed_count, s.tasks.video_semantic.indexed_count], [3, 1]);
      }
    } finally {
      await srv.stop();
    }
  } finally {
    for (const d of [dataDir, modelsDir, work]) fs.rmSync(d, { recursive: true, force: true });
  }
});
