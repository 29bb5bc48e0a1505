/**
 * Changes to assets from the grid and the viewer: favourite, rating, trash and restore, download.
 * The contract has no bulk operations for these, so a selection is changed one asset at a time, in
 * order, stopping at the first failure (which is reported with how many were done).
 *
 * Trash and favourite changes say what they did in a toast with Undo (components/Toast.tsx); the undo
 * is a plain request (not a hook of the component that started it, which may be gone by then, e.g. a
 * selection bar closed by the change).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { ApiError, request } from '../api/problem';
import { session } from '../api/session';
import { useToast } from '../components/Toast';
import { libraryKeys } from './library-api';

export const assetKeys = {
  detail: (id: string) => ['asset', id] as const,
};

async function eachInTurn(ids: readonly string[], run: (id: string) => Promise<unknown>): Promise<number> {
  let done = 0;
  for (const id of ids) {
    try {
      await run(id);
      done++;
    } catch (e) {
      if (done > 0 && e instanceof ApiError) throw new ApiError(e.status, e.code, `${e.message} (${done} of ${ids.length} were changed before this.)`);
      throw e;
    }
  }
  return done;
}

async function refreshLibrary(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
  await queryClient.invalidateQueries({ queryKey: ['asset'] });
}

function useLibraryMutation<T>(fn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => refreshLibrary(queryClient),
  });
}

const setLikedEach = (ids: readonly string[], liked: boolean) =>
  eachInTurn(ids, (id) => request(api.PUT('/api/v1/assets/{id}/like', { params: { path: { id } }, body: { liked } })));
const trashEach = (ids: readonly string[]) => eachInTurn(ids, (id) => request(api.DELETE('/api/v1/assets/{id}', { params: { path: { id } } })));
const restoreEach = (ids: readonly string[]) => eachInTurn(ids, (id) => request(api.POST('/api/v1/assets/{id}/restore', { params: { path: { id } } })));

const photos = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

export function useSetLiked() {
  return useLibraryMutation(({ ids, liked }: { ids: readonly string[]; liked: boolean }) => setLikedEach(ids, liked));
}

/**
 * Likes or unlikes `ids`, then says so with Undo. `changed` are the ids whose state this really
 * changes (those already in that state stay as they are on undo); `onUndone` lets a view put its
 * own copy of the state back.
 */
export function useSetLikedWithUndo() {
  const like = useSetLiked();
  const toast = useToast();
  const queryClient = useQueryClient();
  const run = (ids: readonly string[], liked: boolean, opts: { changed?: readonly string[]; onSuccess?: () => void; onError?: () => void; onUndone?: () => void } = {}) =>
    like.mutate(
      { ids, liked },
      {
        onError: opts.onError,
        onSuccess: () => {
          opts.onSuccess?.();
          const changed = opts.changed ?? ids;
          toast.show({
            message: liked ? `Added ${photos(ids.length)} to favourites.` : `Removed ${photos(ids.length)} from favourites.`,
            undone: liked ? 'Taken out of favourites again.' : 'Back in favourites.',
            undo: changed.length
              ? async () => {
                  try {
                    await setLikedEach(changed, !liked);
                    opts.onUndone?.();
                  } finally {
                    await refreshLibrary(queryClient);
                  }
                }
              : undefined,
          });
        },
      },
    );
  return { run, mutation: like };
}

export function useSetRating() {
  return useLibraryMutation(({ ids, rating }: { ids: readonly string[]; rating: number }) =>
    eachInTurn(ids, (id) => request(api.PUT('/api/v1/assets/{id}/rating', { params: { path: { id } }, body: { rating } }))),
  );
}

export function useTrashAssets() {
  return useLibraryMutation(trashEach);
}

export function useRestoreAssets() {
  return useLibraryMutation(restoreEach);
}

/** Moves `ids` to the Trash and says so, with Undo (restores them). */
export function useTrashWithUndo() {
  const remove = useTrashAssets();
  const toast = useToast();
  const queryClient = useQueryClient();
  // mutateAsync, not mutate's callbacks: those are dropped when the component that asked unmounts
  // first (the viewer does, when the list it shows loses the item), and the toast must still come.
  // A refusal is shown through `mutation.error`.
  const run = (ids: readonly string[], onSuccess?: () => void) =>
    void remove.mutateAsync(ids).then(
      () => {
        onSuccess?.();
        toast.show({
          message: `Moved ${photos(ids.length)} to the Trash.`,
          undone: ids.length === 1 ? 'The photo is back.' : `${ids.length} photos are back.`,
          undo: async () => {
            try {
              await restoreEach(ids);
            } finally {
              await refreshLibrary(queryClient);
            }
          },
        });
      },
      () => undefined,
    );
  return { run, mutation: remove };
}

/** Restores `ids` from the Trash and says so, with Undo (back to the Trash). */
export function useRestoreWithUndo() {
  const restore = useRestoreAssets();
  const toast = useToast();
  const queryClient = useQueryClient();
  // mutateAsync, not mutate's callbacks: those are dropped when the component that asked unmounts
  // first (the viewer does, when the list it shows loses the item), and the toast must still come.
  // A refusal is shown through `mutation.error`.
  const run = (ids: readonly string[], onSuccess?: () => void) =>
    void restore.mutateAsync(ids).then(
      () => {
        onSuccess?.();
        toast.show({
          message: `Restored ${photos(ids.length)} to the library.`,
          undone: 'Back in the Trash.',
          undo: async () => {
            try {
              await trashEach(ids);
            } finally {
              await refreshLibrary(queryClient);
            }
          },
        });
      },
      () => undefined,
    );
  return { run, mutation: restore };
}

/**
 * Downloads the originals of a selection as one zip (downloadAssets). The request needs the bearer
 * token, so it goes through fetch and the browser saves the answer.
 */
export function useDownloadZip() {
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      const token = await session.tokenForRequest();
      const res = await fetch('/api/v1/assets/download', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ asset_ids: ids }),
      });
      if (!res.ok) {
        const problem = (await res.json().catch(() => null)) as { detail?: string; code?: string } | null;
        throw new ApiError(res.status, problem?.code ?? 'download_failed', problem?.detail ?? 'The download could not be prepared.');
      }
      const name = /filename="?([^";]+)"?/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'hearth-photos.zip';
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return name;
    },
  });
}
