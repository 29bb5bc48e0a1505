/**
 * One album: its members in the album's order, and what its owner does from inside it.
 * - The name and description are edited in place (AlbumHeader).
 * - "Play" shows a slideshow of the album (Slideshow); with photos selected, of those.
 * - "Add photos" opens the library in a picker (AddPhotosDialog); contributors of a shared album
 *   get it too, since they add their own photos.
 * - "Reorder" swaps the grid for one whose photos are dragged, or moved with buttons and arrow keys
 *   (ReorderGrid); the order is kept on the server (use-album-order.ts). One selected photo can also
 *   be moved a place earlier or later from the selection bar.
 * - Select to remove, to make the cover. The viewer opens at `/albums/<album>/photos/<id>` and steps
 *   through the album (viewer-route.ts).
 * The album's own actions sit in one toolbar, with sharing's buttons (AlbumShareButtons). In an album
 * shared with the caller, a viewer changes nothing; a contributor adds and takes out their own photos
 * (the server refuses the rest). Who added each photo shows on its tile (shared-album-items.ts).
 */
import { assetToItem } from '../../photos/library-api';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { NotFoundPage } from '../../components/NotFoundPage';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { Timeline } from '../../photos/Timeline';
import { useSelection } from '../../photos/use-selection';
import { useViewerRoute } from '../../photos/viewer-route';
import { AlbumShareButtons } from './sharing/AlbumShareButtons';
import { withAddedBy } from './sharing/shared-album-items';
import '../../photos/library.css';
import { AddPhotosDialog } from './AddPhotosDialog';
import { AlbumHeader } from './AlbumHeader';
import { useAlbum, useAlbumAssets, useDeleteAlbum, useRemoveFromAlbumWithUndo, useUpdateAlbum, type AlbumAsset } from './albums-api';
import { ReorderGrid } from './ReorderGrid';
import { Slideshow } from './Slideshow';
import { useAlbumOrder } from './use-album-order';
import './albums.css';

export function AlbumPage() {
  const id = Number(useParams().albumId);
  const album = useAlbum(id);
  const members = useAlbumAssets(id);
  const reorder = useAlbumOrder(id, members.data?.assets);
  // Shown in the order being saved, so a move shows at once, in the grid and the viewer alike.
  const ordered = useMemo(() => {
    const byId = new Map((members.data?.assets ?? []).map((m) => [m.asset_id, m]));
    return reorder.order.flatMap((assetId) => byId.get(assetId) ?? []);
  }, [members.data, reorder.order]);
  const shared = album.data?.shared ?? false;
  const items = useMemo(() => withAddedBy(ordered.map(assetToItem), ordered, shared), [ordered, shared]);
  const selection = useSelection(items);
  const { selected } = selection;
  const viewer = useViewerRoute();
  const { run: removeWithUndo, mutation: remove } = useRemoveFromAlbumWithUndo(id);
  const update = useUpdateAlbum(id);
  const del = useDeleteAlbum();
  const navigate = useNavigate();
  const [reordering, setReordering] = useState(false);
  const [picking, setPicking] = useState(false);
  const [slideshow, setSlideshow] = useState<readonly AlbumAsset[] | null>(null);
  const [note, setNote] = useState<string | null>(null);

  if (!Number.isInteger(id) || (album.isError && (album.error as { status?: number }).status === 404)) return <NotFoundPage />;
  const a = album.data;
  const owner = a?.role === 'owner';
  const canAdd = owner || a?.role === 'contributor';
  const selectedIds = [...selected];
  const only = selectedIds.length === 1 ? selectedIds[0]! : null;
  const indexOf = (assetId: string) => reorder.order.indexOf(assetId);
  const positionOf = (assetId: string) => members.data?.assets.find((m) => m.asset_id === assetId)?.position ?? 0;
  const viewerOnly = a?.role === 'viewer';
  const busy = remove.isPending || update.isPending;
  const error = remove.error ?? update.error ?? del.error ?? reorder.error;
  const clear = selection.clear;
  const playable = ordered.filter((m) => m.state !== 'failed');

  return (
    <>
      <AlbumHeader album={a} />
      {selected.size > 0 && !reordering ? (
        <div className="selection-bar selection-bar--wrap" role="toolbar" aria-label="Selection">
          <strong>{selected.size === 1 ? '1 selected' : `${selected.size} selected`}</strong>
          <Button variant="secondary" onClick={() => setSlideshow(ordered.filter((m) => selected.has(m.asset_id)))}>
            <Icon name="play" />
            Play
          </Button>
          {only && owner && (
            <>
              <Button variant="secondary" disabled={busy} onClick={() => update.mutate({ cover_asset_id: only }, { onSuccess: clear })}>
                Make cover
              </Button>
              <Button variant="secondary" disabled={indexOf(only) <= 0} onClick={() => reorder.move(only, indexOf(only) - 1)}>
                Move earlier
              </Button>
              <Button variant="secondary" disabled={indexOf(only) >= reorder.order.length - 1} onClick={() => reorder.move(only, indexOf(only) + 1)}>
                Move later
              </Button>
            </>
          )}
          {canAdd && (
            <Button variant="secondary" busy={remove.isPending} busyLabel="Removing…" disabled={busy} onClick={() => removeWithUndo(selectedIds.map((assetId) => ({ assetId, position: positionOf(assetId) })), clear)}>
              Remove from album
            </Button>
          )}
          <Button variant="quiet" onClick={clear}>
            Clear selection
          </Button>
        </div>
      ) : (
        a && (
          <div className="album-actions" role="toolbar" aria-label="Album">
            {reordering ? (
              <>
                <p className="album-actions__mode" role="status">
                  {reorder.saving ? 'Saving the order…' : 'Reordering'}
                </p>
                <Button onClick={() => setReordering(false)}>Done</Button>
              </>
            ) : (
              <>
                <Button disabled={playable.length === 0} onClick={() => setSlideshow(playable)} aria-label="Play slideshow">
                  <Icon name="play" />
                  Play
                </Button>
                {canAdd && (
                  <Button variant="secondary" onClick={() => {
                      setNote(null);
                      setPicking(true);
                    }}>
                    Add photos
                  </Button>
                )}
                {owner && items.length > 1 && (
                  <Button variant="secondary" onClick={() => {
                      clear();
                      setReordering(true);
                    }}>
                    Reorder
                  </Button>
                )}
                <AlbumShareButtons album={a} />
                {owner && (
                  <Button
                    variant="quiet"
                    busy={del.isPending}
                    busyLabel="Deleting…"
                    onClick={() => {
                      if (window.confirm(`Delete the album “${a.album_name}”? The photos stay in your library.`)) del.mutate(id, { onSuccess: () => void navigate('/albums') });
                    }}
                  >
                    Delete album
                  </Button>
                )}
              </>
            )}
          </div>
        )
      )}
      {note && (
        <p className="notice" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
      {members.isSuccess && items.length === 0 && (
        <EmptyState icon="albums" title="This album is empty">
          <p>{canAdd ? 'Choose “Add photos” to pick some from your library.' : 'Nothing has been added yet.'}</p>
        </EmptyState>
      )}
      {reordering && items.length > 0 && <ReorderGrid members={ordered} order={reorder.order} onMove={reorder.move} />}
      {!reordering && items.length > 0 && (
        // A viewer's tiles have no selection check (sharing.css).
        <div className={viewerOnly ? 'album--read-only' : undefined}>
          <Timeline
            items={items}
            groupByDay={false}
            label={`Album ${a?.album_name ?? ''}`.trim()}
            selected={selection.selectedItems}
            onToggleSelect={viewerOnly ? () => {} : selection.toggle}
            onBand={viewerOnly ? undefined : selection.band}
            onOpen={(index) => items[index] && viewer.open(items[index].media_item.primary_asset.asset_id)}
          />
        </div>
      )}
      {picking && a && (
        <AddPhotosDialog
          albumId={id}
          albumName={a.album_name}
          memberIds={new Set(reorder.order)}
          onClose={() => setPicking(false)}
          onAdded={(count) => {
            setPicking(false);
            setNote(count === 1 ? 'Added 1 photo to the album.' : `Added ${count} photos to the album.`);
          }}
        />
      )}
      {slideshow && <Slideshow items={slideshow} onClose={() => setSlideshow(null)} />}
      <RoutedViewer items={items} />
    </>
  );
}
