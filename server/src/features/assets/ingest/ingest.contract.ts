/**
 * How files enter the catalog: the one entry point that uploads, folder watching and scans call.
 * Implemented by IngestService (ingest.service.ts); other features depend on this interface only.
 *
 * Rules:
 * - A file is identified by (repository, repository-relative path). Indexing the same path again
 *   updates the asset when size or mtime changed, and does nothing otherwise.
 * - A new path whose BLAKE3 hash and size match an asset whose file went missing in the same
 *   repository is a move: the asset keeps its id (albums, likes and ratings survive) and is never
 *   trashed on the way. An upload is a move only of the uploader's own asset (never another
 *   member's), and brings it out of the Trash: the uploader asked for the file, under the name the
 *   uploader gave it. When the file itself was renamed (its base name changed), the asset takes
 *   the new name as `original_filename`; a move to another folder under the same name keeps the
 *   name it had (for an upload stored as `IMG_1 (1).jpg`, the uploader's `IMG_1.jpg`).
 * - A file that changes while it is being read is not catalogued half-written: indexing throws
 *   FileChangingError, and the caller indexes it again once it is quiet. A catalogued file whose
 *   content changes is processed again, even when its processing is running at that moment.
 * - Duplicates are per owner: the same bytes may be catalogued once per member (each member's
 *   copy is their own asset at its own path; uploads store it once on disk, see uploads/commit.ts).
 *   Scans and the watcher catalogue a new path for the repository's default owner as always.
 * - Unsupported files (by content, not extension) are skipped and reported, never catalogued.
 * - Indexing is cheap (stat, detect, hash: the intake's, features/intake, native BLAKE3 off the main
 *   thread); the content type is detected once and handed to the processing job; the heavy work (metadata, thumbnails, transcodes) is
 *   the `assets.process` job, queued in the same transaction that creates the asset.
 * - A missing file soft-deletes its asset (is_deleted, deleted_at): nothing is ever purged here.
 * - A file an upload committed belongs to its uploader, whoever indexes it (CommittedUploads).
 */
import type { DetectedType } from '../../intake/index.ts';

export type IngestSource = 'upload' | 'scan' | 'watch';

export type IndexOutcome =
  | { outcome: 'created' | 'updated' | 'unchanged' | 'moved' | 'restored'; asset_id: string }
  | { outcome: 'duplicate'; asset_id: string }
  | { outcome: 'unsupported'; reason: string };

export interface IndexFileRequest {
  repositoryId: string;
  /** The repository as the caller's job looked it up once (a scan, an upload); looked up here otherwise. */
  repository?: { repository_id: string; path: string };
  /** Repository-relative path with forward slashes. */
  relPath: string;
  /** Owner of a new asset: the uploader, or the repository's default owner for scans. */
  ownerId: number;
  source: IngestSource;
  /** Already computed while streaming (uploads): skips re-hashing. */
  knownHash?: string;
  /** Content type already detected from the file's head (uploads): skips detecting it again. */
  knownType?: DetectedType | null;
  /** The file name the user gave (uploads); defaults to the path's base name. */
  originalFilename?: string;
  /** Upload receipt to complete when the pipeline finishes. */
  receiptId?: string;
  /**
   * The file's own modification time, the capture time of last resort (features/assets/capture-sources.ts).
   * Absent: the file system's (scans, watching). Uploads pass the uploading device's (`last_modified`), or null
   * when it did not say: the stored copy's time is only when it arrived.
   */
  fileModified?: FileModified | null;
}

/** A modification time as a device reported it: the instant, and the device's zone when it said. */
export interface FileModified {
  time: number;
  offsetMinutes: number | null;
}

/** The file changed while it was being read (still being written): index it again once it is quiet. */
export class FileChangingError extends Error {
  constructor(relPath: string) {
    super(`'${relPath}' changed while it was being read (it is still being written)`);
    this.name = 'FileChangingError';
  }
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
  /**
   * The owner's own asset with this content in the repository: a live one first, else one in the
   * Trash whose file is still in its folder (it can be restored). Never another member's.
   */
  ownCopy(repositoryId: string, ownerId: number, hash: string, size: number): { asset_id: string; in_trash: boolean } | undefined;
  /** Who owns the asset catalogued at this path (its file may be gone), if any. */
  ownerOfPath(repositoryId: string, relPath: string): number | undefined;
  /** Brings an asset out of the Trash; false when it is not there or its file is gone. */
  restoreFromTrash(assetId: string): boolean;
  /**
   * A file of the repository (anyone's) that holds this content as it was catalogued (size and
   * modification time unchanged since it was hashed): absolute path, or undefined.
   */
  fileWithContent(repositoryId: string, hash: string, size: number): string | undefined;
}
