/**
 * The program of one floor thread of scripts/bench/indexing.ts: plain CommonJS evaluated without the
 * TypeScript loader (as the server's inference threads are, adapters/ml/inference-worker.ts), so the floor pays
 * no loader start-up either.
 *
 * The thread creates its own onnxruntime session of every model (intraOpNumThreads 1, as many threads as cores
 * run side by side), says it is ready, then on `go` takes photos from a shared counter until none is left: per
 * photo one sharp decode (EXIF-upright, inside the size given, raw RGB), then every inference Hearth recorded for
 * that photo, in Hearth's order, on the tensors Hearth sent (read from the recording's files). It answers with
 * its CPU time (process.cpuUsage is per process; the thread's own share is read from /proc/thread-self).
 *
 * workerData: {sharp, onnxruntime, models: {id: file}, photos: [{file, maxSide, runs: [{model, dims, path}]}], counter}
 */
export const FLOOR_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const sharp = require(workerData.sharp);
const ort = require(workerData.onnxruntime);

sharp.concurrency(1);

async function main() {
  const sessions = {};
  for (const [id, file] of Object.entries(workerData.models)) {
    sessions[id] = await ort.InferenceSession.create(file, {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3,
    });
  }
  parentPort.postMessage({ ready: true });
  await new Promise((resolve) => parentPort.once('message', resolve));
  const counter = new Int32Array(workerData.counter);
  let done = 0;
  for (;;) {
    const i = Atomics.add(counter, 0, 1);
    if (i >= workerData.photos.length) break;
    const photo = workerData.photos[i];
    // A damaged file fails its decode here as in Hearth (whose jobs for it fail): counted, with nothing to run.
    await sharp(photo.file, { failOn: 'truncated', limitInputPixels: 200000000, autoOrient: true })
      .resize({ width: photo.maxSide, height: photo.maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer()
      .catch(() => null);
    for (const run of photo.runs) {
      const bytes = fs.readFileSync(run.path);
      const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      const session = sessions[run.model];
      await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, run.dims) });
    }
    done++;
  }
  for (const s of Object.values(sessions)) await s.release();
  parentPort.postMessage({ done });
}
main().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;
