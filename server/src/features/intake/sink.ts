/**
 * Where incoming bytes go: a staging file, written in 1 MiB blocks at their offsets, optionally hashed
 * (BLAKE3).
 *
 * Why this shape: incoming pieces are small (64 KiB socket reads); they are copied into 1 MiB
 * blocks so the disk sees few large writes (a 1 GiB upload measured 0.3 s of kernel time in 1 MiB
 * writes, 0.4–0.5 s in 64 KiB ones and, oddly, 0.5–2.7 s in 2 or 4 MiB ones), and the blocks come from a
 * pool shared by all uploads (at most 16 spare ones are kept), so a busy server allocates almost
 * nothing. Blocks are written one at a time, in order (parallel writes to one file only contend
 * for its lock). At most MAX_BLOCKS blocks per upload are out (8 MiB): `write()` answers false
 * beyond that and the caller pauses its source until `onDrain`, so a slow disk holds the upload
 * back instead of piling up memory.
 *
 * Hashing, in order of preference:
 * - native BLAKE3 (blake3.ts) on this thread, each block as it is handed to the disk: about 0.2 s
 *   of CPU per GiB, with no copy, no message and no second pass over the file;
 * - without the native module, hash-wasm is too slow for this thread (about 450 MB/s), so a worker
 *   follows the file instead (file-hasher.ts): it is told how far the file is written and reads it
 *   back from the page cache. (Reading back while writing slowed the writes down measurably, which
 *   is why it is not the first choice.)
 *
 * Two uses: a whole file into a new staging file (`create`, hashed), and one chunk of a session at
 * its offset in the session's preallocated data file (not hashed here: the session hashes its file
 * in order as chunks complete, chunk-sessions.ts).
 *
 * `finish()` flushes the last block and fsyncs (an acknowledged upload survives a power cut; the
 * digest is computed meanwhile) and returns the size and the hash. A caller that flushes on its own
 * terms (`sync: false`) gets the bytes written, not flushed.
 */
import fs from 'node:fs';
import { createNativeBlake3, type Blake3 } from './blake3.ts';
import type { Digest, FileHasher } from './file-hasher.ts';
import { giveBackMemory } from '../../platform/cache/give-back-memory.ts';

export const BLOCK = 1024 * 1024;
export const MAX_BLOCKS = 8;
/** The hasher is told about progress in steps of this many bytes (fewer messages to the worker). */
const ADVANCE_STEP = 8 * BLOCK;

/**
 * Blocks shared by all uploads: taken and given back. Enough are kept for a client's parallel chunk
 * requests (4 × MAX_BLOCKS): a block freed and allocated again costs page faults and, worse, counts
 * as new external memory for V8, which answers with full garbage collections (seen in traces as
 * "external memory pressure"). Spare blocks (up to 32 MiB) are let go after 20 s without uploads: a
 * client's chunks come back to back, and the memory should be back well within the minute after an
 * import (issue 25).
 */
const spareBlocks: Buffer[] = [];
const MAX_SPARE_BLOCKS = 32;
const SPARE_IDLE_MS = 20_000;
let spareTrim: NodeJS.Timeout | null = null;
function takeBlock(): Buffer {
  return spareBlocks.pop() ?? Buffer.allocUnsafeSlow(BLOCK);
}
function returnBlock(b: Buffer): void {
  if (spareBlocks.length < MAX_SPARE_BLOCKS && b.buffer.byteLength === BLOCK) spareBlocks.push(b);
  // Started again at every return: 20 s after the last one (a block is 1 MiB, so this is rare enough).
  if (spareTrim) clearTimeout(spareTrim);
  spareTrim = setTimeout(() => {
    spareBlocks.length = 0;
    spareTrim = null;
    giveBackMemory(); // the blocks' memory goes back when the collector finalises them
  }, SPARE_IDLE_MS);
  spareTrim.unref();
}
/** How many spare blocks are kept now (the footprint's figures, and the test that they go when idle). */
export function spareBlockCount(): number {
  return spareBlocks.length;
}

export interface SinkOptions {
  /** true: create `file` (exclusively: never overwrites) and remove it on abort. false: write into the existing file. */
  create: boolean;
  /** Hash the file's bytes (from its start: only with `offset` 0). */
  hash: boolean;
  /** Where the first byte goes. */
  offset?: number;
  /**
   * false: `finish()` leaves the flush to the caller (a chunk of a session, flushed behind its answer:
   * features/uploads/chunk-sync.ts). Default true: flushed (fdatasync) before `finish()` resolves.
   */
  sync?: boolean;
  /** Without the native BLAKE3: a hasher that follows the file as it is written (the intake's worker). */
  follow?: (file: string) => FileHasher;
}

export class StagingSink {
  /** Bytes accepted so far. */
  size = 0;
  private offset: number;
  private written: number;
  private advanced = 0;
  private block: Buffer | null = null;
  private used = 0;
  private out = 0; // blocks taken from the pool and not yet written
  private error: Error | null = null;
  private drainWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly fh: fs.promises.FileHandle,
    private readonly inline: Blake3 | null,
    private readonly hasher: FileHasher | null,
    private readonly opts: SinkOptions,
  ) {
    this.offset = opts.offset ?? 0;
    this.written = this.offset;
  }

  static async create(file: string, opts: SinkOptions): Promise<StagingSink> {
    if (opts.hash && opts.offset) throw new Error('a hashed sink starts at offset 0');
    const fh = await fs.promises.open(file, opts.create ? 'wx' : 'r+');
    try {
      const inline = opts.hash ? createNativeBlake3() : null;
      if (opts.hash && !inline && !opts.follow) throw new Error('a hashed sink without the native BLAKE3 needs a follower');
      return new StagingSink(file, fh, inline, opts.hash && !inline ? opts.follow!(file) : null, opts);
    } catch (e) {
      await fh.close();
      throw e;
    }
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
  async finish(): Promise<{ size: number; digest: Digest | null }> {
    if (this.block && this.used > 0) this.submit();
    await this.idle();
    if (this.error) throw this.error;
    const inline = this.inline;
    const [, digest] = await Promise.all([
      this.opts.sync === false ? null : this.fh.datasync(),
      inline ? ({ hex: inline.digest(), backend: inline.backend, where: 'main' } satisfies Digest) : this.hasher ? this.hasher.digest(this.size) : null,
    ]);
    await this.close();
    return { size: this.size, digest };
  }

  /** Stops and closes; removes the file when this sink created it. */
  async abort(): Promise<void> {
    this.fail(new Error('aborted'));
    await this.idle();
    this.hasher?.drop();
    await this.close();
    if (this.opts.create) await fs.promises.rm(this.file, { force: true });
  }

  private submit(): void {
    const block = this.block!;
    const len = this.used;
    const at = this.offset;
    this.offset += len;
    this.block = null;
    this.used = 0;
    this.inline?.update(block.subarray(0, len)); // blocks are submitted in file order
    this.writes = this.writes.then(async () => {
      try {
        if (!this.error) {
          await writeFully(this.fh, block, len, at);
          this.written = at + len;
          if (this.hasher && this.written - this.advanced >= ADVANCE_STEP) {
            this.advanced = this.written;
            this.hasher.advance(this.written);
          }
        }
      } catch (e) {
        this.fail(e as Error);
      }
      this.giveBack(block);
    });
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
