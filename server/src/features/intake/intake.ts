/**
 * The intake: the one way bytes become files Hearth catalogues, shared by uploads, folder scans and
 * the watcher (and next the cloud import). It owns the hashing machinery, so every path hashes the
 * same way and is counted in one place:
 *
 * - `receive`: a stream into a staging file (staging.ts, sink.ts), hashed as its blocks go to disk
 *   with the native BLAKE3 on this thread (about 0.2 ms per MiB), flushed before it counts.
 * - `follow`: a file written out of order (a chunked session's data file), read back and hashed in
 *   order as its contiguous prefix grows (file-hasher.ts): with the native BLAKE3 on this thread
 *   (no worker to start for an upload), with hash-wasm on a worker.
 * - `hashFile`: a file already on disk (a scan or the watcher found it; startup recovery), read and
 *   hashed on a worker of the intake's pool (native BLAKE3 there, hash-wasm if it cannot load): a scan
 *   of thousands of files keeps the event loop free for requests, and its reads and hashing run beside
 *   the catalog writes of the main thread. Before the intake, scans hashed with hash-wasm on the main
 *   thread (about 450 MB/s, a 1 GB video held the event loop for 2 s).
 * - content detection (content.ts) and the no-overwrite commit (commit-file.ts).
 *
 * `stats()` counts the files hashed and their bytes by implementation (native or wasm) and thread
 * (main or worker): tests and benches read them to see which hasher did the work.
 */
import type { Readable } from 'node:stream';
import { blake3Backend, type Blake3Backend } from './blake3.ts';
import { HashPool, inThread, type Digest, type FileHasher } from './file-hasher.ts';
import type { SinkOptions } from './sink.ts';
import { receiveToFile, type Received } from './staging.ts';

export interface HashedFile {
  hash: string;
  backend: Blake3Backend;
  where: Digest['where'];
}

/** Files and bytes hashed, by implementation and thread, since the intake was made. */
export type IntakeStats = Record<`${Blake3Backend}_${Digest['where']}`, { files: number; bytes: number }>;

export class Intake {
  private readonly pool: HashPool;
  private readonly counts: IntakeStats = {
    native_main: { files: 0, bytes: 0 },
    native_worker: { files: 0, bytes: 0 },
    wasm_main: { files: 0, bytes: 0 },
    wasm_worker: { files: 0, bytes: 0 },
  };

  /** `pool`: for tests (a pool without a worker module hashes on this thread). */
  constructor(pool: HashPool = new HashPool()) {
    this.pool = pool;
  }

  /** Stops the hashing threads (the server is closing). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** Streams `source` into `dest` (see receiveToFile); hashed unless `opts.hash` is false. */
  async receive(source: Readable, dest: string, maxBytes: number, opts: Omit<SinkOptions, 'follow'> = { create: true, hash: true }): Promise<Received> {
    const got = await receiveToFile(source, dest, maxBytes, { ...opts, follow: (file) => this.pool.open(file) });
    if (got.digest) this.count(got.digest, got.size);
    return got;
  }

  /** Follows a file written out of order: advance over its contiguous prefix, digest at the end. */
  follow(file: string): FileHasher {
    const inner = blake3Backend() === 'native' ? inThread(file) : this.pool.open(file);
    return {
      advance: (until) => inner.advance(until),
      digest: async (size) => {
        const d = await inner.digest(size);
        this.count(d, size);
        return d;
      },
      drop: () => inner.drop(),
    };
  }

  /** BLAKE3 of a whole file on disk (`size`: its size as stat saw it), hashed off the main thread. */
  async hashFile(abs: string, size: number): Promise<HashedFile> {
    const d = await this.pool.open(abs).digest(size);
    this.count(d, size);
    return { hash: d.hex, backend: d.backend, where: d.where };
  }

  stats(): IntakeStats {
    return structuredClone(this.counts);
  }

  private count(d: Digest, bytes: number): void {
    const c = this.counts[`${d.backend}_${d.where}`];
    c.files++;
    c.bytes += bytes;
  }
}
