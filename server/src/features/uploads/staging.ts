/**
 * Upload staging and the commit into a repository.
 *
 * Layout inside a repository (`.hearth/` is Hearth's hidden folder, never indexed):
 *
 *   .hearth/staging/<uuid>                            a single upload (or a batch file) while it streams in
 *   .hearth/staging/sessions/<session_id>/data        a chunked session's file, preallocated to its full
 *                                                     size; each chunk is written at its offset
 *   .hearth/staging/sessions/<session_id>/<i>.<rand>.partial   chunk i while it streams in, only when its
 *                                                     offset is not known yet (the session's chunk size
 *                                                     is learnt from a chunk still arriving)
 *   .hearth/staging/sessions/<session_id>/<i>.chunk   chunk i as servers before the data file stored it
 *                                                     (imported into the data file on resume)
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
import { ClientAborted } from './multipart.ts';
import { StagingSink, type SinkOptions } from './sink.ts';
import { SYSTEM_DIR } from '../repositories/index.ts';
import { displayFileName } from '../../platform/http/display-names.ts';

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
/** A session's data file: all its chunks at their offsets. */
export function sessionDataPath(repoPath: string, sessionId: string): string {
  return path.join(sessionDir(repoPath, sessionId), 'data');
}
/** Chunk files of the layout before the data file (one file per chunk). */
export function legacyChunkPath(repoPath: string, sessionId: string, index: number): string {
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
 * `/` or `\`), bidirectional controls dropped, control characters and characters Windows refuses replaced by `_`, leading dots
 * (hidden files) and trailing dots/spaces dropped, at most 200 bytes (the extension kept).
 * Returns null for names that cannot be a file name at all: empty, NUL, `.`/`..`.
 */
export function sanitizeFileName(raw: string): string | null {
  if (raw.includes('\0')) return null;
  const base = raw.split(/[\\/]/).pop() ?? '';
  if (base === '' || base === '.' || base === '..') return null;
  // Bidirectional controls are dropped: Hearth chooses this name on disk, so it never stores one that
  // displays as something else (`x\u202Egpj.exe` as `xexe.jpg`); see platform/http/display-names.ts.
  // eslint-disable-next-line no-control-regex -- control characters are replaced in names Hearth writes to disk
  let name = displayFileName(base.normalize('NFC')).replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_');
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
 * Durable record of where a staged file is about to go (commit-intents.ts): `reserve(rel)` is called
 * before each name is tried (false: another upload holds it, try the next), `release(rel)` when the
 * name turned out to be taken on disk.
 */
export interface CommitReservation {
  reserve(relPath: string): boolean;
  release(relPath: string): void;
}

/** How a commit picks its name: see commitStaged. */
export interface CommitPlacement {
  skip?: (relPath: string) => boolean;
  reservation?: CommitReservation;
}

/**
 * Moves a staged file into the repository at `folder/name`, or `name (1)`, `name (2)`… when the
 * name is taken. Never overwrites anything. Returns the repository-relative path (forward slashes).
 * `placement.skip`: names to pass over although no file is there (a path the catalog holds for
 * another member, whose file went missing). With `placement.reservation`, each name is recorded
 * before the file is linked to it, so a crash at any point leaves the catalog knowing whose upload
 * may be there.
 */
export async function commitStaged(repoPath: string, staged: string, relFolder: string, name: string, placement: CommitPlacement = {}): Promise<string> {
  const { skip = () => false, reservation } = placement;
  const folderAbs = path.join(repoPath, ...relFolder.split('/'));
  await fs.promises.mkdir(folderAbs, { recursive: true });
  let useLink = true;
  for (let n = 0; n < 10_000; n++) {
    const candidate = n < 9_999 ? numberedName(name, n) : numberedName(name, Number.parseInt(crypto.randomBytes(4).toString('hex'), 16));
    const rel = `${relFolder}/${candidate}`;
    if (skip(rel)) continue;
    if (reservation && !reservation.reserve(rel)) continue;
    const target = path.join(folderAbs, candidate);
    if (useLink) {
      try {
        await fs.promises.link(staged, target);
        await fs.promises.unlink(staged);
        return `${relFolder}/${candidate}`;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') {
          reservation?.release(rel);
          continue;
        }
        if (!NO_LINK.has(code)) throw e;
        useLink = false; // this file system has no hard links: reserve-then-rename below
      }
    }
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(target, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        reservation?.release(rel);
        continue;
      }
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

/**
 * Puts another name on `source` (a file of the repository with the same bytes) at `folder/name`,
 * or `name (1)`… when taken (or passed over, or reserved first, as in commitStaged), never overwriting: a copy-on-write clone where the file system has
 * them (the two files share their blocks, and a later edit of one leaves the other as it was),
 * else a hard link (one inode, two names). Returns the repository-relative path, or null when the
 * file system can do neither (the caller then stores its own copy).
 */
export async function commitAsCopyOf(repoPath: string, source: string, relFolder: string, name: string, placement: CommitPlacement = {}): Promise<string | null> {
  const { skip = () => false, reservation } = placement;
  const folderAbs = path.join(repoPath, ...relFolder.split('/'));
  await fs.promises.mkdir(folderAbs, { recursive: true });
  let clone = true;
  for (let n = 0; n < 10_000; n++) {
    const candidate = numberedName(name, n);
    const rel = `${relFolder}/${candidate}`;
    if (skip(rel)) continue;
    if (reservation && !reservation.reserve(rel)) continue;
    const target = path.join(folderAbs, candidate);
    try {
      if (clone) await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE_FORCE);
      else await fs.promises.link(source, target);
      return rel;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') {
        reservation?.release(rel);
        continue;
      }
      if (clone && (NO_LINK.has(code) || code === 'EINVAL' || code === 'ENOTTY' || code === 'EXDEV')) {
        clone = false; // (libuv removes the target it made when the clone fails)
        n--; // the same name, as a hard link
        continue;
      }
      if (NO_LINK.has(code) || code === 'ENOENT') return null;
      throw e;
    }
  }
  return null;
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
 * with BLAKE3 (sink.ts: 1 MiB blocks, hashed on a worker thread). Or, with `sink` options, into an
 * existing file at an offset (a chunk into its session's data file), unhashed. Fails with
 * TooLargeError as soon as more than `maxBytes` arrived, and with ClientAborted when the source breaks
 * off (a client that went away, a body that ended or stalled mid-file); in both cases a file this call created is removed. The data is on
 * disk (fsync) before this resolves.
 *
 * The source is never destroyed here: on a failure it is switched to draining (its remaining data
 * is read and dropped), because a busboy part that is destroyed midway stalls the whole form. The
 * caller decides whether the rest of the request still matters (batch) or not (destroy the parser).
 */
export async function receiveToFile(source: Readable, dest: string, maxBytes: number, sinkOptions: SinkOptions = { create: true, hash: true }): Promise<Received> {
  let sink: StagingSink;
  try {
    sink = await StagingSink.create(dest, sinkOptions);
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
      source.once('error', () => fail(new ClientAborted()));
      source.once('end', () => {
        ended = true;
        if (failed) return;
        if ((source as Readable & { truncated?: boolean }).truncated) return fail(new TooLargeError(maxBytes));
        resolve();
      });
      source.once('close', () => {
        if (!ended) fail(new ClientAborted());
      });
      // The part may have broken off before this call got to listen (the client went away or the
      // body ended while the staging file was being opened): its 'error'/'close' are gone by now.
      if (brokenOff(source)) fail(new ClientAborted());
    });
    const { size, hash } = await sink.finish();
    return { size, hash, head: Buffer.concat(headParts) };
  } catch (e) {
    await sink.abort();
    throw e;
  }
}

/**
 * Whether a stream already broke off before its end (destroyed, with or without an error). A listener added after the fact never hears its 'error' or
 * 'close' again, so whoever starts reading a part late asks this first.
 */
export function brokenOff(source: Readable): boolean {
  return !source.readableEnded && (source.errored !== null || source.destroyed);
}
