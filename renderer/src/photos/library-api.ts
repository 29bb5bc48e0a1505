/** Server state of the library: the unified asset list (queryAssets) and reprocessing. */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import type { components, paths } from '../api/schema';
import { isProcessing } from './asset-state';

type GalleryList = paths['/api/v1/assets/query']['post']['responses'][200]['content']['application/json'];
export type GalleryItem = GalleryList['items'][number];
export type Asset = components['schemas']['Asset'];

/** Items in the first request: a screenful or two on a large monitor, quick to show. */
export const PAGE_SIZE = 100;
/**
 * Items in each later request: the server's most. Someone scrolling through years of photos goes
 * through pages fast; with 100k photos, half as many round trips took the time to reach the oldest
 * day from about a minute to half that (`npm run bench:timeline`, "paging to the end").
 */
export const NEXT_PAGE_SIZE = 200;

export const libraryKeys = {
  all: ['library'] as const,
  recent: ['library', 'recently_added'] as const,
  list: (name: string, body: unknown) => ['library', 'list', name, body] as const,
};

type QueryBody = NonNullable<paths['/api/v1/assets/query']['post']['requestBody']>['content']['application/json'];
export type AssetFilter = NonNullable<QueryBody['filter']>;
export type SortBy = NonNullable<QueryBody['sort_by']>;
export type StackMode = NonNullable<QueryBody['stack_mode']>;

/** While anything on screen is still being processed, look again every few seconds. */
const PROCESSING_POLL_MS = 3_000;


export function useRecentAssets() {
  return useAssetList('recent', { sort_by: 'recently_added' });
}

/** Any list of the unified query (timeline, favourites, trash…), a page at a time. */
export function useAssetList(name: string, query: { filter?: AssetFilter; sort_by?: SortBy; viewer_timezone?: string; stack_mode?: StackMode }) {
  return useInfiniteQuery({
    queryKey: libraryKeys.list(name, query),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      request(
        api.POST('/api/v1/assets/query', {
          body: { ...query, pagination: { limit: pageParam === 0 ? PAGE_SIZE : NEXT_PAGE_SIZE, offset: pageParam } },
          signal,
        }),
      ),
    getNextPageParam: (last: GalleryList) => (last.offset + last.items.length < last.total_visible && last.items.length > 0 ? last.offset + last.items.length : undefined),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((i) => isProcessing(i.media_item.primary_asset))) ? PROCESSING_POLL_MS : false,
  });
}

/** Pages flattened; an item that moved to a later page (new uploads arrived meanwhile) shows once. */
export function flattenPages(pages: GalleryList[] | undefined): GalleryItem[] {
  const seen = new Set<string>();
  const out: GalleryItem[] = [];
  for (const p of pages ?? []) {
    for (const item of p.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}

export function useReprocessAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assetId: string) => request(api.POST('/api/v1/assets/{id}/reprocess', { params: { path: { id: assetId } }, body: {} })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}

/**
 * A lone asset as a grid item (an album member, a duplicate, a photo opened by its link). The album listing gives assets in album order (not gallery items
 * of the unified query), so each is shown as a single-file item of its own. Any asset will do.
 */
export function assetToItem(a: components['schemas']['Asset']): GalleryItem {
  return {
    id: `asset:${a.asset_id}`,
    type: 'media_item',
    best_ts_ms: Date.parse(a.taken_time ?? a.upload_time),
    media_item: {
      media_item_id: a.asset_id,
      media_kind: a.type.toLowerCase(),
      primary_asset: a,
      composition: { component_count: 1, has_edited: false, has_jpeg: false, has_live_motion: false, has_raw: false },
      stack: null,
    },
    stack: null,
  } as unknown as GalleryItem;
}
