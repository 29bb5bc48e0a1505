/**
 * CatalogWriter: the only code that writes asset rows for a file entering the catalog (see ingest.contract.ts for the
 * rules). The door (features/intake/door.ts) does the file work (stat, detect, hash, the no-overwrite commit) and hands
 * the file here; the writer decides created / updated / moved / restored in one transaction that also queues the
 * `assets.process` job, so a crash can never leave an asset nobody will process.
 *
 * One content lookup: `byContent(repository, hash, size)` returns every row holding that content, and own copy,
 * restore, move and link source are all decided from that one answer. The door passes the rows it read under its
 * (repository, content) lock to `write`, which then does not look them up again.
 *
 * Crash safety: a committed file's record (CommitClaims, the intake's) is claimed inside the write's transaction, so
 * the file is its committer's whoever catalogues it first. Assets never calls a source: the claim's reference goes out
 * on the change (`commit` of asset.ingested / asset.moved) and the source follows it.
 *
 * Source facts: kept with the asset by the rule's merge (fact-precedence.ts), in the write's transaction; album names
 * no kept facts named go out on `asset.sourced` (the albums feature acts on them). A re-run of content the owner
 * already has hands its facts to `refreshFacts`, which settles the effective values again without reading the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { forSystem } from '../../../platform/access/index.ts';
import { tx, type Db } from '../../../platform/db/connection.ts';
import { uuidv7 } from '../../../platform/ids.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { DetectedType } from '../../../adapters/media/detect.ts';
import { AssetsStore, type AssetRow } from '../assets.store.ts';
import { assetRef, type AssetChangeBus, type CommitRef } from '../asset-changes.ts';
import { processAsset } from '../pipeline/assets.jobs.ts';
import { resolveInRepository } from './ingest.service.ts';
import { keepSourcePair, type SourcePair } from './source-pairs.ts';
import type { CommitClaims, FileModified, IndexOutcome, IngestSource } from './ingest.contract.ts';
import { factsWorthKeeping, mergeFacts, resettleFacts, type FactsMerge, type SourceFacts } from '../fact-precedence.ts';
import { geohashFields } from '../../places/index.ts';

const TYPE_OF = { photo: 'PHOTO', video: 'VIDEO', audio: 'AUDIO' } as const;

/** A repository as the writer needs it: where its files are. */
export interface RepositoryPlace {
  repository_id: string;
  path: string;
}

/** A file the door stat'ed, detected and hashed, ready for its row. */
export interface CatalogEntry {
  repository: RepositoryPlace;
  /** Repository-relative path with forward slashes. */
  relPath: string;
  /** Owner of a new asset (a claimed commit's owner wins). */
  ownerId: number;
  source: IngestSource;
  size: number;
  /** The file's modification time as stat saw it, whole milliseconds. */
  mtime: number;
  type: DetectedType;
  hash: string;
  /** The name the source gave (uploads, imports); defaults to the path's base name. */
  originalFilename?: string;
  /** See IndexFileRequest.fileModified. */
  fileModified?: FileModified | null;
  /** Upload receipt the pipeline completes. */
  receiptId?: string;
  /** The rows holding this content as the door read them (`byContent`): not looked up again. */
  content?: ContentHolders;
  /** What the source said of the file: kept with the asset for the pipeline's precedence rule (fact-precedence.ts). */
  facts?: SourceFacts;
}

/** Every row of one repository holding one content (hash and size), and what the door decides from them. */
export class ContentHolders {
  constructor(
    readonly rows: readonly AssetRow[],
    private readonly fileOf: (a: AssetRow) => string | undefined,
  ) {}

  /**
   * The owner's own asset with this content: a live one first, else one in the Trash whose file is still in its
   * folder (it can be restored). Never another member's.
   */
  ownCopy(ownerId: number): { row: AssetRow; inTrash: boolean } | undefined {
    const mine = this.rows.filter((a) => a.owner_id === ownerId);
    const live = mine.find((a) => !a.is_deleted);
    if (live) return { row: live, inTrash: false };
    const trashed = mine.find((a) => this.fileOf(a) !== undefined);
    return trashed ? { row: trashed, inTrash: true } : undefined;
  }

  /**
   * A file (anyone's) that holds this content as it was catalogued (size and modification time unchanged since it
   * was hashed): absolute path, or undefined. The door links a new name to it instead of storing the bytes twice.
   */
  linkSource(size: number): string | undefined {
    for (const a of this.rows) {
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
}

export class CatalogWriter {
  readonly store: AssetsStore;

  constructor(
    private readonly db: Db,
    private readonly repositories: { byId(id: string): RepositoryPlace | undefined },
    private readonly jobs: JobQueue,
    private readonly changes: AssetChangeBus,
    private readonly log: Logger,
    /** The intake's commit records, claimed in every write's transaction. */
    private readonly claims: CommitClaims,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new AssetsStore(db);
  }

  /** The one content lookup: every row of the repository with this hash and size. */
  byContent(repositoryId: string, hash: string, size: number): ContentHolders {
    return new ContentHolders(this.store.byHash(repositoryId, hash, size), (a) => this.fileOf(a));
  }

  /** Who owns the asset catalogued at this path (its file may be gone), if any. */
  ownerOfPath(repositoryId: string, relPath: string): number | undefined {
    return this.store.byPath(repositoryId, relPath.replace(/\\/g, '/'))?.owner_id;
  }

  /** Brings an asset out of the Trash for a source that asked for its file again; false when its file is gone. */
  restore(assetId: string): boolean {
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

  /**
   * The asset at this path when its file is as catalogued (same size and mtime, hashed): nothing to write. A person's
   * deletion stands while the file stays on disk: only a file that went missing and came back is brought out of the
   * Trash by watching or scanning; an upload landing on a trashed asset brings it back (written, not unchanged).
   */
  unchanged(repositoryId: string, relPath: string, size: number, mtime: number, source: IngestSource): string | undefined {
    const existing = this.store.byPath(repositoryId, relPath);
    if (!existing) return undefined;
    const trashedByUser = existing.is_deleted === 1 && existing.deleted_reason === 'user';
    const uploadOfTrashed = source === 'upload' && existing.is_deleted === 1;
    if (!uploadOfTrashed && (!existing.is_deleted || trashedByUser) && existing.file_size === size && existing.file_mtime === mtime && existing.hash) {
      if (source === 'scan') this.repairDiskName(existing, relPath);
      return existing.asset_id;
    }
    return undefined;
  }

  /** Writes the file's row and its processing job in one transaction (see the rules in ingest.contract.ts). */
  write(e: CatalogEntry): IndexOutcome {
    const { repository: repo, relPath, size, mtime, type, hash } = e;
    const now = this.now();
    return tx(this.db, (): IndexOutcome => {
      const existing = this.store.byPath(repo.repository_id, relPath);
      const trashedByUser = existing?.is_deleted === 1 && existing.deleted_reason === 'user';
      // A file a source committed is its committer's, with its reference and name, whoever indexes it.
      const claimed = this.claims.claim(repo.repository_id, relPath, hash, size);
      const commit: CommitRef | undefined = claimed ? { source: claimed.source, ref: claimed.ref } : undefined;
      const ownerId = claimed?.ownerId ?? e.ownerId;
      const upload = claimed?.source === 'upload' ? claimed : undefined;
      const receiptId = upload?.ref ?? e.receiptId ?? null;
      // The file's modification time: the device's for uploads; the disk's otherwise, except for a commit claimed
      // after a crash (its disk time is its arrival, which says nothing about the photo).
      const modified = e.fileModified !== undefined ? e.fileModified : claimed ? null : { time: mtime, offsetMinutes: null };
      const modifiedFields = { file_modified_time: modified?.time ?? null, file_modified_offset_minutes: modified?.offsetMinutes ?? null };
      // What the source said is kept with the asset (fact-precedence.ts), in this transaction; its new album names
      // go out once the asset's own change is out (`sourced`).
      let albumNames: string[] = [];
      const keepFacts = (assetId: string) => {
        albumNames = this.keepFacts(assetId, claimed?.source ?? e.source, e.facts ?? claimed?.facts, now)?.newAlbumNames ?? [];
      };
      const sourced = (ref: { asset_id: string; owner_id: number; repository_id: string }) => {
        if (albumNames.length) this.changes.emit('asset.sourced', { ...assetRef(ref), album_names: albumNames, settled: [] });
      };
      const enqueue = (assetId: string) => {
        // The source's facts are kept before the job is queued, in the same transaction: the run applies them.
        keepFacts(assetId);
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
        // upload landing here is the owner's own (the door never picks another member's path)
        // and brings the asset out of the Trash: the member asked for the file.
        const keepTrashed = trashedByUser && e.source !== 'upload';
        const restored = existing.is_deleted === 1 && !keepTrashed;
        this.store.update(
          existing.asset_id,
          {
            file_size: size,
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
        if (e.source === 'scan') this.repairDiskName(existing, relPath);
        enqueue(existing.asset_id);
        if (restored) this.changes.emit('asset.restored', assetRef(existing));
        this.changes.emit('asset.ingested', { ...assetRef(existing), source: e.source, replaced: true, ...(commit ? { commit } : {}) });
        sourced(existing);
        return { outcome: restored ? 'restored' : 'updated', asset_id: existing.asset_id };
      }

      // A move: the same content at a new path, while the old path's asset is missing. A source that brings a file
      // of its own (an upload, an import) moves only its owner's asset (another member's stays theirs, and in their
      // Trash). (A commit claimed by a scan after a crash counts as its source.)
      const fromSource = e.source === 'upload' || e.source === 'import' || claimed !== undefined;
      const givenName = claimed?.originalFilename ?? e.originalFilename;
      const holders = e.content ?? this.byContent(repo.repository_id, hash, size);
      const candidate = holders.rows
        .filter((a) => !fromSource || a.owner_id === ownerId)
        .find((a) => a.is_deleted === 1 || !fs.existsSync(path.join(repo.path, a.storage_path)));
      // The rows may have been read before the commit (the door's lock): the chosen one is read again here.
      const moved = candidate && this.store.byId(forSystem('asset', candidate.asset_id));
      if (moved && moved.hash === hash && !fs.existsSync(path.join(repo.path, moved.storage_path))) {
        // A person's deletion stands when the file turns up elsewhere in the folder; an upload of it
        // is the person asking for it back.
        const keepTrashed = !fromSource && moved.is_deleted === 1 && moved.deleted_reason === 'user';
        const renamed = path.posix.basename(relPath) !== path.posix.basename(moved.storage_path);
        this.store.update(
          moved.asset_id,
          {
            storage_path: relPath,
            file_mtime: mtime,
            // A file renamed on disk was named by a person: that name is the one to show, search and
            // download. A move to another folder keeps the name (an upload keeps its uploader's).
            // An upload that brings its owner's asset back names it as the uploader named the file.
            ...(fromSource && givenName ? { original_filename: givenName } : renamed ? { original_filename: path.posix.basename(relPath) } : {}),
            ...(keepTrashed ? {} : { is_deleted: 0, deleted_at: null, deleted_reason: null }),
          },
          now,
        );
        if (fromSource) keepFacts(moved.asset_id);
        if (moved.is_deleted === 1 && !keepTrashed) this.changes.emit('asset.restored', assetRef(moved));
        this.changes.emit('asset.moved', { ...assetRef(moved), from: moved.storage_path, to: relPath, ...(commit ? { commit } : {}) });
        sourced(moved);
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
          original_filename: givenName ?? path.posix.basename(relPath),
          mime_type: type.mime,
          file_size: size,
          hash,
          file_mtime: mtime,
          ...modifiedFields,
        },
        now,
      );
      enqueue(assetId);
      this.changes.emit('asset.ingested', { asset_id: assetId, owner_id: ownerId, repository_id: repo.repository_id, source: e.source, replaced: false, ...(commit ? { commit } : {}) });
      sourced({ asset_id: assetId, owner_id: ownerId, repository_id: repo.repository_id });
      return { outcome: 'created', asset_id: assetId };
    });
  }

  /**
   * A source handed content the owner already has (its live asset `assetId`) with these facts: a re-run of the same
   * item, or another item holding the same content (fact-precedence.ts, "Re-runs"). New facts are kept and the
   * effective capture time, place, description, favourite and rating settled again from the kept `file_*` columns
   * (no new read of the file; a person's time or place still wins); what moved goes out on `asset.sourced`, with the
   * album names not named before. Returns whether anything was kept (false: the same facts again, nothing written;
   * or the asset is in the Trash, where a person's deletion stands and a re-run touches nothing; or it is not
   * `ownerId`'s: a source speaks only for the member it acts for).
   */
  refreshFacts(assetId: string, ownerId: number, source: IngestSource, facts: SourceFacts): boolean {
    const now = this.now();
    return tx(this.db, () => {
      const row = this.store.byId(forSystem('asset', assetId));
      if (!row || row.is_deleted || row.owner_id !== ownerId) return false;
      const merged = this.keepFacts(assetId, source, facts, now);
      if (!merged) return false;
      const kept = this.store.sourceFacts(assetId)!;
      const next = resettleFacts(row, kept);
      const fields = Object.fromEntries(Object.entries(next).filter(([k, v]) => row[k as keyof AssetRow] !== v)) as typeof next;
      const settled: ('time' | 'place')[] = [];
      if (['taken_time', 'capture_offset_minutes', 'time_source'].some((k) => k in fields)) settled.push('time');
      if (['gps_latitude', 'gps_longitude', 'place_source'].some((k) => k in fields)) {
        settled.push('place');
        // The geohashes go with the position (features/places), so the map and places never see a stale cell.
        Object.assign(fields, geohashFields(next.gps_latitude ?? null, next.gps_longitude ?? null));
      }
      if (Object.keys(fields).length) this.store.update(assetId, fields, now);
      // The one-shot facts had their turn here (the pipeline's next run does not apply them again).
      if (kept.fresh) this.store.factsApplied(assetId, now);
      if (merged.newAlbumNames.length || settled.length) this.changes.emit('asset.sourced', { ...assetRef(row), album_names: merged.newAlbumNames, settled });
      this.log.info({ asset_id: assetId, source, settled, album_names: merged.newAlbumNames.length }, 'a source’s new facts kept for an asset it had already');
      return true;
    });
  }

  /**
   * A source says one of its files belongs with another (an edited copy with its original, a Live Photo's clip with
   * its still): kept and linked into one media item (source-pairs.ts). Whether anything changed.
   */
  pair(p: SourcePair): boolean {
    const now = this.now();
    return tx(this.db, () => keepSourcePair(this.db, this.store, p, now, this.log));
  }

  /** Keeps a source's facts by the rule's merge (fact-precedence.ts); null when there was nothing new to keep. */
  private keepFacts(assetId: string, source: IngestSource, facts: SourceFacts | undefined, now: number): FactsMerge | null {
    if (!factsWorthKeeping(facts)) return null;
    const merged = mergeFacts(this.store.sourceFacts(assetId)?.facts ?? null, facts);
    if (!merged.changed) return null;
    this.store.keepSourceFacts(assetId, source, merged.facts, now, merged.oneShotChanged);
    return merged;
  }

  /** The file at relPath is gone: soft-delete its asset (never purged here). Returns whether an asset was affected. */
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

  /**
   * A file found by watching or scanning is named by the file on disk. Catalogs written before moves
   * took the new name kept the old one after a rename; a scan that indexes the path again (a forced
   * scan) puts the disk name back. Uploads keep their uploader's name: their file may be stored as `name (1).ext`.
   */
  private repairDiskName(row: AssetRow, relPath: string): void {
    const onDisk = path.posix.basename(relPath);
    if (row.original_filename === onDisk) return;
    // A name a source gave (an upload's, an import's) is kept with its facts (fact-precedence.ts).
    if (this.store.sourceFacts(row.asset_id)?.facts.originalName !== undefined) return;
    this.store.update(row.asset_id, { original_filename: onDisk }, this.now());
    this.log.info({ asset_id: row.asset_id, path: relPath }, 'asset name set to the name of its file');
  }
}
