/** Server state of albums: the list, one album with its assets in order, and membership changes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { useToast } from '../../components/Toast';
import { libraryKeys } from '../../photos/library-api';

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

/** After any change to albums: what shows albums, assets' album lists and the library are read again. */
export async function refreshAlbums(queryClient: ReturnType<typeof useQueryClient>): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: albumKeys.all });
  await queryClient.invalidateQueries({ queryKey: ['asset'] });
  await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
}

function useAlbumMutation<T, R = unknown>(fn: (arg: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => refreshAlbums(queryClient),
  });
}

/** Takes assets out of an album in turn (also the Undo of an add: components/Toast.tsx). */
export async function removeEachFromAlbum(albumId: number, assetIds: readonly string[]): Promise<void> {
  for (const assetId of assetIds) await request(api.DELETE('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } } }));
}

/** Puts assets back into an album at their former positions, lowest first (the Undo of a removal). */
export async function putBackInAlbum(albumId: number, placed: readonly { assetId: string; position: number }[]): Promise<void> {
  for (const p of [...placed].sort((a, b) => a.position - b.position)) {
    await request(api.POST('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId: p.assetId } }, body: { position: p.position } }));
  }
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

/**
 * Adds assets in turn (appended in the order given); answers the ids really added. The server answers
 * an asset already in the album with 200 and "Already in the album…" (no code for it): those are left
 * out, so an Undo never takes out a photo that was there before.
 */
export function useAddToAlbum() {
  return useAlbumMutation(async ({ albumId, assetIds }: { albumId: number; assetIds: readonly string[] }) => {
    const added: string[] = [];
    for (const assetId of assetIds) {
      const r = await request(api.POST('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } }, body: {} }));
      if (!/^Already in the album/.test(r.message)) added.push(assetId);
    }
    return added;
  });
}

export function useRemoveFromAlbum(albumId: number) {
  return useAlbumMutation((assetIds: readonly string[]) => removeEachFromAlbum(albumId, assetIds));
}

/**
 * Takes assets out of an album and says so with Undo, which puts each back at the position it had
 * (`placed`: the assets with their positions before the removal).
 */
export function useRemoveFromAlbumWithUndo(albumId: number) {
  const remove = useRemoveFromAlbum(albumId);
  const toast = useToast();
  const queryClient = useQueryClient();
  const run = (placed: readonly { assetId: string; position: number }[], onSuccess?: () => void) =>
    remove.mutate(
      placed.map((p) => p.assetId),
      {
        onSuccess: () => {
          onSuccess?.();
          const n = placed.length;
          toast.show({
            message: `Removed ${n === 1 ? '1 photo' : `${n} photos`} from the album.`,
            undone: 'Back in the album.',
            undo: async () => {
              try {
                await putBackInAlbum(albumId, placed);
              } finally {
                await refreshAlbums(queryClient);
              }
            },
          });
        },
      },
    );
  return { run, mutation: remove };
}

export function useMoveInAlbum(albumId: number) {
  return useAlbumMutation(({ assetId, position }: { assetId: string; position: number }) =>
    request(api.PUT('/api/v1/albums/{id}/assets/{assetId}/position', { params: { path: { id: albumId, assetId } }, body: { position } })),
  );
}
