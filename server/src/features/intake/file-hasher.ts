/**
 * Hashing staged files while they are written (a chunked session's data file, whose chunks arrive
 * in any order and go straight to their place).
 *
 * A FileHasher follows one staging file: the writer calls `advance(n)` whenever the first n bytes
 * are on their way to disk (written, maybe not yet flushed), and `digest(size)` at the end. The
 * hasher reads what was advanced over back from the page cache and hashes it in order, while the
 * writes go on, so at the end only the last bytes remain.
 *
 * Where the reading and hashing run (chosen by the Intake, intake.ts):
 * - with the native BLAKE3 (blake3.ts), on the main thread: reads are async (libuv's pool), the
 *   hashing costs about 0.2 ms of the event loop per MiB, and no worker is started. A worker
 *   thread costs more than it saves here: measured under tsx, starting one took 0.6 s of CPU and
 *   1.3 s before its first digest, and it was started again after every 30 s without uploads; a
 *   chunked upload of 1 GiB needs about 0.25 s of hashing in total.
 * - with hash-wasm only (about 450 MB/s, too slow for the main thread), on a worker of a small
 *   pool (hash-worker.ts), which reads the file back the same way.
 *
 * Why read back rather than hash the received blocks: chunks arrive out of order (several requests
 * at once), and BLAKE3 is hashed in file order; reading back lets one mechanism follow whole
 * uploads and sessions alike (the reads cost a memory copy, about a tenth of a second per GiB).
 *
 * A worker that dies fails the files it was hashing (their digests reject); the next file starts a
 * new one. Where the worker module cannot be found (a bundle that did not ship it) the file is
 * hashed on the main thread by async reads: correct, only slower.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createBlake3, type Blake3Backend } from './blake3.ts';
import type { HashRequest, HashResponse } from './hash-worker.ts';

export interface FileHasher {
  /** Bytes [0, until) of the file are written; hash them when you can. Never goes back. */
  advance(until: number): void;
  /** Hashes through `size` and resolves with the BLAKE3 hex digest and who computed it. Once. */
  digest(size: number): Promise<Digest>;
  /** Stops and forgets the file (idempotent; no digest afterwards). */
  drop(): void;
}

/** A BLAKE3 digest (64 lower-case hex characters), with the implementation and thread that made it. */
export interface Digest {
  hex: string;
  backend: Blake3Backend;
  where: 'worker' | 'main';
}

const IDLE_MS = 30_000;

interface Pending {
  resolve?: (d: Digest) => void;
  reject?: (e: Error) => void;
  error?: Error;
}

class PoolWorker {
  readonly worker: Worker;
  readonly files = new Map<number, Pending>();
  private idle: NodeJS.Timeout | null = null;

  constructor(file: string | URL, onExit: (w: PoolWorker) => void) {
    this.worker = new Worker(file);
    this.worker.on('message', (m: HashResponse) => this.onMessage(m));
    this.worker.on('error', (e) => this.failAll(e));
    this.worker.on('exit', () => {
      this.failAll(new Error('the hashing worker stopped'));
      onExit(this);
    });
    // Held only while files are in flight (see `track`/`release`); after the listeners, because adding
    // a 'message' listener refs the worker again: an idle worker then kept every process that had
    // hashed a file alive for its 30 s idle timer.
    this.worker.unref();
  }

  /** A file is followed: the process waits for its digest (a script awaiting it must not just exit). */
  track(id: number, pending: Pending): void {
    this.files.set(id, pending);
    this.worker.ref();
  }

  /** Stops the thread now (a closing server does not wait for the idle timer). */
  stop(): Promise<unknown> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    return this.worker.terminate();
  }

  post(m: HashRequest): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker.postMessage(m);
  }

  release(id: number): void {
    this.files.delete(id);
    if (this.files.size === 0) this.worker.unref(); // idle: never keeps the process alive
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
      p.resolve?.({ hex: m.hex, backend: m.backend, where: 'worker' });
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

  /** Stops every worker (files still being hashed fail); a later `open` starts new ones. */
  async close(): Promise<void> {
    const running = this.workers.filter((w): w is PoolWorker => w !== null);
    this.workers.fill(null);
    await Promise.all(running.map((w) => w.stop()));
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
    w.track(id, pending);
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
        return new Promise<Digest>((resolve, reject) => {
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

/** Reading and hashing on this thread: the same contract as the worker's. */
export function inThread(file: string): FileHasher {
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
        const h = await hasher;
        return { hex: h.digest(), backend: h.backend, where: 'main' };
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
