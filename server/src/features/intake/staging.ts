/**
 * Staging: where bytes that are about to enter a repository wait (uploads today, cloud imports next),
 * how they are received (a stream into a staging file, hashed on the way, flushed before it counts),
 * and the names they may take.
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
 * Staging sits in the target repository so the commit (commit-file.ts) is a rename on one file
 * system, even when the repository is on another disk.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BadRequest } from '../../platform/http/errors.ts';
import type { Digest } from './file-hasher.ts';
import { StagingSink, type SinkOptions } from './sink.ts';
import { SYSTEM_DIR } from '../../adapters/fs/paths.ts';
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

/** Repository-relative folder (forward slashes) for an upload made at `now`. */
export function uploadFolder(now: Date): string {
  return `${UPLOADS_DIR}/${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** The source broke off before its end (the client went away, or the body ended or stalled mid-file). */
export class ClientAborted extends BadRequest {
  constructor() {
    super('The request body ended before the form was complete.', 'upload_incomplete');
  }
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
  /** Who hashed it (null: not hashed, a chunk into its session's file). */
  digest?: Digest | null;
}

const HEAD_BYTES = 4096;

/**
 * Streams `source` into a new file at `dest` (exclusive create: never overwrites) while hashing it
 * with BLAKE3 (sink.ts: 1 MiB blocks, hashed as they go to disk). Or, with `sink` options, into an
 * existing file at an offset (a chunk into its session's data file), unhashed. Fails with
 * TooLargeError as soon as more than `maxBytes` arrived, and with ClientAborted when the source breaks
 * off (a client that went away, a body that ended or stalled mid-file); in both cases a file this call created is removed. The data is on
 * disk (fsync) before this resolves, unless the caller flushes on its own (`sync: false`).
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
    const { size, digest } = await sink.finish();
    return { size, hash: digest?.hex ?? '', head: Buffer.concat(headParts), digest };
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
