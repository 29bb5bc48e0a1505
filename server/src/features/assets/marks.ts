/**
 * Likes and ratings are each member's own. The owner's live on the asset row (the list indexes of
 * migration 0007 cover them, so the owner's "liked" list stays an index walk); a member who may read
 * someone else's asset (a partner, an album member) keeps their own in `asset_user_marks` (0013).
 * Whoever reads an asset sees their own marks on it: never the owner's, never another reader's.
 */
import type { Db } from '../../platform/db/connection.ts';

export interface Mark {
  liked: boolean;
  rating: number;
}

export class MarksStore {
  constructor(private readonly db: Db) {}

  /** The marks `userId` put on these assets (assets without a mark are absent). */
  of(userId: number, assetIds: readonly string[]): Map<string, Mark> {
    if (assetIds.length === 0) return new Map();
    const rows = this.db
      .prepare('SELECT asset_id, liked, rating FROM asset_user_marks WHERE user_id = ? AND asset_id IN (SELECT value FROM json_each(?))')
      .all(userId, JSON.stringify(assetIds)) as { asset_id: string; liked: number; rating: number }[];
    return new Map(rows.map((r) => [r.asset_id, { liked: r.liked === 1, rating: r.rating }]));
  }

  /** Sets the given parts of a reader's mark (the rest stay as they were). */
  set(userId: number, assetId: string, mark: Partial<Mark>, now: number): void {
    this.db
      .prepare(
        `INSERT INTO asset_user_marks (user_id, asset_id, liked, rating, updated_at) VALUES (@user, @asset, coalesce(@liked, 0), coalesce(@rating, 0), @now)
         ON CONFLICT (user_id, asset_id) DO UPDATE SET liked = coalesce(@liked, liked), rating = coalesce(@rating, rating), updated_at = @now`,
      )
      .run({ user: userId, asset: assetId, liked: mark.liked === undefined ? null : mark.liked ? 1 : 0, rating: mark.rating ?? null, now });
  }
}

/** Shows each asset that `userId` does not own with that reader's own marks (none: not liked, 0). */
export function withReaderMarks<A extends { asset_id: string; owner_id: number; liked: boolean; rating: number }>(
  marks: MarksStore,
  userId: number,
  assets: A[],
): A[] {
  const foreign = assets.filter((a) => a.owner_id !== userId).map((a) => a.asset_id);
  if (foreign.length === 0) return assets;
  const mine = marks.of(userId, foreign);
  return assets.map((a) => {
    if (a.owner_id === userId) return a;
    const m = mine.get(a.asset_id);
    return { ...a, liked: m?.liked ?? false, rating: m?.rating ?? 0 };
  });
}
