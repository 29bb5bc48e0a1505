/**
 * Where upload bytes go: a staging file, written in 1 MiB blocks, each block hashed (BLAKE3) on a
 * worker thread before it is written.
 *
 * Why this shape: on these machines BLAKE3 (hash-wasm) does about 450 MB/s on one core, as much as
 * multipart parsing and the file writes together; on the main thread it halved upload throughput.
 * Incoming pieces (64 KiB socket reads) are copied into a 1 MiB block; a full block is transferred
 * to a hashing worker (no copy), comes back hashed (transferred again), is written at its offset
 * (one write at a time, in order), and goes back to a pool of blocks shared by all uploads (at most
 * 16 spare ones are kept). At most MAX_BLOCKS blocks per upload are out (8 MiB): `write()` answers
 * false beyond that and the caller pauses its source until `onDrain`, so a slow disk or hash holds
 * the upload back instead of piling up memory.
 *
 * `finish()` flushes the last block, fsyncs (an acknowledged upload survives a power cut) and
 * returns the size and the hash. A worker that dies fails the uploads it was hashing; the next
 * upload starts a new one. Where the worker module cannot be found (a bundle that did not ship it)
 * hashing runs on the main thread: correct, only slower.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createContentHasher, type ContentHasher } from '../../adapters/media/hash.ts';
import type { HashRequest, HashResponse } from './hash-worker.ts';

export const BLOCK = 1024 * 1024;
export const MAX_BLOCKS = 8;
const IDLE_MS = 30_000;

/** Hashes blocks in order; hands each block back once hashed. */
interface BlockHasher {
  update(block: Buffer, len: number, hashed: (block: Buffer) => void): void;
  digest(): Promise<string>;
  drop(): void;
}

// --------------------------------------------------------------------------------- worker pool

interface HashJob {
  returns: ((block: Buffer) => void)[];
  resolve?: (hex: string) => void;
  reject?: (e: Error) => void;
  onFail: (e: Error) => void;
}

class PoolWorker {
  readonly worker: Worker;
  readonly jobs = new Map<number, HashJob>();
  private idle: NodeJS.Timeout | null = null;

  constructor(file: string | URL, onExit: (w: PoolWorker) => void) {
    this.worker = new Worker(file);
    this.worker.unref(); // never keeps the process alive
    this.worker.on('message', (m: HashResponse) => this.onMessage(m));
    this.worker.on('error', (e) => this.failAll(e));
    this.worker.on('exit', () => {
      this.failAll(new Error('the hashing worker stopped'));
      onExit(this);
    });
  }

  post(m: HashRequest, transfer: ArrayBuffer[] = []): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker.postMessage(m, transfer);
  }

  release(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0 && !this.idle) {
      this.idle = setTimeout(() => void this.worker.terminate(), IDLE_MS);
      this.idle.unref();
    }
  }

  private onMessage(m: HashResponse): void {
    const j = this.jobs.get(m.id);
    if (!j) return;
    if (m.op === 'ack') j.returns.shift()?.(Buffer.from(m.buf));
    else if (m.op === 'digest') {
      j.resolve?.(m.hex);
      this.release(m.id);
    } else {
      if (m.buf) j.returns.shift()?.(Buffer.from(m.buf));
      this.fail(m.id, j, new Error(`hashing failed: ${m.error}`));
    }
  }

  private fail(id: number, j: HashJob, e: Error): void {
    j.reject?.(e);
    j.onFail(e);
    this.release(id);
  }

  private failAll(e: Error): void {
    for (const [id, j] of [...this.jobs]) this.fail(id, j, e);
  }
}

function defaultWorkerFile(): string | URL | null {
  const here = typeof import.meta.url === 'string' ? import.meta.url : undefined;
  if (here) {
    for (const name of ['./hash-worker.ts', './hash-worker.js']) {
      const u = new URL(name, here);
      if (fs.existsSync(u)) return u;
    }
    return null;
  }
  const cjs = path.join(typeof __dirname === 'string' ? __dirname : process.cwd(), 'upload-hash-worker.cjs');
  return fs.existsSync(cjs) ? cjs : null;
}

export class HashPool {
  private readonly workers: (PoolWorker | null)[];
  private next = 0;
  private nextId = 1;

  constructor(
    size = Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    private readonly file: string | URL | null = defaultWorkerFile(),
  ) {
    this.workers = Array.from({ length: size }, () => null);
  }

  /** A hasher on a worker when possible, else on this thread. `onFail`: the worker died. */
  async hasher(onFail: (e: Error) => void): Promise<BlockHasher> {
    if (!this.file) return inThread(await createContentHasher());
    const slot = this.next++ % this.workers.length;
    const w = (this.workers[slot] ??= new PoolWorker(this.file, (dead) => {
      if (this.workers[slot] === dead) this.workers[slot] = null;
    }));
    const id = this.nextId++;
    const job: HashJob = { returns: [], onFail };
    w.jobs.set(id, job);
    w.post({ op: 'init', id });
    let done = false;
    return {
      update(block, len, hashed) {
        job.returns.push(hashed);
        const ab = block.buffer as ArrayBuffer;
        w.post({ op: 'update', id, buf: ab, len }, [ab]);
      },
      digest() {
        done = true;
        return new Promise<string>((resolve, reject) => {
          job.resolve = resolve;
          job.reject = reject;
          w.post({ op: 'digest', id });
        });
      },
      drop() {
        if (done) return;
        done = true;
        w.post({ op: 'drop', id });
        w.release(id);
      },
    };
  }
}

function inThread(h: ContentHasher): BlockHasher {
  return {
    update(block, len, hashed) {
      h.update(block.subarray(0, len));
      hashed(block);
    },
    digest: () => Promise.resolve(h.digest()),
    drop: () => undefined,
  };
}

/** The process-wide pool used by uploads. */
export const uploadHashPool = new HashPool();

// --------------------------------------------------------------------------------- the sink

/** Blocks shared by all uploads: taken and given back, so a busy server allocates almost nothing. */
const spareBlocks: Buffer[] = [];
const MAX_SPARE_BLOCKS = 16;
function takeBlock(): Buffer {
  return spareBlocks.pop() ?? Buffer.allocUnsafeSlow(BLOCK);
}
function returnBlock(b: Buffer): void {
  if (spareBlocks.length < MAX_SPARE_BLOCKS && b.buffer.byteLength === BLOCK) spareBlocks.push(b);
}

export class StagingSink {
  /** Bytes accepted so far. */
  size = 0;
  private offset = 0;
  private block: Buffer | null = null;
  private used = 0;
  private out = 0; // blocks taken from the pool and not yet back
  private inHash = 0; // of those, blocks on the hashing worker
  private error: Error | null = null;
  private drainWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly fh: fs.promises.FileHandle,
    private readonly hasher: BlockHasher | null,
  ) {}

  /** Creates `file` (exclusively: never overwrites) for writing. */
  static async create(file: string, opts: { hash: boolean }): Promise<StagingSink> {
    const fh = await fs.promises.open(file, 'wx');
    let sink!: StagingSink;
    const hasher = opts.hash ? await uploadHashPool.hasher((e) => sink.workerFailed(e)) : null;
    sink = new StagingSink(file, fh, hasher);
    return sink;
  }

  /** Takes bytes (copied). False: enough is in flight, wait for `onDrain` before writing more. */
  write(chunk: Uint8Array): boolean {
    if (this.error) throw this.error;
    let off = 0;
    while (off < chunk.byteLength) {
      if (!this.block) {
        this.block = takeBlock();
        this.out++;
        this.used = 0;
      }
      const n = Math.min(BLOCK - this.used, chunk.byteLength - off);
      this.block.set(chunk.subarray(off, off + n), this.used);
      this.used += n;
      off += n;
      if (this.used === BLOCK) this.submit();
    }
    this.size += chunk.byteLength;
    return this.out < MAX_BLOCKS;
  }

  /** `cb` runs once when fewer than MAX_BLOCKS blocks are out (or the sink failed). */
  onDrain(cb: () => void): void {
    if (this.out < MAX_BLOCKS || this.error) cb();
    else this.drainWaiters.push(cb);
  }

  /** Everything written, flushed to disk and closed; the hash of it all (empty when not hashing). */
  async finish(): Promise<{ size: number; hash: string }> {
    if (this.block && this.used > 0) this.submit();
    else if (this.block) this.giveBack(this.block);
    this.block = null;
    await this.idle();
    if (this.error) throw this.error;
    await this.fh.datasync();
    await this.close();
    return { size: this.size, hash: this.hasher ? await this.hasher.digest() : '' };
  }

  /** Stops, closes and removes the file. */
  async abort(): Promise<void> {
    this.fail(new Error('aborted'));
    await this.idle();
    this.hasher?.drop();
    await this.close();
    await fs.promises.rm(this.file, { force: true });
  }

  private submit(): void {
    const block = this.block!;
    const len = this.used;
    const at = this.offset;
    this.offset += len;
    this.block = null;
    this.used = 0;
    // One write at a time, in order (parallel writes to one file only contend for its lock).
    const write = (b: Buffer) => {
      this.writes = this.writes.then(async () => {
        try {
          if (!this.error) await writeFully(this.fh, b, len, at);
        } catch (e) {
          this.fail(e as Error);
        }
        this.giveBack(b);
      });
    };
    if (this.hasher) {
      this.inHash++;
      this.hasher.update(block, len, (b) => {
        this.inHash--;
        write(b);
      });
    } else write(block);
  }

  private giveBack(b: Buffer): void {
    returnBlock(b);
    this.out--;
    if (this.out < MAX_BLOCKS) for (const w of this.drainWaiters.splice(0)) w();
    if (this.out === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private fail(e: Error): void {
    this.error ??= e;
    for (const w of this.drainWaiters.splice(0)) w();
  }

  /** The hashing worker died: the blocks it held never come back. */
  private workerFailed(e: Error): void {
    this.fail(e);
    this.out -= this.inHash;
    this.inHash = 0;
    if (this.out === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private idle(): Promise<void> {
    if (this.block) {
      this.giveBack(this.block);
      this.block = null;
    }
    return this.out === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fh.close();
  }
}

async function writeFully(fh: fs.promises.FileHandle, b: Buffer, len: number, at: number): Promise<void> {
  let done = 0;
  while (done < len) {
    const { bytesWritten } = await fh.write(b, done, len - done, at + done);
    if (bytesWritten <= 0) throw new Error('short write');
    done += bytesWritten;
  }
}
