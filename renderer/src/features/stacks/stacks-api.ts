/**
 * Server state of stacks: the stack an asset sits in (getAssetStack), making one from a selection
 * (createStack) and taking an item out (removeAssetFromStack). A change moves tiles in every list,
 * so each one refreshes the library lists and the assets' details.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { libraryKeys } from '../../photos/library-api';

export type Stack = components['schemas']['Stack'];

export const stackKeys = {
  all: ['stack'] as const,
  ofAsset: (assetId: string) => ['stack', assetId] as const,
};

/** The stack the asset's media item belongs to, or null when it is in none. */
export function useAssetStack(assetId: string, enabled = true) {
  return useQuery({
    queryKey: stackKeys.ofAsset(assetId),
    enabled,
    queryFn: async ({ signal }) => {
      const r = await request(api.GET('/api/v1/assets/{id}/stack', { params: { path: { id: assetId } }, signal }));
      // The generated type of a nullable $ref is awkward (`Stack & (Record<string, never> | null)`).
      return (r.stack as Stack | null) ?? null;
    },
  });
}

function useStackMutation<T, R>(fn: (arg: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      await queryClient.invalidateQueries({ queryKey: stackKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
    },
  });
}

/** Stacks the assets in this order: the first becomes the cover. */
export function useCreateStack() {
  return useStackMutation((assetIds: readonly string[]) => request(api.POST('/api/v1/assets/stacks', { body: { asset_ids: [...assetIds] } })));
}

export function useRemoveFromStack() {
  return useStackMutation((assetId: string) => request(api.DELETE('/api/v1/assets/{id}/stack', { params: { path: { id: assetId } } })));
}
