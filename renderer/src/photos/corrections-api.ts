/**
 * Saving a correction of dates or places (server: features/assets/corrections) and saying so in a toast with
 * Undo, which takes back exactly that correction (undoAssetCorrection). Used by the viewer's details panel and
 * the selection bar. The undo is a plain request, not a hook of the component that saved: that one may be gone.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import { useToast } from '../components/Toast';
import { libraryKeys } from './library-api';

export interface Correction {
  correction_id: string;
  asset_ids: string[];
  skipped: { asset_id: string; reason: string }[];
  message: string;
}

async function refresh(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
  await queryClient.invalidateQueries({ queryKey: ['asset'] });
}

/** Zones a person picks from: whole and the usual half/quarter hours, UTC−12 to UTC+14. */
export const ZONES = [-720, -660, -600, -570, -540, -480, -420, -360, -300, -240, -210, -180, -120, -60, 0, 60, 120, 180, 210, 240, 270, 300, 330, 345, 360, 390, 420, 480, 525, 540, 570, 600, 630, 660, 720, 765, 780, 840];
export const zoneLabel = (m: number) => `UTC${m < 0 ? '−' : '+'}${String(Math.floor(Math.abs(m) / 60)).padStart(2, '0')}:${String(Math.abs(m) % 60).padStart(2, '0')}`;

export function useCorrection() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({ mutationFn: (send: () => Promise<Correction>) => send(), onSettled: () => refresh(queryClient) });
  const run = (send: () => Promise<Correction>, onSuccess?: () => void) =>
    void mutation.mutateAsync(send).then(
      (r) => {
        onSuccess?.();
        const skipped = r.skipped.filter((s) => s.reason === 'no_date').length;
        toast.show({
          message: skipped ? `${r.message} ${skipped === 1 ? '1 item has' : `${skipped} items have`} no date to shift.` : r.message,
          undo: async () => {
            try {
              await request(api.POST('/api/v1/asset-corrections/{correction_id}/undo', { params: { path: { correction_id: r.correction_id } } }));
            } finally {
              await refresh(queryClient);
            }
          },
        });
      },
      () => undefined, // shown through mutation.error
    );
  return { run, mutation };
}

/** Towns matching what was typed (searchPlaceNames), for a place-name field's suggestions. */
export function placeNames(q: string) {
  return request(api.GET('/api/v1/place-names', { params: { query: { q, limit: 8 } } }));
}
