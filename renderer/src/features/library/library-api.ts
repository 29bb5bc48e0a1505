/** Server state of the library: the unified asset list (queryAssets) and reprocessing. */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components, paths } from '../../api/schema';

type GalleryList = paths['/api/v1/assets/query']['post']['responses'][200]['content']['application/json'];
export type GalleryItem = GalleryList['items'][number];
export type Asset = components['schemas']['Asset'];

/** Items per request: a screenful or two on a large monitor. */
export const PAGE_SIZE = 100;

export const libraryKeys = {
  all: ['library'] as const,
  recent: ['library', 'recently_added'] as const,
};

/** While anything on screen is still being processed, look again every few seconds. */
const PROCESSING_POLL_MS = 3_000;

const isProcessing = (a: Asset) => a.state === 'pending' || a.state === 'processing';

export function useRecentAssets() {
  return useInfiniteQuery({
    queryKey: libraryKeys.recent,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      request(
        api.POST('/api/v1/assets/query', {
          body: { sort_by: 'recently_added', pagination: { limit: PAGE_SIZE, offset: pageParam } },
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
