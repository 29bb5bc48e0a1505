/**
 * The unified list (queryAssets): the caller's own assets as logical media items, filtered, sorted
 * and paged. Administrators get no exception: photos are private to their owner.
 *
 * Stacks (bursts, manual stacks) do not exist yet: `stack_mode` is accepted and echoed, and both
 * modes give the same list; `stack` is always null and total_visible equals total_media_items.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { toAsset } from '../assets/assets.view.ts';
import type { AssetQuery } from './browse.routes.ts';
import { BrowseStore, type AssetType, type ComponentRow, type HeadRow, type ListFilter } from './browse.store.ts';
import type { GalleryItem, GalleryList } from './browse.view.ts';

const isRawMeta = (json: string | null) => {
  try {
    return Boolean(json && (JSON.parse(json) as { is_raw?: boolean }).is_raw);
  } catch {
    return false;
  }
};

/** `/a/b/` → `a/b`; backslashes as slashes. */
function normaliseFolder(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
}

export class BrowseService {
  private readonly store: BrowseStore;

  constructor(db: Db) {
    this.store = new BrowseStore(db);
  }

  query(actor: Actor, q: AssetQuery = {}): GalleryList {
    const filter = q.filter;
    const limit = q.pagination?.limit ?? 50;
    const offset = q.pagination?.offset ?? 0;
    const sort = q.sort_by ?? 'recently_added';
    const stackMode = q.stack_mode ?? 'collapsed';
    const typeSets: AssetType[][] = [];
    if (filter?.type) typeSets.push([filter.type]);
    if (filter?.types) typeSets.push(filter.types);
    const f: ListFilter = {
      ownerId: actor.userId,
      isDeleted: filter?.is_deleted ?? false,
      repositoryId: filter?.repository_id,
      typeSets,
      liked: filter?.liked,
      folder: filter?.folder_path !== undefined ? { path: normaliseFolder(filter.folder_path), recursive: filter.folder_recursive ?? true } : undefined,
    };

    const totals = this.store.count(f);
    const rows = totals.items > offset ? this.store.page(f, sort, limit, offset) : [];
    const linked = [...new Set(rows.map((r) => r.link_media_item_id).filter((id): id is string => !!id))];
    const byItem = new Map<string, ComponentRow[]>();
    for (const c of this.store.components(linked, f.isDeleted)) {
      const list = byItem.get(c.media_item_id) ?? [];
      list.push(c);
      byItem.set(c.media_item_id, list);
    }

    return {
      items: rows.map((r) => this.item(r, byItem.get(r.link_media_item_id ?? '') ?? [])),
      limit,
      offset,
      stack_mode: stackMode,
      total_files: totals.files,
      total_media_items: totals.items,
      total_visible: totals.items,
    };
  }

  private item(r: HeadRow, components: ComponentRow[]): GalleryItem {
    const parts: Pick<ComponentRow, 'relation' | 'mime_type' | 'specific_metadata'>[] = components.length
      ? components
      : [{ relation: 'original', mime_type: r.mime_type, specific_metadata: r.specific_metadata }];
    const mediaItemId = r.link_media_item_id ?? r.asset_id;
    const { link_media_item_id: _id, link_media_kind: kind, ...asset } = r;
    return {
      id: `media:${mediaItemId}`,
      type: 'media_item',
      best_ts_ms: r.taken_time ?? r.upload_time,
      media_item: {
        media_item_id: mediaItemId,
        media_kind: kind ?? (r.type.toLowerCase() as 'photo' | 'video' | 'audio'),
        composition: {
          component_count: parts.length,
          has_edited: parts.some((p) => p.relation === 'edited_version'),
          has_jpeg: parts.some((p) => p.mime_type === 'image/jpeg'),
          has_live_motion: parts.some((p) => p.relation === 'live_photo_video'),
          has_raw: parts.some((p) => p.relation === 'raw_original' || isRawMeta(p.specific_metadata)),
        },
        primary_asset: toAsset(asset),
        stack: null,
      },
      stack: null,
    };
  }
}
