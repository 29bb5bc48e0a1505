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
 * onnxruntime sees the bytes: the pool sends files the model catalog verified (asking it again only when no
 * thread holds the model), and this guards against one replaced or removed since. A mismatch or a file
 * that cannot be read answers `refused: true`, which the pool turns into ModelUnavailableError. Hashing
 * costs ~0.1 s per 50 MB, next to a session's creation of the same order, and only at a load.
 *
 * Reductions: a run may ask for its first output to be reduced here, where the tensor is made, so that only what
 * its reader needs crosses back (the copy through a child's IPC channel, and the garbage it leaves on both sides,
 * scale with the bytes). `ctc-greedy` (the OCR recogniser, [N, T, C] with C = 6625): per time step the first most
 * likely class, its probability, and the probability of class `space` (tensor-kernels.ts ctcGreedySteps, which
 * features/ocr/ctc-decode.ts ctcSteps also runs; decodeSteps reads the result); 12 bytes a step instead of 26.5 kB. `if-above` (the OCR
 * detector's probability map, 4 bytes a pixel of the photo at 800 px): the outputs as they are when some value of
 * the first is above `threshold`, else only `none_above` (no text region can be found in such a map).
 *
 * Feeds made of pixels: a feed with `pixels` (inference-pool.ts: PixelExpansion) carries the 8-bit pixels its
 * float tensor is made of, expanded here (tensor-kernels.ts expandPixelPlanes); a quarter of the bytes cross (the OCR detector's input).
 *
 * Messages in:  {op: 'run', id, model: {id, file, bytes, sha256}, feeds: {name: {type, dims, data, pixels?}}, reduce?}
 *               {op: 'release'}
 * Messages out: {id, ok: true, outputs, ms, load: {ms} | null} | {id, ok: false, phase, error, refused?}
 *               {op: 'released', sessions}
 */
import { ctcGreedySteps, expandPixelPlanes } from './tensor-kernels.ts';

export const INFERENCE_WORKER_SOURCE = `
const threads = require('node:worker_threads');
// A child process (the pool's way, see inference-pool.ts) talks over its IPC channel and reads its settings
// from the environment; a thread over parentPort. The child ends with its parent: a server that exits or
// dies closes the channel, and nothing is left running onnxruntime for nobody.
// A send after the server died fails with EPIPE: the callback takes that failure (without one it is an unhandled
// 'error' event and a stack trace), and the worker ends as it does on 'disconnect', which may come after it.
const parentPort = threads.parentPort ?? {
  postMessage: (m) => process.connected && process.send(m, undefined, undefined, (e) => e && process.exit(0)),
  on: (e, f) => process.on(e, f),
};
const workerData = threads.parentPort ? threads.workerData : JSON.parse(process.env.HEARTH_INFERENCE_WORKER);
if (!threads.parentPort) process.on('disconnect', () => process.exit(0));
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
// A worker started for indexing lowers its own priority (inference-pool.ts, "Priority") before onnxruntime starts
// its threads, which inherit it. Linux keeps a priority per thread, so the threads Node started before this line
// are lowered one by one; elsewhere the call applies to the whole process. A system that refuses leaves the
// worker at the server's priority, and says so.
if (!threads.parentPort && workerData.nice) {
  try {
    const tids = process.platform === 'linux' ? fs.readdirSync('/proc/self/task').map(Number) : [0];
    for (const tid of tids) require('node:os').setPriority(tid, workerData.nice);
  } catch (e) {
    process.stderr.write('inference worker: could not lower its priority (' + String((e && e.message) || e) + ')\\n');
  }
}
const ort = require(workerData.onnxruntime);
const sessions = new Map();
// The kernels shared with the server's own thread (tensor-kernels.ts), bound to names of their own.
const expandPixelPlanes = ${expandPixelPlanes.toString()};
const ctcGreedySteps = ${ctcGreedySteps.toString()};

function sessionOptions() {
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: workerData.intraOpThreads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // No memory pattern: it plans one block per input shape, and the photos' shapes vary (the OCR detector sees each
    // photo at its own aspect ratio, the recogniser each line at its own width), so its blocks pile up in the arena.
    // Measured with the OCR models on seven shapes: the worker's peak 399-410 MB with it, 303-312 MB without (the
    // detector's share; the recogniser's is nil). The price, from runs of both kinds interleaved: 4-7% more CPU in
    // the detector, about 2% of a photo's indexing; two workers' 180 MB matter more on a small home box (issue 25).
    enableMemPattern: false,
    // Warnings such as "initializer appears in graph inputs" (ultraface) are harmless noise.
    logSeverityLevel: 3,
  };
}

class Refused extends Error {}

async function load(model) {
  // Unreadable (removed since it was verified): unavailable, as a changed file is.
  const bytes = await fs.promises.readFile(model.file).catch((e) => {
    throw new Refused('cannot read ' + path.basename(model.file) + ' (' + ((e && e.code) || 'error') + ')');
  });
  if (bytes.length !== model.bytes) throw new Refused(path.basename(model.file) + ' has ' + bytes.length + ' bytes, expected ' + model.bytes);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== model.sha256) throw new Refused(path.basename(model.file) + ' has sha256 ' + digest + ', expected ' + model.sha256);
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(bytes, sessionOptions());
  return { session, ms: performance.now() - t0 };
}

// [N, T, C] → best (int32 [N, T]), best_p and space_p (float32 [N, T]), classes (int32 [1]: C).
function ctcGreedy(t, reduce) {
  const r = ctcGreedySteps(t.data, t.dims, reduce.space);
  const dims = [t.dims[0], t.dims[1]];
  return {
    best: { type: 'int32', dims, data: r.best },
    best_p: { type: 'float32', dims, data: r.bestP },
    space_p: { type: 'float32', dims, data: r.spaceP },
    classes: { type: 'int32', dims: [1], data: Int32Array.of(t.dims[2]) },
  };
}

// The outputs as they are (null) when some value of the first is above the threshold; else only that it is not.
function ifAbove(t, reduce) {
  const data = t.data;
  for (let i = 0; i < data.length; i++) if (data[i] > reduce.threshold) return null;
  return { none_above: { type: 'int32', dims: [1], data: Int32Array.of(1) } };
}

const REDUCTIONS = { 'ctc-greedy': ctcGreedy, 'if-above': ifAbove };

// Frees a tensor's bytes now rather than at the collector's next full collection (platform/cache/release-bytes.ts
// says why): a photo's indexing makes megabytes of them (the detectors' inputs expanded here, their outputs), and
// left to the collector, that pace of outside memory started a full collection every photo or two. Only an array
// that owns its whole buffer, and not one already moved to the server (thread isolation transfers the outputs).
function free(data) {
  const b = data && data.buffer;
  if (!(b instanceof ArrayBuffer) || b.detached || data.byteOffset !== 0 || data.byteLength !== b.byteLength || b.byteLength < 65536) return;
  try {
    b.transfer(0);
  } catch {
    // a buffer the runtime keeps (not detachable) is the collector's
  }
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
    const expanded = [];
    for (const [name, t] of Object.entries(m.feeds)) {
      const data = t.pixels ? expandPixelPlanes(t.data, t.dims, t.pixels) : t.data;
      if (t.pixels) expanded.push(data);
      feeds[name] = new ort.Tensor(t.type, data, t.dims);
    }
    const t0 = performance.now();
    const result = await entry.session.run(feeds);
    const ms = performance.now() - t0;
    for (const data of expanded) free(data);
    let outputs = {};
    const transfer = [];
    const reduced = m.reduce ? REDUCTIONS[m.reduce.kind](result[entry.session.outputNames[0]], m.reduce) : null;
    if (reduced) {
      outputs = reduced;
      for (const t of Object.values(outputs)) transfer.push(t.data.buffer);
    } else {
      for (const name of entry.session.outputNames) {
        const t = result[name];
        outputs[name] = { type: t.type, dims: Array.from(t.dims), data: transferable(t.data, transfer) };
      }
    }
    parentPort.postMessage({ id: m.id, ok: true, outputs, ms, load: loaded }, transfer);
    // Sent (a child process's channel copies as it sends; a thread's transfer moved them): what is left is garbage.
    for (const name of entry.session.outputNames) free(result[name] && result[name].data);
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
