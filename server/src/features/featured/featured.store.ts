/**
 * SQL of featured-photo candidates: the caller's newest-added photos (the library list's default
 * order, recently added first), ready (thumbnails exist), not in the Trash, one per media item. The
 * walk follows assets_owner_upload (owner_id, is_deleted, upload_time DESC) and stops at the limit.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { AssetRow } from '../assets/index.ts';
import { LOCAL_MS, liveScope, type Scope } from '../statistics/index.ts';

export interface CandidateRow extends AssetRow {
  best_time: number;
  local_ms: number;
}

export class FeaturedStore {
  constructor(private readonly db: Db) {}

  candidates(scope: Scope, nonHeads: readonly number[], limit: number, notBeforeMs: number | null): CandidateRow[] {
    const w = liveScope(scope, nonHeads);
    const cutoff = notBeforeMs === null ? '' : 'AND a.best_time >= @cutoff';
    return this.db
      .prepare(
        `SELECT a.*, a.best_time AS best_time, ${LOCAL_MS} AS local_ms FROM assets a
         WHERE ${w.sql} AND a.type = 'PHOTO' AND a.state = 'ready' ${cutoff}
         ORDER BY a.upload_time DESC, a.rowid ASC LIMIT @limit`,
      )
      .all({ ...w.params, limit, ...(notBeforeMs === null ? {} : { cutoff: notBeforeMs }) }) as CandidateRow[];
  }

  repositoryExists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM repositories WHERE repository_id = ?').get(id) !== undefined;
  }
}
