/**
 * IngestService: how a file already inside a repository enters the catalog (see ingest.contract.ts
 * for the rules). Cheap work happens here (stat, content detection, BLAKE3); the heavy work is the
 * `assets.process` job, queued in the same transaction that writes the asset row, so a crash can
 * never leave an asset that nobody will process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { detect } from '../../adapters/media/detect.ts';
import { hashFile } from '../../adapters/media/hash.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import { AssetsStore } from './assets.store.ts';
import { processAsset } from './assets.jobs.ts';
import type { CommittedUploads, IndexFileRequest, IndexOutcome, Ingest } from './ingest.contract.ts';

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
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new AssetsStore(db);
  }

  /** Who committed which upload (the uploads feature): consulted in every indexing's transaction. */
  useCommittedUploads(c: CommittedUploads): void {
    this.committedUploads = c;
  }

  findByHash(repositoryId: string, hash: string, size: number) {
    const row = this.store.byHash(repositoryId, hash, size).find((a) => !a.is_deleted);
    return row ? { asset_id: row.asset_id, owner_id: row.owner_id } : undefined;
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
    const repo = this.repositories.byId(req.repositoryId);
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
    if (existing && (!existing.is_deleted || trashedByUser) && existing.file_size === stat.size && existing.file_mtime === mtime && existing.hash) {
      return { outcome: 'unchanged', asset_id: existing.asset_id };
    }
    if (stat.size === 0) return { outcome: 'unsupported', reason: 'the file is empty' };
    const type = await detect(abs);
    if (!type) return { outcome: 'unsupported', reason: 'not a photo, video or audio file Hearth can read' };
    const hash = req.knownHash ?? (await hashFile(abs));
    const now = this.now();

    return tx(this.db, (): IndexOutcome => {
      // A file an upload committed is its uploader's, with their receipt and name, whoever indexes it.
      const upload = this.committedUploads?.claim(repo.repository_id, relPath, hash, stat.size);
      const ownerId = upload?.ownerId ?? req.ownerId;
      const receiptId = upload?.receiptId ?? req.receiptId ?? null;
      const enqueue = (assetId: string) => {
        if (upload) this.committedUploads!.settle(upload.receiptId, assetId);
        this.jobs.enqueue(processAsset, { asset_id: assetId, receipt_id: receiptId }, { uniqueKey: `process:${assetId}`, ownerId });
      };

      if (existing) {
        // Same path, new content (or a file that came back): reprocess, keep the asset id.
        const restored = existing.is_deleted === 1 && !trashedByUser;
        this.store.update(
          existing.asset_id,
          {
            file_size: stat.size,
            file_mtime: mtime,
            hash,
            mime_type: type.mime,
            type: TYPE_OF[type.kind],
            ...(trashedByUser ? {} : { is_deleted: 0, deleted_at: null, deleted_reason: null }),
            state: 'pending',
            status: '[10]',
            last_error: null,
          },
          now,
        );
        enqueue(existing.asset_id);
        return { outcome: restored ? 'restored' : 'updated', asset_id: existing.asset_id };
      }

      // A move: the same content at a new path, while the old path's asset is missing.
      const moved = this.store
        .byHash(repo.repository_id, hash, stat.size)
        .find((a) => a.is_deleted === 1 || !fs.existsSync(path.join(repo.path, a.storage_path)));
      if (moved && !fs.existsSync(path.join(repo.path, moved.storage_path))) {
        const keepTrashed = moved.is_deleted === 1 && moved.deleted_reason === 'user';
        this.store.update(
          moved.asset_id,
          { storage_path: relPath, file_mtime: mtime, ...(keepTrashed ? {} : { is_deleted: 0, deleted_at: null, deleted_reason: null }) },
          now,
        );
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
        },
        now,
      );
      enqueue(assetId);
      return { outcome: 'created', asset_id: assetId };
    });
  }

  markMissing(repositoryId: string, relPath: string): boolean {
    const row = this.store.byPath(repositoryId, relPath.replace(/\\/g, '/'));
    if (!row || row.is_deleted) return false;
    const now = this.now();
    this.store.update(row.asset_id, { is_deleted: 1, deleted_at: now, deleted_reason: 'missing' }, now);
    this.log.info({ asset_id: row.asset_id, path: relPath }, 'asset file missing: moved to trash');
    return true;
  }
}
