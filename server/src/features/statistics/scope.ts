/**
 * The rows every browse-side read counts: the caller's own assets that are not in the Trash,
 * optionally of one repository. Administrators get no exception (photos are private to their owner).
 *
 * `heads`: one row per logical media item, like the library grid: a RAW+JPEG pair or a live photo
 * counts once, through its first component (by position) that is not in the Trash (the rule of
 * features/browse/browse.store.ts). The assets that do not stand for their item are few (later
 * components whose earlier partner is live); `nonHeadRowids` collects them in one pass over the
 * components table, once per request, and the queries exclude them by rowid instead of joining
 * every asset to its media item.
 */
import type { Db } from '../../platform/db/connection.ts';

export interface Scope {
  ownerId: number;
  repositoryId?: string | undefined;
}

export interface SqlPart {
  sql: string;
  params: Record<string, unknown>;
}

const NON_HEADS = `SELECT ax.rowid FROM media_item_components cx CROSS JOIN assets ax ON ax.asset_id = cx.asset_id
  WHERE cx.position > 0 AND ax.owner_id = @owner AND ax.is_deleted = 0 AND EXISTS (
    SELECT 1 FROM media_item_components c2 JOIN assets a2 ON a2.asset_id = c2.asset_id
    WHERE c2.media_item_id = cx.media_item_id AND c2.position < cx.position AND a2.is_deleted = 0)`;

/**
 * Rowids of the owner's live assets that do not stand for their media item: a walk of the later
 * components only (a small fraction of the catalog), read per request.
 */
export function nonHeadRowids(db: Db, ownerId: number): readonly number[] {
  return db.prepare(NON_HEADS).pluck().all({ owner: ownerId }) as number[];
}

/**
 * WHERE terms over `assets a` (no leading AND). With `nonHeads` (from nonHeadRowids), one row per
 * media item.
 */
export function liveScope(s: Scope, nonHeads?: readonly number[]): SqlPart {
  const params: Record<string, unknown> = { owner: s.ownerId };
  const parts = ['a.owner_id = @owner', 'a.is_deleted = 0'];
  if (s.repositoryId !== undefined) {
    parts.push('a.repository_id = @repo');
    params.repo = s.repositoryId;
  }
  if (nonHeads && nonHeads.length > 0) {
    parts.push('a.rowid NOT IN (SELECT value FROM json_each(@non_heads))');
    params.non_heads = JSON.stringify(nonHeads);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * The local wall-clock time of an asset's best time, in epoch ms: taken_time shifted by the recorded
 * capture offset (a time without a known offset is already the camera's wall clock written as UTC,
 * see adapters/media/capture-time.ts), else the upload time (UTC).
 */
export const LOCAL_MS = '(a.best_time + coalesce(a.capture_offset_minutes, 0) * 60000)';
/** Same for the capture time only (null when the asset has no taken_time). */
export const LOCAL_TAKEN_MS = '(a.taken_time + coalesce(a.capture_offset_minutes, 0) * 60000)';

/** Offsets beyond ±14 h do not exist: a window widened by this catches every local day. */
export const MAX_OFFSET_MS = 14 * 3_600_000;
