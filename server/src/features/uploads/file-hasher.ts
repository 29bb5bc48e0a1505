/**
 * Hashing staged files while they are written, off the main thread (hash-worker.ts does the work).
 *
 * A FileHasher follows one staging file: the writer calls `advance(n)` whenever the first n bytes
 * are on their way to disk (written, maybe not yet flushed), and `digest(size)` at the end. The
 * worker reads what was advanced over from the page cache and hashes it in order, in parallel with
 * the writes and the request parsing on the main thread, so at the end only the last bytes remain.
 *
 * Why read back rather than hand the received blocks to the worker: a chunked upload's chunks arrive
 * in any order and go straight to their place in the file; reading back lets one mechanism hash
 * whole uploads and sessions alike, in file order, and the main thread keeps its buffers (the reads
 * cost a memory copy on the worker's core, about a tenth of a second per GiB).
 *
 * A worker that dies fails the files it was hashing (their digests reject); the next file starts a
 * new one. Where the worker module cannot be found (a bundle that did not ship it) the file is
 * hashed on the main thread by async reads: correct, only slower.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createBlake3 } from './blake3.ts';
import type { HashRequest, HashResponse } from './hash-worker.ts';

export interface FileHasher {
  /** Bytes [0, until) of the file are written; hash them when you can. Never goes back. */
  advance(until: number): void;
  /** Hashes through `size` and resolves with the BLAKE3 hex digest. Once. */
  digest(size: number): Promise<string>;
  /** Stops and forgets the file (idempotent; no digest afterwards). */
  drop(): void;
}

const IDLE_MS = 30_000;

interface Pending {
  resolve?: (hex: string) => void;
  reject?: (e: Error) => void;
  error?: Error;
}

class PoolWorker {
  readonly worker: Worker;
  readonly files = new Map<number, Pending>();
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

  post(m: HashRequest): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker.postMessage(m);
  }

  release(id: number): void {
    this.files.delete(id);
    if (this.files.size === 0 && !this.idle) {
      this.idle = setTimeout(() => void this.worker.terminate(), IDLE_MS);
      this.idle.unref();
    }
  }

  private onMessage(m: HashResponse): void {
    const p = this.files.get(m.id);
    if (!p) return;
    if (m.op === 'digest') {
      this.release(m.id);
      p.resolve?.(m.hex);
    } else this.fail(m.id, p, new Error(`hashing failed: ${m.error}`));
  }

  private fail(id: number, p: Pending, e: Error): void {
    if (p.reject) {
      this.release(id);
      p.reject(e);
    } else p.error ??= e; // reported when the digest is asked for
  }

  private failAll(e: Error): void {
    for (const [id, p] of [...this.files]) this.fail(id, p, e);
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

  /** Starts following `file` (which must exist). */
  open(file: string): FileHasher {
    if (!this.file) return inThread(file);
    const slot = this.next++ % this.workers.length;
    const w = (this.workers[slot] ??= new PoolWorker(this.file, (dead) => {
      if (this.workers[slot] === dead) this.workers[slot] = null;
    }));
    const id = this.nextId++;
    const pending: Pending = {};
    w.files.set(id, pending);
    w.post({ op: 'open', id, file });
    let sent = 0;
    let done = false;
    return {
      advance(until) {
        if (done || until <= sent) return;
        sent = until;
        w.post({ op: 'advance', id, until });
      },
      digest(size) {
        if (done) return Promise.reject(new Error('digest asked twice or after drop'));
        done = true;
        if (pending.error) {
          w.release(id);
          return Promise.reject(pending.error);
        }
        return new Promise<string>((resolve, reject) => {
          pending.resolve = resolve;
          pending.reject = reject;
          w.post({ op: 'digest', id, until: size });
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

/** The fallback without a worker: the same contract, reading and hashing on this thread. */
function inThread(file: string): FileHasher {
  let until = 0;
  let dropped = false;
  let chain: Promise<number> = (async () => 0)();
  const hasher = createBlake3();
  const fh = fs.promises.open(file, 'r');
  fh.catch(() => undefined); // a missing file fails the digest, not the process
  const buf = Buffer.allocUnsafeSlow(1024 * 1024);
  const catchUp = (pos: number): Promise<number> =>
    (async () => {
      const [h, f] = await Promise.all([hasher, fh]);
      while (pos < until && !dropped) {
        const { bytesRead } = await f.read(buf, 0, Math.min(buf.length, until - pos), pos);
        if (bytesRead === 0) throw new Error(`the staged file ends at ${pos} bytes, before ${until}`);
        h.update(buf.subarray(0, bytesRead));
        pos += bytesRead;
      }
      return pos;
    })();
  const close = () => void fh.then((f) => f.close()).catch(() => undefined);
  return {
    advance(n) {
      if (n <= until || dropped) return;
      until = n;
      chain = chain.then(catchUp);
      chain.catch(() => undefined);
    },
    async digest(size) {
      until = Math.max(until, size);
      try {
        await chain.then(catchUp);
        return (await hasher).digest();
      } finally {
        dropped = true;
        close();
      }
    },
    drop() {
      if (dropped) return;
      dropped = true;
      close();
    },
  };
}

/** The process-wide pool used by uploads. */
export const uploadHashPool = new HashPool();
