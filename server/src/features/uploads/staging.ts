/**
 * Upload staging and the commit into a repository.
 *
 * Layout inside a repository (`.hearth/` is Hearth's hidden folder, never indexed):
 *
 *   .hearth/staging/<uuid>                          a single upload or a merged session, while it streams in
 *   .hearth/staging/sessions/<session_id>/<i>.chunk  chunk i of a session, complete and of the expected size
 *   .hearth/staging/sessions/<session_id>/<i>.<rand>.partial   chunk i while it streams in
 *
 * Staging sits in the target repository so the commit is a rename on one file system, even when
 * the repository is on another disk. The commit never overwrites: it hard-links the staged file to
 * the first free name (`link()` fails with EEXIST atomically when the name is taken) and then drops
 * the staging name. File systems without hard links (FAT/exFAT, some network shares) get the
 * fallback: reserve the name with O_CREAT|O_EXCL, then rename the staged file over our own empty
 * placeholder.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BLOCK, StagingSink } from './sink.ts';
import { SYSTEM_DIR } from '../repositories/marker.ts';

export const STAGING_DIR = path.join(SYSTEM_DIR, 'staging');
export const SESSIONS_DIR = path.join(STAGING_DIR, 'sessions');
/** Committed uploads land under `uploads/YYYY/MM/` (upload time, server-local calendar). */
export const UPLOADS_DIR = 'uploads';

/** Session ids: client-chosen or ours; letters, digits and '-' only (no path separators, no dots, no '_'). */
export const SESSION_ID = /^[A-Za-z0-9-]{1,64}$/;

export function stagingRoot(repoPath: string): string {
  return path.join(repoPath, STAGING_DIR);
}
export function sessionDir(repoPath: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`bad session id ${JSON.stringify(sessionId)}`);
  return path.join(repoPath, SESSIONS_DIR, sessionId);
}
export function chunkPath(repoPath: string, sessionId: string, index: number): string {
  return path.join(sessionDir(repoPath, sessionId), `${index}.chunk`);
}
export function partialChunkPath(repoPath: string, sessionId: string, index: number): string {
  return path.join(sessionDir(repoPath, sessionId), `${index}.${crypto.randomBytes(6).toString('hex')}.partial`);
}
export function newStagingFile(repoPath: string): string {
  return path.join(stagingRoot(repoPath), crypto.randomUUID());
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_NAME_BYTES = 200;

/**
 * The name a client gave, made safe to store: its base name (whatever directories it claims, with
 * `/` or `\`), control characters and characters Windows refuses replaced by `_`, leading dots
 * (hidden files) and trailing dots/spaces dropped, at most 200 bytes (the extension kept).
 * Returns null for names that cannot be a file name at all: empty, NUL, `.`/`..`.
 */
export function sanitizeFileName(raw: string): string | null {
  if (raw.includes('\0')) return null;
  const base = raw.split(/[\\/]/).pop() ?? '';
  if (base === '' || base === '.' || base === '..') return null;
  // eslint-disable-next-line no-control-regex
  let name = base.normalize('NFC').replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_');
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') return null;
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    const ext = path.extname(name).slice(0, 16);
    let stem = name.slice(0, name.length - ext.length);
    while (Buffer.byteLength(stem + ext) > MAX_NAME_BYTES) stem = [...stem].slice(0, -1).join('');
    name = stem + ext;
  }
  return name;
}

/** `IMG_1.jpg` → `IMG_1 (n).jpg`. */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

/** Repository-relative folder (forward slashes) for an upload made at `now`. */
export function uploadFolder(now: Date): string {
  return `${UPLOADS_DIR}/${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
}

const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK']);

/**
 * Moves a staged file into the repository at `folder/name`, or `name (1)`, `name (2)`… when the
 * name is taken. Never overwrites anything. Returns the repository-relative path (forward slashes).
 */
export async function commitStaged(repoPath: string, staged: string, relFolder: string, name: string): Promise<string> {
  const folderAbs = path.join(repoPath, ...relFolder.split('/'));
  await fs.promises.mkdir(folderAbs, { recursive: true });
  let useLink = true;
  for (let n = 0; n < 10_000; n++) {
    const candidate = n < 9_999 ? numberedName(name, n) : numberedName(name, Number.parseInt(crypto.randomBytes(4).toString('hex'), 16));
    const target = path.join(folderAbs, candidate);
    if (useLink) {
      try {
        await fs.promises.link(staged, target);
        await fs.promises.unlink(staged);
        return `${relFolder}/${candidate}`;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') continue;
        if (!NO_LINK.has(code)) throw e;
        useLink = false; // this file system has no hard links: reserve-then-rename below
      }
    }
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(target, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    await fh.close();
    try {
      await fs.promises.rename(staged, target); // replaces only our own empty placeholder
    } catch (e) {
      await fs.promises.rm(target, { force: true });
      throw e;
    }
    return `${relFolder}/${candidate}`;
  }
  throw new Error(`no free file name for ${name} in ${relFolder}`);
}

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
    this.name = 'TooLargeError';
  }
}

export interface Received {
  size: number;
  hash: string;
  /** The first bytes (up to 4 KiB), for content detection without reading the file again. */
  head: Buffer;
}

const HEAD_BYTES = 4096;

/**
 * Streams `source` into a new file at `dest` (exclusive create: never overwrites) while hashing it
 * with BLAKE3 (sink.ts: 1 MiB blocks, hashed on a worker thread). Fails with TooLargeError as soon
 * as more than `maxBytes` arrived, and with the source's error when it breaks off (a client that
 * went away); in both cases `dest` is removed. The data is on disk (fsync) before this resolves.
 *
 * The source is never destroyed here: on a failure it is switched to draining (its remaining data
 * is read and dropped), because a busboy part that is destroyed midway stalls the whole form. The
 * caller decides whether the rest of the request still matters (batch) or not (destroy the parser).
 */
export async function receiveToFile(source: Readable, dest: string, maxBytes: number, opts: { hash?: boolean } = {}): Promise<Received> {
  let sink: StagingSink;
  try {
    sink = await StagingSink.create(dest, { hash: opts.hash !== false });
  } catch (e) {
    source.resume();
    throw e;
  }
  const headParts: Buffer[] = [];
  let headLen = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      let ended = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        source.removeListener('data', onData);
        source.on('data', () => {}); // drain
        source.resume();
        reject(e);
      };
      const onData = (chunk: Buffer) => {
        if (sink.size + chunk.length > maxBytes) return fail(new TooLargeError(maxBytes));
        if (headLen < HEAD_BYTES) {
          headParts.push(chunk.subarray(0, HEAD_BYTES - headLen));
          headLen += Math.min(chunk.length, HEAD_BYTES - headLen);
        }
        let more: boolean;
        try {
          more = sink.write(chunk);
        } catch (e) {
          return fail(e);
        }
        if (!more) {
          source.pause();
          sink.onDrain(() => {
            if (!failed) source.resume();
          });
        }
      };
      source.on('data', onData);
      source.once('error', fail);
      source.once('end', () => {
        ended = true;
        if (failed) return;
        if ((source as Readable & { truncated?: boolean }).truncated) return fail(new TooLargeError(maxBytes));
        resolve();
      });
      source.once('close', () => {
        if (!ended) fail(new Error('the upload stopped before the file was complete'));
      });
    });
    const { size, hash } = await sink.finish();
    return { size, hash, head: Buffer.concat(headParts) };
  } catch (e) {
    await sink.abort();
    throw e;
  }
}

/**
 * Assembles a session's file from its chunk files, in order, hashing on the way (sink.ts). It can
 * run ahead while the upload is still going: the service appends each chunk as soon as it and all
 * before it are stored, so at the end only the last chunks remain to be appended.
 */
export class ChunkMerger {
  /** Index of the next chunk to append. */
  next = 0;
  private readonly headParts: Buffer[] = [];
  private headLen = 0;
  private readonly buf = Buffer.allocUnsafeSlow(BLOCK);

  private constructor(private readonly sink: StagingSink) {}

  static async start(dest: string): Promise<ChunkMerger> {
    return new ChunkMerger(await StagingSink.create(dest, { hash: true }));
  }

  get file(): string {
    return this.sink.file;
  }

  /** Appends one chunk file (the chunk `next`), read into one reused buffer (no garbage per read). */
  async append(chunkFile: string): Promise<void> {
    const fh = await fs.promises.open(chunkFile, 'r');
    try {
      for (;;) {
        const { bytesRead } = await fh.read(this.buf, 0, BLOCK, null);
        if (bytesRead === 0) break;
        const chunk = this.buf.subarray(0, bytesRead);
        if (this.headLen < HEAD_BYTES) {
          this.headParts.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headLen)));
          this.headLen += Math.min(chunk.length, HEAD_BYTES - this.headLen);
        }
        if (!this.sink.write(chunk)) await new Promise<void>((r) => this.sink.onDrain(r));
      }
    } finally {
      await fh.close();
    }
    this.next++;
  }

  async finish(): Promise<Received> {
    const { size, hash } = await this.sink.finish();
    return { size, hash, head: Buffer.concat(this.headParts) };
  }

  abort(): Promise<void> {
    return this.sink.abort();
  }
}

/** One holder at a time per key (in this process): `await lock.run(key, fn)`. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** At most `size` holders at once; the rest wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
