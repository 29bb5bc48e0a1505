/**
 * Video frame sampling: the plan on its own (the reference's three cases, shots' middles spread to N, cuts
 * outside the video ignored, times distinct and ascending), and corpus videos the app makes a web MP4 for
 * (MJPEG AVI, MPEG-4 3GP) indexed through the server: their frames are cut from the web copy, in memory, with
 * their times, and no file is left behind in the temporary folder or the asset's derivatives.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { DEFAULT_SAMPLING, planFrames, samplingMethod } from '../../../server/src/features/semantic/index.ts';
import { STANDIN_ENV, standinModelsDir } from './helpers.ts';

describe('the frame plan', () => {
  const s = DEFAULT_SAMPLING;

  test('the reference defaults: 8 frames, long from 300 s, scene threshold 0.4', () => {
    assert.deepEqual(s, { maxFrames: 8, longThresholdS: 300, sceneThreshold: 0.4 });
  });

  test('under 4 s: the midpoint only, whatever the cuts', () => {
    assert.equal(samplingMethod(3.999, s), 'midpoint');
    assert.deepEqual(planFrames(2.5, s, [1]), [1250]);
    assert.deepEqual(planFrames(0.171, s), [86]);
  });

  test('from the long threshold: N uniform centres, cuts ignored', () => {
    assert.equal(samplingMethod(300, s), 'uniform');
    assert.deepEqual(planFrames(400, { ...s, maxFrames: 4 }, [10, 20]), [50_000, 150_000, 250_000, 350_000]);
    assert.equal(planFrames(3600, { ...s, maxFrames: 32 }).length, 32);
  });

  test('in between: the middle of each shot; more shots than N spread evenly; no cut: uniform centres', () => {
    assert.equal(samplingMethod(4, s), 'scenes');
    assert.deepEqual(planFrames(9, s, [3, 6]), [1500, 4500, 7500]);
    assert.deepEqual(planFrames(9, s, [6, 3, 3, -1, 9, 12]), [1500, 4500, 7500], 'sorted, distinct, inside the video');
    const many = planFrames(100, { ...s, maxFrames: 3 }, Array.from({ length: 9 }, (_, i) => (i + 1) * 10));
    assert.deepEqual(many, [15_000, 55_000, 85_000], 'shots 2, 6 and 9 of 10');
    assert.deepEqual(planFrames(8, { ...s, maxFrames: 2 }, []), [2000, 6000]);
    for (const plan of [planFrames(9, s, [3, 6]), many, planFrames(299, s)]) {
      assert.deepEqual([...plan].sort((a, b) => a - b), plan);
      assert.equal(new Set(plan).size, plan.length);
    }
  });
});

describe('corpus videos with a web copy', { timeout: 300_000 }, () => {
  const FILES = { avi: 'video/100_0306.AVI', threegp: 'video/sample.3gp' } as const;
  let srv: TestServer;
  let modelsDir: string;
  let src: ReturnType<typeof copyCorpus>;
  const ids: Record<string, string> = {};
  const tmpBefore = new Set(fs.readdirSync(os.tmpdir()));

  before(async () => {
    modelsDir = await standinModelsDir();
    src = copyCorpus(Object.values(FILES));
    srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    await srv.container.indexing.indexers.settled();
    for (const [key, rel] of Object.entries(FILES)) {
      const r = await uploadFile(srv, alice.token!, src.file(rel));
      assert.equal(r.status, 200, r.text);
      ids[key] = r.body.asset_id as string;
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    for (const d of [modelsDir, src?.dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test('frames are cut from the web MP4 with their times; nothing is written beside the derivatives or in the temporary folder', () => {
    const db = srv.container.db;
    for (const key of ['avi', 'threegp']) {
      const web = srv.container.derivatives.webVideo(ids[key]!);
      assert.ok(fs.existsSync(web), `${key} has a web copy`);
      const job = db.prepare(`SELECT state, last_error FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.asset_id') = ?`).get(ids[key]) as { state: string };
      assert.equal(job.state, 'completed', JSON.stringify(job));
      const duration = db.prepare('SELECT duration FROM assets WHERE asset_id = ?').pluck().get(ids[key]) as number;
      const frames = srv.container.semantic.store.vectorsOf(ids[key]!, 'clip-standin-vision').map((f) => f.frameTsMs);
      assert.ok(frames.length >= 1 && frames.length <= 8, `${key}: ${frames}`);
      for (const t of frames) assert.ok(t >= 0 && t <= duration * 1000, `${key}: ${t} within ${duration} s`);
      if (key === 'avi') assert.ok(Math.abs(frames[0]! - (duration * 1000) / 2) <= 100, `the AVI's midpoint: ${frames}`);
      assert.deepEqual(fs.readdirSync(srv.container.derivatives.dir(ids[key]!)).filter((f) => !/^(small|medium|large)\.webp$|^poster\.jpg$|^web\.mp4$/.test(f)), []);
    }
    const leftovers = fs.readdirSync(os.tmpdir()).filter((f) => !tmpBefore.has(f) && /\.(png|jpe?g|mp4)$/i.test(f));
    assert.deepEqual(leftovers, []);
  });
});
