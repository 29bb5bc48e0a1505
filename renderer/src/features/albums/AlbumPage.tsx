/**
 * One album: its members in the album's order. Select to remove, to make the cover, or (one at a
 * time) to move earlier or later; the order and the cover are kept on the server. The viewer opens at
 * `/albums/<album>/photos/<id>` and steps through the album (viewer-route.ts).
 */
import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { NotFoundPage } from '../../app/NotFoundPage';
import { RoutedViewer } from '../library/RoutedViewer';
import { Timeline } from '../library/Timeline';
import { useSelection } from '../library/use-selection';
import { useViewerRoute } from '../library/viewer-route';
import { AlbumShareButtons, sharedAlbumNote } from '../sharing/AlbumShareButtons';
import { withAddedBy } from '../sharing/shared-album-items';
import '../library/library.css';
import { albumAssetToItem, useAlbum, useAlbumAssets, useDeleteAlbum, useMoveInAlbum, useRemoveFromAlbumWithUndo, useUpdateAlbum } from './albums-api';
import './albums.css';

export function AlbumPage() {
  const id = Number(useParams().albumId);
  const album = useAlbum(id);
  const members = useAlbumAssets(id);
  const shared = album.data?.shared ?? false;
  const items = useMemo(() => withAddedBy((members.data?.assets ?? []).map(albumAssetToItem), members.data?.assets ?? [], shared), [members.data, shared]);
  const selection = useSelection(items);
  const { selected } = selection;
  const viewer = useViewerRoute();
  const { run: removeWithUndo, mutation: remove } = useRemoveFromAlbumWithUndo(id);
  const move = useMoveInAlbum(id);
  const update = useUpdateAlbum(id);
  const del = useDeleteAlbum();
  const navigate = useNavigate();

  if (!Number.isInteger(id) || (album.isError && (album.error as { status?: number }).status === 404)) return <NotFoundPage />;
  const a = album.data;
  const selectedIds = [...selected];
  const positionOf = (assetId: string) => members.data?.assets.find((m) => m.asset_id === assetId)?.position ?? 0;
  const lastPosition = Math.max(0, ...(members.data?.assets ?? []).map((m) => m.position));
  const busy = remove.isPending || move.isPending || update.isPending;
  const error = remove.error ?? move.error ?? update.error ?? del.error;
  const clear = selection.clear;
  // Shared with the caller: a viewer changes nothing; a contributor takes out only what they added.
  const role = a?.role ?? 'owner';
  const isOwner = role === 'owner';

  return (
    <>
      <PageHeader title={a?.album_name ?? 'Album'}>
        {a && <p>{[a.asset_count === 1 ? '1 item' : `${a.asset_count} items`, sharedAlbumNote(a), a.description].filter(Boolean).join(' · ')}</p>}
      </PageHeader>
      {selected.size > 0 ? (
        <div className="selection-bar selection-bar--wrap" role="toolbar" aria-label="Selection">
          <strong>{selected.size === 1 ? '1 selected' : `${selected.size} selected`}</strong>
          {selected.size === 1 && isOwner && (
            <>
              <Button variant="secondary" disabled={busy} onClick={() => update.mutate({ cover_asset_id: selectedIds[0]! }, { onSuccess: clear })}>
                Make cover
              </Button>
              <Button variant="secondary" disabled={busy || positionOf(selectedIds[0]!) === 0} onClick={() => move.mutate({ assetId: selectedIds[0]!, position: positionOf(selectedIds[0]!) - 1 })}>
                Move earlier
              </Button>
              <Button
                variant="secondary"
                disabled={busy || positionOf(selectedIds[0]!) >= lastPosition}
                onClick={() => move.mutate({ assetId: selectedIds[0]!, position: positionOf(selectedIds[0]!) + 1 })}
              >
                Move later
              </Button>
            </>
          )}
          <Button variant="secondary" busy={remove.isPending} busyLabel="Removing…" disabled={busy} onClick={() => removeWithUndo(selectedIds.map((assetId) => ({ assetId, position: positionOf(assetId) })), clear)}>
            Remove from album
          </Button>
          <Button variant="quiet" onClick={clear}>
            Clear selection
          </Button>
        </div>
      ) : (
        a && (
          <div className="album-actions">
            <AlbumShareButtons album={a} />
            {isOwner && (
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
          </div>
        )
      )}
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
      {members.isSuccess && items.length === 0 && (
        <EmptyState icon="albums" title="This album is empty">
          <p>Select photos in the timeline and choose “Add to album”.</p>
        </EmptyState>
      )}
      {items.length > 0 && (
        <div className={role === 'viewer' ? 'album--read-only' : undefined}>
          <Timeline
            items={items}
            groupByDay={false}
            label={`Album ${a?.album_name ?? ''}`.trim()}
            selected={selection.selectedItems}
            onToggleSelect={role === 'viewer' ? () => {} : selection.toggle}
            onBand={role === 'viewer' ? undefined : selection.band}
            onOpen={(index) => items[index] && viewer.open(items[index].media_item.primary_asset.asset_id)}
          />
        </div>
      )}
      <RoutedViewer items={items} />
    </>
  );
}
