/**
 * What a paged grid of photos (the library's lists, search results) does with its infinite query: ask for the
 * next page once (never while one is coming), and open the viewer on the tile at an index.
 */
import { useCallback } from 'react';
import type { GalleryItem } from './library-api';

export function useLoadMore(q: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> }): () => void {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  return useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
}

export function useOpenAt(items: readonly GalleryItem[], openPhoto: (assetId: string) => void): (index: number) => void {
  return useCallback(
    (index: number) => {
      if (items[index]) openPhoto(items[index].media_item.primary_asset.asset_id);
    },
    [items, openPhoto],
  );
}
