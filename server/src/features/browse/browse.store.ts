/**
 * SQL of the unified list. No rules here beyond the shape of the queries.
 *
 * A list is computed in two steps (browse.lists.ts keeps the result and brings it up to date):
 * 1. `matching`: the rowids of the caller's assets that pass the filter, in list order, from one
 *    covering index of 0007 (never the table, whose rows carry kilobytes of EXIF): the list index
 *    itself when nothing narrows the list (the owner's rows in index order, no sorting), else the
 *    index of the most selective filter (album, tag, folder, camera, lens, rating, liked, location,
 *    date, file name) and a sort of what it found.
 * 2. Rows that do not stand for their media item go and stacks collapse, with the in-memory shape
 *    of the catalog (browse.shape.ts).
 * `recheck` re-tests a few changed rows; a page loads its rows by rowid (`rows`), their components
 * (`components`) and stacks (`stacks`).
 *
 * Paging is by offset over a stable order (`listOrder`).
 */
import type { Statement } from 'better-sqlite3';
import { prepared } from '../../platform/db/prepared.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { AssetRow } from '../assets/index.ts';
import { BEST_TIME, type Drive, type SqlFilter } from './browse.filter.ts';

export type ListSort = 'recently_added' | 'date_captured';

/** Every column the gallery shows (not exif_raw: kilobytes per row that no list needs). */
const PAGE_COLUMNS = [
  'asset_id', 'owner_id', 'repository_id', 'storage_path', 'type', 'original_filename', 'mime_type', 'file_size', 'hash', 'file_mtime',
  'width', 'height', 'duration', 'taken_time', 'capture_offset_minutes', 'upload_time', 'gps_latitude', 'gps_longitude', 'liked', 'rating',
  'description', 'is_deleted', 'deleted_at', 'content_id', 'phash', 'specific_metadata', 'state', 'status', 'last_error', 'media_item_id',
  'created_at', 'updated_at',
].map((c) => `a.${c}`).join(', ');

export interface PageRow extends Omit<AssetRow, 'exif_raw' | 'phash_windows' | 'phash_version'> {
  rid: number;
  link_media_kind: 'photo' | 'video' | 'audio' | 'live_photo' | null;
}

/** A member of a stack shown on a page. */
export interface PageStackRow {
  key: number;
  stack_id: string;
  stack_kind: 'burst' | 'manual';
  media_item_id: string;
  primary_asset_id: string;
  is_cover: number;
  /** The member has a file in the listed trash state. */
  in_state: number;
}

export interface ComponentRow {
  media_item_id: string;
  asset_id: string;
  relation: string;
  mime_type: string;
  specific_metadata: string | null;
}

/**
 * The list order: the sort key, then ties. Walking a list index (0007) the order is the index's own:
 * the rest of its key, then the rowid, so the index is read with no sorting at all. The other
 * drives sort what they found by the key, then rowid. `cols` (with `desc`) spell that order out,
 * the rowid last, so that a cached list can place a changed row where a new query would
 * (browse.lists.ts).
 */
export interface ListOrder {
  cols: string[];
  desc: boolean[];
  /** The ORDER BY of the full query (the index gives the rest of the order). */
  orderBy: string;
}

export function listOrder(drive: Drive, sort: ListSort): ListOrder {
  const key = sort === 'recently_added' ? 'a.upload_time' : BEST_TIME;
  const spec = (cols: string[], orderBy: string): ListOrder => ({ cols: [...cols, 'a.rowid'], desc: cols.map((_, i) => i === 0).concat(false), orderBy });
  if (drive === 'sort' && sort === 'recently_added') return spec(['a.upload_time', 'a.type', 'a.liked', 'a.rating', 'a.media_item_id'], `${key} DESC`);
  if ((drive === 'sort' || drive === 'date') && sort === 'date_captured') return spec([BEST_TIME, 'a.upload_time', 'a.type', 'a.liked', 'a.rating', 'a.media_item_id'], `${key} DESC`);
  if (sort === 'recently_added' && (drive === 'camera' || drive === 'make' || drive === 'liked' || drive === 'rating')) return spec(['a.upload_time', BEST_TIME], `${key} DESC`);
  return spec([key], `${key} DESC, a.rowid`);
}

/** The index a drive walks (0007_query_indexes.sql); null lets SQLite choose. */
function indexFor(drive: Drive, sort: ListSort): string | null {
  switch (drive) {
    case 'sort':
      return sort === 'recently_added' ? 'assets_list_upload' : 'assets_list_best';
    case 'date':
      return 'assets_list_best';
    case 'album':
    case 'tag':
      return 'assets_id_list';
    case 'camera':
      return 'assets_list_camera';
    case 'make':
      return 'assets_list_make';
    case 'lens':
      return 'assets_owner_lens';
    case 'liked':
      return 'assets_list_liked';
    case 'rating':
      return 'assets_list_rated';
    case 'gps':
      return 'assets_list_gps';
    case 'folder':
      return 'assets_list_path';
    case 'filename':
      return 'assets_owner_filename';
    default:
      return null;
  }
}

function matchingSql(f: SqlFilter, sort: ListSort): string {
  const index = indexFor(f.drive, sort);
  const order = listOrder(f.drive, sort);
  // Several owners come from several ranges of the index: sort by the whole list order, so that
  // ties fall as a kept list places a changed row (browse.lists.ts).
  const orderBy = f.multiOwner ? order.cols.map((c, i) => `${c}${order.desc[i] ? ' DESC' : ''}`).join(', ') : order.orderBy;
  return `SELECT a.rowid FROM assets a${index ? ` INDEXED BY ${index}` : ''} WHERE ${f.terms.join(' AND ')} ORDER BY ${orderBy}`;
}

export class BrowseStore {
  private localYearStatement: Statement | undefined;

  constructor(private readonly db: Db) {}

  /** Rowids of the assets passing the filter, in list order (not yet reduced to media items). */
  matching(f: SqlFilter, sort: ListSort): number[] {
    return prepared(this.db, matchingSql(f, sort)).pluck().all(f.params) as number[];
  }

  /** The SQL of `matching` (with `f.params`), for a reader of its own (platform/cache/snapshot-worker.ts). */
  matchingSql(f: SqlFilter, sort: ListSort): string {
    return matchingSql(f, sort);
  }

  /**
   * Of these rowids, those passing the filter, each with its values of the list order (`cols`), in
   * list order: what a cached list re-checks after these rows changed.
   */
  recheck(f: SqlFilter, order: ListOrder, rowids: number[]): unknown[][] {
    if (rowids.length === 0) return [];
    return prepared(
      this.db,
      `SELECT ${order.cols.join(', ')} FROM assets a NOT INDEXED WHERE a.rowid IN (SELECT value FROM json_each(@recheck)) AND ${f.rowTerms.join(' AND ')}
         ORDER BY ${order.cols.map((c, i) => `${c}${order.desc[i] ? ' DESC' : ''}`).join(', ')}`,
    )
      .raw()
      .all({ ...f.params, recheck: JSON.stringify(rowids) }) as unknown[][];
  }

  /** The values of the list order (`cols`) of one row. */
  orderValues(order: ListOrder): (rowid: number) => unknown[] {
    const st = this.db.prepare(`SELECT ${order.cols.join(', ')} FROM assets a WHERE a.rowid = ?`).raw();
    return (rowid) => st.get(rowid) as unknown[];
  }

  /** Rowids of assets by id (those that exist). */
  rowidsOf(assetIds: string[]): number[] {
    if (assetIds.length === 0) return [];
    return this.db.prepare('SELECT rowid FROM assets INDEXED BY assets_id_list WHERE asset_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(assetIds)) as number[];
  }

  /** The query plan of `matching` (to check which index a filter uses). */
  plan(f: SqlFilter, sort: ListSort): string[] {
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${matchingSql(f, sort)}`).all(f.params) as { detail: string }[]).map((r) => r.detail);
  }

  /** Whole rows by rowid (any order), with the kind of their media item. */
  rows(rowids: readonly number[]): PageRow[] {
    if (rowids.length === 0) return [];
    return prepared(
      this.db,
      `SELECT a.rowid AS rid, ${PAGE_COLUMNS}, m.media_kind AS link_media_kind FROM assets a LEFT JOIN media_items m ON m.media_item_id = a.media_item_id
         WHERE a.rowid IN (SELECT value FROM json_each(?))`,
    )
      .all(JSON.stringify(rowids)) as PageRow[];
  }

  /**
   * Reads the local wall-clock year of a row (capture time shifted by its offset, else upload time:
   * the year getStatsYears counts it in), one prepared statement for many probes.
   */
  localYear(): (rowid: number) => number {
    // Kept in a field with its mode set once (platform/db/prepared.ts): the years of every timeline request use it.
    const st = (this.localYearStatement ??= this.db
      .prepare(`SELECT CAST(strftime('%Y', (a.best_time + coalesce(a.capture_offset_minutes, 0) * 60000) / 1000.0, 'unixepoch') AS INTEGER) FROM assets a WHERE a.rowid = ?`)
      .pluck());
    return (rowid) => st.get(rowid) as number;
  }

  /** The components of these media items in the given trash state, in position order. */
  components(mediaItemIds: string[], isDeleted: boolean): ComponentRow[] {
    if (mediaItemIds.length === 0) return [];
    return prepared(
      this.db,
      `SELECT c.media_item_id, c.asset_id, c.relation, a.mime_type, a.specific_metadata
         FROM media_item_components c JOIN assets a ON a.asset_id = c.asset_id
         WHERE c.media_item_id IN (SELECT value FROM json_each(@ids)) AND a.is_deleted = @del
         ORDER BY c.media_item_id, c.position`,
    )
      .all({ ids: JSON.stringify(mediaItemIds), del: isDeleted ? 1 : 0 }) as ComponentRow[];
  }

  /**
   * The members of the stacks (by stacks.rowid) shown on a page, by position: which one is the
   * cover (the chosen one, else the first) and which have a file in the listed trash state.
   */
  stacks(keys: number[], isDeleted: boolean): PageStackRow[] {
    if (keys.length === 0) return [];
    return prepared(
      this.db,
      `SELECT s.rowid AS key, s.stack_id, s.stack_kind, sm.media_item_id, m.primary_asset_id,
           sm.media_item_id = coalesce(
             (SELECT x.media_item_id FROM stack_members x WHERE x.stack_id = s.stack_id AND x.media_item_id = s.cover_media_item_id),
             (SELECT x.media_item_id FROM stack_members x WHERE x.stack_id = s.stack_id ORDER BY x.position, x.media_item_id LIMIT 1)) AS is_cover,
           EXISTS (SELECT 1 FROM media_item_components c JOIN assets a ON a.asset_id = c.asset_id WHERE c.media_item_id = sm.media_item_id AND a.is_deleted = @del) AS in_state
         FROM stacks s JOIN stack_members sm ON sm.stack_id = s.stack_id JOIN media_items m ON m.media_item_id = sm.media_item_id
         WHERE s.rowid IN (SELECT value FROM json_each(@keys))
         ORDER BY s.rowid, sm.position, sm.media_item_id`,
    )
      .all({ keys: JSON.stringify(keys), del: isDeleted ? 1 : 0 }) as PageStackRow[];
  }
}
