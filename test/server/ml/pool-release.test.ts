/**
 * The inference pool gives its memory back when idle and takes work again at once (issue 25): workers
 * (child processes, so nothing of onnxruntime stays in the server) without work for `idleMs` release
 * their onnxruntime sessions and end; the next work loads them again
 * and gets the same answers (the real face pipeline and OCR on corpus photos). The hard cases: a burst
 * of work while threads are releasing (every request answered, none failed), a release asked while a
 * run is under way on the thread (it waits for the run; the process is never aborted), and a model file
 * changed on disk while released (refused with ModelUnavailableError even when its size and mtime were
 * kept; the file put back gives the same answers).
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { InferencePool, MlRuntime, ModelUnavailableError, type Feeds, type Tensor } from '../../../server/src/adapters/ml/index.ts';
import { analyseFaces, facePoolInfer, type FaceAnalysis } from '../../../server/src/features/faces/index.ts';
import { createOcr, loadCharset, poolInfer as ocrPoolInfer, type OcrResult } from '../../../server/src/features/ocr/index.ts';
import { corpusPath } from '../media/corpus.ts';
import { KEYS_PATH } from '../ocr/onnx-infer.ts';
import { CLS_FILE, CLS_MODEL, SHARED_MODELS, corruptCopy, tempModelsDir } from './models.ts';
import { tempDataDir } from '../helpers/server.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const SHIPPED = path.join(REPO, 'models');

/** Until `cond` holds (checked every few ms), or fails after `ms`. */
async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Every thread released its sessions and ended. */
const allReleased = (ml: MlRuntime) => () => ml.pool.lifecycle().threads === 0 && ml.pool.lifecycle().releasing === 0;

/** A 192×48 crop of rendered text as the OCR direction classifier's input (PaddleOCR: BGR, (v/255 − 0.5) / 0.5, NCHW). */
async function clsFeeds(n = 1): Promise<Feeds> {
  const [W, H] = [192, 48];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/><text x="6" y="36" font-family="sans-serif" font-size="30">Hello 2024</text></svg>`;
  const rgb = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const plane = W * H;
  const data = new Float32Array(n * 3 * plane);
  for (let k = 0; k < n; k++) for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) data[k * 3 * plane + c * plane + i] = (rgb[i * 3 + (2 - c)]! / 255 - 0.5) / 0.5;
  return { x: { type: 'float32', dims: [n, 3, H, W], data } };
}

const probs = (out: Record<string, Tensor>) => Array.from(out['softmax_0.tmp_0']!.data as Float32Array);

/** What a face analysis says, comparable with deepEqual (embeddings as arrays). */
const facesOf = (a: FaceAnalysis) => ({ ...a, faces: a.faces.map((f) => ({ ...f, embedding: Array.from(f.embedding) })) });

describe('inference pool: release when idle', { timeout: 300_000 }, () => {
  test('released sessions come back with the same answers: the face pipeline and OCR on corpus photos', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, shippedModelsDir: SHIPPED, dataDir: null, maxWorkers: 1, idleMs: 300 });
    try {
      const faceInfer = facePoolInfer(ml);
      const ocr = createOcr({ infer: ocrPoolInfer(ml), charset: loadCharset(KEYS_PATH) });
      // Two faces in one photo (Obama and Biden): detection, alignment and embedding twice each.
      const photos = [corpusPath('faces', 'face_012.jpg')];
      const read = async () => ({
        faces: await Promise.all(photos.map(async (p) => facesOf(await analyseFaces(p, faceInfer)))),
        text: await ocr.recognise(corpusPath('ocr', 'ocr_05.jpg')),
      });
      const first = await read();
      assert.deepEqual(first.faces.map((f) => f.faces.length), [2], 'two faces in the pair photo');
      assert.ok(first.text.lines.length > 0, 'text was read');
      const loaded = ml.pool.lifecycle().loads;
      assert.ok(loaded >= 5, `the two face models and the three OCR models were loaded: ${loaded}`);

      // Idle: every thread releases its sessions (onnxruntime frees them) and ends.
      await until(allReleased(ml), 'the threads to release their sessions');
      const released = ml.pool.lifecycle();
      assert.ok(released.releases >= 1, 'a thread was released');
      assert.equal(released.sessionsReleased, loaded, 'every session it had loaded was released explicitly');
      assert.equal(ml.pool.diagnostics().workers, 0);
      assert.deepEqual(ml.pool.diagnostics().models_loaded, [], 'no model is held');

      // Work again: the models load again and answer the same.
      const again = await read();
      assert.ok(ml.pool.lifecycle().loads >= loaded + 5, 'the models were loaded again');
      assert.deepEqual(again.faces, first.faces, 'the same faces: boxes, landmarks, scores and embeddings');
      const textOf = (r: OcrResult) => r.lines.map((l) => ({ text: l.text, box: l.box }));
      assert.deepEqual(textOf(again.text), textOf(first.text), 'the same text in the same boxes');
    } finally {
      await ml.close();
    }
  });

  test('idle, nothing of onnxruntime stays in the process: its workers were child processes that ended; work brings them back with the same answers', async () => {
    // In a script of its own: this test file loads onnxruntime itself (the OCR helpers). The script maps its
    // memory (/proc/self/maps) and lists its children (/proc/self/task/*/children) while the model is loaded,
    // after the release, and after the work came back.
    const script = `
      import fs from 'node:fs';
      import { MlRuntime } from ${JSON.stringify(path.join(REPO, 'server/src/adapters/ml/index.ts'))};
      const ml = new MlRuntime({ modelsDir: ${JSON.stringify(SHARED_MODELS)}, dataDir: null, maxWorkers: 1, idleMs: 200 });
      const x = () => ({ x: { type: 'float32', dims: [2, 3, 48, 192], data: new Float32Array(2 * 3 * 48 * 192).map((_, i) => (i % 97) / 97 - 0.5) } });
      const children = () => fs.readdirSync('/proc/self/task').flatMap((t) => fs.readFileSync('/proc/self/task/' + t + '/children', 'utf8').trim().split(' ').filter(Boolean));
      const workers = () => children().filter((pid) => { try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('parentPort'); } catch { return false; } }).length;
      const ort = () => fs.readFileSync('/proc/self/maps', 'utf8').includes('libonnxruntime');
      const answer = async () => JSON.stringify(Array.from((await ml.run('ppocr-cls', x()))['softmax_0.tmp_0'].data));
      const first = await answer();
      const busy = { workers: workers(), ort: ort() };
      while (ml.pool.lifecycle().threads || ml.pool.lifecycle().releasing) await new Promise((r) => setTimeout(r, 20));
      const idle = { workers: workers(), ort: ort() };
      const again = await answer();
      const back = { workers: workers() };
      await ml.close();
      console.log(JSON.stringify({ busy, idle, back, closed: workers(), same: first === again, loads: ml.pool.lifecycle().loads }));
    `;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, timeout: 90_000 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(seen.busy, { workers: 1, ort: false }, 'the model ran in a child process; the process itself never loaded onnxruntime');
    assert.deepEqual(seen.idle, { workers: 0, ort: false }, 'idle: the child process ended');
    assert.deepEqual(seen.back, { workers: 1 }, 'work came back: a child process again');
    assert.equal(seen.closed, 0, 'closed: none left');
    assert.equal(seen.same, true, 'the same answer after the release');
    assert.equal(seen.loads, 2, 'the model was loaded again');
  });

  test('when the last worker has ended, the pool says so once (the server then collects its garbage): giveBackMemory runs one gc', async () => {
    let idle = 0;
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 2, idleMs: 100, onIdle: () => idle++ });
    try {
      await Promise.all([ml.run(CLS_MODEL, await clsFeeds()), ml.run(CLS_MODEL, await clsFeeds(), 'interactive')]);
      assert.equal(idle, 0, 'not while workers live');
      await until(() => idle > 0, 'the pool to say it is idle');
      assert.deepEqual([ml.pool.lifecycle().threads, ml.pool.lifecycle().releasing], [0, 0], 'every worker had ended');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(idle, 1, 'once for the two workers');
    } finally {
      await ml.close();
    }
    // With --expose-gc (as `npm start` runs the server) several calls close together make one collection, a second later.
    const script = `
      import { giveBackMemory } from ${JSON.stringify(path.join(REPO, 'server/src/platform/cache/give-back-memory.ts'))};
      const real = globalThis.gc;
      let n = 0;
      globalThis.gc = () => { n++; real(); };
      giveBackMemory(); giveBackMemory(); giveBackMemory();
      const soon = n;
      setTimeout(() => console.log(JSON.stringify({ soon, later: n })), 1500);
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, timeout: 30_000 }).toString();
    assert.deepEqual(JSON.parse(out.trim()), { soon: 0, later: 1 });
  });

  test('a burst of work while threads are releasing: every request is answered, none fails', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 2, idleMs: 50 });
    try {
      const expected = probs(await ml.run(CLS_MODEL, await clsFeeds()));
      let caught = 0;
      for (let round = 0; round < 5; round++) {
        // The moment a thread has left the pool and is releasing its sessions (checked on every turn of the loop).
        await until(() => ml.pool.lifecycle().releasing > 0 || ml.pool.lifecycle().threads === 0, 'a release to begin');
        if (ml.pool.lifecycle().releasing > 0) caught++;
        const burst = await Promise.all(
          Array.from({ length: 6 }, async (_, i) => ml.run(CLS_MODEL, await clsFeeds(), i % 3 === 0 ? 'interactive' : 'background')),
        );
        for (const out of burst) assert.deepEqual(probs(out), expected);
      }
      assert.ok(caught >= 1, 'the bursts met releasing threads');
      const d = ml.pool.diagnostics();
      assert.deepEqual(d.per_model.map((m) => [m.model_id, m.runs, m.failures]), [[CLS_MODEL, 31, 0]]);
      assert.ok(ml.pool.lifecycle().releases >= 5);
    } finally {
      await ml.close();
    }
  });

  test('a release asked while a run is under way waits for it: the run answers, then the sessions go, the process lives', async () => {
    // Terminating a thread inside session.run aborts the whole process (exit 134), so this runs in a child. The
    // worker program is driven directly: `release` is posted while the detector runs on a 960×960 input.
    const script = `
      import { Worker } from 'node:worker_threads';
      import { createRequire } from 'node:module';
      import fs from 'node:fs';
      import { INFERENCE_WORKER_SOURCE } from ${JSON.stringify(path.join(REPO, 'server/src/adapters/ml/inference-worker.ts'))};
      import { modelEntry } from ${JSON.stringify(path.join(REPO, 'server/src/adapters/ml/model-manifest.ts'))};
      const f = modelEntry('ppocrv4-det').files[0];
      const file = ${JSON.stringify(SHARED_MODELS)} + '/' + f.path;
      const w = new Worker(INFERENCE_WORKER_SOURCE, { eval: true, execArgv: [], workerData: { onnxruntime: createRequire(import.meta.url).resolve('onnxruntime-node'), intraOpThreads: 1 } });
      const order = [];
      const done = new Promise((resolve) => w.on('message', (m) => { order.push(m.op ?? (m.ok ? 'ran' : 'failed ' + m.error)); if (m.op) resolve(m); }));
      const x = () => ({ x: { type: 'float32', dims: [1, 3, 960, 960], data: new Float32Array(3 * 960 * 960).fill(0.5) } });
      const model = { id: 'ppocrv4-det', file, bytes: f.bytes, sha256: f.sha256 };
      w.postMessage({ op: 'run', id: 1, model, feeds: x() });
      w.postMessage({ op: 'run', id: 2, model, feeds: x() });
      await new Promise((r) => setTimeout(r, 50));
      w.postMessage({ op: 'release' });
      const released = await done;
      await w.terminate();
      console.log('order', order.join(','), 'sessions', released.sessions);
    `;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, timeout: 90_000 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
    assert.match(r.stdout, /order ran,ran,released sessions 1/, 'both runs answered before the release, which released the one session');
  });

  test('threads released between runs of a busy pool never cut a run: every answer comes, the process lives', async () => {
    // idleMs 1: a thread is released in nearly every gap between two runs while the other runs, and work
    // arriving meanwhile goes to a new thread. In a child: a cut run would abort the process.
    const script = `
      import { MlRuntime } from ${JSON.stringify(path.join(REPO, 'server/src/adapters/ml/index.ts'))};
      const ml = new MlRuntime({ modelsDir: ${JSON.stringify(SHARED_MODELS)}, dataDir: null, maxWorkers: 2, idleMs: 1 });
      const x = () => ({ x: { type: 'float32', dims: [2, 3, 48, 192], data: new Float32Array(2 * 3 * 48 * 192).fill(0.25) } });
      const first = Array.from((await ml.run('ppocr-cls', x()))['softmax_0.tmp_0'].data);
      let same = 0;
      await Promise.all([0, 1, 2].map(async (lane) => {
        for (let i = 0; i < 8; i++) {
          const out = await ml.run('ppocr-cls', x(), lane === 2 ? 'interactive' : 'background');
          if (JSON.stringify(Array.from(out['softmax_0.tmp_0'].data)) === JSON.stringify(first)) same++;
          await new Promise((r) => setTimeout(r, (i * 7 + lane * 3) % 5));
        }
      }));
      const l = ml.pool.lifecycle();
      await ml.close();
      console.log('same', same, 'releases', l.releases > 3, 'failures', ml.pool.diagnostics().per_model[0].failures);
    `;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, timeout: 90_000 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
    assert.match(r.stdout, /same 24 releases true failures 0/);
  });

  test('a model file changed while released is refused even with its size and mtime kept; put back, it answers the same', async () => {
    const dir = tempModelsDir();
    const data = tempDataDir();
    const file = path.join(dir, CLS_FILE);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(SHARED_MODELS, CLS_FILE), file);
    const ml = new MlRuntime({ modelsDir: dir, dataDir: data, maxWorkers: 1, idleMs: 100 });
    try {
      const expected = probs(await ml.run(CLS_MODEL, await clsFeeds()));
      await until(() => ml.pool.diagnostics().workers === 0, 'the thread to release its session');

      // Replaced with other bytes of the same size, its times set back as a copy that keeps them would
      // (`cp -p`, rsync -t; here `touch -r`, to the nanosecond): size and mtime say nothing changed.
      const times = path.join(dir, 'times');
      fs.writeFileSync(times, '');
      execFileSync('touch', ['-r', file, times]);
      corruptCopy(dir, CLS_FILE);
      execFileSync('touch', ['-r', times, file]);
      assert.equal(fs.statSync(file).mtimeMs, fs.statSync(times).mtimeMs, 'the same mtime, to the nanosecond');
      await assert.rejects(ml.run(CLS_MODEL, await clsFeeds()), (e: unknown) => {
        assert.ok(e instanceof ModelUnavailableError, String(e));
        assert.equal(e.reason, 'failed');
        assert.match(e.message, /has sha256 [0-9a-f]{64}, expected 491843a3/);
        return true;
      });
      assert.equal(ml.pool.diagnostics().workers, 0, 'onnxruntime never saw the file: no thread was started');

      // Put back (the same bytes as before): it loads again and answers the same.
      fs.copyFileSync(path.join(SHARED_MODELS, CLS_FILE), file);
      assert.deepEqual(probs(await ml.run(CLS_MODEL, await clsFeeds())), expected);
    } finally {
      await ml.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    }
  });

  test('a thread refuses bytes that are not the verified file (replaced after the check): ModelUnavailableError, nothing loaded', async () => {
    const file = path.join(SHARED_MODELS, CLS_FILE);
    const pool = new InferencePool({ resolve: async () => ({ file, bytes: fs.statSync(file).size, sha256: '0'.repeat(64), task: 'ocr' }) });
    try {
      await assert.rejects(pool.run(CLS_MODEL, await clsFeeds()), (e: unknown) => {
        assert.ok(e instanceof ModelUnavailableError, String(e));
        assert.match(e.message, /has sha256 491843a3[0-9a-f]{56}, expected 0{64}/);
        return true;
      });
      assert.deepEqual(pool.diagnostics().models_loaded, []);
    } finally {
      await pool.close();
    }
  });

  test('the catalog is asked for the file only when no thread holds the model; a file removed since is refused at the load', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pool-resolve-'));
    const file = path.join(dir, path.basename(CLS_FILE));
    fs.copyFileSync(path.join(SHARED_MODELS, CLS_FILE), file);
    const verified = { file, bytes: fs.statSync(file).size, sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'), task: 'ocr' };
    let asked = 0;
    const pool = new InferencePool({ maxWorkers: 1, idleMs: 200, resolve: async () => (asked++, verified) });
    const released = () => pool.lifecycle().threads === 0 && pool.lifecycle().releasing === 0;
    try {
      const expected = probs(await pool.run(CLS_MODEL, await clsFeeds()));
      assert.equal(asked, 1, 'asked for the first load');
      for (let i = 0; i < 3; i++) assert.deepEqual(probs(await pool.run(CLS_MODEL, await clsFeeds())), expected);
      assert.equal(asked, 1, 'not asked again while a thread holds the model');
      // Released: the next run asks again, and a thread loads the file again.
      await until(released, 'the thread to release its session');
      assert.deepEqual(probs(await pool.run(CLS_MODEL, await clsFeeds())), expected);
      assert.equal(asked, 2, 'asked again after the release');
      await until(released, 'the thread to release its session');
      // Removed after the catalog's check: the thread that loads it refuses, as it refuses a changed file.
      fs.rmSync(file);
      await assert.rejects(pool.run(CLS_MODEL, await clsFeeds()), (e: unknown) => {
        assert.ok(e instanceof ModelUnavailableError, String(e));
        assert.match(e.message, /cannot read .*\(ENOENT\)/);
        return true;
      });
      assert.equal(asked, 3);
    } finally {
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
