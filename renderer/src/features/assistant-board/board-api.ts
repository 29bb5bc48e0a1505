/**
 * Server state of the Board: the member's pins (listAgentPins), their photos (getAgentPinAssets) and the
 * changes a member makes to them (rename or switch card, lay out, delete). Pins are the member's own; the
 * server answers 404 for another's or for any of them while the assistant is off.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import type { Layout } from './board-layout';
import { BOARD_PINS_KEY } from './board-keys';

export type Pin = components['schemas']['AgentPin'];
export type Widget = Pin['widget'];
type AssetPage = components['schemas']['AgentAssetPage'];

export const boardKeys = {
  all: ['assistant-board'] as const,
  pins: BOARD_PINS_KEY,
  pin: (id: string) => ['assistant-board', 'pin', id] as const,
  assets: (id: string) => ['assistant-board', 'pin', id, 'assets'] as const,
  preview: (id: string, n: number) => ['assistant-board', 'pin', id, 'preview', n] as const,
};

/** Pages of a pin's photos: 100 first, 200 after (the server's bound is 200). */
const FIRST_PAGE = 100;
const NEXT_PAGE = 200;

export function usePins() {
  return useQuery({ queryKey: boardKeys.pins, queryFn: ({ signal }) => request(api.GET('/api/v1/agent/pins', { signal })) });
}

export function usePin(id: string) {
  return useQuery({
    queryKey: boardKeys.pin(id),
    queryFn: ({ signal }) => request(api.GET('/api/v1/agent/pins/{id}', { params: { path: { id } }, signal })),
  });
}

function pinAssets(id: string, limit: number, offset: number, signal: AbortSignal): Promise<AssetPage> {
  return request(api.GET('/api/v1/agent/pins/{id}/assets', { params: { path: { id }, query: { limit, offset } }, signal }));
}

/** The first few photos of a pin, for its card's cover or mosaic. */
export function usePinPreview(id: string, count: number, enabled: boolean) {
  return useQuery({ queryKey: boardKeys.preview(id, count), queryFn: ({ signal }) => pinAssets(id, count, 0, signal), enabled, staleTime: 30_000 });
}

/** Every photo of a pin, a page at a time, in the pin's order. */
export function usePinAssets(id: string) {
  return useInfiniteQuery({
    queryKey: boardKeys.assets(id),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => pinAssets(id, pageParam === 0 ? FIRST_PAGE : NEXT_PAGE, pageParam, signal),
    getNextPageParam: (last: AssetPage) => {
      const next = last.pagination.offset + last.assets.length;
      return last.assets.length > 0 && next < last.total ? next : undefined;
    },
  });
}

export function useUpdatePin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: { title?: string; widget?: Widget } }) =>
      request(api.PATCH('/api/v1/agent/pins/{id}', { params: { path: { id } }, body: change })),
    onSuccess: (_, { id, change }) => {
      queryClient.setQueryData<Pin[]>(boardKeys.pins, (pins) => pins?.map((p) => (p.pin_id === id ? { ...p, ...change } : p)));
      void queryClient.invalidateQueries({ queryKey: boardKeys.pin(id) });
    },
  });
}

export function useDeletePin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.DELETE('/api/v1/agent/pins/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Pin[]>(boardKeys.pins, (pins) => pins?.filter((p) => p.pin_id !== id));
      queryClient.removeQueries({ queryKey: boardKeys.pin(id) });
    },
  });
}

/**
 * Saves the places of the pins that moved. The board shows the new places at once (optimistic) and goes
 * back to what the server holds if it refuses.
 */
export function useLayoutPins() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (moves: { pin_id: string; layout: Layout }[]) => request(api.PATCH('/api/v1/agent/pins/layout', { body: { pins: moves } })),
    onMutate: async (moves) => {
      await queryClient.cancelQueries({ queryKey: boardKeys.pins });
      const before = queryClient.getQueryData<Pin[]>(boardKeys.pins);
      const placed = new Map(moves.map((m) => [m.pin_id, m.layout]));
      queryClient.setQueryData<Pin[]>(boardKeys.pins, (pins) => pins?.map((p) => ({ ...p, layout: placed.get(p.pin_id) ?? p.layout })));
      return { before };
    },
    onError: (_, __, context) => {
      if (context?.before) queryClient.setQueryData(boardKeys.pins, context.before);
    },
  });
}
