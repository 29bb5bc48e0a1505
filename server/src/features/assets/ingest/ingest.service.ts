/**
 * IngestService: how a file already inside a repository enters the catalog (see ingest.contract.ts
 * for the rules). Cheap work happens here (stat, content detection, BLAKE3 through the intake); the heavy work is the
 * `assets.process` job, queued in the same transaction that writes the asset row, so a crash can
 * never leave an asset that nobody will process.
 */
import { forSystem } from '../../../platform/access/index.ts';
import fs from 'node:fs';
import path from 'node:path';
import { tx, type Db } from '../../../platform/db/connection.ts';
import { uuidv7 } from '../../../platform/ids.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { RepositoriesService } from '../../repositories/index.ts';
import { detectFileContent, type Intake } from '../../intake/index.ts';
import { AssetsStore, type AssetRow } from '../assets.store.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import { processAsset } from '../pipeline/assets.jobs.ts';
import { FileChangingError, type CommittedUploads, type IndexFileRequest, type IndexOutcome, type Ingest } from './ingest.contract.ts';

const TYPE_OF = { photo: 'PHOTO', video: 'VIDEO', audio: 'AUDIO' } as const;

/** Resolves a repository-relative path, refusing anything that escapes the repository or enters `.hearth/`. */
export function resolveInRepository(root: string, relPath: string): string {
  const clean = relPath.replace(/\\/g, '/');
  if (clean.includes('\0') || path.isAbsolute(clean)) throw new Error(`bad repository path: ${relPath}`);
  const abs = path.resolve(root, clean);
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep)[0] === '.hearth') {
    throw new Error(`path outside the repository: ${relPath}`);
  }
  return abs;
}

export class IngestService implements Ingest {
  readonly store: AssetsStore;
  /** One indexing at a time per (repository, path): an upload's commit and the watcher's event for
   *  the same new file must not both insert it. */
  private readonly pathLocks = new Map<string, Promise<unknown>>();
  private committedUploads: CommittedUploads | null = null;

  constructor(
    private readonly db: Db,
    private readonly repositories: Pick<RepositoriesService, 'byId'>,
    private readonly jobs: JobQueue,
    private readonly changes: AssetChangeBus,
    private readonly log: Logger,
    /** Hashing (native BLAKE3 on a worker) for files found on disk. */
    private readonly intake: Pick<Intake, 'hashFile'>,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new AssetsStore(db);
  }

  /** Who committed which upload (the uploads feature): consulted in every indexing's transaction. */
  useCommittedUploads(c: CommittedUploads): void {
    this.committedUploads = c;
  }

  ownCopy(repositoryId: string, ownerId: number, hash: string, size: number) {
    const mine = this.store.byHash(repositoryId, hash, size).filter((a) => a.owner_id === ownerId);
    const live = mine.find((a) => !a.is_deleted);
    if (live) return { asset_id: live.asset_id, in_trash: false };
    const trashed = mine.find((a) => this.fileOf(a) !== undefined);
    return trashed ? { asset_id: trashed.asset_id, in_trash: true } : undefined;
  }

  ownerOfPath(repositoryId: string, relPath: string): number | undefined {
    return this.store.byPath(repositoryId, relPath.replace(/\\/g, '/'))?.owner_id;
  }

  /** For an upload that found its uploader's own copy in the Trash (the commit checked the owner). */
  restoreFromTrash(assetId: string): boolean {
    const a = this.store.byId(forSystem('asset', assetId));
    if (!a?.is_deleted || this.fileOf(a) === undefined) return false;
    const now = this.now();
    tx(this.db, () => {
      this.store.update(a.asset_id, { is_deleted: 0, deleted_at: null, deleted_reason: null }, now);
      this.changes.emit('asset.restored', assetRef(a));
    });
    this.log.info({ asset_id: assetId }, 'asset restored from the trash by an upload of the same file');
    return true;
  }

  fileWithContent(repositoryId: string, hash: string, size: number): string | undefined {
    for (const a of this.store.byHash(repositoryId, hash, size)) {
      const abs = this.fileOf(a);
      if (!abs) continue;
      try {
        const st = fs.statSync(abs);
        if (st.isFile() && st.size === size && Math.floor(st.mtimeMs) === a.file_mtime) return abs;
      } catch {
        // gone meanwhile: try the next
      }
    }
    return undefined;
  }

  /** The asset's file, when its repository is known and the file is there. */
  private fileOf(a: AssetRow): string | undefined {
    const repo = this.repositories.byId(a.repository_id);
    if (!repo) return undefined;
    try {
      const abs = resolveInRepository(repo.path, a.storage_path);
      return fs.existsSync(abs) ? abs : undefined;
    } catch {
      return undefined;
    }
  }

  indexFile(req: IndexFileRequest): Promise<IndexOutcome> {
    const key = `${req.repositoryId}\0${req.relPath.replace(/\\/g, '/')}`;
    const previous = this.pathLocks.get(key) ?? Promise.resolve();
    const run = previous.then(
      () => this.indexFileNow(req),
      () => this.indexFileNow(req),
    );
    this.pathLocks.set(key, run);
    void run.finally(() => {
      if (this.pathLocks.get(key) === run) this.pathLocks.delete(key);
    }).catch(() => undefined);
    return run;
  }

  private async indexFileNow(req: IndexFileRequest): Promise<IndexOutcome> {
    const repo = req.repository?.repository_id === req.repositoryId ? req.repository : this.repositories.byId(req.repositoryId);
    if (!repo) throw new Error(`unknown repository ${req.repositoryId}`);
    const relPath = req.relPath.replace(/\\/g, '/');
    const abs = resolveInRepository(repo.path, relPath);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(abs);
    } catch {
      this.markMissing(repo.repository_id, relPath);
      return { outcome: 'unsupported', reason: 'the file is gone' };
    }
    if (!stat.isFile()) return { outcome: 'unsupported', reason: 'not a regular file' };
    const mtime = Math.floor(stat.mtimeMs);
    const existing = this.store.byPath(repo.repository_id, relPath);
    // A person's deletion stands while the file stays on disk: only a file that went missing and
    // came back is brought out of the Trash by watching or scanning.
    const trashedByUser = existing?.is_deleted === 1 && existing.deleted_reason === 'user';
    const uploadOfTrashed = req.source === 'upload' && existing?.is_deleted === 1; // handled below: brought back
    if (existing && !uploadOfTrashed && (!existing.is_deleted || trashedByUser) && existing.file_size === stat.size && existing.file_mtime === mtime && existing.hash) {
      if (req.source === 'scan') this.repairDiskName(existing, relPath);
      return { outcome: 'unchanged', asset_id: existing.asset_id };
    }
    if (stat.size === 0) return { outcome: 'unsupported', reason: 'the file is empty' };
    const type = req.knownType ?? (await detectFileContent(abs));
    if (!type) return { outcome: 'unsupported', reason: 'not a photo, video or audio file Hearth can read' };
    let hash = req.knownHash;
    let hashError: unknown = null;
    if (hash === undefined) hash = await this.intake.hashFile(abs, stat.size).then((h) => h.hash, (e: unknown) => ((hashError = e), ''));
    // Still being written (a copy in progress): the hash is of half a file. Not catalogued now; the
    // watcher reports the file again once it is quiet, and a scan waits for it.
    const after = await fs.promises.stat(abs).catch(() => null);
    if (!after || after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) throw new FileChangingError(relPath);
    if (hashError) throw hashError;
    const now = this.now();

    return tx(this.db, (): IndexOutcome => {
      // A file an upload committed is its uploader's, with their receipt and name, whoever indexes it.
      const upload = this.committedUploads?.claim(repo.repository_id, relPath, hash, stat.size);
      const ownerId = upload?.ownerId ?? req.ownerId;
      const receiptId = upload?.receiptId ?? req.receiptId ?? null;
      // The file's modification time: the device's for uploads; the disk's otherwise, except for an upload
      // claimed after a crash (its disk time is its arrival, which says nothing about the photo).
      const modified = req.fileModified !== undefined ? req.fileModified : upload ? null : { time: mtime, offsetMinutes: null };
      const modifiedFields = { file_modified_time: modified?.time ?? null, file_modified_offset_minutes: modified?.offsetMinutes ?? null };
      const enqueue = (assetId: string) => {
        if (upload) this.committedUploads!.settle(upload.receiptId, assetId);
        const content = { kind: type.kind, mime: type.mime, ext: type.ext, isRaw: type.isRaw };
        const first = this.jobs.enqueue(processAsset, { asset_id: assetId, receipt_id: receiptId, content }, { uniqueKey: `process:${assetId}`, ownerId });
        if (!first.inserted && first.job.state === 'running') {
          // The running job may have read the file before this change (a copy that was still under
          // way): one more run after it (the pipeline waits for the running one to finish, and a run
          // whose content was replaced meanwhile does not write its result).
          this.jobs.enqueue(processAsset, { asset_id: assetId, receipt_id: receiptId, content }, { uniqueKey: `process:${assetId}:after:${first.job.id}`, ownerId });
        }
      };

      if (existing) {
        // Same path, new content (or a file that came back): reprocess, keep the asset id. An
        // upload landing here is the owner's own (commit.ts never picks another member's path)
        // and brings the asset out of the Trash: the member asked for the file.
        const keepTrashed = trashedByUser && req.source !== 'upload';
        const restored = existing.is_deleted === 1 && !keepTrashed;
        this.store.update(
          existing.asset_id,
          {
            file_size: stat.size,
            file_mtime: mtime,
            hash,
            ...modifiedFields,
            mime_type: type.mime,
            type: TYPE_OF[type.kind],
            ...(keepTrashed ? {} : { is_deleted: 0, deleted_at: null, deleted_reason: null }),
            state: 'pending',
            status: '[10]',
            last_error: null,
          },
          now,
        );
        if (req.source === 'scan') this.repairDiskName(existing, relPath);
        enqueue(existing.asset_id);
        if (restored) this.changes.emit('asset.restored', assetRef(existing));
        this.changes.emit('asset.ingested', { ...assetRef(existing), source: req.source, replaced: true });
        return { outcome: restored ? 'restored' : 'updated', asset_id: existing.asset_id };
      }

      // A move: the same content at a new path, while the old path's asset is missing. An upload
      // moves only the uploader's own asset (another member's stays theirs, and in their Trash).
      // (A committed upload claimed by a scan after a crash counts as that upload.)
      const fromUpload = req.source === 'upload' || upload !== undefined;
      const uploadedName = upload?.originalFilename ?? req.originalFilename;
      const moved = this.store
        .byHash(repo.repository_id, hash, stat.size)
        .filter((a) => !fromUpload || a.owner_id === ownerId)
        .find((a) => a.is_deleted === 1 || !fs.existsSync(path.join(repo.path, a.storage_path)));
      if (moved && !fs.existsSync(path.join(repo.path, moved.storage_path))) {
        // A person's deletion stands when the file turns up elsewhere in the folder; an upload of it
        // is the person asking for it back.
        const keepTrashed = !fromUpload && moved.is_deleted === 1 && moved.deleted_reason === 'user';
        const renamed = path.posix.basename(relPath) !== path.posix.basename(moved.storage_path);
        this.store.update(
          moved.asset_id,
          {
            storage_path: relPath,
            file_mtime: mtime,
            // A file renamed on disk was named by a person: that name is the one to show, search and
            // download. A move to another folder keeps the name (an upload keeps its uploader's).
            // An upload that brings its owner's asset back names it as the uploader named the file.
            ...(fromUpload && uploadedName ? { original_filename: uploadedName } : renamed ? { original_filename: path.posix.basename(relPath) } : {}),
            ...(keepTrashed ? {} : { is_deleted: 0, deleted_at: null, deleted_reason: null }),
          },
          now,
        );
        if (upload) this.committedUploads!.settle(upload.receiptId, moved.asset_id);
        if (moved.is_deleted === 1 && !keepTrashed) this.changes.emit('asset.restored', assetRef(moved));
        this.changes.emit('asset.moved', { ...assetRef(moved), from: moved.storage_path, to: relPath });
        this.log.info({ asset_id: moved.asset_id, from: moved.storage_path, to: relPath }, 'asset moved');
        return { outcome: 'moved', asset_id: moved.asset_id };
      }

      const assetId = uuidv7(now);
      this.store.insert(
        {
          asset_id: assetId,
          owner_id: ownerId,
          repository_id: repo.repository_id,
          storage_path: relPath,
          type: TYPE_OF[type.kind],
          original_filename: upload?.originalFilename ?? req.originalFilename ?? path.posix.basename(relPath),
          mime_type: type.mime,
          file_size: stat.size,
          hash,
          file_mtime: mtime,
          ...modifiedFields,
        },
        now,
      );
      enqueue(assetId);
      this.changes.emit('asset.ingested', { asset_id: assetId, owner_id: ownerId, repository_id: repo.repository_id, source: req.source, replaced: false });
      return { outcome: 'created', asset_id: assetId };
    });
  }

  /**
   * A file found by watching or scanning is named by the file on disk. Catalogs written before moves
   * took the new name kept the old one after a rename; a scan that indexes the path again (a forced
   * scan) puts the disk name back. Uploads keep their uploader's name: their file may be stored as `name (1).ext`.
   */
  private repairDiskName(row: AssetRow, relPath: string): void {
    const onDisk = path.posix.basename(relPath);
    if (row.original_filename === onDisk) return;
    const uploaded = this.db
      .prepare("SELECT 1 FROM upload_receipts WHERE asset_id = ? AND status <> 'duplicate' LIMIT 1")
      .get(row.asset_id);
    if (uploaded) return;
    this.store.update(row.asset_id, { original_filename: onDisk }, this.now());
    this.log.info({ asset_id: row.asset_id, path: relPath }, 'asset name set to the name of its file');
  }

  markMissing(repositoryId: string, relPath: string): boolean {
    const row = this.store.byPath(repositoryId, relPath.replace(/\\/g, '/'));
    if (!row || row.is_deleted) return false;
    const now = this.now();
    tx(this.db, () => {
      this.store.update(row.asset_id, { is_deleted: 1, deleted_at: now, deleted_reason: 'missing' }, now);
      this.changes.emit('asset.trashed', { ...assetRef(row), reason: 'missing' });
    });
    this.log.info({ asset_id: row.asset_id, path: relPath }, 'asset file missing: moved to trash');
    return true;
  }
}
