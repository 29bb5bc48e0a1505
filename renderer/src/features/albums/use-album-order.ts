/**
 * Reordering an album: the page shows the new order at once, and the moves go to the server one
 * after the other (updateAlbumAssetPosition), so quick drags in a row all land.
 *
 * Why each move is sent against a fresh listing: album positions count every member, those in the
 * Trash too, which the page does not show; so "third on the screen" is not "position 2". A move is
 * kept as "this photo to the n-th place on the screen" and turned into an album position just before
 * it is sent, from the listing as the server has it after the previous move: the position of the
 * photo that is n-th there now. Moving onto that photo's position puts the moved one on the right
 * side of it whichever way it travels (the members in between shift by one), hidden members included.
 *
 * Moves queued when the page is left are still sent (the loop does not belong to the page).
 * If a move is refused (the album changed elsewhere, a connection lost), the rest are dropped, the
 * page shows the server's order again and the error is reported.
 */
import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import { libraryKeys } from '../../photos/library-api';
import { albumKeys, type AlbumAsset } from './albums-api';

interface Move {
  assetId: string;
  to: number;
}

/** `list` moved: the item at `from` now at `to`, the others in between shifted by one. */
export function arrayMove<T>(list: readonly T[], from: number, to: number): T[] {
  const out = list.slice();
  const [item] = out.splice(from, 1);
  if (item !== undefined) out.splice(to, 0, item);
  return out;
}

export function useAlbumOrder(albumId: number, members: readonly AlbumAsset[] | undefined) {
  const queryClient = useQueryClient();
  // The order shown while moves are on their way; null: the server's.
  const [local, setLocal] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const queue = useRef<Move[]>([]);
  const running = useRef(false);

  const serverOrder = (members ?? []).map((m) => m.asset_id);
  const order = local ?? serverOrder;
  const orderRef = useRef(order);
  orderRef.current = order;

  const fetchListing = useCallback(
    () => request(api.GET('/api/v1/albums/{id}/assets', { params: { path: { id: albumId } } })),
    [albumId],
  );

  const pump = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setSaving(true);
    try {
      let listing = await fetchListing();
      while (queue.current.length) {
        const move = queue.current.shift()!;
        const from = listing.assets.findIndex((a) => a.asset_id === move.assetId);
        const target = listing.assets[move.to];
        if (from < 0 || !target) throw new ApiError(409, 'album_changed', 'The album changed meanwhile (on another device?). Here is its order now; try the move again.');
        if (from !== move.to) {
          await request(
            api.PUT('/api/v1/albums/{id}/assets/{assetId}/position', { params: { path: { id: albumId, assetId: move.assetId } }, body: { position: target.position } }),
          );
          listing = await fetchListing();
        }
      }
      queryClient.setQueryData(albumKeys.assets(albumId), listing);
      setLocal(null);
    } catch (e) {
      queue.current = [];
      setError(e);
      setLocal(null);
      await queryClient.invalidateQueries({ queryKey: albumKeys.assets(albumId) });
    } finally {
      running.current = false;
      setSaving(false);
      // The album's change time and the covers shown elsewhere moved with the order.
      void queryClient.invalidateQueries({ queryKey: albumKeys.one(albumId) });
      void queryClient.invalidateQueries({ queryKey: albumKeys.list });
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    }
  }, [albumId, fetchListing, queryClient]);

  /** Moves the photo to the `to`-th place on the screen (0 first). */
  const move = useCallback(
    (assetId: string, to: number) => {
      const current = orderRef.current;
      const from = current.indexOf(assetId);
      if (from < 0 || to < 0 || to >= current.length || from === to) return;
      const next = arrayMove(current, from, to);
      orderRef.current = next;
      setLocal(next);
      setError(null);
      queue.current.push({ assetId, to });
      void pump();
    },
    [pump],
  );

  return { order, move, saving, error };
}
