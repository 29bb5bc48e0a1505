/**
 * SQL of the unified list. No rules here beyond the shape of the query.
 *
 * Which asset stands for a media item: its first component (by position; the primary is position 0)
 * in the trash state being listed. Normally that is the primary; if the primary is in the trash and
 * its RAW partner is not, the RAW stands for the item in the library and the JPEG in the Trash.
 * An asset with no media item yet (pending, processing, failed) stands for itself. The other
 * filters (type, liked, repository, folder) then apply to that representative.
 *
 * How it stays fast on a large library (measured here with 100k assets of one owner, 2% in pairs:
 * totals ≈ 80 ms, a page of 100 ≈ 25 ms at any offset, ≈ 65 ms sorted by date_captured):
 * - "not the representative" is rare (only later components of pairs and live photos), so the
 *   query excludes that small set (NON_HEADS, evaluated once) by rowid instead of joining every
 *   row to its media item; with no other filter the count is a covering scan of assets_owner_upload;
 * - a page picks its rows by rowid first and joins media items for those rows only, so a deep
 *   offset skips index entries, not joins;
 * - files behind the items: the items plus the extra components of the few multi-component items.
 * Paging is by offset over a stable order: the sort key, then rowid (insertion order; this is the
 * index order, so `recently_added` walks assets_owner_upload without sorting). `date_captured`
 * sorts the matching rows: no index on coalesce(taken_time, upload_time) yet.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { AssetRow } from '../assets/assets.store.ts';

export type AssetType = 'PHOTO' | 'VIDEO' | 'AUDIO';

export interface ListFilter {
  ownerId: number;
  isDeleted: boolean;
  repositoryId?: string | undefined;
  /** Every listed set must contain the type (several sets: intersection). */
  typeSets: AssetType[][];
  liked?: boolean | undefined;
  folder?: { path: string; recursive: boolean } | undefined;
}

export type ListSort = 'recently_added' | 'date_captured';

export interface HeadRow extends AssetRow {
  /** The media item the asset is a component of, if linked. */
  link_media_item_id: string | null;
  link_media_kind: 'photo' | 'video' | 'audio' | 'live_photo' | null;
}

export interface ComponentRow {
  media_item_id: string;
  asset_id: string;
  relation: string;
  mime_type: string;
  specific_metadata: string | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

const ORDER: Record<ListSort, string> = {
  recently_added: 'a.upload_time DESC, a.rowid ASC',
  date_captured: 'coalesce(a.taken_time, a.upload_time) DESC, a.rowid ASC',
};

/** Rowids of the caller's assets in the listed trash state that do not stand for their media item. */
const NON_HEADS = `SELECT ax.rowid FROM media_item_components cx CROSS JOIN assets ax ON ax.asset_id = cx.asset_id
  WHERE cx.position > 0 AND ax.owner_id = @owner AND ax.is_deleted = @del AND EXISTS (
    SELECT 1 FROM media_item_components c2 JOIN assets a2 ON a2.asset_id = c2.asset_id
    WHERE c2.media_item_id = cx.media_item_id AND c2.position < cx.position AND a2.is_deleted = @del)`;

/** Media items with more than one component in the listed trash state, with how many. */
const MULTI = `SELECT p.media_item_id, count(*) AS n
  FROM (SELECT DISTINCT media_item_id FROM media_item_components WHERE position > 0) p
  CROSS JOIN media_item_components c3 ON c3.media_item_id = p.media_item_id
  CROSS JOIN assets a3 ON a3.asset_id = c3.asset_id AND a3.is_deleted = @del
  GROUP BY p.media_item_id HAVING count(*) > 1`;

export class BrowseStore {
  constructor(private readonly db: Db) {}

  /**
   * The filter on `assets a`, the representative rule included: by excluding NON_HEADS, or (`viaC`)
   * checked per row against the joined component `c`, cheaper when only a few rows are looked at.
   */
  private where(f: ListFilter, viaC = false): { sql: string; params: Record<string, unknown> } {
    const params: Record<string, unknown> = { owner: f.ownerId, del: f.isDeleted ? 1 : 0 };
    const parts = ['a.owner_id = @owner', 'a.is_deleted = @del'];
    if (f.repositoryId !== undefined) {
      parts.push('a.repository_id = @repo');
      params.repo = f.repositoryId;
    }
    f.typeSets.forEach((set, i) => {
      parts.push(`a.type IN (SELECT value FROM json_each(@types${i}))`);
      params[`types${i}`] = JSON.stringify(set);
    });
    if (f.liked !== undefined) {
      parts.push('a.liked = @liked');
      params.liked = f.liked ? 1 : 0;
    }
    if (f.folder) {
      const folder = f.folder.path;
      if (folder === '') {
        if (!f.folder.recursive) parts.push("instr(a.storage_path, '/') = 0");
      } else {
        parts.push("a.storage_path LIKE @prefix ESCAPE '\\'");
        params.prefix = `${escapeLike(folder)}/%`;
        if (!f.folder.recursive) {
          parts.push("instr(substr(a.storage_path, length(@folder) + 2), '/') = 0");
          params.folder = folder;
        }
      }
    }
    parts.push(
      viaC
        ? `NOT EXISTS (SELECT 1 FROM media_item_components c2 JOIN assets a2 ON a2.asset_id = c2.asset_id
             WHERE c2.media_item_id = c.media_item_id AND c2.position < c.position AND a2.is_deleted = @del)`
        : `a.rowid NOT IN (${NON_HEADS})`,
    );
    return { sql: parts.join(' AND '), params };
  }

  /** How many items match, and how many files stand behind them. */
  count(f: ListFilter): { items: number; files: number } {
    const w = this.where(f);
    const items = this.db.prepare(`SELECT count(*) FROM assets a WHERE ${w.sql}`).pluck().get(w.params) as number;
    const m = this.where(f, true);
    const extra = this.db
      .prepare(
        `WITH multi AS (${MULTI})
         SELECT coalesce(sum(multi.n - 1), 0) FROM multi
         CROSS JOIN media_item_components c ON c.media_item_id = multi.media_item_id
         CROSS JOIN assets a ON a.asset_id = c.asset_id
         WHERE ${m.sql}`,
      )
      .pluck()
      .get(m.params) as number;
    return { items, files: items + extra };
  }

  page(f: ListFilter, sort: ListSort, limit: number, offset: number): HeadRow[] {
    const w = this.where(f);
    return this.db
      .prepare(
        `WITH pick AS (SELECT a.rowid AS rid FROM assets a WHERE ${w.sql} ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset)
         SELECT a.*, c.media_item_id AS link_media_item_id, m.media_kind AS link_media_kind
         FROM pick JOIN assets a ON a.rowid = pick.rid
         LEFT JOIN media_item_components c ON c.asset_id = a.asset_id
         LEFT JOIN media_items m ON m.media_item_id = c.media_item_id
         ORDER BY ${ORDER[sort]}`,
      )
      .all({ ...w.params, limit, offset }) as HeadRow[];
  }

  /** The components of these media items in the given trash state. */
  components(mediaItemIds: string[], isDeleted: boolean): ComponentRow[] {
    if (mediaItemIds.length === 0) return [];
    return this.db
      .prepare(
        `SELECT c.media_item_id, c.asset_id, c.relation, a.mime_type, a.specific_metadata
         FROM media_item_components c JOIN assets a ON a.asset_id = c.asset_id
         WHERE c.media_item_id IN (SELECT value FROM json_each(@ids)) AND a.is_deleted = @del
         ORDER BY c.media_item_id, c.position`,
      )
      .all({ ids: JSON.stringify(mediaItemIds), del: isDeleted ? 1 : 0 }) as ComponentRow[];
  }
}
