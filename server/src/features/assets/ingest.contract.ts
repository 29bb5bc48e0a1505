/**
 * How files enter the catalog: the one entry point that uploads, folder watching and scans call.
 * Implemented by IngestService (ingest.service.ts); other features depend on this interface only.
 *
 * Rules:
 * - A file is identified by (repository, repository-relative path). Indexing the same path again
 *   updates the asset when size or mtime changed, and does nothing otherwise.
 * - A new path whose BLAKE3 hash and size match an asset whose file went missing in the same
 *   repository is a move: the asset keeps its id (albums, likes and ratings survive).
 * - Unsupported files (by content, not extension) are skipped and reported, never catalogued.
 * - Indexing is cheap (stat, detect, hash); the heavy work (metadata, thumbnails, transcodes) is
 *   the `assets.process` job, queued in the same transaction that creates the asset.
 * - A missing file soft-deletes its asset (is_deleted, deleted_at): nothing is ever purged here.
 * - A file an upload committed belongs to its uploader, whoever indexes it (CommittedUploads).
 */
export type IngestSource = 'upload' | 'scan' | 'watch';

export type IndexOutcome =
  | { outcome: 'created' | 'updated' | 'unchanged' | 'moved' | 'restored'; asset_id: string }
  | { outcome: 'duplicate'; asset_id: string }
  | { outcome: 'unsupported'; reason: string };

export interface IndexFileRequest {
  repositoryId: string;
  /** Repository-relative path with forward slashes. */
  relPath: string;
  /** Owner of a new asset: the uploader, or the repository's default owner for scans. */
  ownerId: number;
  source: IngestSource;
  /** Already computed while streaming (uploads): skips re-hashing. */
  knownHash?: string;
  /** The file name the user gave (uploads); defaults to the path's base name. */
  originalFilename?: string;
  /** Upload receipt to complete when the pipeline finishes. */
  receiptId?: string;
}

/** An upload committed at a path and not catalogued yet (features/uploads/commit-intents.ts). */
export interface CommittedUpload {
  ownerId: number;
  receiptId: string;
  originalFilename: string;
}

/**
 * Who committed a file, when an upload did: consulted inside the catalog transaction of every
 * indexing (upload, watch or scan), so a committed upload always becomes its uploader's asset,
 * whichever path catalogues it first, also after a crash.
 */
export interface CommittedUploads {
  /** The upload committed at relPath with exactly this content, if any. */
  claim(repositoryId: string, relPath: string, hash: string, size: number): CommittedUpload | undefined;
  /** The claimed upload is now the asset `assetId` (same transaction). */
  settle(receiptId: string, assetId: string): void;
}

export interface Ingest {
  indexFile(req: IndexFileRequest): Promise<IndexOutcome>;
  /** The file at relPath is gone: soft-delete its asset. Returns whether an asset was affected. */
  markMissing(repositoryId: string, relPath: string): boolean;
  /** An existing asset with this content in the repository (for duplicate checks), if any. */
  findByHash(repositoryId: string, hash: string, size: number): { asset_id: string; owner_id: number } | undefined;
}
