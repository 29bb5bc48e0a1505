/**
 * The Trash beyond restore (extension operations of the server): what is in it and when items go by
 * themselves (getTrash), deleting items for good (deleteAssetsPermanently) and emptying it (emptyTrash,
 * with the count the person confirmed, so nothing that arrived since is deleted unconfirmed).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import { libraryKeys } from './library-api';

/** Under the library's keys: every change to the library (trash, restore, upload) refreshes it. */
export const trashKeys = { summary: [...libraryKeys.all, 'trash-summary'] as const };

export function useTrashSummary() {
  return useQuery({ queryKey: trashKeys.summary, queryFn: ({ signal }) => request(api.GET('/api/v1/assets/trash', { signal })) });
}

function useTrashMutation<T, R>(fn: (arg: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
    },
  });
}

export function useDeletePermanently() {
  return useTrashMutation((ids: readonly string[]) => request(api.POST('/api/v1/assets/trash/delete', { body: { asset_ids: [...ids] } })));
}

export function useEmptyTrash() {
  return useTrashMutation((expectedCount: number) => request(api.POST('/api/v1/assets/trash/empty', { body: { expected_count: expectedCount } })));
}

/** "Items are deleted after 30 days." */
export function retentionSentence(days: number): string {
  if (days === 0) return 'Items stay here until you delete them.';
  return `Items are deleted for good ${days === 1 ? '1 day' : `${days} days`} after they were moved here.`;
}
