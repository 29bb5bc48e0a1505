/**
 * SQL of featured-photo candidates: the caller's newest-added photos (the library list's default
 * order, recently added first), ready (thumbnails exist), not in the Trash, one per media item. The
 * walk follows assets_owner_upload (owner_id, is_deleted, upload_time DESC) and stops at the limit.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { AssetRow } from '../assets/index.ts';
import { LOCAL_MS, LOCAL_TAKEN_MS, MAX_OFFSET_MS, liveScope, type Scope } from '../statistics/index.ts';

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

  /**
   * Photos taken on `month`/`day` (local date of capture) in the years before `beforeYear`, newest
   * first. One range per year on assets_owner_time (capture time ± the widest UTC offset), from the
   * year before down to the owner's oldest capture, so a library of decades costs a seek per year
   * rather than a pass over every photo.
   */
  onThisDay(scope: Scope, nonHeads: readonly number[], limit: number, month: number, day: number, beforeYear: number): CandidateRow[] {
    const w = liveScope(scope, nonHeads);
    const oldest = this.db.prepare('SELECT min(taken_time) FROM assets WHERE owner_id = ? AND is_deleted = 0').pluck().get(scope.ownerId) as number | null;
    if (oldest === null) return [];
    const stmt = this.db.prepare(
      `SELECT a.*, a.best_time AS best_time, ${LOCAL_MS} AS local_ms FROM assets a
       WHERE ${w.sql} AND a.type = 'PHOTO' AND a.state = 'ready'
         AND a.taken_time BETWEEN @lo AND @hi AND strftime('%Y-%m-%d', ${LOCAL_TAKEN_MS} / 1000, 'unixepoch') = @date
       ORDER BY a.taken_time DESC, a.rowid ASC LIMIT @limit`,
    );
    const out: CandidateRow[] = [];
    const firstYear = new Date(oldest - MAX_OFFSET_MS).getUTCFullYear();
    for (let year = beforeYear - 1; year >= firstYear && out.length < limit; year--) {
      const start = Date.UTC(year, month - 1, day);
      if (new Date(start).getUTCDate() !== day) continue; // 29 February of a year without one
      const date = new Date(start).toISOString().slice(0, 10);
      out.push(...(stmt.all({ ...w.params, lo: start - MAX_OFFSET_MS, hi: start + 86_400_000 + MAX_OFFSET_MS, date, limit: limit - out.length }) as CandidateRow[]));
    }
    return out;
  }
}
