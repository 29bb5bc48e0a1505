/**
 * Changes to assets from the grid and the viewer: favourite, rating, trash and restore, download.
 * The contract has no bulk operations for these, so a selection is changed one asset at a time, in
 * order, stopping at the first failure (which is reported with how many were done).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import { session } from '../../api/session';
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

function useLibraryMutation<T>(fn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
    },
  });
}

export function useSetLiked() {
  return useLibraryMutation(({ ids, liked }: { ids: readonly string[]; liked: boolean }) =>
    eachInTurn(ids, (id) => request(api.PUT('/api/v1/assets/{id}/like', { params: { path: { id } }, body: { liked } }))),
  );
}

export function useSetRating() {
  return useLibraryMutation(({ ids, rating }: { ids: readonly string[]; rating: number }) =>
    eachInTurn(ids, (id) => request(api.PUT('/api/v1/assets/{id}/rating', { params: { path: { id } }, body: { rating } }))),
  );
}

export function useTrashAssets() {
  return useLibraryMutation((ids: readonly string[]) => eachInTurn(ids, (id) => request(api.DELETE('/api/v1/assets/{id}', { params: { path: { id } } }))));
}

export function useRestoreAssets() {
  return useLibraryMutation((ids: readonly string[]) => eachInTurn(ids, (id) => request(api.POST('/api/v1/assets/{id}/restore', { params: { path: { id } } }))));
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
