/** What can be done to a selection: favourite, add to an album, trash or restore, download as a zip. */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { AddToAlbumMenu } from '../albums/AddToAlbumMenu';
import { useDownloadZip, useRestoreAssets, useSetLiked, useTrashAssets } from './asset-actions-api';

export function SelectionBar({ ids, trash, onDone }: { ids: string[]; trash: boolean; onDone: () => void }) {
  const like = useSetLiked();
  const remove = useTrashAssets();
  const restore = useRestoreAssets();
  const download = useDownloadZip();
  const error = like.error ?? remove.error ?? restore.error ?? download.error;
  const busy = like.isPending || remove.isPending || restore.isPending || download.isPending;
  const n = ids.length;

  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      <strong>{n === 1 ? '1 selected' : `${n} selected`}</strong>
      {trash ? (
        <Button busy={restore.isPending} busyLabel="Restoring…" disabled={busy} onClick={() => restore.mutate(ids, { onSuccess: onDone })}>
          Restore
        </Button>
      ) : (
        <>
          <Button variant="secondary" disabled={busy} onClick={() => like.mutate({ ids, liked: true }, { onSuccess: onDone })}>
            Add to favourites
          </Button>
          <AddToAlbumMenu assetIds={ids} onDone={onDone} />
          <Button variant="secondary" busy={download.isPending} busyLabel="Preparing zip…" disabled={busy} onClick={() => download.mutate(ids)}>
            Download
          </Button>
          <Button variant="secondary" busy={remove.isPending} busyLabel="Moving…" disabled={busy} onClick={() => remove.mutate(ids, { onSuccess: onDone })}>
            Move to trash
          </Button>
        </>
      )}
      <Button variant="quiet" onClick={onDone} disabled={busy}>
        Clear selection
      </Button>
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
    </div>
  );
}
