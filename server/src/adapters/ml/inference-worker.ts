/**
 * The program of one inference thread (inference-pool.ts starts it). Plain CommonJS evaluated without
 * the TypeScript loader the server may run under, like platform/cache/snapshot-worker.ts: starting a
 * thread with tsx cost 0.6 s of CPU (features/intake/file-hasher.ts), and a bundled server
 * (scripts/build-server.ts) needs no extra file beside it.
 *
 * The thread loads each model the first time it is asked to run it (one onnxruntime session per
 * model per thread, kept), runs one request at a time, and answers with the outputs' buffers
 * transferred, not copied. A load or a run that throws answers that request with the error; the
 * thread and its other sessions go on. A load that failed is tried again by the next request.
 *
 * The file is read here and its size checked against the registry once more: the pool only sends
 * files the model catalog verified (size and sha256), and this guards against one replaced since.
 *
 * Messages in:  {op: 'run', id, model: {id, file, bytes}, feeds: {name: {type, dims, data}}}
 * Messages out: {id, ok: true, outputs, ms, load: {ms} | null} | {id, ok: false, phase, error}
 */
export const INFERENCE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
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

async function load(model) {
  const bytes = await fs.promises.readFile(model.file);
  if (bytes.length !== model.bytes) throw new Error(model.file + ' has ' + bytes.length + ' bytes, expected ' + model.bytes);
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(bytes, sessionOptions());
  return { session, ms: performance.now() - t0 };
}

function transferable(data, transfer) {
  if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength || !(data.buffer instanceof ArrayBuffer)) data = data.slice();
  transfer.push(data.buffer);
  return data;
}

parentPort.on('message', async (m) => {
  if (m.op !== 'run') return;
  let entry = sessions.get(m.model.id);
  let loaded = null;
  if (!entry) {
    try {
      entry = await load(m.model);
    } catch (e) {
      parentPort.postMessage({ id: m.id, ok: false, phase: 'load', error: String((e && e.message) || e) });
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
});
`;
