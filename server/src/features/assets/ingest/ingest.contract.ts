/**
 * How files enter the catalog: the rules the catalog writer (catalog-writer.ts) keeps for the one door
 * (features/intake/door.ts) that every source calls; `Ingest` is the door's deprecated older face.
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
 *   copy is their own asset at its own path; the door stores it once on disk, see features/intake/door.ts).
 *   Scans and the watcher catalogue a new path for the repository's default owner as always.
 * - Unsupported files (by content, not extension) are skipped and reported, never catalogued.
 * - Indexing is cheap (stat, detect, hash: the intake's, features/intake, native BLAKE3 off the main
 *   thread); the content type is detected once and handed to the processing job; the heavy work (metadata, thumbnails, transcodes) is
 *   the `assets.process` job, queued in the same transaction that creates the asset.
 * - A missing file soft-deletes its asset (is_deleted, deleted_at): nothing is ever purged here.
 * - A file a source committed belongs to its committer, whoever indexes it (CommitClaims).
 */
import type { DetectedType } from '../../../adapters/media/detect.ts';
import type { SourceFacts } from '../fact-precedence.ts';

/** Who hands the file in: an upload, a scan, the watcher, an importer, a folder a member had the home machine open. */
export type IngestSource = 'upload' | 'scan' | 'watch' | 'import' | 'host-folder';

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
   * The file's own modification time, the capture time of last resort (features/assets/fact-precedence.ts).
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

/**
 * A commit recorded before its file appeared at its name (features/intake: the door's crash-safety record, table
 * intake_commits), as the catalog write takes it: the file is its committer's, under the name the source gave.
 */
export interface ClaimedCommit {
  source: IngestSource;
  /** The source's reference of the commit (an upload's receipt id). */
  ref: string;
  ownerId: number;
  originalFilename: string;
  /** What the source said of the file (kept with the asset, fact-precedence.ts). */
  facts?: SourceFacts;
}

/**
 * The commit records, as the catalog writer sees them: consulted inside the catalog transaction of every indexing
 * (upload, watch, scan, import), so a committed file always becomes its committer's asset, whichever path catalogues
 * it first, also after a crash. Implemented by the intake (features/intake/commits.store.ts), handed to the writer by the
 * composition root: assets never calls a source.
 */
export interface CommitClaims {
  /** Takes (removes) the record of a commit at relPath with exactly this content, if any (same transaction). */
  claim(repositoryId: string, relPath: string, hash: string, size: number): ClaimedCommit | undefined;
}

/** @deprecated The door (features/intake/door.ts, `CatalogDoor.admit`) is the way in; kept for tests and benches. */
export interface Ingest {
  indexFile(req: IndexFileRequest): Promise<IndexOutcome>;
  /** The file at relPath is gone: soft-delete its asset. Returns whether an asset was affected. */
  markMissing(repositoryId: string, relPath: string): boolean;
}
