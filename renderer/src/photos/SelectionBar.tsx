/**
 * What can be done to a selection: favourite, add to an album, tag, adjust the dates, set the place,
 * stack, trash or restore, download as a zip, make a public link (features/sharing). The albums',
 * sharing's and stacks' parts come through viewer-slots.tsx.
 *
 * On a phone the bar takes the place of the top bar (library.css) and keeps one line: clear, the
 * count, "Add to album", Download and Move to trash (as icons with their names for assistive
 * technology), and "More" for the rest (favourite, tag, stack). On a wide screen the same controls
 * all sit in the bar with their words.
 *
 * "Stack" stacks the selection in the order it was picked (the first picked is the cover). A
 * selected tile that stands for a whole stack brings all its members: stacking it with more photos
 * makes one bigger stack, as the tile suggests, rather than pulling its cover out of its stack.
 */
import { useState } from 'react';
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { useDownloadZip, useRestoreWithUndo, useSetLikedWithUndo, useTrashWithUndo } from './asset-actions-api';
import { DeletePermanentlyButton } from './TrashActions';
import { useBulkTag } from './bulk-tag';
import { BulkTagMenu } from './BulkTagMenu';
import { AdjustDateMenu, SetPlaceMenu } from './SelectionCorrections';
import type { GalleryItem } from './library-api';
import { viewerSlots, type SelectionMutation } from './viewer-slots';

/** Without the stacks feature there is no "Stack" (a mutation that never runs). */
const idle: SelectionMutation = { mutate: () => {}, isPending: false, error: null };
const useNoStack = () => idle;

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
  const { run: setLiked, mutation: like } = useSetLikedWithUndo();
  const { run: moveToTrash, mutation: remove } = useTrashWithUndo();
  const { run: putBack, mutation: restore } = useRestoreWithUndo();
  const download = useDownloadZip();
  const { AddToAlbum, LinkButton, useCreateStack } = viewerSlots().selection;
  // The slots are fixed once loaded (lazy-parts.ts), so the same hook runs on every render.
  const stack = (useCreateStack ?? useNoStack)();
  const tagging = useBulkTag();
  const error = like.error ?? remove.error ?? restore.error ?? download.error ?? stack.error;
  const busy = like.isPending || remove.isPending || restore.isPending || download.isPending || stack.isPending || (tagging.run?.running ?? false);
  const n = ids.length;
  const names = new Map(items.map((i) => [i.media_item.primary_asset.asset_id, i.media_item.primary_asset.original_filename]));
  // Undo of "Add to favourites" unlikes only what was not a favourite before.
  const wasLiked = new Set(items.filter((i) => i.media_item.primary_asset.liked).map((i) => i.media_item.primary_asset.asset_id));

  const [moreOpen, setMoreOpen] = useState(false);

  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      <button type="button" className="button button--quiet selection-bar__clear" aria-label="Clear selection" title="Clear selection" onClick={onDone} disabled={busy}>
        <Icon name="close" />
      </button>
      <strong className="selection-bar__count">{n === 1 ? '1 selected' : `${n} selected`}</strong>
      {trash ? (
        <>
          <Button busy={restore.isPending} busyLabel="Restoring…" disabled={busy} onClick={() => putBack(ids, onDone)}>
            Restore
          </Button>
          <DeletePermanentlyButton className="selection-bar__icon" ids={ids} names={names} disabled={busy} onDone={onDone} />
        </>
      ) : (
        <>
          {AddToAlbum && <AddToAlbum assetIds={ids} onDone={onDone} />}
          <Button variant="secondary" className="selection-bar__icon" aria-label="Download" title="Download as a zip" busy={download.isPending} busyLabel="Preparing zip…" disabled={busy} onClick={() => download.mutate(ids)}>
            <Icon name="download" />
            <span className="selection-bar__label">Download</span>
          </Button>
          <Button variant="secondary" className="selection-bar__icon" aria-label="Move to trash" busy={remove.isPending} busyLabel="Moving…" disabled={busy} onClick={() => moveToTrash(ids, onDone)}>
            <Icon name="trash" />
            <span className="selection-bar__label">Move to trash</span>
          </Button>
          <button type="button" className="button button--quiet selection-bar__more-button" aria-label="More actions" aria-expanded={moreOpen} aria-controls="selection-more" onClick={() => setMoreOpen((v) => !v)}>
            <Icon name="more" />
          </button>
          {/* Inline on a wide screen; the "More" menu on a phone (one set of controls, placed by CSS). */}
          <div id="selection-more" className="selection-bar__more" data-open={moreOpen ? 'true' : 'false'}>
            <Button variant="secondary" disabled={busy} onClick={() => setLiked(ids, true, { changed: ids.filter((id) => !wasLiked.has(id)), onSuccess: onDone })}>
              Add to favourites
            </Button>
            <BulkTagMenu ids={ids} names={names} tagging={tagging} disabled={busy} onDone={onDone} />
            <AdjustDateMenu ids={ids} disabled={busy} onDone={onDone} />
            <SetPlaceMenu ids={ids} disabled={busy} onDone={onDone} />
            {LinkButton && <LinkButton ids={ids} disabled={busy} />}
            {n >= 2 && useCreateStack && (
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
          </div>
        </>
      )}
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
    </div>
  );
}
