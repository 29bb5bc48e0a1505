/**
 * getCapabilities and getRuntimeDiagnostics over HTTP with real models folders: the verified models of
 * ../shared/models (OCR and faces there, CLIP absent), and a folder with a changed file and a
 * download under way. Both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client, startServer } from '../helpers/server.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { CLS_FILE, CLS_MODEL, SHARED_MODELS, corruptCopy, linkModels, tempModelsDir } from './models.ts';
import { modelEntry } from '../../../server/src/adapters/ml/index.ts';

const VARIANTS = ['A', 'B'] as const;

describe('ML capabilities', () => {
  for (const variant of VARIANTS) {
    test(`variant ${variant}: the shared models make OCR and faces available; CLIP is not installed, species has no model`, async () => {
      const srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
      try {
        const c = new Client(srv.url, variant);
        const r = await c.get(`${V1}/capabilities`);
        assert.equal(r.status, 200);
        const tasks = data(c, r).ml.tasks;
        for (const t of ['ocr', 'face_recognition']) {
          assert.deepEqual({ enabled: tasks[t].enabled, available: tasks[t].available, reason: tasks[t].reason }, { enabled: true, available: true, reason: null }, t);
        }
        assert.deepEqual(tasks.ocr.models, ['ppocrv4-det', 'ppocrv4-rec', 'ppocr-cls']);
        for (const t of ['semantic_image_embed', 'semantic_text_embed', 'classify']) {
          assert.equal(tasks[t].available, false, t);
          assert.equal(tasks[t].reason, 'not_installed', t);
          assert.match(tasks[t].detail, /clip-vit-b32-(vision|text) \(\d+\.\d MB\).*models:fetch/, t);
        }
        assert.equal(tasks.bioclip_classify.reason, 'not_installed');
        assert.match(tasks.bioclip_classify.detail, /no model/);
        assert.ok(!JSON.stringify(tasks).includes(SHARED_MODELS), 'no server path in the public answer');
      } finally {
        await srv.stop({ removeData: true });
      }
    });
  }

  test('a changed model file is reported failed with the cause; a download under way with its percent; a switched-off task disabled', async () => {
    const dir = tempModelsDir();
    try {
      linkModels(dir, ['ppocrv4-det', 'ppocrv4-rec', 'yunet-n']);
      corruptCopy(dir, CLS_FILE);
      // A quarter of CLIP's image tower has arrived (sparse: no 22 MB written).
      const vision = modelEntry('clip-vit-b32-vision')!.files[0]!;
      const part = path.join(dir, `${vision.path}.part`);
      fs.mkdirSync(path.dirname(part), { recursive: true });
      fs.writeFileSync(part, '');
      fs.truncateSync(part, Math.ceil(vision.bytes / 4));

      // No shipped copies either (an empty folder): the face embedding is missing for real.
      const srv = await startServer({ env: { HEARTH_MODELS_DIR: dir, HEARTH_SHIPPED_MODELS_DIR: tempModelsDir() } });
      try {
        for (const variant of VARIANTS) {
          const c = new Client(srv.url, variant);
          const tasks = data(c, await c.get(`${V1}/capabilities`)).ml.tasks;
          assert.equal(tasks.ocr.available, false);
          assert.equal(tasks.ocr.reason, 'failed');
          assert.match(tasks.ocr.detail, /ppocr-cls: ch_ppocr_mobile_v2\.0_cls_infer\.onnx has sha256 [0-9a-f]{64}, expected 491843a3/);
          assert.equal(tasks.semantic_image_embed.reason, 'downloading');
          assert.equal(tasks.semantic_image_embed.progress_percent, 25);
          assert.equal(tasks.face_recognition.reason, 'not_installed');
          assert.match(tasks.face_recognition.detail, /mobilefacenet/);
          assert.doesNotMatch(tasks.face_recognition.detail, /yunet/, 'the detector is there');
        }
        await assert.rejects(srv.container.ml.run(CLS_MODEL, {}), /unavailable \(failed\)/);

        // A download that stopped writing a while ago is an interrupted one: not installed.
        const old = new Date(Date.now() - 5 * 60_000);
        fs.utimesSync(part, old, old);
        const c = new Client(srv.url);
        assert.equal((await c.get(`${V1}/capabilities`)).body.ml.tasks.semantic_image_embed.reason, 'not_installed');

        const { admin } = await signedInHousehold(srv.url, 'B', []);
        assert.equal((await admin.patch(`${V1}/settings/system`, { ml: { ocr_enabled: false } })).status, 200);
        const off = data(admin, await admin.get(`${V1}/capabilities`)).ml.tasks.ocr;
        assert.deepEqual([off.enabled, off.available, off.reason], [false, false, 'disabled']);
      } finally {
        await srv.stop({ removeData: true });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ML runtime diagnostics', () => {
  for (const variant of VARIANTS) {
    test(`variant ${variant}: administrators see the runtime, the loaded model and its counts; members get 403`, async () => {
      const srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
      try {
        const { admin, members } = await signedInHousehold(srv.url, variant, ['bob']);
        const before = data(admin, await admin.get(`${V1}/runtime/diagnostics`)).ml;
        assert.equal(before.execution_provider, 'cpu');
        assert.equal(before.onnxruntime_version, '1.30.0');
        assert.deepEqual(before.models_loaded, [], 'models load lazily, on first use');
        // One thread per core for indexing, each with one onnxruntime thread, and one more kept for queries.
        assert.equal(before.max_workers, os.availableParallelism() + 1);
        assert.equal(before.intra_op_threads, 1);

        const x = new Float32Array(2 * 3 * 48 * 192);
        const out = await srv.container.ml.run(CLS_MODEL, { x: { type: 'float32', dims: [2, 3, 48, 192], data: x } });
        assert.deepEqual(out['softmax_0.tmp_0']!.dims, [2, 2]);

        const r = await admin.get(`${V1}/runtime/diagnostics`);
        assert.equal(r.status, 200);
        const ml = data(admin, r).ml;
        assert.equal(ml.workers, 1);
        assert.equal(ml.queue_depth, 0);
        assert.equal(ml.running, 0);
        assert.equal(ml.models_loaded.length, 1);
        assert.equal(ml.models_loaded[0].model_id, CLS_MODEL);
        assert.equal(ml.models_loaded[0].bytes, 578966);
        assert.ok(ml.models_loaded[0].load_ms > 0);
        const ocr = ml.per_task.find((t: { task: string }) => t.task === 'ocr');
        assert.equal(ocr.runs, 1);
        assert.equal(ocr.failures, 0);
        assert.ok(ocr.avg_inference_ms > 0);
        const cls = ml.models.find((m: { id: string }) => m.id === CLS_MODEL);
        assert.equal(cls.state, 'ready');
        assert.equal(cls.files[0].licence, 'Apache-2.0');
        assert.equal(ml.models.find((m: { id: string }) => m.id === 'clip-vit-b32-text').state, 'not_installed');

        const bob = members.bob.client;
        const denied = await bob.get(`${V1}/runtime/diagnostics`);
        assert.equal(denied.status, 403);
        assert.equal(problem(bob, denied).code, 'admin_only');
        const anonymous = await new Client(srv.url, variant).get(`${V1}/runtime/diagnostics`);
        assert.equal(anonymous.status, 401);
      } finally {
        await srv.stop({ removeData: true });
      }
    });
  }
});
