/**
 * Commit intents (table upload_commits): the owner of a committed upload is known from the commit
 * itself. Before an upload's staged file is linked to a name in the repository, a row says which
 * receipt, member, content and name it is; the transaction that catalogues the file (whoever runs
 * it: the upload itself, the folder watcher, a scan) takes the row (`claim`) and removes it.
 *
 * Why: a crash between the link and the catalog write left a file in `uploads/` that only the next
 * scan found, and a scan gives files to the repository's default owner (an administrator): the
 * member lost the photo and their retry was answered "duplicate". With the row, any indexing of
 * that path with that content gives the asset to the uploader and completes their receipt.
 *
 * The row also reserves the name: (repository, path) is unique, so two uploads of different files
 * with the same name never aim at the same path.
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { CommittedUpload, CommittedUploads } from '../assets/index.ts';

export interface CommitIntent {
  receipt_id: string;
  owner_id: number;
  repository_id: string;
  rel_path: string;
  content_hash: string;
  size: number;
  original_filename: string;
  created_at: number;
}

export class CommitIntents implements CommittedUploads {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /**
   * Records (or moves) the receipt's intent to `rel_path`. False when another upload holds that
   * name: the caller tries the next one.
   */
  reserve(i: Omit<CommitIntent, 'created_at'>): boolean {
    try {
      this.db
        .prepare(
          `INSERT INTO upload_commits (receipt_id, owner_id, repository_id, rel_path, content_hash, size, original_filename, created_at)
           VALUES (@receipt_id, @owner_id, @repository_id, @rel_path, @content_hash, @size, @original_filename, @now)
           ON CONFLICT (receipt_id) DO UPDATE SET repository_id = excluded.repository_id, rel_path = excluded.rel_path`,
        )
        .run({ ...i, now: this.now() });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw e;
    }
  }

  /** The upload did not end in the catalog (duplicate, unsupported, failed): nothing is claimed any more. */
  drop(receiptId: string): void {
    this.db.prepare('DELETE FROM upload_commits WHERE receipt_id = ?').run(receiptId);
  }

  all(): CommitIntent[] {
    return this.db.prepare('SELECT * FROM upload_commits ORDER BY created_at').all() as CommitIntent[];
  }

  get(receiptId: string): CommitIntent | undefined {
    return this.db.prepare('SELECT * FROM upload_commits WHERE receipt_id = ?').get(receiptId) as CommitIntent | undefined;
  }

  // ------------------------------------------------------------ CommittedUploads (the ingest's side)

  claim(repositoryId: string, relPath: string, hash: string, size: number): CommittedUpload | undefined {
    // Kept prepared (platform/db/prepared.ts): every file ingest indexes asks this, upload or not.
    const row = prepared(this.db, 'SELECT * FROM upload_commits WHERE repository_id = ? AND rel_path = ?').get(repositoryId, relPath) as CommitIntent | undefined;
    // Another file at that name (the link never happened and someone else's file is there): not ours.
    if (!row || row.content_hash !== hash || row.size !== size) return undefined;
    return { ownerId: row.owner_id, receiptId: row.receipt_id, originalFilename: row.original_filename };
  }

  settle(receiptId: string, assetId: string): void {
    this.db.prepare('DELETE FROM upload_commits WHERE receipt_id = ?').run(receiptId);
    // The receipt follows its asset from here (the pipeline completes it); a terminal one stays as it is.
    this.db
      .prepare(`UPDATE upload_receipts SET status = 'processing', asset_id = ?, problem = NULL, updated_at = ? WHERE receipt_id = ? AND status = 'uploading'`)
      .run(assetId, this.now(), receiptId);
  }
}
