/**
 * The program of one inference worker: a child process (`node -e`) or a worker thread, as inference-pool.ts
 * starts it; the messages are the same either way. Plain CommonJS evaluated without
 * the TypeScript loader the server may run under, like platform/cache/snapshot-worker.ts: starting a
 * thread with tsx cost 0.6 s of CPU (features/intake/file-hasher.ts), and a bundled server
 * (scripts/build-server.ts) needs no extra file beside it.
 *
 * The thread loads each model the first time it is asked to run it (one onnxruntime session per
 * model per thread, kept until released), and answers with the outputs' buffers transferred, not
 * copied. A load or a run that throws answers that request with the error; the thread and its other
 * sessions go on. A load that failed is tried again by the next request.
 *
 * Messages are handled one after the other, each to its end: a `release` that arrives while a run is
 * under way waits for it, so the sessions are never released under a run. `release` calls
 * `session.release()` on every session (onnxruntime frees the weights and the memory arenas now, not
 * when the garbage collector gets to the session objects) and answers; the pool then ends the thread.
 *
 * The file is read here and checked against the registry once more, size then sha256, before
 * onnxruntime sees the bytes: the pool only sends files the model catalog verified, and this guards
 * against one replaced since (a reload after a release reads the file again). A mismatch answers
 * `refused: true`, which the pool turns into ModelUnavailableError. Hashing costs ~0.1 s per 50 MB,
 * next to a session's creation of the same order, and only at a load.
 *
 * Messages in:  {op: 'run', id, model: {id, file, bytes, sha256}, feeds: {name: {type, dims, data}}}
 *               {op: 'release'}
 * Messages out: {id, ok: true, outputs, ms, load: {ms} | null} | {id, ok: false, phase, error, refused?}
 *               {op: 'released', sessions}
 */
export const INFERENCE_WORKER_SOURCE = `
const threads = require('node:worker_threads');
// A child process (the pool's way, see inference-pool.ts) talks over its IPC channel and reads its settings
// from the environment; a thread over parentPort. The child ends with its parent: a server that exits or
// dies closes the channel, and nothing is left running onnxruntime for nobody.
const parentPort = threads.parentPort ?? { postMessage: (m) => process.send(m), on: (e, f) => process.on(e, f) };
const workerData = threads.parentPort ? threads.workerData : JSON.parse(process.env.HEARTH_INFERENCE_WORKER);
if (!threads.parentPort) process.on('disconnect', () => process.exit(0));
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const ort = require(workerData.onnxruntime);
const sessions = new Map();

function sessionOptions() {
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: workerData.intraOpThreads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // Warnings such as "initializer appears in graph inputs" (ultraface) are harmless noise.
    logSeverityLevel: 3,
  };
}

class Refused extends Error {}

async function load(model) {
  const bytes = await fs.promises.readFile(model.file);
  if (bytes.length !== model.bytes) throw new Refused(path.basename(model.file) + ' has ' + bytes.length + ' bytes, expected ' + model.bytes);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== model.sha256) throw new Refused(path.basename(model.file) + ' has sha256 ' + digest + ', expected ' + model.sha256);
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(bytes, sessionOptions());
  return { session, ms: performance.now() - t0 };
}

function transferable(data, transfer) {
  if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength || !(data.buffer instanceof ArrayBuffer)) data = data.slice();
  transfer.push(data.buffer);
  return data;
}

async function run(m) {
  let entry = sessions.get(m.model.id);
  let loaded = null;
  if (!entry) {
    try {
      entry = await load(m.model);
    } catch (e) {
      parentPort.postMessage({ id: m.id, ok: false, phase: 'load', error: String((e && e.message) || e), refused: e instanceof Refused });
      return;
    }
    sessions.set(m.model.id, entry);
    loaded = { ms: entry.ms };
  }
  try {
    const feeds = {};
    for (const [name, t] of Object.entries(m.feeds)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    const t0 = performance.now();
    const result = await entry.session.run(feeds);
    const ms = performance.now() - t0;
    const outputs = {};
    const transfer = [];
    for (const name of entry.session.outputNames) {
      const t = result[name];
      outputs[name] = { type: t.type, dims: Array.from(t.dims), data: transferable(t.data, transfer) };
    }
    parentPort.postMessage({ id: m.id, ok: true, outputs, ms, load: loaded }, transfer);
  } catch (e) {
    parentPort.postMessage({ id: m.id, ok: false, phase: 'run', error: String((e && e.message) || e), load: loaded });
  }
}

async function release() {
  let n = 0;
  for (const { session } of sessions.values()) {
    try {
      await session.release();
      n++;
    } catch {
      // a session that cannot be released is freed with the thread
    }
  }
  sessions.clear();
  parentPort.postMessage({ op: 'released', sessions: n });
}

let turn = Promise.resolve();
parentPort.on('message', (m) => {
  const handle = m.op === 'run' ? run : m.op === 'release' ? release : null;
  if (handle) turn = turn.then(() => handle(m));
});
`;
