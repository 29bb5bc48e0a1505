/**
 * `npm run bench:ingest`, the full-indexing figure: Hearth's full indexing of the corpus JPEGs with the shipped
 * models on, against its floor measured in the same run.
 *
 * What each side does:
 *   - Hearth (in this process, as the server runs it): the real IngestService and job queue, the models directory
 *     the tests use (../shared/models, or HEARTH_MODELS_DIR) with faces (YuNet + MobileFaceNet) and text
 *     recognition (PP-OCRv4 det/cls/rec) on; CLIP is not shipped, so semantic search stays off. Per file: the
 *     base pipeline (hash, EXIF, 400 px WebP, pHash, catalog), then the `face` and `ocr` index jobs on the `ml`
 *     queue (decode, pre-processing on the server thread, inference on the ML runtime's worker pool, post-
 *     processing, catalog writes, the people's incremental clustering). Timed from the first file handed to the
 *     ingest until the job queue is idle. The inference threads start and load their sessions inside the clock.
 *   - the floor: one decode of each photo plus the models' own inference on exactly the tensors Hearth sent, run
 *     alone. In a recording pass before the timed rounds (Hearth over the same files, not timed), every tensor its
 *     indexers hand the ML runtime is copied to a temporary file, per photo, and so is the largest size its
 *     indexers decoded it to. The floor then
 *     starts `cores` threads (worker_threads), each with its own onnxruntime sessions of the five models
 *     (intraOpNumThreads 1, created before the clock), the photos shared between them through one counter: per
 *     photo one sharp decode (EXIF-upright, raw RGB, single-threaded) at the largest size a model input of that
 *     photo needs — the OCR crops' source (≤ 4096 px) when Hearth cut lines from it, else the detectors' 800 px
 *     — then every recorded inference, in Hearth's order. The floor replays Hearth's own tensors: when Hearth
 *     runs fewer inferences (one text detection a photo instead of 1.47), the floor shrinks with it, so the
 *     ratio shows the overhead around the models, not how many inferences were needed.
 *     No ingest, no base pipeline, no queue, no catalog, no pre- or post-processing, no thread hand-offs. It does
 *     read each tensor from its file (page cache, about 1 % of an inference), which slows the floor by that much.
 * Both read the same files from copies made before the clock starts.
 *
 * Then the CPU per file, stage by stage: one more pass over the same files, single-threaded, measured alone
 * (process.cpuUsage around each stage; inference on onnxruntime sessions created in this process with one
 * intra-op thread, so a stage's CPU is its own): the base pipeline of the photo (ingest, measured whole),
 * decode, each model's pre-processing, inference and post-processing, and the catalog writes of each indexer,
 * by the indexers' own code (features/faces/pipeline.ts, features/ocr/recognise.ts), whose stage timings take a
 * clock (here the CPU clock).
 *
 * Prints per round the files/s of both and their ratio (target ≥ 0.8), the CPU ratio (the floor's CPU per file
 * over Hearth's, which other processes' load disturbs least), the decodes Hearth made per photo, and the cores
 * other processes took meanwhile; then the stage table. A missing model or a corpus not found ends with a message, not a stack trace.
 *
 *   npx tsx scripts/bench/indexing.ts [--files N] [--rounds N] [--no-stages]
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { expandPixels, modelEntry, type Feeds } from '../../server/src/adapters/ml/index.ts';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer } from '../../server/src/container.ts';
import type { IndexTask } from '../../server/src/features/indexing/index-tasks.ts';
import { INDEX_PIXELS_MAX_SIDE } from '../../server/src/features/indexing/index.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { FLOOR_WORKER_SOURCE } from './indexing-floor-worker.ts';
import { treeCpuSeconds } from './process-tree.ts';
import { releaseBytes } from '../../server/src/platform/cache/release-bytes.ts';

const root = path.resolve(import.meta.dirname, '../..');
const CORPUS = process.env.HEARTH_CORPUS ?? path.resolve(root, '../shared/corpus');
const MODELS = process.env.HEARTH_MODELS_DIR ?? path.resolve(root, '../shared/models');
const MODEL_IDS = ['yunet-n', 'mobilefacenet', 'ppocrv4-det', 'ppocr-cls', 'ppocrv4-rec'];
const TASKS: IndexTask[] = ['face', 'ocr'];

const { values } = parseArgs({ options: { files: { type: 'string' }, rounds: { type: 'string', default: '1' }, 'no-stages': { type: 'boolean', default: false } } });
const rounds = Math.max(1, Number(values.rounds) || 1);

function fail(message: string): never {
  console.error(`bench:indexing: ${message}`);
  process.exit(1);
}

function jpegs(): string[] {
  if (!fs.existsSync(CORPUS)) fail(`no corpus at ${CORPUS} (set HEARTH_CORPUS)`);
  const out: string[] = [];
  for (const dir of fs.readdirSync(CORPUS)) {
    const d = path.join(CORPUS, dir);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d)) if (/\.jpe?g$/i.test(f)) out.push(path.join(d, f));
  }
  return out.sort();
}

const modelFiles = Object.fromEntries(
  MODEL_IDS.map((id) => {
    const file = path.join(MODELS, modelEntry(id)!.files[0]!.path);
    if (!fs.existsSync(file)) fail(`model ${id} is missing (${file}); set HEARTH_MODELS_DIR to a folder holding the shipped models (npm run models:fetch)`);
    return [id, file];
  }),
);

/**
 * CPU seconds of this process with its child processes (the inference workers: Hearth's own work, see
 * treeCpuSeconds) and of the whole machine (Linux /proc/stat; null elsewhere).
 */
function cpuNow(): { self: number; machine: number | null } {
  const u = process.cpuUsage();
  const tree = treeCpuSeconds();
  let machine: number | null = null;
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    machine = (cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + cpu[7]!) / 100;
  } catch {
    machine = null;
  }
  return { self: tree ?? (u.user + u.system) / 1e6, machine };
}

interface Measured {
  filesPerSec: number;
  cpuPerFileMs: number;
  othersCores: number | null;
}

function measured(n: number, secs: number, c0: ReturnType<typeof cpuNow>): Measured {
  const c1 = cpuNow();
  const self = c1.self - c0.self;
  const others = c1.machine !== null && c0.machine !== null ? Math.max(0, c1.machine - c0.machine - self) / secs : null;
  return { filesPerSec: n / secs, cpuPerFileMs: (self * 1000) / n, othersCores: others };
}

/** One inference Hearth ran for a photo, its input tensor kept in a file. */
interface RecordedRun {
  model: string;
  dims: number[];
  path: string;
}

async function hearthRound(
  files: string[],
  recordDir: string | null,
): Promise<{ m: Measured; runs: RecordedRun[][]; decodeSide: number[]; decodes: Map<number, number>; indexed: Record<string, number>; failed: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-indexing-'));
  const config = loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent', HEARTH_MODELS_DIR: MODELS, HEARTH_ML_DEFAULT_ON: 'true' });
  const c = createContainer(config, createLogger('silent'));
  await c.indexing.indexers.settled();
  for (const t of TASKS) if (!c.indexing.indexers.available(t)) fail(`the ${t} indexer did not start: are the models in ${MODELS} complete?`);
  const repo = c.repositories.primary()!;
  const owner = c.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
  const names = files.map((f, i) => `${i}-${path.basename(f)}`);
  names.forEach((n, i) => fs.copyFileSync(files[i]!, path.join(repo.path, n)));

  // Bench-only hooks: which photo an inference is for (the indexer's call, followed through its awaits), and a
  // copy of each input tensor before the pool transfers it away.
  const photo = new AsyncLocalStorage<number>();
  const byName = new Map(names.map((n, i) => [n, i]));
  for (const t of TASKS) {
    const indexer = c.indexing.indexers.get(t)!;
    const index = indexer.index.bind(indexer);
    indexer.index = (target, signal) => photo.run(byName.get(path.basename(target.file)) ?? -1, () => index(target, signal));
  }
  const runs: RecordedRun[][] = files.map(() => []);
  // The largest size each photo was decoded to by its indexers (the shared 800 px, the crops' source).
  const decodeSide = files.map(() => INDEX_PIXELS_MAX_SIDE);
  const pixels = c.indexing.indexers.pixels;
  const once = pixels.once.bind(pixels);
  pixels.once = (file, maxSide) => {
    const i = photo.getStore();
    if (i !== undefined && i >= 0) decodeSide[i] = Math.max(decodeSide[i]!, maxSide);
    return once(file, maxSide);
  };
  // Only in the recording pass, which is not timed. Each tensor is written synchronously: a copy into the page
  // cache, no promise, no file handle kept.
  if (recordDir) {
    const run = c.ml.run.bind(c.ml);
    let seq = 0;
    c.ml.run = (modelId: string, feeds: Feeds, lane, reduce) => {
      const i = photo.getStore();
      const input = Object.values(feeds)[0]!;
      if (i !== undefined && i >= 0) {
        const file = path.join(recordDir, `${i}-${seq++}.f32`);
        // A feed sent as pixels (the text detector's) is recorded as the tensor the worker makes of it.
        const d = input.pixels ? expandPixels(input) : input.data;
        fs.writeFileSync(file, new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        // The expansion is the recording's own (7.7 MB for an 800-px photo): freed now, or the full collections it
        // would start would count against Hearth's CPU.
        if (input.pixels) releaseBytes(d);
        runs[i]!.push({ model: modelId, dims: [...input.dims], path: file });
      }
      return run(modelId, feeds, lane, reduce);
    };
  }

  const c0 = cpuNow();
  const t0 = performance.now();
  for (const relPath of names) await c.ingest.indexFile({ repositoryId: repo.repository_id, relPath, ownerId: owner, source: 'scan' });
  const keepAlive = setInterval(() => {}, 1000); // the runner's timer and the pool's threads are unref'd
  await c.jobRunner.whenIdle();
  clearInterval(keepAlive);
  const m = measured(files.length, (performance.now() - t0) / 1000, c0);
  const indexed = Object.fromEntries(
    (c.db.prepare('SELECT task, count(*) AS n FROM asset_index_entries GROUP BY task').all() as { task: string; n: number }[]).map((r) => [r.task, r.n]),
  );
  // Jobs with a failed attempt (retried, or given up: 'discarded'); a job state 'failed' does not exist.
  const failedJobs = c.db
    .prepare("SELECT kind, state, last_error FROM jobs WHERE errors != '[]' OR state IN ('retryable', 'discarded')")
    .all() as { kind: string; state: string; last_error: string | null }[];
  const failed = failedJobs.length;
  for (const j of failedJobs.slice(0, 5)) console.log(`         a job with a failed attempt: ${j.kind} (${j.state}): ${(j.last_error ?? '').split('\n')[0]!.slice(0, 160)}`);
  const decodes = new Map(pixels.decodes);
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { m, runs, decodeSide, decodes, indexed, failed };
}

async function floorRound(files: string[], runs: RecordedRun[][], decodeSide: number[]): Promise<Measured> {
  const require = createRequire(import.meta.url);
  const counter = new SharedArrayBuffer(4);
  const photos = files.map((file, i) => ({ file, maxSide: decodeSide[i]!, runs: runs[i]! }));
  const threads = os.availableParallelism();
  const workers = Array.from({ length: threads }, () => new Worker(FLOOR_WORKER_SOURCE, {
    eval: true,
    workerData: { sharp: require.resolve('sharp'), onnxruntime: require.resolve('onnxruntime-node'), models: modelFiles, photos, counter },
  }));
  const next = (w: Worker) => new Promise<Record<string, unknown>>((resolve, reject) => {
    w.once('message', (m: Record<string, unknown>) => (m.error ? reject(new Error(String(m.error))) : resolve(m)));
    w.once('error', reject);
  });
  await Promise.all(workers.map(next));
  const c0 = cpuNow();
  const t0 = performance.now();
  const done = workers.map(next);
  for (const w of workers) w.postMessage('go');
  const answers = await Promise.all(done);
  const m = measured(files.length, (performance.now() - t0) / 1000, c0);
  await Promise.all(workers.map((w) => w.terminate()));
  const n = answers.reduce((s, a) => s + Number(a.done), 0);
  if (n !== files.length) fail(`the floor processed ${n} of ${files.length} photos`);
  return m;
}

/**
 * BENCH_PROFILE=<file>: a CPU profile of the server thread during the first Hearth round (node --cpu-prof
 * crashes with the inference threads running; the inspector on this thread alone does not).
 */
async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const all = jpegs();
const files = values.files ? all.slice(0, Math.max(1, Number(values.files))) : all;
console.log(`full indexing: ${files.length} corpus JPEGs, ${(files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6).toFixed(1)} MB; models ${MODELS}; ${os.availableParallelism()} cores`);
console.log('  hearth: ingest (hash, EXIF, 400 px, pHash, catalog) + face and text indexing through the ml queue, until the queue is idle');
console.log(`  floor: ${os.availableParallelism()} threads, each one decode per photo + the same inferences on its own sessions (1 intra-op thread); nothing else`);

const recordDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-tensors-'));
let best = { hearth: 0, floor: 0 };
try {
  // The recording pass, not timed: Hearth once over the files with every tensor written down for the floor. Its
  // writes hold Hearth's thread (10 MB a photo, synchronously), and timed they cost it a fifth of its files/s
  // (5.81 files/s recorded against 7.16 in the next round, same run), so no timed round records.
  const pass = await hearthRound(files, recordDir);
  const recorded = pass.runs;
  const recordedSides = pass.decodeSide;
  const count = (m: string) => recorded.reduce((s, runs) => s + runs.filter((x) => x.model === m).length, 0);
  console.log(`recording pass (not timed): inferences recorded: ${MODEL_IDS.map((m) => `${m} ${count(m)}`).join(', ')}`);
  for (let r = 1; r <= rounds; r++) {
    const profiler = process.env.BENCH_PROFILE && r === 1 ? await startProfile() : null;
    const hearth = await hearthRound(files, null);
    if (profiler) await profiler.stop(process.env.BENCH_PROFILE!);
    console.log(`         (hearth round ${r} done; the floor next)`);
    const floor = await floorRound(files, recorded, recordedSides);
    const ratio = hearth.m.filesPerSec / floor.filesPerSec;
    console.log(
      `round ${r}: hearth ${hearth.m.filesPerSec.toFixed(2)} files/s (${hearth.m.cpuPerFileMs.toFixed(0)} ms CPU/file; indexed face ${hearth.indexed.face ?? 0}, ocr ${hearth.indexed.ocr ?? 0}; jobs with a failed attempt ${hearth.failed}), ` +
        `floor ${floor.filesPerSec.toFixed(2)} files/s (${floor.cpuPerFileMs.toFixed(0)} ms CPU/file), ratio ${ratio.toFixed(2)}, ` +
        `CPU ratio ${(floor.cpuPerFileMs / hearth.m.cpuPerFileMs).toFixed(2)}`,
    );
    const perPhoto = [...hearth.decodes].sort(([a], [b]) => a - b).map(([side, n]) => `${side} px ${(n / files.length).toFixed(2)}`);
    console.log(`         hearth's indexer decodes per photo: ${perPhoto.join(', ') || 'none'}`);
    const cores = (x: number | null) => (x === null ? 'unknown' : x.toFixed(2));
    console.log(`         other processes used ${cores(hearth.m.othersCores)} cores during hearth, ${cores(floor.othersCores)} during the floor`);
    best = { hearth: Math.max(best.hearth, hearth.m.filesPerSec), floor: Math.max(best.floor, floor.filesPerSec) };
  }
} finally {
  fs.rmSync(recordDir, { recursive: true, force: true });
}
const ratio = best.hearth / best.floor;
console.log(`best: hearth ${best.hearth.toFixed(2)} files/s, floor ${best.floor.toFixed(2)} files/s, ratio ${ratio.toFixed(2)} (target ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
// Loaded only here: `--no-stages` runs the two figures alone (also on a server older than the stage timings).
if (!values['no-stages']) await (await import('./indexing-stages.ts')).stagePass(files, MODELS, modelFiles);
