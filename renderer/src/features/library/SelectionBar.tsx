/**
 * What can be done to a selection: favourite, add to an album, tag, stack, trash or restore,
 * download as a zip.
 *
 * "Stack" stacks the selection in the order it was picked (the first picked is the cover). A
 * selected tile that stands for a whole stack brings all its members: stacking it with more photos
 * makes one bigger stack, as the tile suggests, rather than pulling its cover out of its stack.
 */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { AddToAlbumMenu } from '../albums/AddToAlbumMenu';
import { useCreateStack } from '../stacks/stacks-api';
import { useDownloadZip, useRestoreAssets, useSetLiked, useTrashAssets } from './asset-actions-api';
import { useBulkTag } from './bulk-tag';
import { BulkTagMenu } from './BulkTagMenu';
import type { GalleryItem } from './library-api';

interface SelectionBarProps {
  /** Selected asset ids, in the order they were picked. */
  ids: string[];
  /** The rows behind them that are loaded (file names, stacks). */
  items?: readonly GalleryItem[];
  trash: boolean;
  onDone: () => void;
}

/** The assets to stack: each selected one, or every member of a selected stack tile, once each. */
function stackMembers(ids: readonly string[], items: readonly GalleryItem[]): string[] {
  const byAsset = new Map(items.map((i) => [i.media_item.primary_asset.asset_id, i]));
  const out = new Set<string>();
  for (const id of ids) {
    const members = byAsset.get(id)?.stack?.members;
    if (members?.length) for (const m of [id, ...members.map((x) => x.primary_asset_id)]) out.add(m);
    else out.add(id);
  }
  return [...out];
}

export function SelectionBar({ ids, items = [], trash, onDone }: SelectionBarProps) {
  const like = useSetLiked();
  const remove = useTrashAssets();
  const restore = useRestoreAssets();
  const download = useDownloadZip();
  const stack = useCreateStack();
  const tagging = useBulkTag();
  const error = like.error ?? remove.error ?? restore.error ?? download.error ?? stack.error;
  const busy = like.isPending || remove.isPending || restore.isPending || download.isPending || stack.isPending || (tagging.run?.running ?? false);
  const n = ids.length;
  const names = new Map(items.map((i) => [i.media_item.primary_asset.asset_id, i.media_item.primary_asset.original_filename]));

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
          <BulkTagMenu ids={ids} names={names} tagging={tagging} disabled={busy} onDone={onDone} />
          {n >= 2 && (
            <Button
              variant="secondary"
              busy={stack.isPending}
              busyLabel="Stacking…"
              disabled={busy}
              title="Show these as one tile; the first one you picked is on top"
              onClick={() => stack.mutate(stackMembers(ids, items), { onSuccess: onDone })}
            >
              Stack
            </Button>
          )}
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
