/**
 * Google Takeout parts uploaded from the browser into a repository, resumable: the part streams into the
 * repository's staging folder and, once whole, is moved to `<repository>/Takeout/` where `listTakeoutArchives`
 * finds it like a part placed by hand (takeout-source.ts).
 *
 * Decisions (extensions, operations.extensions.md; the contract has no Takeout):
 * - Parts are 2–50 GB: a chunk's body is written to disk as it arrives, never held in memory, and a chunk
 *   cut off keeps what arrived (flushed to disk before it counts): the client asks `getTakeoutUpload` how far
 *   it got and goes on from `received`. Chunks are sequential (`Content-Range: bytes a-b/size`, `a` must be
 *   `received`): one at the wrong offset answers 409 `takeout_upload_offset_mismatch` with `received` in the
 *   problem; a second chunk while one is being received, 409 `takeout_upload_busy` (retryable).
 * - Creating an upload of a file (same repository, name and size) the member is still uploading answers that
 *   upload (200) with its `received`: a page reloaded mid-way, or another tab, goes on instead of starting over.
 * - `listTakeoutUploads` lists the member's own unfinished uploads (an administrator's too: only their own), so a
 *   page opened later, or on another device, can say what is waiting and how far it got. The latest activity first,
 *   each with `expires_at`: when the sweep removes it if nothing more arrives. Idle ones are swept before listing,
 *   so the list never shows what is gone. The `repository_id` filter only narrows: an unknown repository lists
 *   nothing (no 404: an empty list tells as much, and a repository removed since still answers).
 * - A name must look like a Takeout part (`takeout-….zip|.tgz|.tar.gz`, as listTakeoutArchives finds them) and
 *   be one plain file name: no `/`, `\`, `..`, control or bidirectional characters, none of `<>:"|?*` (a
 *   repository may be a Windows share), at most 200 bytes; else 422 `takeout_upload_bad_name`.
 * - Any member uploads into any repository that can be reached, as they import into any (runs.service.ts).
 *   An upload is its member's: anyone else's id answers 404 `takeout_upload_not_found` (access layer).
 * - Whole: the part is moved by rename (staging is on the repository's file system) to `Takeout/<name>`; an
 *   existing file of that name is never overwritten: the part goes to `Takeout/2/<name>`, `Takeout/3/<name>` …
 *   (the name is kept, so the export's parts still group by name). The answer and the upload say where
 *   (`part_path`). The partial file is never named like a part and lives in Hearth's own folder, which
 *   listTakeoutArchives skips.
 * - More bytes than declared (the body passes its range or the size), or a full disk: the upload is refused
 *   (413 `takeout_upload_too_large`, 507 `insufficient_storage`) and removed with its partial file; a start is
 *   refused at once when the disk has less free space than the size.
 * - Uploads with no activity for 24 hours are removed with their partial file (at start and whenever an upload is
 *   created); a finished one's row goes then too, its part stays. Cancelling removes an unfinished upload's
 *   partial file; a finished part is never deleted by Hearth (the member removes it when happy with the import).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import type { Logger } from '../../platform/logger.ts';
import { BadRequest, DomainError, Invalid, NotFound, Unavailable } from '../../platform/http/errors.ts';
import { errnoCode } from '../../adapters/fs/paths.ts';
import { STAGING_DIR } from '../intake/index.ts';
import type { RepositoryLookup } from './run-executor.ts';
import { ARCHIVE, TAKEOUT_NAME } from './takeout-source.ts';
import { TakeoutUploadsStore, type TakeoutUploadRow } from './takeout-uploads.store.ts';
import { TAKEOUT_UPLOAD_IDLE_MS, toTakeoutUpload, type TakeoutUpload } from './cloud-import.view.ts';

/** Where partial parts wait, inside the repository (the uploads feature's staging clean-up leaves it alone). */
export const TAKEOUT_UPLOAD_STAGING = path.join(STAGING_DIR, 'takeout-uploads');
/** Where finished parts go, inside the repository (listTakeoutArchives looks three folders deep). */
export const TAKEOUT_FOLDER = 'Takeout';
const MAX_NAME_BYTES = 200;
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const REFUSED_CHARS = /[\u0000-\u001f\u007f<>:"|?*\\/\u202a-\u202e\u2066-\u2069]/;
const CONTENT_RANGE = /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16})$/;

export interface TakeoutUploadsDeps {
  db: Db;
  repositories: RepositoryLookup;
  access: Access;
  log: Logger;
  now?: () => number;
  /** For tests: the free bytes of a folder's disk (else statfs). */
  freeBytes?: (dir: string) => Promise<number>;
}

export class TakeoutUploadsService {
  readonly store: TakeoutUploadsStore;
  private readonly now: () => number;
  /** Uploads receiving a chunk right now (one at a time each: chunks are sequential). */
  private readonly receiving = new Set<string>();

  constructor(private readonly deps: TakeoutUploadsDeps) {
    this.store = new TakeoutUploadsStore(deps.db);
    this.now = deps.now ?? Date.now;
  }

  async create(actor: Actor, body: { repository_id: string; filename: string; size: number }): Promise<{ created: boolean; upload: TakeoutUpload }> {
    await this.sweep();
    const repo = this.repository(body.repository_id);
    checkName(body.filename);
    const existing = this.store.unfinished(actor.userId, repo.repository_id, body.filename, body.size);
    if (existing) return { created: false, upload: toTakeoutUpload(await this.reconciled(existing, repo.path)) };
    const dir = path.join(repo.path, TAKEOUT_UPLOAD_STAGING);
    await fs.promises.mkdir(dir, { recursive: true });
    const free = await (this.deps.freeBytes ?? statfsFree)(dir);
    if (free < body.size) throw insufficient(`The repository’s disk has ${gb(free)} free; this part needs ${gb(body.size)}. Free some space and start again.`);
    const now = this.now();
    const row: TakeoutUploadRow = { upload_id: crypto.randomUUID(), owner_id: actor.userId, repository_id: repo.repository_id, filename: body.filename, size: body.size, received: 0, status: 'uploading', part_path: null, created_at: now, updated_at: now };
    this.store.insert(row);
    // Created empty now, so the partial file exists from the start (a GET reads its length against `received`).
    await fs.promises.writeFile(partialPath(repo.path, row.upload_id), '');
    return { created: true, upload: toTakeoutUpload(row) };
  }

  async get(actor: Actor, id: string): Promise<TakeoutUpload> {
    const row = this.owned(actor, id);
    const repo = this.deps.repositories.byId(row.repository_id);
    // Only where the repository can be read: an unplugged drive would count as an empty partial file.
    return toTakeoutUpload(repo && repo.status === 'active' && row.status === 'uploading' ? await this.reconciled(row, repo.path) : row);
  }

  /** The member's unfinished uploads (into one repository when given), the latest activity first. */
  async listUnfinished(actor: Actor, repositoryId: string | undefined): Promise<{ uploads: TakeoutUpload[] }> {
    await this.sweep();
    const rows = this.store.listUnfinished(this.deps.access.scope(actor, 'takeout_upload', 'read', 'u'), repositoryId ?? null);
    const uploads: TakeoutUpload[] = [];
    for (const row of rows) {
      const repo = this.deps.repositories.byId(row.repository_id);
      uploads.push(toTakeoutUpload(repo && repo.status === 'active' ? await this.reconciled(row, repo.path) : row));
    }
    return { uploads };
  }

  /**
   * One chunk: the body is appended at `received` as it arrives. Answers the upload (complete when this chunk
   * was the last). A body cut off keeps what arrived; the cut request's own answer is lost, the next GET tells.
   */
  async receive(actor: Actor, id: string, contentRange: string | undefined, body: Readable): Promise<TakeoutUpload> {
    const row = this.owned(actor, id);
    // A last chunk sent again after its answer was lost: the upload is whole, say where it went.
    if (row.status === 'complete') return toTakeoutUpload(row);
    const range = parseRange(contentRange);
    if (range.total !== row.size) {
      throw new Invalid(`This upload is of ${row.size} bytes, not ${range.total}.`, [{ field: 'header.content-range', message: `the total must be ${row.size}` }], 'takeout_upload_size_mismatch');
    }
    const repo = this.repository(row.repository_id);
    if (this.receiving.has(id)) throw new DomainError(409, 'takeout_upload_busy', 'Another chunk of this upload is being received; try again shortly.', { retryable: true, members: { received: row.received } });
    this.receiving.add(id);
    try {
      const current = await this.reconciled(row, repo.path);
      if (range.start !== current.received) {
        throw new DomainError(409, 'takeout_upload_offset_mismatch', `The server has ${current.received} bytes of this upload: send from byte ${current.received}.`, { members: { received: current.received } });
      }
      if (range.end >= row.size) return await this.refuse(row, repo.path, tooLarge(row.size));
      return await this.write(current, repo.path, range.end + 1, body);
    } finally {
      this.receiving.delete(id);
    }
  }

  /** Stops an upload: an unfinished one's partial file goes; a finished part stays where it is. */
  async cancel(actor: Actor, id: string): Promise<{ message: string }> {
    const row = this.owned(actor, id);
    if (this.receiving.has(id)) throw new DomainError(409, 'takeout_upload_busy', 'A chunk of this upload is being received; cancel again when it ends.', { retryable: true });
    this.store.remove(id);
    const repo = this.deps.repositories.byId(row.repository_id);
    if (row.status === 'uploading' && repo) await rm(partialPath(repo.path, id));
    return { message: row.status === 'complete' ? `The upload is forgotten; ${row.part_path} stays in the repository.` : 'The upload is cancelled and what arrived of it removed.' };
  }

  /** Uploads idle for a day go with their partial files, and partial files no upload owns (a crash) too. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - TAKEOUT_UPLOAD_IDLE_MS;
    let removed = 0;
    for (const row of this.store.idle(cutoff)) {
      if (this.receiving.has(row.upload_id)) continue;
      this.store.remove(row.upload_id);
      const repo = this.deps.repositories.byId(row.repository_id);
      if (row.status === 'uploading' && repo) await rm(partialPath(repo.path, row.upload_id));
      removed++;
    }
    for (const repo of this.deps.repositories.all()) {
      const dir = path.join(repo.path, TAKEOUT_UPLOAD_STAGING);
      const live = this.store.liveIds(repo.repository_id);
      for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
        const st = await fs.promises.stat(path.join(dir, name)).catch(() => null);
        if (st && st.mtimeMs < cutoff && !live.has(name.replace(/\.partial$/, ''))) {
          await rm(path.join(dir, name));
          removed++;
        }
      }
    }
    if (removed) this.deps.log.info({ removed }, 'idle Takeout uploads removed');
    return removed;
  }

  // ------------------------------------------------------------------ internals

  private async write(row: TakeoutUploadRow, repoPath: string, rangeEnd: number, body: Readable): Promise<TakeoutUpload> {
    const file = partialPath(repoPath, row.upload_id);
    const fh = await fs.promises.open(file, 'r+').catch(async (e: unknown) => {
      if (errnoCode(e) === 'ENOENT' && row.received === 0) return fs.promises.open(file, 'w');
      throw e;
    });
    let pos = row.received;
    let cut: unknown = null;
    let refusal: DomainError | null = null;
    try {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          if (pos + chunk.length > rangeEnd) {
            refusal = tooLarge(row.size, rangeEnd);
            break;
          }
          // Awaiting each write is the backpressure: the body is not read faster than the disk takes it.
          await fh.write(chunk, 0, chunk.length, pos);
          pos += chunk.length;
        }
      } catch (e) {
        if (errnoCode(e) === 'ENOSPC' || errnoCode(e) === 'EDQUOT') refusal = insufficient('The repository’s disk is full: the upload was removed. Free some space and start again.');
        else cut = e;
      }
      if (!refusal) await fh.datasync();
    } finally {
      await fh.close().catch(() => undefined);
    }
    if (refusal) return this.refuse(row, repoPath, refusal);
    // What arrived counts once it is on the disk (datasync above), also when the body was cut off.
    this.store.setReceived(row.upload_id, pos, this.now());
    if (cut) throw new BadRequest(`The chunk was cut off after ${pos - row.received} bytes; ${pos} bytes are on the server.`, 'takeout_upload_interrupted');
    if (pos < row.size) return toTakeoutUpload(this.store.get(row.upload_id)!);
    const partPath = await placePart(repoPath, file, row.filename);
    this.store.complete(row.upload_id, partPath, this.now());
    this.deps.log.info({ upload_id: row.upload_id, part: partPath, size: row.size }, 'Takeout part uploaded');
    return toTakeoutUpload(this.store.get(row.upload_id)!);
  }

  /** Refuses the upload for good: the row and its partial file go, and the refusal is thrown. */
  private async refuse(row: TakeoutUploadRow, repoPath: string, e: DomainError): Promise<never> {
    this.store.remove(row.upload_id);
    await rm(partialPath(repoPath, row.upload_id));
    throw e;
  }

  /**
   * `received` as the disk has it: a machine that went down may have lost the end of what was counted (or
   * the whole partial file); the upload goes on from what is really there.
   */
  private async reconciled(row: TakeoutUploadRow, repoPath: string): Promise<TakeoutUploadRow> {
    const st = await fs.promises.stat(partialPath(repoPath, row.upload_id)).catch(() => null);
    const onDisk = Math.min(st?.size ?? 0, row.size);
    if (onDisk >= row.received) return row;
    this.store.setReceived(row.upload_id, onDisk, this.now());
    return { ...row, received: onDisk };
  }

  private owned(actor: Actor, id: string): TakeoutUploadRow {
    return this.store.get(this.deps.access.require(actor, 'takeout_upload', id, 'own'))!;
  }

  private repository(id: string) {
    const repo = this.deps.repositories.byId(id);
    if (!repo) throw new NotFound(`Repository ${id} does not exist.`, 'repository_not_found');
    if (repo.status !== 'active') throw new Unavailable(`Repository ${repo.name} cannot be reached right now (${repo.status}).`, 'repository_unavailable');
    return repo;
  }
}

/** Refuses a name that is not one plain Takeout part file name (422 naming the field). */
function checkName(name: string): void {
  const bad = (message: string) => new Invalid(`${JSON.stringify(name)} cannot be a Takeout part’s name: ${message}.`, [{ field: 'body.filename', message }], 'takeout_upload_bad_name');
  if (REFUSED_CHARS.test(name) || name.includes('..')) throw bad('no folders, "..", control characters or <>:"|?*');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw bad(`at most ${MAX_NAME_BYTES} bytes`);
  if (!TAKEOUT_NAME.test(name) || !ARCHIVE.test(name) || name.trim() !== name) throw bad('a Takeout part is named takeout-….zip, .tgz or .tar.gz');
}

function parseRange(header: string | undefined): { start: number; end: number; total: number } {
  const m = header ? CONTENT_RANGE.exec(header.trim()) : null;
  const [start, end, total] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [NaN, NaN, NaN];
  if (!m || end < start) {
    throw new Invalid('Send each chunk with `Content-Range: bytes <first>-<last>/<size>`.', [{ field: 'header.content-range', message: 'bytes <first>-<last>/<size>' }], 'takeout_upload_bad_range');
  }
  return { start, end, total };
}

/**
 * Moves the whole part from staging to `Takeout/<name>`, or `Takeout/<n>/<name>` when that name is taken. The
 * name is claimed by creating the file exclusively (no other writer can take it in between), then the part is
 * renamed over the claim: never over someone else's file.
 */
async function placePart(repoPath: string, partial: string, filename: string): Promise<string> {
  for (let n = 1; ; n++) {
    const rel = n === 1 ? `${TAKEOUT_FOLDER}/${filename}` : `${TAKEOUT_FOLDER}/${n}/${filename}`;
    const target = path.join(repoPath, ...rel.split('/'));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await (await fs.promises.open(target, 'wx')).close();
    } catch (e) {
      if (errnoCode(e) === 'EEXIST' && n < 1000) continue;
      throw e;
    }
    await fs.promises.rename(partial, target);
    return rel;
  }
}

function partialPath(repoPath: string, uploadId: string): string {
  return path.join(repoPath, TAKEOUT_UPLOAD_STAGING, `${uploadId}.partial`);
}

const rm = (p: string) => fs.promises.rm(p, { force: true }).catch(() => undefined);

async function statfsFree(dir: string): Promise<number> {
  const s = await fs.promises.statfs(dir);
  return s.bavail * s.bsize;
}

const gb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${Math.ceil(n / 1e6)} MB`);

function tooLarge(size: number, rangeEnd?: number): DomainError {
  const what = rangeEnd !== undefined && rangeEnd < size ? 'more bytes than its Content-Range says' : `more than the ${size} bytes declared`;
  return new DomainError(413, 'takeout_upload_too_large', `The chunk brought ${what}: the upload was removed. Start it again with the file’s real size.`);
}

function insufficient(message: string): DomainError {
  return new DomainError(507, 'insufficient_storage', message);
}
