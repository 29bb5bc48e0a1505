/** Server state of albums: the list, one album with its assets in order, and membership changes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { libraryKeys, type GalleryItem } from '../library/library-api';

export type Album = components['schemas']['Album'];
export type AlbumAsset = components['schemas']['AlbumAsset'];

export const albumKeys = {
  all: ['albums'] as const,
  list: ['albums', 'list'] as const,
  one: (id: number) => ['albums', id] as const,
  assets: (id: number) => ['albums', id, 'assets'] as const,
};

/**
 * The caller's own albums called `name` (ignoring case and surrounding spaces), looked up across
 * every page of the list when asked (a "New album" form checks before creating; the cached first page
 * may be stale or short).
 */
export async function ownAlbumsNamed(name: string): Promise<Album[]> {
  const wanted = sameName(name);
  const found: Album[] = [];
  for (let offset = 0; ; ) {
    const page = await request(api.GET('/api/v1/albums', { params: { query: { limit: 100, offset } } }));
    found.push(...page.albums.filter((a) => a.role === 'owner' && sameName(a.album_name) === wanted));
    offset += page.albums.length;
    if (page.albums.length === 0 || offset >= page.total) return found;
  }
}

const sameName = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();

/** The household's albums are few: the first 100 (the contract's maximum page) cover them. */
export function useAlbums() {
  return useQuery({
    queryKey: albumKeys.list,
    queryFn: ({ signal }) => request(api.GET('/api/v1/albums', { params: { query: { limit: 100 } }, signal })),
  });
}

export function useAlbum(id: number) {
  return useQuery({ queryKey: albumKeys.one(id), queryFn: ({ signal }) => request(api.GET('/api/v1/albums/{id}', { params: { path: { id } }, signal })) });
}

export function useAlbumAssets(id: number) {
  return useQuery({
    queryKey: albumKeys.assets(id),
    queryFn: ({ signal }) => request(api.GET('/api/v1/albums/{id}/assets', { params: { path: { id } }, signal })),
  });
}

/**
 * An album member as a grid item. The album listing gives assets in album order (not gallery items
 * of the unified query), so each is shown as a single-file item of its own.
 */
export function albumAssetToItem(a: AlbumAsset): GalleryItem {
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

function useAlbumMutation<T>(fn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: albumKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

export function useCreateAlbum() {
  return useAlbumMutation((body: { album_name: string; description?: string }) => request(api.POST('/api/v1/albums', { body })));
}

export function useUpdateAlbum(id: number) {
  return useAlbumMutation((body: { album_name?: string; description?: string | null; cover_asset_id?: string | null }) =>
    request(api.PUT('/api/v1/albums/{id}', { params: { path: { id } }, body })),
  );
}

export function useDeleteAlbum() {
  return useAlbumMutation((id: number) => request(api.DELETE('/api/v1/albums/{id}', { params: { path: { id } } })));
}

/** Adds assets in turn (appended in the order given). */
export function useAddToAlbum() {
  return useAlbumMutation(async ({ albumId, assetIds }: { albumId: number; assetIds: readonly string[] }) => {
    for (const assetId of assetIds) await request(api.POST('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } }, body: {} }));
  });
}

export function useRemoveFromAlbum(albumId: number) {
  return useAlbumMutation(async (assetIds: readonly string[]) => {
    for (const assetId of assetIds) await request(api.DELETE('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } } }));
  });
}

export function useMoveInAlbum(albumId: number) {
  return useAlbumMutation(({ assetId, position }: { assetId: string; position: number }) =>
    request(api.PUT('/api/v1/albums/{id}/assets/{assetId}/position', { params: { path: { id: albumId, assetId } }, body: { position } })),
  );
}
