/**
 * HEIC/HEIF decoding to raw RGB(A) pixels, off the main thread.
 *
 * Why this path: sharp's prebuilt libvips has libheif with AV1 only and refuses HEVC ("Support for this
 * compression format has not been built in"), ffmpeg 5.1 has no HEIF demuxer, and Debian's heif-convert
 * would be one more system package. heic-decode (libheif 1.23 + libde265 as wasm, no install step) decodes
 * every HEIC in the corpus, including an iPhone 16 Pro Max file Debian's libheif 1.15 rejects.
 * See reference/dependencies.md §4.
 *
 * Orientation: libheif applies the container's transforms (irot, imir, clap) while decoding, so the pixels
 * returned here is already upright. The EXIF Orientation tag of a HEIF must NOT be applied again (checked on
 * rotate_mirror_270.HEIC, whose EXIF says "mirror + rotate 270" while its pixels come out upright).
 *
 * Threads: a small pool of worker threads (default 1; decoding is CPU-bound and the machine has 2 cores).
 * A worker is started on first use and stopped after `idleMs` without work, because wasm memory only grows:
 * after a 24 MP photo the worker holds ~300 MB until it exits. A decode that exceeds `timeoutMs` terminates its
 * worker; a crashed worker fails only its own job and is replaced on the next one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { isTruncatedBmff } from './bmff.ts';
import { bufferSource, withFileSource } from './byte-source.ts';
import { MediaDecodeError } from './errors.ts';
import type { HeicRequest, HeicResponse } from './heic-worker.ts';

export interface DecodedImage {
  width: number;
  height: number;
  /** 3 for opaque images (RGB), 4 when the image has transparency (RGBA). */
  channels: 3 | 4;
  /** 8-bit interleaved pixels, width × height × channels bytes, no row padding. */
  data: Buffer;
}

export interface HeicDecodeOptions {
  /** Refuse images above this many pixels before decoding (default 150 MP: 108 MP phone sensors fit). */
  maxPixels?: number;
  /** Refuse files above this size (default 256 MB). */
  maxBytes?: number;
  /** Per-decode time limit (default 60 s). */
  timeoutMs?: number;
}

export interface HeicPoolOptions {
  workers?: number;
  idleMs?: number;
  /** Override the worker module's location (bundled builds). */
  workerPath?: string | URL;
}

export const HEIC_DEFAULT_MAX_PIXELS = 150_000_000;

interface Job {
  req: HeicRequest;
  timeoutMs: number;
  resolve(v: DecodedImage): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * Where the worker module is: next to this one (heic-worker.ts under tsx, .js when compiled). In a CommonJS
 * bundle (the Electron build bundles the server into one file) import.meta.url does not exist; the bundle
 * must then ship the worker as heic-worker.cjs beside it, or the path is set with configureHeicDecoder.
 */
function defaultWorkerPath(): URL | string {
  const here = typeof import.meta.url === 'string' ? import.meta.url : undefined;
  if (here) {
    const ts = new URL('./heic-worker.ts', here);
    return fs.existsSync(ts) ? ts : new URL('./heic-worker.js', here);
  }
  return path.join(typeof __dirname === 'string' ? __dirname : process.cwd(), 'heic-worker.cjs');
}

class HeicPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    size: number,
    private readonly idleMs: number,
    private readonly workerPath: string | URL,
  ) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, job: null, timer: null, idleTimer: null }));
  }

  decode(filePath: string, o: Required<HeicDecodeOptions>, bytes?: Uint8Array): Promise<DecodedImage> {
    return new Promise((resolve, reject) => {
      const req: HeicRequest = { id: this.nextId++, filePath, maxPixels: o.maxPixels, maxBytes: o.maxBytes, ...(bytes ? { bytes } : {}) };
      this.queue.push({ req, timeoutMs: o.timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Stop every worker (pending jobs fail). For shutdown and tests. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new MediaDecodeError(job.req.filePath, 'HEIC decoder shut down'));
    await Promise.all(this.slots.map((s) => this.stop(s, 'HEIC decoder shut down')));
  }

  get activeWorkers(): number {
    return this.slots.filter((s) => s.worker).length;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      this.start(slot, job);
    }
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(this.workerPath);
    worker.on('message', (msg: HeicResponse) => {
      const job = slot.job;
      if (!job || msg.id !== job.req.id) return;
      this.finish(slot);
      if (msg.ok) resolveJob(job, msg);
      else job.reject(new MediaDecodeError(job.req.filePath, msg.error));
    });
    worker.on('error', (err) => this.crash(slot, worker, `decoder worker crashed: ${err.message}`));
    worker.on('exit', (code) => this.crash(slot, worker, `decoder worker exited (${code})`));
    return worker;
  }

  private start(slot: Slot, job: Job): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.worker ??= this.spawn(slot);
    slot.worker.ref(); // keep the process alive while a decode is pending
    slot.job = job;
    slot.timer = setTimeout(() => {
      void this.stop(slot, `decode timed out after ${job.timeoutMs} ms`);
    }, job.timeoutMs);
    slot.worker.postMessage(job.req);
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    if (slot.worker) {
      slot.worker.unref(); // an idle decoder must not keep the process alive
      const worker = slot.worker;
      slot.idleTimer = setTimeout(() => {
        if (slot.worker === worker && !slot.job) void this.stop(slot, 'idle');
      }, this.idleMs);
      slot.idleTimer.unref();
    }
    queueMicrotask(() => this.pump());
  }

  private crash(slot: Slot, worker: Worker, why: string): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const job = slot.job;
    if (job) {
      this.finish(slot);
      job.reject(new MediaDecodeError(job.req.filePath, why));
    }
  }

  private async stop(slot: Slot, why: string): Promise<void> {
    const worker = slot.worker;
    const job = slot.job;
    slot.worker = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (job) {
      this.finish(slot);
      job.reject(new MediaDecodeError(job.req.filePath, why));
    }
    if (worker) await worker.terminate();
  }
}

function resolveJob(job: Job, msg: Extract<HeicResponse, { ok: true }>): void {
  const data = Buffer.from(msg.data);
  if (data.length !== msg.width * msg.height * msg.channels) {
    job.reject(new MediaDecodeError(job.req.filePath, `decoder returned ${data.length} bytes for ${msg.width}×${msg.height}`));
    return;
  }
  job.resolve({ width: msg.width, height: msg.height, channels: msg.channels, data });
}

let pool: HeicPool | null = null;
let poolOptions: HeicPoolOptions = { workers: 1, idleMs: 30_000 };

/** Change the pool size or idle time (takes effect for the next pool; the current one is closed). */
export async function configureHeicDecoder(options: HeicPoolOptions): Promise<void> {
  poolOptions = { ...poolOptions, ...options };
  const old = pool;
  pool = null;
  await old?.close();
}

/** Stop the decoder workers (server shutdown, end of tests). */
export async function shutdownHeicDecoder(): Promise<void> {
  const old = pool;
  pool = null;
  await old?.close();
}

/** Number of live worker threads (0 when idle long enough). */
export function heicDecoderWorkers(): number {
  return pool?.activeWorkers ?? 0;
}

/**
 * Decode the primary image of a HEIC/HEIF file to upright 8-bit RGB(A) (container transforms applied).
 * Throws MediaDecodeError for damaged, unsupported or too-large images.
 */
export async function decodeHeic(filePath: string, options: HeicDecodeOptions = {}): Promise<DecodedImage> {
  return decodeHeicFrom(filePath, null, options);
}

/**
 * As `decodeHeic`, for bytes in memory (copied to the worker, never written anywhere); `name` only
 * names the image in errors.
 */
export async function decodeHeicBytes(bytes: Uint8Array, name: string, options: HeicDecodeOptions = {}): Promise<DecodedImage> {
  return decodeHeicFrom(name, bytes, options);
}

async function decodeHeicFrom(filePath: string, bytes: Uint8Array | null, options: HeicDecodeOptions): Promise<DecodedImage> {
  // libheif decodes a cut-off file "successfully", with the missing tiles left blank; refuse it instead.
  if (await (bytes ? isTruncatedBmff(bufferSource(bytes)) : withFileSource(filePath, isTruncatedBmff))) throw new MediaDecodeError(filePath, 'file is truncated (a box runs past the end)');
  pool ??= new HeicPool(poolOptions.workers ?? 1, poolOptions.idleMs ?? 30_000, poolOptions.workerPath ?? defaultWorkerPath());
  return pool.decode(filePath, {
    maxPixels: options.maxPixels ?? HEIC_DEFAULT_MAX_PIXELS,
    maxBytes: options.maxBytes ?? 256 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 60_000,
  }, bytes ?? undefined);
}
