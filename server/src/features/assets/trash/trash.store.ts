/** SQL of the Trash: what is in it, and removing asset rows for good. No rules here. */
import type { Db } from '../../../platform/db/connection.ts';
import type { PermittedAssetId } from '../../../platform/access/index.ts';
import type { AssetRow } from '../assets.store.ts';

export class TrashStore {
  constructor(private readonly db: Db) {}

  /** How many files an owner has in the Trash, and when the oldest went there. */
  summary(ownerId: number): { count: number; oldest: number | null } {
    return this.db
      .prepare('SELECT count(*) AS count, min(deleted_at) AS oldest FROM assets WHERE owner_id = ? AND is_deleted = 1')
      .get(ownerId) as { count: number; oldest: number | null };
  }

  /** Every asset an owner has in the Trash, oldest deletion first. */
  allOf(ownerId: number): AssetRow[] {
    return this.db.prepare('SELECT * FROM assets WHERE owner_id = ? AND is_deleted = 1 ORDER BY deleted_at, asset_id').all(ownerId) as AssetRow[];
  }

  /** Assets of every owner that went to the Trash before `cutoff` (epoch ms), oldest first, at most `limit`. */
  trashedBefore(cutoff: number, limit: number): AssetRow[] {
    return this.db
      .prepare('SELECT * FROM assets WHERE is_deleted = 1 AND deleted_at < ? ORDER BY deleted_at, asset_id LIMIT ?')
      .all(cutoff, limit) as AssetRow[];
  }

  /** The other components of these assets' media items that are in the Trash too (one tile of the Trash). */
  trashedCompanions(ids: readonly PermittedAssetId[]): AssetRow[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(
        `SELECT a.* FROM assets a WHERE a.is_deleted = 1 AND a.asset_id NOT IN (SELECT value FROM json_each(@ids))
           AND a.media_item_id IN (SELECT b.media_item_id FROM json_each(@ids) j CROSS JOIN assets b ON b.asset_id = j.value WHERE b.media_item_id IS NOT NULL)
         ORDER BY a.asset_id`,
      )
      .all({ ids: JSON.stringify(ids) }) as AssetRow[];
  }

  /** The row as it is now (a deletion re-reads it right before removing its file). */
  current(assetId: string): AssetRow | undefined {
    return this.db.prepare('SELECT * FROM assets WHERE asset_id = ?').get(assetId) as AssetRow | undefined;
  }

  /**
   * Removes an asset row; its album places, tags, marks, index entries, components and link places go
   * with it (ON DELETE CASCADE). An account whose avatar it was shows initials again.
   */
  remove(assetId: string): void {
    this.db.prepare('UPDATE users SET avatar_asset_id = NULL WHERE avatar_asset_id = ?').run(assetId);
    this.db.prepare('DELETE FROM assets WHERE asset_id = ?').run(assetId);
  }

  /** Whether a media item has no components left. */
  isEmptyItem(mediaItemId: string): boolean {
    return !this.db.prepare('SELECT 1 FROM media_item_components WHERE media_item_id = ? LIMIT 1').get(mediaItemId);
  }

  removeItem(mediaItemId: string): void {
    this.db.prepare('DELETE FROM media_items WHERE media_item_id = ?').run(mediaItemId);
  }
}
