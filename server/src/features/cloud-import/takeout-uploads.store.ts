/** SQL of Takeout parts uploaded from the browser (migration 0035). No rules here (takeout-uploads.service.ts). */
import type { AccessScope } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';

export type UploadStatus = 'uploading' | 'complete';

export interface TakeoutUploadRow {
  upload_id: string;
  owner_id: number;
  repository_id: string;
  filename: string;
  size: number;
  received: number;
  status: UploadStatus;
  part_path: string | null;
  created_at: number;
  updated_at: number;
}

export class TakeoutUploadsStore {
  constructor(private readonly db: Db) {}

  insert(row: TakeoutUploadRow): void {
    this.db
      .prepare(
        `INSERT INTO takeout_uploads (upload_id, owner_id, repository_id, filename, size, received, status, part_path, created_at, updated_at)
         VALUES (@upload_id, @owner_id, @repository_id, @filename, @size, @received, @status, @part_path, @created_at, @updated_at)`,
      )
      .run(row);
  }

  get(uploadId: string): TakeoutUploadRow | undefined {
    return this.db.prepare('SELECT * FROM takeout_uploads WHERE upload_id = ?').get(uploadId) as TakeoutUploadRow | undefined;
  }

  /** The member's unfinished upload of this file into this repository, if any (a page reloaded mid-way resumes it). */
  unfinished(ownerId: number, repositoryId: string, filename: string, size: number): TakeoutUploadRow | undefined {
    return this.db
      .prepare(`SELECT * FROM takeout_uploads WHERE owner_id = ? AND repository_id = ? AND status = 'uploading' AND filename = ? AND size = ? ORDER BY created_at DESC LIMIT 1`)
      .get(ownerId, repositoryId, filename, size) as TakeoutUploadRow | undefined;
  }

  /** The unfinished uploads in `scope` (into one repository when given), the latest activity first (at most 200). */
  listUnfinished(scope: AccessScope<'takeout_upload'>, repositoryId: string | null): TakeoutUploadRow[] {
    return this.db
      .prepare(
        `SELECT * FROM takeout_uploads u WHERE ${scope.sql} AND u.status = 'uploading' AND (@repository IS NULL OR u.repository_id = @repository)
         ORDER BY u.updated_at DESC, u.upload_id LIMIT 200`,
      )
      .all({ ...scope.params, repository: repositoryId }) as TakeoutUploadRow[];
  }

  setReceived(uploadId: string, received: number, now: number): void {
    this.db.prepare('UPDATE takeout_uploads SET received = ?, updated_at = ? WHERE upload_id = ?').run(received, now, uploadId);
  }

  complete(uploadId: string, partPath: string, now: number): void {
    this.db.prepare("UPDATE takeout_uploads SET status = 'complete', received = size, part_path = ?, updated_at = ? WHERE upload_id = ?").run(partPath, now, uploadId);
  }

  remove(uploadId: string): void {
    this.db.prepare('DELETE FROM takeout_uploads WHERE upload_id = ?').run(uploadId);
  }

  /** Uploads with no activity since `cutoff` (the sweep removes them). */
  idle(cutoff: number): TakeoutUploadRow[] {
    return this.db.prepare('SELECT * FROM takeout_uploads WHERE updated_at < ?').all(cutoff) as TakeoutUploadRow[];
  }

  /** The ids of a repository's uploads still receiving bytes (their partial files are kept). */
  liveIds(repositoryId: string): Set<string> {
    return new Set(this.db.prepare("SELECT upload_id FROM takeout_uploads WHERE repository_id = ? AND status = 'uploading'").pluck().all(repositoryId) as string[]);
  }
}
