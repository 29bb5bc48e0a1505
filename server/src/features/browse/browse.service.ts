/**
 * The unified list (queryAssets) and the liked / rated lists: the caller's own assets, and in
 * queryAssets those of the members who share their library with the caller and whom the caller
 * shows in their timeline (browse.filter.ts), as logical media items, filtered, sorted, stacks
 * collapsed or expanded, and paged. A partner's item carries its owner (name and initials) and the
 * caller's own like and rating. Administrators get no exception: photos are private to their owner
 * and to whom the owner shares them with.
 *
 * Decisions:
 * - A row is a media item shown through the asset that stands for it: its first file (by position;
 *   the primary is position 0) in the listed trash state. Normally that is the primary; if the
 *   primary is in the Trash and its RAW partner is not, the RAW stands for the item in the library
 *   and the JPEG in the Trash. An asset not linked into an item (pending, processing, failed) stands
 *   alone. Filters apply to that asset (see browse.filter.ts).
 * - Stacks, `collapsed` (default): a stack is one row, at the place of the member it shows: its
 *   cover when the cover matches the filter, else its first matching member by stack position. The
 *   row's `stack` lists the cover, the members (with a file in the listed trash state) and how many
 *   members matched. `expanded`: every matching member is a row of its own. In both modes each
 *   stacked row's `media_item.stack` says where it sits.
 * - Totals: `total_media_items` and `total_files` count every matching item and the files behind
 *   them (in the listed trash state) in both modes; `total_visible` counts the rows of the mode.
 *
 * Speed: the full ordered list of a query is computed once, off the event loop, and kept current
 * (browse.lists.ts), so a page at any offset is an array slice plus one page of rows, always read fresh. One service per
 * catalog, built by the container (its list cache is the server's).
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { AssetsStore, MarksStore, loadAssetExtras, toAsset, type Asset, compositionOf } from '../assets/index.ts';
import { PartnerSharesStore } from '../sharing/index.ts';
import { MembersStore } from '../users/index.ts';
import { buildFilter, type SqlFilter } from './browse.filter.ts';
import type { AssetFilter, AssetQuery, AssetQueryYears, AssetYearsQuery } from './browse.routes.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import { EMPTY, ListCache, type InSnapshot, type KeptList, type ListResult, type StackMode } from './browse.lists.ts';
import type { SnapshotWorker } from '../../platform/cache/snapshot-worker.ts';
import type { CatalogTracker } from './catalog-tracker.ts';
import type { CatalogShape } from './browse.shape.ts';
import { BrowseStore, type ComponentRow, type ListSort, type PageStackRow } from './browse.store.ts';
import type { GalleryItem, GalleryList } from './browse.view.ts';

export interface AssetPage {
  assets: Asset[];
  limit: number;
  offset: number;
  total: number;
}

export class BrowseService {
  private readonly store: BrowseStore;
  private readonly assets: AssetsStore;
  private readonly lists: ListCache;
  private readonly partners: PartnerSharesStore;
  private readonly marks: MarksStore;
  private readonly household: MembersStore;
  /** The shape the current request works with (set by `list`). */
  private shape: CatalogShape | null = null;

  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogTracker,
    lists: KeptCache<string, KeptList>,
    worker: SnapshotWorker | null = null,
  ) {
    this.store = new BrowseStore(db);
    this.assets = new AssetsStore(db);
    this.lists = new ListCache(this.store, lists, worker);
    this.partners = new PartnerSharesStore(db);
    this.marks = new MarksStore(db);
    this.household = new MembersStore(db);
  }

  async query(actor: Actor, q: AssetQuery = {}): Promise<GalleryList> {
    const limit = q.pagination?.limit ?? 50;
    const offset = q.pagination?.offset ?? 0;
    const mode = q.stack_mode ?? 'collapsed';
    // The list and its page come from one snapshot even if another process writes (withList).
    // The partners are read with every request (one index range) and are part of the filter, so the
    // kept list is keyed by them: a changed share makes this caller's list anew, nobody else's.
    const partners = this.partners.receivedBy(actor.userId);
    const f = buildFilter(
      actor.userId,
      { filter: q.filter, filenameQuery: q.search_type === 'semantic' ? undefined : q.query, viewerTimezone: q.viewer_timezone },
      partners,
    );
    return this.withList(f, q.sort_by ?? 'recently_added', mode, (list) => {
      const page = Array.from(list.rows.subarray(Math.min(offset, list.rows.length), Math.min(offset + limit, list.rows.length)));
      return {
        items: this.items(actor.userId, page, f.isDeleted, mode, list),
        limit,
        offset,
        stack_mode: mode,
        total_files: list.files,
        total_media_items: list.items,
        total_visible: list.rows.length,
      };
    });
  }

  /**
   * The years the list of `q` (sorted by date_captured) covers, with its rows per year
   * (getAssetQueryYears): the date scrubber's scale for exactly the list beside it.
   *
   * Speed: the list is the one the page reads (the same kept list), newest first, so its years are
   * runs: each run's end is found by a binary search over the list, a few hundred single-row reads
   * for a library of decades whatever its size, never a read of every row. Decision: a row whose
   * recorded offset moves it across New Year against its neighbours (a photo taken in the first
   * hours of a year in one zone, next to one taken late the year before in another) may be counted
   * in its neighbours' year; a scrubber is for finding one's way, and that few-hour edge is not
   * worth reading every row.
   */
  async years(actor: Actor, q: AssetYearsQuery): Promise<AssetQueryYears> {
    const partners = this.partners.receivedBy(actor.userId);
    const f = buildFilter(actor.userId, { filter: q.filter, filenameQuery: q.query, viewerTimezone: q.viewer_timezone }, partners);
    return this.withList(f, 'date_captured', q.stack_mode ?? 'collapsed', (list) => {
      const rows = list.rows;
      const yearOf = this.store.localYear();
      const counts = new Map<number, number>();
      for (let i = 0; i < rows.length; ) {
        const year = yearOf(rows[i]!);
        // The first row after i of an earlier year (rows are newest first).
        let lo = i + 1;
        let hi = rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (yearOf(rows[mid]!) >= year) lo = mid + 1;
          else hi = mid;
        }
        counts.set(year, (counts.get(year) ?? 0) + lo - i);
        i = lo;
      }
      const years = [...counts].map(([year, count]) => ({ year, count })).sort((a, b) => b.year - a.year);
      return { years, total: rows.length };
    });
  }

  /**
   * For search (features/search): every row the caller may see under `filter`, one per media item
   * (stacks expanded), in `sort` order: the own and partner-shared library, the filter applied.
   * The search builds its `allowed` bitmap from it, so one set carries ownership and every filter.
   * The array is the kept list's own: read it, never change it.
   */
  async searchable(actor: Actor, filter: AssetFilter | undefined, viewerTimezone: string | undefined, sort: ListSort): Promise<{ listed: Int32Array; isDeleted: boolean }> {
    const partners = this.partners.receivedBy(actor.userId);
    const f = buildFilter(actor.userId, { filter, viewerTimezone }, partners);
    // Collapsed is the timeline's key: a search without a filter reuses the timeline's kept list
    // (`listed` is the list before stacks collapse, the same in both modes).
    return this.withList(f, sort, 'collapsed', (list) => ({ listed: (list as Partial<KeptList>).listed ?? list.rows, isDeleted: f.isDeleted }));
  }

  /**
   * Gallery items (stacks expanded: a search finds each matching photo) for rows `searchable`
   * gave, in the given order, read fresh; rows gone meanwhile are left out.
   */
  async galleryItems(actor: Actor, rowids: readonly number[], isDeleted: boolean): Promise<Map<number, GalleryItem>> {
    if (rowids.length === 0) return new Map();
    await this.catalog.ready();
    return this.db.transaction(() => {
      this.shape = this.catalog.current().st.shape;
      const present = new Set(this.store.rows(rowids).map((r) => r.rid));
      const kept = rowids.filter((r) => present.has(r));
      const items = this.items(actor.userId, kept, isDeleted, 'expanded', EMPTY);
      return new Map(kept.map((r, i) => [r, items[i]!]));
    })();
  }

  /** The files behind rows `searchable` gave (a RAW+JPEG pair counts 2), as `total_files` counts them. */
  async filesOf(rowids: readonly number[]): Promise<number> {
    await this.catalog.ready();
    return this.db.transaction(() => {
      const shape = this.catalog.current().st.shape;
      let n = 0;
      for (const r of rowids) n += shape.files(r);
      return n;
    })();
  }

  liked(actor: Actor, paging: { limit?: number | undefined; offset?: number | undefined }): Promise<AssetPage> {
    return this.assetPage(actor, { liked: true }, paging);
  }

  byRating(actor: Actor, rating: number, paging: { limit?: number | undefined; offset?: number | undefined }): Promise<AssetPage> {
    return this.assetPage(actor, { rating }, paging);
  }

  /** One asset per media item (library only), newest capture first. */
  private assetPage(actor: Actor, filter: AssetFilter, paging: { limit?: number | undefined; offset?: number | undefined }): Promise<AssetPage> {
    const limit = paging.limit ?? 20;
    const offset = paging.offset ?? 0;
    const f = buildFilter(actor.userId, { filter });
    return this.withList(f, 'date_captured', 'expanded', (list) => {
      const page = Array.from(list.rows.subarray(Math.min(offset, list.rows.length), Math.min(offset + limit, list.rows.length)));
      const byRowid = new Map(this.store.rows(page).map((r) => [r.rid, r]));
      const rows = page.map((id) => byRowid.get(id)!);
      const extras = loadAssetExtras(this.assets, rows.map((r) => r.asset_id));
      return { assets: rows.map((r) => toAsset(r, extras.get(r.asset_id))), limit, offset, total: list.items };
    });
  }

  /**
   * Runs `use` over the current list in one read transaction. A list not kept yet (or that cannot
   * be brought up to date) is computed off the event loop first (browse.lists.ts `prepare`), and
   * the tracker is made ready a slice at a time (catalog-tracker.ts), so no request holds the loop
   * for the others. Only when the catalog changes faster than a list can be computed, or there is
   * no worker (a catalog in memory), is it computed in place.
   */
  private async withList<T>(f: SqlFilter, sort: ListSort, mode: StackMode, use: (list: ListResult) => T): Promise<T> {
    const inSnapshot: InSnapshot = async (read) => {
      await this.catalog.ready();
      return this.db.transaction(() => {
        const { st, v } = this.catalog.current();
        return read(st, v);
      })();
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const done = await inSnapshot((st, v) => {
        const list = this.lists.lookup(st, v, f, sort, mode);
        if (!list) return null;
        this.shape = st.shape;
        return { value: use(list) };
      });
      if (done) return done.value;
      if (!this.lists.canPrepare) break;
      await this.lists.prepare(f, sort, mode, inSnapshot);
    }
    return inSnapshot((st, v) => {
      this.shape = st.shape;
      return use(this.lists.get(st, v, f, sort, mode));
    });
  }

  private items(userId: number, rowids: number[], isDeleted: boolean, mode: StackMode, list: ListResult): GalleryItem[] {
    if (rowids.length === 0) return [];
    const shape = this.shape!;
    const byRowid = new Map(this.store.rows(rowids).map((r) => [r.rid, r]));
    const rows = rowids.map((id) => byRowid.get(id)!);
    const linked = [...new Set(rows.map((r) => r.media_item_id).filter((id): id is string => !!id))];
    const byItem = new Map<string, ComponentRow[]>();
    for (const c of this.store.components(linked, isDeleted)) {
      const l = byItem.get(c.media_item_id) ?? [];
      l.push(c);
      byItem.set(c.media_item_id, l);
    }
    const extras = loadAssetExtras(this.assets, rows.map((r) => r.asset_id));
    // Partners' photos: their owner (name, initials) and the caller's own marks, never the owner's.
    const foreign = rows.filter((r) => r.owner_id !== userId);
    const owners = this.household.byIds(foreign.map((r) => r.owner_id));
    const marks = this.marks.of(userId, foreign.map((r) => r.asset_id));
    const slots = rows.map((r) => shape.stack(r.rid));
    const stacks = new Map<number, PageStackRow[]>();
    for (const m of this.store.stacks([...new Set(slots.filter((x) => x !== undefined).map((x) => x.stack.key))], isDeleted)) {
      const l = stacks.get(m.key) ?? [];
      l.push(m);
      stacks.set(m.key, l);
    }
    return rows.map((r, i) => {
      const comps = byItem.get(r.media_item_id ?? '') ?? [];
      const parts = comps.length ? comps : [{ relation: 'original', mime_type: r.mime_type, specific_metadata: r.specific_metadata }];
      const mediaItemId = r.media_item_id ?? r.asset_id;
      const slot = slots[i];
      const all = slot ? stacks.get(slot.stack.key) : undefined;
      const members = all?.filter((m) => m.in_state === 1);
      const cover = all?.find((m) => m.is_cover === 1) ?? all?.[0];
      const primary = toAsset(r, extras.get(r.asset_id));
      if (r.owner_id !== userId) {
        const m = marks.get(r.asset_id);
        primary.liked = m?.liked ?? false;
        primary.rating = m?.rating ?? 0;
      }
      return {
        id: `media:${mediaItemId}`,
        type: 'media_item' as const,
        best_ts_ms: r.taken_time ?? r.upload_time,
        media_item: {
          media_item_id: mediaItemId,
          media_kind: r.link_media_kind ?? (r.type.toLowerCase() as 'photo' | 'video' | 'audio'),
          composition: compositionOf(parts),
          primary_asset: primary,
          owner: r.owner_id === userId ? null : (owners.get(r.owner_id) ?? null),
          stack: slot && all?.length ? { stack_id: all[0]!.stack_id, stack_kind: all[0]!.stack_kind, member_count: members!.length, is_cover: slot.isCover } : null,
        },
        stack:
          slot && all?.length && mode === 'collapsed'
            ? {
                stack_id: all[0]!.stack_id,
                stack_kind: all[0]!.stack_kind,
                cover: { media_item_id: cover!.media_item_id, primary_asset_id: cover!.primary_asset_id },
                matched_members: list.matched[slot.stack.key] || 1,
                members: members!.map((m) => ({ media_item_id: m.media_item_id, primary_asset_id: m.primary_asset_id })),
              }
            : null,
      };
    });
  }
}
