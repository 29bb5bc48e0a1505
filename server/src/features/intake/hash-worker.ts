/**
 * Worker thread body for the intake's hashing (started by file-hasher.ts; not imported anywhere else).
 *
 * It hashes staged files by reading them back while they are being written: the main thread writes
 * an upload's bytes to its staging file and says how far the file is complete (`advance`); this
 * worker reads that range (from the page cache: the bytes were just written) and feeds it to
 * BLAKE3 (blake3.ts: native, or hash-wasm). The main thread thus never hashes, never hands buffers
 * over, and a chunked upload whose chunks arrive out of order is hashed in file order: the service
 * advances a session's hasher over the chunks stored contiguously from the start.
 *
 * Several files share the worker, each by its id. Work is done in slices of SLICE bytes, taking the
 * files in turn, so one large file (a session resumed after a restart, hashed from its start) does
 * not hold back the others; messages are read between slices.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { createBlake3, type Blake3, type Blake3Backend } from './blake3.ts';

export type HashRequest =
  /** Start hashing `file` (it exists; its bytes arrive later). */
  | { op: 'open'; id: number; file: string }
  /** Bytes [0, until) of the file are written: hash them. */
  | { op: 'advance'; id: number; until: number }
  /** Hash through `until`, then answer the digest and forget the file. */
  | { op: 'digest'; id: number; until: number }
  | { op: 'drop'; id: number };

export type HashResponse = { op: 'digest'; id: number; hex: string; backend: Blake3Backend } | { op: 'error'; id: number; error: string };

const READ_BYTES = 4 * 1024 * 1024;
const SLICE = 16 * 1024 * 1024;

interface Job {
  id: number;
  fd: number;
  hasher: Blake3 | null;
  pos: number;
  until: number;
  digest: boolean;
}

const jobs = new Map<number, Job>();
const buf = Buffer.allocUnsafeSlow(READ_BYTES);
let scheduled = false;

parentPort!.on('message', (m: HashRequest) => {
  try {
    handle(m);
  } catch (e) {
    fail(m.id, e);
  }
});

function handle(m: HashRequest): void {
  switch (m.op) {
    case 'open': {
      const job: Job = { id: m.id, fd: fs.openSync(m.file, 'r'), hasher: null, pos: 0, until: 0, digest: false };
      jobs.set(m.id, job);
      createBlake3().then(
        (h) => {
          job.hasher = h;
          schedule();
        },
        (e: unknown) => fail(m.id, e),
      );
      return;
    }
    case 'advance':
    case 'digest': {
      const job = jobs.get(m.id);
      if (!job) return; // failed or dropped meanwhile: its error was answered already
      job.until = Math.max(job.until, m.until);
      if (m.op === 'digest') job.digest = true;
      schedule();
      return;
    }
    case 'drop':
      close(m.id);
      return;
  }
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(work);
}

/** One slice of each file that has bytes waiting, then again after the queued messages. */
function work(): void {
  scheduled = false;
  let more = false;
  for (const job of [...jobs.values()]) {
    if (!job.hasher) continue;
    try {
      const end = Math.min(job.until, job.pos + SLICE);
      while (job.pos < end) {
        const n = fs.readSync(job.fd, buf, 0, Math.min(READ_BYTES, end - job.pos), job.pos);
        if (n === 0) throw new Error(`the staged file ends at ${job.pos} bytes, before ${job.until}`);
        job.hasher.update(buf.subarray(0, n));
        job.pos += n;
      }
      if (job.pos < job.until) more = true;
      else if (job.digest) {
        const hex = job.hasher.digest();
        close(job.id);
        parentPort!.postMessage({ op: 'digest', id: job.id, hex, backend: job.hasher.backend } satisfies HashResponse);
      }
    } catch (e) {
      fail(job.id, e);
    }
  }
  if (more) schedule();
}

function close(id: number): void {
  const job = jobs.get(id);
  if (!job) return;
  jobs.delete(id);
  try {
    fs.closeSync(job.fd);
  } catch {
    /* already gone */
  }
}

function fail(id: number, e: unknown): void {
  close(id);
  parentPort!.postMessage({ op: 'error', id, error: (e as Error).message ?? String(e) } satisfies HashResponse);
}
