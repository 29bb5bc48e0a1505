/**
 * The ML runtime on the real models of ../shared/models: the inference pool runs the OCR direction
 * classifier (0.6 MB) in child processes (and on worker threads) and reads real rendered text the right way up; a model that
 * throws fails only its call; a file whose bytes changed is refused before onnxruntime sees it; the
 * digests are not computed again at the next start; close() drains.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { InferenceError, MlRuntime, ModelCatalog, ModelFileChecker, ModelUnavailableError, PoolClosedError, type Feeds } from '../../../server/src/adapters/ml/index.ts';
import { CLS_FILE, CLS_MODEL, SHARED_MODELS, corruptCopy, linkModels, tempModelsDir } from './models.ts';
import { tempDataDir } from '../helpers/server.ts';

const H = 48;
const W = 192;

/** A 192×48 crop of rendered text, upright or turned by 180°, as RGB bytes. */
async function textCrop(turned: boolean): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>` +
    `<text x="6" y="36" font-family="sans-serif" font-size="30" fill="black">Hello 2024</text></svg>`;
  let img = sharp(Buffer.from(svg));
  if (turned) img = img.rotate(180);
  return img.removeAlpha().raw().toBuffer();
}

/** PaddleOCR's cls input (MANIFEST.md §5): BGR, (v/255 − 0.5) / 0.5, NCHW. */
function clsInput(crops: Buffer[]): Feeds {
  const plane = H * W;
  const data = new Float32Array(crops.length * 3 * plane);
  crops.forEach((rgb, n) => {
    for (let i = 0; i < plane; i++) {
      for (let c = 0; c < 3; c++) data[n * 3 * plane + c * plane + i] = (rgb[i * 3 + (2 - c)]! / 255 - 0.5) / 0.5;
    }
  });
  return { x: { type: 'float32', dims: [crops.length, 3, H, W], data } };
}

describe('inference pool', () => {
  test('runs the OCR direction classifier in a child process: outputs of the right shape, text read the right way up', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null });
    try {
      const feeds = clsInput([await textCrop(false), await textCrop(true), await textCrop(false)]);
      const input = feeds.x!.data;
      const out = await ml.run(CLS_MODEL, feeds);
      const probs = out['softmax_0.tmp_0']!;
      assert.deepEqual(probs.dims, [3, 2]);
      assert.equal(probs.type, 'float32');
      assert.ok(probs.data instanceof Float32Array);
      const p = Array.from(probs.data as Float32Array);
      for (let n = 0; n < 3; n++) assert.ok(Math.abs(p[2 * n]! + p[2 * n + 1]! - 1) < 1e-4, `row ${n} is a softmax: ${p}`);
      assert.ok(p[0]! > 0.9, `upright text is 0°: ${p}`);
      assert.ok(p[3]! > 0.9, `turned text is 180°: ${p}`);
      assert.ok(p[4]! > 0.9, `upright text is 0°: ${p}`);
      assert.equal(ml.pool.isolation, 'process', 'inference runs in child processes unless asked otherwise');
      // The channel copied it as it sent: its bytes are freed then, not left for the collector (a detector's input
      // is megabytes a photo), the same as a move to a thread leaves it.
      assert.equal(input.byteLength, 0, 'the input was sent as a copy, then its bytes were freed');

      const d = ml.pool.diagnostics();
      assert.equal(d.execution_provider, 'cpu');
      assert.ok(d.workers >= 1 && d.workers <= d.max_workers);
      assert.deepEqual(
        d.models_loaded.map((m) => ({ id: m.model_id, task: m.task, bytes: m.bytes })),
        [{ id: CLS_MODEL, task: 'ocr', bytes: 578966 }],
      );
      assert.ok(d.models_loaded[0]!.load_ms > 0);
      assert.equal(d.per_task.find((t) => t.task === 'ocr')?.runs, 1);
      assert.ok(d.per_task.find((t) => t.task === 'ocr')!.avg_inference_ms! > 0);
      assert.equal(d.queue_depth, 0);
    } finally {
      await ml.close();
    }
  });

  test('on worker threads (isolation: thread) the same answers, and the input buffer is moved to the thread, not copied', async () => {
    const crops = [await textCrop(false), await textCrop(true)];
    const answer = async (isolation: 'thread' | 'process') => {
      const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1, isolation });
      try {
        const feeds = clsInput(crops);
        const input = feeds.x!.data;
        const out = Array.from((await ml.run(CLS_MODEL, feeds))['softmax_0.tmp_0']!.data as Float32Array);
        return { out, inputBytes: input.byteLength };
      } finally {
        await ml.close();
      }
    };
    const [thread, child] = [await answer('thread'), await answer('process')];
    assert.deepEqual(thread.out, child.out, 'a thread and a child process answer the same');
    assert.equal(thread.inputBytes, 0, 'the input buffer was transferred to the thread, not copied');
    assert.equal(child.inputBytes, 0, 'a child process gets a copy, and the input is freed as a move to a thread leaves it');
  });

  test('an input sent once and handed in again fails that call with a clear error; the pool goes on', async () => {
    for (const isolation of ['process', 'thread'] as const) {
      const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1, isolation });
      try {
        const feeds = clsInput([await textCrop(false)]);
        await ml.run(CLS_MODEL, feeds);
        // Its bytes were freed (process) or moved (thread) by the first run: it cannot be sent again.
        await assert.rejects(ml.run(CLS_MODEL, feeds), (e: unknown) => {
          assert.ok(e instanceof InferenceError, String(e));
          assert.equal(e.phase, 'run');
          assert.match(e.message, /input could not be sent to the worker/);
          return true;
        });
        const again = await ml.run(CLS_MODEL, clsInput([await textCrop(true)]));
        assert.ok((again['softmax_0.tmp_0']!.data as Float32Array)[1]! > 0.9, `${isolation}: the same thread answers the next call`);
      } finally {
        await ml.close();
      }
    }
  });

  test('a model that throws fails that call with a clear error; the worker and the pool go on', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1 });
    try {
      const wrongRank: Feeds = { x: { type: 'float32', dims: [3, H, W], data: new Float32Array(3 * H * W) } };
      await assert.rejects(ml.run(CLS_MODEL, wrongRank), (e: unknown) => {
        assert.ok(e instanceof InferenceError);
        assert.equal(e.phase, 'run');
        assert.equal(e.modelId, CLS_MODEL);
        assert.match(e.message, /Invalid rank for input: x/);
        return true;
      });
      const wrongChannels: Feeds = { x: { type: 'float32', dims: [1, 4, H, W], data: new Float32Array(4 * H * W) } };
      await assert.rejects(ml.run(CLS_MODEL, wrongChannels), /invalid dimensions for input: x/);
      const out = await ml.run(CLS_MODEL, clsInput([await textCrop(false)]));
      assert.deepEqual(out['softmax_0.tmp_0']!.dims, [1, 2]);
      const d = ml.pool.diagnostics();
      assert.equal(d.workers, 1, 'the same worker answered after the failures');
      assert.deepEqual(
        d.per_model.map((m) => [m.model_id, m.runs, m.failures]),
        [[CLS_MODEL, 1, 2]],
      );
    } finally {
      await ml.close();
    }
  });

  test('a model file whose bytes changed is refused with the reason, and never loaded', async () => {
    const dir = tempModelsDir();
    try {
      corruptCopy(dir, CLS_FILE);
      const ml = new MlRuntime({ modelsDir: dir, dataDir: null });
      try {
        await assert.rejects(ml.run(CLS_MODEL, clsInput([await textCrop(false)])), (e: unknown) => {
          assert.ok(e instanceof ModelUnavailableError);
          assert.equal(e.reason, 'failed');
          assert.match(e.message, /ch_ppocr_mobile_v2\.0_cls_infer\.onnx has sha256 [0-9a-f]{64}, expected 491843a3/);
          return true;
        });
        assert.equal(ml.pool.diagnostics().workers, 0, 'no worker was started for it: onnxruntime never saw the file');
        const status = await ml.catalog.status(CLS_MODEL);
        assert.equal(status.state, 'failed');
        // A file of the wrong size is refused without reading it.
        fs.appendFileSync(path.join(dir, CLS_FILE), 'x');
        assert.match((await ml.catalog.status(CLS_MODEL)).cause!, /has 578967 bytes, expected 578966/);
        // An absent model is not installed (and also refused).
        await assert.rejects(ml.run('clip-vit-b32-vision', {}), (e: unknown) => e instanceof ModelUnavailableError && e.reason === 'not_installed');
        await assert.rejects(ml.run('no-such-model', {}), (e: unknown) => e instanceof ModelUnavailableError && e.reason === 'unknown_model');
      } finally {
        await ml.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('digests are kept by path, size and mtime: a start does not hash again, a changed file is', async () => {
    const dir = tempModelsDir();
    const data = tempDataDir();
    try {
      linkModels(dir, ['ppocrv4-rec']);
      fs.copyFileSync(path.join(SHARED_MODELS, CLS_FILE), path.join(dir, CLS_FILE));
      const cache = path.join(data, 'models-verified.json');
      const first = new ModelFileChecker(cache);
      const a = new ModelCatalog(dir, first);
      assert.equal((await a.status('ppocrv4-rec')).state, 'ready');
      assert.equal((await a.status(CLS_MODEL)).state, 'ready');
      assert.equal(first.hashedFiles, 3, 'rec, its dictionary and cls were hashed once');
      assert.equal((await a.status(CLS_MODEL)).state, 'ready');
      assert.equal(first.hashedFiles, 3, 'asked again: answered from the digests');
      assert.ok(fs.existsSync(cache));

      // The next start: only stats.
      const second = new ModelFileChecker(cache);
      const b = new ModelCatalog(dir, second);
      assert.equal((await b.status('ppocrv4-rec')).state, 'ready');
      assert.equal((await b.status(CLS_MODEL)).state, 'ready');
      assert.equal(second.hashedFiles, 0, 'nothing hashed at the second start');

      // Same size, new bytes, new mtime: hashed again and refused.
      corruptCopy(dir, CLS_FILE);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(path.join(dir, CLS_FILE), later, later);
      assert.equal((await b.status(CLS_MODEL)).state, 'failed');
      assert.equal(second.hashedFiles, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    }
  });

  test('indexing uses every core; a person waiting goes ahead of it and takes the one thread kept for queries', async () => {
    // Indexing a large library queued hundreds of runs ahead of a search query's text embedding: interactive
    // work is served first. Background work then held at most maxWorkers − 1 threads so that a query found one
    // free, which left one of two cores idle for the whole first import (issue 25): it now holds one thread per
    // core, and one more thread is started only for interactive work.
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 2 });
    try {
      const crop = await textCrop(false);
      const slow = () => clsInput(Array.from({ length: 24 }, () => crop));
      const order: string[] = [];
      let maxRunning = 0;
      let onlyBackground = true;
      const sampler = setInterval(() => {
        if (onlyBackground) maxRunning = Math.max(maxRunning, ml.pool.diagnostics().running);
      }, 1);
      // The query thread is started (a process that loads its model) before the indexing begins: how long a
      // cold start takes on a loaded machine is not what this test measures, the order of the lanes is.
      await ml.run(CLS_MODEL, clsInput([crop]), 'interactive');
      const count = 4 * ml.pool.backgroundWorkers;
      const background = Array.from({ length: count }, (_, i) => ml.run(CLS_MODEL, slow()).then(() => order.push(`index ${i}`)));
      // Wait until indexing holds all its threads (each a process that may start slowly here), or has finished
      // without ever doing so, which the assertion below then reports.
      while (ml.pool.diagnostics().running < ml.pool.backgroundWorkers && order.length < count) await new Promise((r) => setTimeout(r, 2));
      maxRunning = Math.max(maxRunning, ml.pool.diagnostics().running);
      onlyBackground = false;
      const person = ml.run(CLS_MODEL, clsInput([crop]), 'interactive').then(() => order.push('person'));
      await Promise.all([...background, person]);
      clearInterval(sampler);
      assert.equal(ml.pool.backgroundWorkers, Math.min(os.availableParallelism(), 2), 'one thread per core for indexing');
      assert.equal(ml.pool.maxWorkers, ml.pool.backgroundWorkers + 1, 'and one more for queries');
      assert.equal(ml.pool.intraOpThreads, Math.max(1, Math.floor(os.availableParallelism() / ml.pool.backgroundWorkers)));
      assert.equal(maxRunning, ml.pool.backgroundWorkers, `indexing held ${maxRunning} of its ${ml.pool.backgroundWorkers} threads`);
      assert.ok(order.indexOf('person') <= ml.pool.backgroundWorkers + 1, `the person's request waited behind the indexing queue: ${order.join(', ')}`);
      assert.equal(ml.pool.diagnostics().max_workers, ml.pool.maxWorkers);
      assert.ok(ml.pool.diagnostics().workers <= ml.pool.maxWorkers);
    } finally {
      await ml.close();
    }
  });

  test('close() drains: accepted work finishes, new work is refused, the threads stop', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1 });
    const crop = await textCrop(false);
    const runs = [1, 2, 3].map(() => ml.run(CLS_MODEL, clsInput([crop])));
    // Let the three be verified and queued (verification is async), then close while they wait or run.
    while (ml.pool.diagnostics().queue_depth + ml.pool.diagnostics().running < 3) await new Promise((r) => setTimeout(r, 5));
    const closing = ml.close();
    await assert.rejects(ml.run(CLS_MODEL, clsInput([crop])), PoolClosedError);
    const outs = await Promise.all(runs);
    for (const o of outs) assert.deepEqual(o['softmax_0.tmp_0']!.dims, [1, 2]);
    await closing;
    const d = ml.pool.diagnostics();
    assert.equal(d.workers, 0);
    assert.equal(d.queue_depth, 0);
    assert.equal(d.per_task.find((t) => t.task === 'ocr')?.runs, 3);
    await assert.rejects(ml.run(CLS_MODEL, clsInput([crop])), /shutting down/);
  });

  test('close(deadline) refuses what still waits at the deadline and stops the threads; every caller gets an answer', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1 });
    const crop = await textCrop(false);
    const runs = [1, 2, 3, 4].map(() => ml.run(CLS_MODEL, clsInput([crop])).then(() => 'done', (e: Error) => e.name));
    while (ml.pool.diagnostics().queue_depth + ml.pool.diagnostics().running < 4) await new Promise((r) => setTimeout(r, 5));
    await ml.close(0);
    const settled = await Promise.all(runs);
    assert.ok(settled.includes('PoolClosedError'), `work still queued at the deadline is refused: ${settled}`);
    // A request already running is let finish, never cut (see the next test).
    for (const s of settled) assert.ok(['done', 'PoolClosedError'].includes(s), s);
    assert.equal(ml.pool.diagnostics().workers, 0);
  });

  test('close(0) while a model runs on a thread lets that run finish: the process is not aborted', async () => {
    // Terminating a worker inside onnxruntime's session.run aborted the whole process (std::terminate on a
    // Napi::Error, exit 134): a server stopped while OCR read a photo died instead of stopping. Run in a
    // child process so that an abort is an exit code here, not the end of this test file.
    const script =
      `import { MlRuntime } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../../server/src/adapters/ml/index.ts'))};\n` +
      `const ml = new MlRuntime({ modelsDir: ${JSON.stringify(SHARED_MODELS)}, dataDir: null, maxWorkers: 1 });\n` +
      `const x = () => ({ x: { type: 'float32', dims: [1, 3, 960, 960], data: new Float32Array(3 * 960 * 960).fill(0.5) } });\n` +
      // The first run loads the detector; the second is the one under way when the pool closes.
      `await ml.run('ppocrv4-det', x());\n` +
      `const running = ml.run('ppocrv4-det', x()).then(() => 'ran', (e) => 'refused ' + e.name);\n` +
      `while (ml.pool.diagnostics().running < 1) await new Promise((r) => setTimeout(r, 2));\n` +
      `await new Promise((r) => setTimeout(r, 100));\n` +
      `await ml.close(0);\n` +
      `console.log('closed', await running, 'workers', ml.pool.diagnostics().workers);\n`;
    const r = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '../../..'), timeout: 180_000 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, signal: e ? ((e as { signal?: string }).signal ?? null) : null, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, `exit ${r.code} ${r.signal ?? ''}: ${r.stderr}`);
    assert.match(r.stdout, /closed ran workers 0/);
  });

  test('idle workers do not keep a process alive: a script that ran a model and never closed the pool exits', async () => {
    const script =
      `import { MlRuntime } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../../server/src/adapters/ml/index.ts'))};\n` +
      `const ml = new MlRuntime({ modelsDir: ${JSON.stringify(SHARED_MODELS)}, dataDir: null });\n` +
      `const out = await ml.run('ppocr-cls', { x: { type: 'float32', dims: [1, 3, 48, 192], data: new Float32Array(3 * 48 * 192) } });\n` +
      `console.log('dims', JSON.stringify(out['softmax_0.tmp_0'].dims), 'workers', ml.pool.diagnostics().workers);\n`;
    // The timeout only turns a hang into a failure (a process kept alive would never end).
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      timeout: 120_000,
    });
    assert.match(stdout, /dims \[1,2\] workers 1/, 'it ran on a worker, printed, and ended by itself');
  });
});
