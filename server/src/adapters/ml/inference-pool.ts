/**
 * Runs models on worker threads, never on the HTTP thread: `pool.run(modelId, feeds)` resolves with
 * the outputs. Threads start when work needs them, each loads a model the first time it runs it and
 * keeps it until the thread is released (below).
 *
 * Scheduling: requests wait in two FIFO lanes. `interactive` (a person is waiting: a search query's
 * text or image) always goes first; `background` (indexing) may hold `backgroundWorkers` threads, one
 * per core (capped by HEARTH_ML_WORKERS), each with `intraOpThreads` onnxruntime threads, so indexing
 * keeps every core busy without oversubscribing them. The pool may start one thread more than that,
 * which only interactive work can take (background work never holds more than `backgroundWorkers`):
 * a query never waits behind an image being indexed. While a query runs beside full indexing the cores
 * are oversubscribed by that one thread, which is brief (a text embedding takes milliseconds; image
 * queries a fraction of a second) and is what a person waiting wants. The head of a lane goes to an
 * idle thread that already holds its model, else to any idle thread (which loads it), else to a new
 * thread while under the cap.
 * Each thread runs one request at a time: throughput comes from running several images at once, not
 * from one image on every core (which also keeps one large request from starving the rest).
 *
 * Priority: a thread started for background work runs at a lower scheduling priority (`backgroundNice`,
 * HEARTH_ML_NICE, default DEFAULT_BACKGROUND_NICE), a thread started for a query at the server's own. Indexing
 * keeps every core busy, and on a small machine it would otherwise take half the CPU from everything the server
 * does for the people using it: pages and browsing, uploads, imports and their thumbnails (measured during a
 * WebDAV import with the models on: the import ran at 0.34 of `rclone copy` and browsing p95 went from 7 to 54 ms).
 * Niced, indexing gets every cycle the server leaves, so it finishes as fast when nothing else runs and never
 * makes a person wait. Background work goes to background threads and queries to query threads first; either
 * takes an idle thread of the other kind rather than wait. The priority is set by the worker itself as it starts
 * (inference-runner.ts), before onnxruntime starts its threads, which inherit it; Linux cannot raise a priority
 * back without privileges, so a thread keeps the kind it was started as. Worker threads (`isolation: 'thread'`)
 * share the server's process and are not niced.
 *
 * Where the workers run (`isolation`, inference-runner.ts): child processes by default, so that an idle
 * pool leaves nothing of onnxruntime in the server (its library, its arenas, the heap its threads grew);
 * worker threads on request. "Thread" below means either: the pool treats them alike.
 *
 * Tensors cross to a child process as copies through its IPC channel; an input whose typed array owns its whole
 * buffer is then freed (detached after `run`, as a move to a thread leaves it), pixels are left as they were.
 * What a copy costs scales with its bytes (serialising, the pipe, reassembling, the garbage on both
 * sides: about 2 ms of the server's CPU per MB, measured with a 5.8 MB tensor), so a caller that needs little of
 * a large tensor says so: a feed may cross as the 8-bit pixels it is made of (`Tensor.pixels`), and an answer
 * may be reduced where it is made (`Reduction`), both done by the worker (inference-worker.ts). To a worker thread they cross by transfer: an input whose typed array owns its whole buffer
 * is moved (the caller's array is detached after `run`), others are copied once; outputs are always moved.
 *
 * Failures stay with their request: a model that throws (wrong input shape, a broken graph) rejects
 * that call with an InferenceError, and the thread and the pool go on. A thread that dies rejects
 * its request and is replaced on demand.
 *
 * Release when idle: a household's first import ends and the machine should get its memory back. A
 * thread without work for `idleMs` (HEARTH_ML_IDLE_S, default DEFAULT_IDLE_MS) is released: it leaves
 * the pool at once (new work goes to another thread, started if need be), is asked to release its
 * sessions (`session.release()`: onnxruntime frees the weights and the arenas), and ends once it says
 * it did. Only an idle thread is released, and the thread handles its messages one after the other,
 * so a release never cuts a run (terminating a thread inside `session.run` aborts the whole process,
 * see close). A thread that does not confirm within RELEASE_GRACE_MS is terminated: it runs nothing.
 * Models load again when work comes back, from a file the catalog verified again (size, sha256): a
 * file changed while released is refused (ModelUnavailableError) like any other, and the worker itself
 * checks that the bytes it read are the verified ones (sha256) before onnxruntime sees them.
 * Threads are unref'd while idle: an idle pool never keeps a process alive.
 *
 * `close()` drains: new work is refused with PoolClosedError, accepted work (queued and running)
 * finishes, then the threads release their sessions and stop. With a deadline, work still waiting at
 * the deadline is refused; work already running is let finish (see close).
 */
import os from 'node:os';
import { createRequire } from 'node:module';
import { InferenceError, ModelUnavailableError, PoolClosedError } from './errors.ts';
import { startRunner, type InferenceRunner, type Isolation } from './inference-runner.ts';
import type { TensorType } from './model-manifest.ts';
import { expandPixelPlanes } from './tensor-kernels.ts';
import { releaseBytes } from '../../platform/cache/release-bytes.ts';

/**
 * How long a thread may wait for work before its sessions are released. Long enough that the pauses of
 * an import (a batch of uploads, a thumbnail) do not reload the models (a load costs 0.1–1 s of CPU per
 * model), short enough that the memory comes back within a minute of the work ending.
 */
export const DEFAULT_IDLE_MS = 30_000;
/** The nice value of background (indexing) workers: CFS then gives the server ~9 times their share of a busy core. */
export const DEFAULT_BACKGROUND_NICE = 10;
/** How long a released thread may take to confirm before it is terminated (it runs nothing then). */
const RELEASE_GRACE_MS = 10_000;
/** How long closing waits for requests already running on the threads (see close). */
const RUNNING_GRACE_MS = 30_000;

export type TensorArray = Float32Array | BigInt64Array | Int32Array | Uint8Array;

export interface Tensor {
  type: TensorType;
  dims: number[];
  data: TensorArray;
  /**
   * Only on a feed: `data` is not the tensor but the 8-bit pixels it is made of, and the worker makes the tensor
   * (tensor-kernels.ts expandPixelPlanes, run there and here). A quarter of the bytes cross to the worker.
   */
  pixels?: PixelExpansion;
}

/**
 * How a float32 tensor `[1, C, H, W]` is made of interleaved 8-bit pixels (`C` bytes a pixel, `width × height`,
 * at most W × H): plane `c` holds byte `order[c]` of each pixel as `v · scale[c] − offset[c]`, top-left aligned;
 * the rest of each plane (the padding right and bottom) is 0.
 */
export interface PixelExpansion {
  width: number;
  height: number;
  order: number[];
  scale: number[];
  offset: number[];
}

/** The tensor a pixel feed stands for (what the worker makes of it; for readers on this side, like the bench). */
export function expandPixels(t: Tensor): Float32Array {
  return t.pixels ? expandPixelPlanes(t.data as Uint8Array, t.dims, t.pixels) : (t.data as Float32Array);
}

export type Feeds = Record<string, Tensor>;

/**
 * What a worker makes of a model's first output before answering (inference-worker.ts: Reductions), so that a
 * large tensor whose reader needs little of it does not cross back whole. `ctc-greedy`: the answer is `best`,
 * `best_p`, `space_p` ([N, T]) and `classes` ([1]) instead of the model's outputs. `if-above`: the outputs as
 * they are when some value of the first is above `threshold`, else only `none_above` ([1]).
 */
export type Reduction = { kind: 'ctc-greedy'; space: number } | { kind: 'if-above'; threshold: number };

/** Who waits for a request: a person (`interactive`, served first) or the indexers (`background`). */
export type Lane = 'interactive' | 'background';

/** What the pool needs to know of a model to load it: a verified file (model-catalog.ts). */
export interface ModelToLoad {
  file: string;
  bytes: number;
  /** The registry's digest: the thread checks the bytes it read against it before loading them. */
  sha256: string;
  /** For the per-task figures (ocr, semantic, faces). */
  task: string;
}

export interface PoolOptions {
  /** Returns the verified file of a model or throws (ModelUnavailableError): nothing else is loaded. */
  resolve: (modelId: string) => Promise<ModelToLoad>;
  /** Most threads background work may hold (default, and at most, one per core); one more serves only queries. */
  maxWorkers?: number | null;
  /** How long a thread waits for work before its sessions are released (default DEFAULT_IDLE_MS). */
  idleMs?: number;
  /** Where the workers run: child processes (default; see inference-runner.ts) or worker threads. */
  isolation?: Isolation;
  /** The nice value of the workers started for background work (default DEFAULT_BACKGROUND_NICE; 0: not lowered). */
  backgroundNice?: number;
  /** Called when the last worker released after `idleMs` has ended (the server gives memory back then). */
  onIdle?: () => void;
}

interface Job {
  lane: Lane;
  modelId: string;
  model: ModelToLoad;
  feeds: Feeds;
  reduce: Reduction | null;
  resolve: (o: Record<string, Tensor>) => void;
  reject: (e: Error) => void;
}

interface Stat {
  runs: number;
  failures: number;
  totalMs: number;
}

interface PoolThread {
  index: number;
  worker: InferenceRunner;
  job: Job | null;
  /** Model id → load time (ms) of the models this thread holds. */
  loaded: Map<string, number>;
  idle: NodeJS.Timeout | null;
  /** Started for background work, at the background priority (see the module's notes). */
  lane: Lane;
  /** Set once the thread was asked to release its sessions: it takes no more work. */
  releasing: Promise<void> | null;
}

/** How threads come and go, for tests and benchmarks (the HTTP diagnostics keep their shape). */
export interface PoolLifecycle {
  /** Threads that take work now. */
  threads: number;
  /** Threads releasing their sessions (out of the pool, not yet ended). */
  releasing: number;
  /** Sessions created since the pool was made (a model loaded on a thread). */
  loads: number;
  /** Threads released after `idleMs` without work, and sessions they released. */
  releases: number;
  sessionsReleased: number;
  idleMs: number;
}

export interface PoolDiagnostics {
  execution_provider: 'cpu';
  onnxruntime_version: string;
  max_workers: number;
  workers: number;
  intra_op_threads: number;
  queue_depth: number;
  running: number;
  models_loaded: { model_id: string; task: string; bytes: number; workers: number; load_ms: number }[];
  per_model: { model_id: string; task: string; runs: number; failures: number; avg_inference_ms: number | null }[];
  per_task: { task: string; runs: number; failures: number; avg_inference_ms: number | null }[];
}

function onnxruntimeVersion(require: NodeJS.Require): string {
  try {
    return (require('onnxruntime-node/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export class InferencePool {
  /** Most threads at once: `backgroundWorkers` and the one kept for interactive work. */
  readonly maxWorkers: number;
  readonly intraOpThreads: number;
  /** Threads background work may hold at once: one per core (capped by the option); what an indexing queue should feed. */
  readonly backgroundWorkers: number;
  readonly idleMs: number;
  readonly isolation: Isolation;
  private readonly threads: PoolThread[] = [];
  /** Threads out of the pool that are releasing their sessions, until they end. */
  private readonly releasing = new Set<PoolThread>();
  private readonly counts = { loads: 0, releases: 0, sessionsReleased: 0 };
  private readonly lanes: Record<Lane, Job[]> = { interactive: [], background: [] };
  private readonly stats = new Map<string, Stat & { task: string }>();
  private readonly models = new Map<string, ModelToLoad>();
  private readonly onnxruntime: string | null;
  private readonly version: string;
  private nextIndex = 0;
  private nextId = 0;
  private closing = false;
  private drained: (() => void) | null = null;

  constructor(private readonly opts: PoolOptions) {
    const cores = Math.max(1, os.availableParallelism());
    this.backgroundWorkers = Math.max(1, Math.min(cores, opts.maxWorkers ?? cores));
    this.maxWorkers = this.backgroundWorkers + 1;
    this.intraOpThreads = Math.max(1, Math.floor(cores / this.backgroundWorkers));
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.isolation = opts.isolation ?? 'process';
    const require = createRequire(import.meta.url);
    try {
      this.onnxruntime = require.resolve('onnxruntime-node');
    } catch {
      this.onnxruntime = null;
    }
    this.version = onnxruntimeVersion(require);
  }

  /** Why no model can run at all (onnxruntime-node missing from this install); null when it can. */
  get runtimeProblem(): string | null {
    return this.onnxruntime ? null : 'onnxruntime-node is not installed beside the server';
  }

  /** Runs `modelId` on `feeds`; resolves with every output of the model, or with what `reduce` makes of it. */
  async run(modelId: string, feeds: Feeds, lane: Lane = 'background', reduce: Reduction | null = null): Promise<Record<string, Tensor>> {
    if (this.closing) throw new PoolClosedError();
    if (this.runtimeProblem) throw new InferenceError(modelId, 'load', this.runtimeProblem);
    // The catalog is asked for the file only when no thread holds the model: a loaded session runs the verified
    // bytes whatever happens to the file since, and a thread that must load it checks the bytes it reads itself
    // (refused as unavailable when they are not the verified ones). Asked on every run, the catalog's check (a
    // stat of each file and its answer) cost the server thread 2.5 ms a photo in full indexing
    // (scripts/bench/indexing.ts, five runs a photo).
    const held = this.models.get(modelId);
    const model = held && this.threads.some((t) => t.loaded.has(modelId)) ? held : await this.opts.resolve(modelId);
    // Checked again: the pool may have started closing while the file was being verified.
    if (this.closing) throw new PoolClosedError();
    this.models.set(modelId, model);
    return new Promise((resolve, reject) => {
      this.lanes[lane].push({ lane, modelId, model, feeds, reduce, resolve, reject });
      this.pump();
    });
  }

  /** Requests waiting for a thread. */
  get queueDepth(): number {
    return this.lanes.interactive.length + this.lanes.background.length;
  }

  lifecycle(): PoolLifecycle {
    return { threads: this.threads.length, releasing: this.releasing.size, ...this.counts, idleMs: this.idleMs };
  }

  diagnostics(): PoolDiagnostics {
    const loaded = new Map<string, { workers: number; load: number }>();
    for (const t of this.threads) {
      for (const [id, ms] of t.loaded) {
        const l = loaded.get(id) ?? { workers: 0, load: 0 };
        l.workers++;
        l.load = Math.max(l.load, ms);
        loaded.set(id, l);
      }
    }
    const avg = (s: Stat) => (s.runs ? Math.round((s.totalMs / s.runs) * 100) / 100 : null);
    const tasks = new Map<string, Stat>();
    for (const s of this.stats.values()) {
      const t = tasks.get(s.task) ?? { runs: 0, failures: 0, totalMs: 0 };
      t.runs += s.runs;
      t.failures += s.failures;
      t.totalMs += s.totalMs;
      tasks.set(s.task, t);
    }
    return {
      execution_provider: 'cpu',
      onnxruntime_version: this.version,
      max_workers: this.maxWorkers,
      workers: this.threads.length,
      intra_op_threads: this.intraOpThreads,
      queue_depth: this.queueDepth,
      running: this.threads.filter((t) => t.job).length,
      models_loaded: [...loaded].map(([id, l]) => ({
        model_id: id,
        task: this.models.get(id)?.task ?? 'unknown',
        bytes: this.models.get(id)?.bytes ?? 0,
        workers: l.workers,
        load_ms: Math.round(l.load * 100) / 100,
      })),
      per_model: [...this.stats].map(([id, s]) => ({ model_id: id, task: s.task, runs: s.runs, failures: s.failures, avg_inference_ms: avg(s) })),
      per_task: [...tasks].map(([task, s]) => ({ task, runs: s.runs, failures: s.failures, avg_inference_ms: avg(s) })),
    };
  }

  /**
   * Refuses new work, lets accepted work finish (or, past `deadlineMs`, refuses what still waits), then
   * stops every thread. Safe to call more than once.
   *
   * A request already running on a thread is always let finish (up to RUNNING_GRACE_MS): terminating a
   * worker while onnxruntime-node's `session.run` is under way aborts the whole process (a Napi::Error
   * thrown into std::terminate), so "cutting" a run would kill the server instead of stopping it. One
   * inference takes well under a second to a few seconds.
   */
  async close(deadlineMs?: number): Promise<void> {
    this.closing = true;
    if (this.queueDepth || this.threads.some((t) => t.job)) {
      const drained = new Promise<void>((resolve) => (this.drained = resolve));
      if (deadlineMs === undefined) await drained;
      else await within(drained, deadlineMs);
      for (const job of [...this.lanes.interactive.splice(0), ...this.lanes.background.splice(0)]) job.reject(new PoolClosedError());
      if (this.threads.some((t) => t.job)) await within(drained, RUNNING_GRACE_MS);
    }
    await Promise.all([...this.threads.splice(0).map((t) => this.release(t)), ...[...this.releasing].map((t) => t.releasing)]);
  }

  private pump(): void {
    for (;;) {
      const lane = this.nextLane();
      if (!lane) break;
      const head = lane[0]!;
      const thread = this.threadFor(head);
      if (!thread) return;
      lane.shift();
      this.assign(thread, head);
    }
    if (this.closing && this.drained && !this.threads.some((t) => t.job)) {
      this.drained();
      this.drained = null;
    }
  }

  /**
   * Where `job` runs. Background work: an idle background thread (one holding its model first), else a new one
   * while under the cap, else any idle thread; so indexing stays at its priority whenever there is room. A query:
   * an idle thread holding its model, of its own lane first (a person waits: a model's load costs more than the
   * lower priority), else an idle query thread, else a new one, else any idle thread. Never waits while a thread idles.
   */
  private threadFor(job: Job): PoolThread | null {
    const idle = this.threads.filter((t) => !t.job);
    const own = idle.filter((t) => t.lane === job.lane);
    const holds = (t: PoolThread) => t.loaded.has(job.modelId);
    const fresh = () => (this.threads.length < this.maxWorkers ? this.spawn(job.lane) : null);
    if (job.lane === 'interactive') return own.find(holds) ?? idle.find(holds) ?? own[0] ?? fresh() ?? idle[0] ?? null;
    return own.find(holds) ?? own[0] ?? fresh() ?? idle.find(holds) ?? idle[0] ?? null;
  }

  /** The lane whose head runs next: interactive first; background only below its share of threads. */
  private nextLane(): Job[] | null {
    if (this.lanes.interactive.length) return this.lanes.interactive;
    if (!this.lanes.background.length) return null;
    const busy = this.threads.filter((t) => t.job?.lane === 'background').length;
    return busy < this.backgroundWorkers ? this.lanes.background : null;
  }

  private assign(thread: PoolThread, job: Job): void {
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    thread.job = job;
    // Held while it works: a script awaiting a result must not exit under it.
    thread.worker.ref();
    const transfer: ArrayBuffer[] = [];
    const feeds: Feeds = {};
    for (const [name, t] of Object.entries(job.feeds)) {
      // A child process gets a copy through its channel whatever the array: nothing to move or slice.
      if (this.isolation === 'process') {
        feeds[name] = t;
        continue;
      }
      // Pixels may be a decode other readers share (features/indexing/photo-pixels.ts): copied, never moved.
      const owns = !t.pixels && t.data.byteOffset === 0 && t.data.byteLength === t.data.buffer.byteLength && t.data.buffer instanceof ArrayBuffer;
      const data = owns ? t.data : (t.data.slice() as TensorArray);
      if (!transfer.includes(data.buffer as ArrayBuffer)) transfer.push(data.buffer as ArrayBuffer);
      feeds[name] = { type: t.type, dims: [...t.dims], data, ...(t.pixels ? { pixels: t.pixels } : {}) };
    }
    const model = { id: job.modelId, file: job.model.file, bytes: job.model.bytes, sha256: job.model.sha256 };
    try {
      thread.worker.postMessage({ op: 'run', id: ++this.nextId, model, feeds, ...(job.reduce ? { reduce: job.reduce } : {}) }, transfer);
    } catch (e) {
      // A feed that cannot be sent (an array already freed or moved by an earlier run): that call fails, and the
      // thread, which never got it, takes the next one. Left alone it would wait for an answer that never comes.
      thread.job = null;
      job.reject(new InferenceError(job.modelId, 'run', `its input could not be sent to the worker: ${e instanceof Error ? e.message : String(e)}`));
      this.rest(thread);
      queueMicrotask(() => this.pump());
      return;
    }
    // The channel copied them as it sent: an input that owns its buffer is freed now, as a thread's move would have
    // (release-bytes.ts: left to the collector, the detectors' inputs, megabytes a photo, started a full collection
    // every photo or two). Pixels may be a shared decode: never.
    if (this.isolation === 'process') for (const t of Object.values(job.feeds)) if (!t.pixels) releaseBytes(t.data);
  }

  private spawn(lane: Lane): PoolThread {
    const nice = lane === 'background' ? (this.opts.backgroundNice ?? DEFAULT_BACKGROUND_NICE) : 0;
    const worker = startRunner(this.isolation, { onnxruntime: this.onnxruntime, intraOpThreads: this.intraOpThreads, nice });
    const thread: PoolThread = { index: this.nextIndex++, worker, job: null, loaded: new Map(), idle: null, lane, releasing: null };
    worker.on('message', (m: Reply) => this.settle(thread, m));
    worker.on('error', (e: Error) => this.lost(thread, e.message));
    worker.on('exit', (code: number | null) => this.lost(thread, `exit code ${code}`));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  private settle(thread: PoolThread, m: Reply): void {
    if ('op' in m) return; // a release's answer: awaited by release()
    const job = thread.job;
    if (!job) return;
    thread.job = null;
    if (m.load) {
      thread.loaded.set(job.modelId, m.load.ms);
      this.counts.loads++;
    }
    const stat = this.stats.get(job.modelId) ?? { task: job.model.task, runs: 0, failures: 0, totalMs: 0 };
    this.stats.set(job.modelId, stat);
    if (m.ok) {
      stat.runs++;
      stat.totalMs += m.ms;
      job.resolve(m.outputs);
    } else {
      stat.failures++;
      // The thread read bytes that are not the verified file (replaced since the catalog checked it):
      // the model is unavailable, as when the catalog refuses it, and its callers wait for it the same way.
      if (m.refused) job.reject(new ModelUnavailableError(job.modelId, 'failed', m.error));
      else job.reject(new InferenceError(job.modelId, m.phase, m.error));
    }
    this.rest(thread);
    this.pump();
  }

  /** An idle thread: unref'd, and released after `idleMs` without work (its models' memory is freed). */
  private rest(thread: PoolThread): void {
    thread.worker.unref();
    if (this.closing || thread.releasing) return;
    thread.idle = setTimeout(() => {
      thread.idle = null;
      const i = this.threads.indexOf(thread);
      if (i < 0 || thread.job) return;
      this.threads.splice(i, 1);
      this.counts.releases++;
      void this.release(thread).then(() => {
        if (!this.threads.length && !this.releasing.size) this.opts.onIdle?.();
      });
      // Work that arrived meanwhile (none can be waiting for an idle thread, but a lane may be at its cap).
      this.pump();
    }, this.idleMs);
    thread.idle.unref();
  }

  /**
   * Takes a thread out of service: its sessions are released by the thread itself (after anything it
   * is running, as it handles one message at a time), then it ends. Resolves when it has ended.
   */
  private release(thread: PoolThread): Promise<void> {
    if (thread.releasing) return thread.releasing;
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    this.releasing.add(thread);
    thread.releasing = new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const end = () => {
        clearTimeout(timer);
        thread.worker.off('message', onMessage);
        thread.worker.terminate().then(
          () => resolve(),
          () => resolve(),
        );
      };
      const onMessage = (m: Reply) => {
        if ('op' in m && m.op === 'released') {
          this.counts.sessionsReleased += m.sessions;
          end();
        }
      };
      thread.worker.on('message', onMessage);
      thread.worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      // Only when nothing runs on it (RELEASE_GRACE_MS after the release was asked and not confirmed).
      timer = setTimeout(() => !thread.job && end(), RELEASE_GRACE_MS + (thread.job ? RUNNING_GRACE_MS : 0));
      timer.unref();
      // Held until it ends: close() awaits the confirmation, which an unref'd thread would never deliver.
      thread.worker.ref();
      thread.worker.postMessage({ op: 'release' });
    }).finally(() => {
      this.releasing.delete(thread);
      thread.loaded.clear();
    });
    return thread.releasing;
  }

  private lost(thread: PoolThread, why: string): void {
    this.releasing.delete(thread);
    const i = this.threads.indexOf(thread);
    if (i >= 0) this.threads.splice(i, 1);
    if (thread.idle) clearTimeout(thread.idle);
    const job = thread.job;
    thread.job = null;
    if (job) {
      const stat = this.stats.get(job.modelId) ?? { task: job.model.task, runs: 0, failures: 0, totalMs: 0 };
      stat.failures++;
      this.stats.set(job.modelId, stat);
      job.reject(new InferenceError(job.modelId, 'worker', why));
    }
    this.pump();
  }
}

/** Resolves when `p` does or after `ms`, whichever comes first. */
async function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

type Reply =
  | { id: number; ok: true; outputs: Record<string, Tensor>; ms: number; load: { ms: number } | null }
  | { id: number; ok: false; phase: 'load' | 'run'; error: string; refused?: boolean; load?: { ms: number } | null }
  | { op: 'released'; sessions: number };
