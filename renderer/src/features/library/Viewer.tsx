/**
 * The viewer: one item large, with the neighbours a key away. A modal <dialog> (focus moves in and
 * back, the page behind is inert). Photos zoom (double-click, + / −, wheel) and pan by dragging;
 * videos and audio play; the info panel shows details and lets the owner like, rate, describe and
 * tag. Keys: ← → step, Esc closes, F favourite, 0–5 rate, I info, Delete moves to the trash.
 * An item in a stack shows the stack's members in a strip below: picking one shows it here (it may
 * not be a row of the list when stacks are collapsed, so it is fetched on its own).
 */
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatDateTime, formatDuration } from '../../lib/format';
import { useRestoreAssets, useSetLiked, useSetRating, useTrashAssets } from './asset-actions-api';
import { StackStrip } from '../stacks/StackStrip';
import { useAssetDetail } from './asset-detail';
import { useReprocessAsset, type GalleryItem } from './library-api';
import { mediaUrl, useMediaToken } from './media-token';
import { Thumbnail } from './Thumbnail';
import { ExportPanel } from './ExportDialog';
import { ViewerInfo } from './ViewerInfo';
import { ZoomablePhoto } from './ZoomablePhoto';

interface ViewerProps {
  item: GalleryItem;
  trash?: boolean;
  onClose: () => void;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
}

const typingIn = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function Viewer({ item, trash = false, onClose, onPrevious, onNext }: ViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const token = useMediaToken();
  const reprocess = useReprocessAsset();
  const like = useSetLiked();
  const rate = useSetRating();
  const remove = useTrashAssets();
  const restore = useRestoreAssets();
  const [showInfo, setShowInfo] = useState(() => localStorage.getItem('hearth.viewer.info') === '1');
  const [exporting, setExporting] = useState(false);
  const rowAsset = item.media_item.primary_asset;
  // The stack member picked in the strip; it belongs to that item (another item shows its own photo).
  const [pick, setPick] = useState<{ item: string; asset: string } | null>(null);
  const pickedId = pick?.item === item.id && pick.asset !== rowAsset.asset_id ? pick.asset : null;
  const picked = useAssetDetail(pickedId ?? rowAsset.asset_id, pickedId !== null);
  const asset = pickedId && picked.data ? picked.data : rowAsset;
  const inStack = !trash && (item.stack != null || item.media_item.stack != null || rowAsset.stack != null);
  const [note, setNote] = useState<{ item: string; text: string } | null>(null);
  const when = formatDateTime(asset.taken_time ?? asset.upload_time);
  // The list refreshes after a change; until then show what was just chosen.
  const [liked, setLiked] = useState(asset.liked);
  const [rating, setRating] = useState(asset.rating);
  useEffect(() => {
    setLiked(asset.liked);
    setRating(asset.rating);
  }, [asset.asset_id, asset.liked, asset.rating]);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  useEffect(() => localStorage.setItem('hearth.viewer.info', showInfo ? '1' : '0'), [showInfo]);

  const { reset } = reprocess;
  useEffect(() => reset(), [asset.asset_id, reset]);
  useEffect(() => setExporting(false), [asset.asset_id]);

  const toggleLike = () => {
    setLiked(!liked);
    like.mutate({ ids: [asset.asset_id], liked: !liked }, { onError: () => setLiked(liked) });
  };
  const setStars = (n: number) => {
    const before = rating;
    setRating(n);
    rate.mutate({ ids: [asset.asset_id], rating: n }, { onError: () => setRating(before) });
  };
  const moveToTrash = () => remove.mutate([asset.asset_id], { onSuccess: () => (onNext ?? onPrevious ?? onClose)() });
  const putBack = () => restore.mutate([asset.asset_id], { onSuccess: () => (onNext ?? onPrevious ?? onClose)() });

  const keys = useRef({ onPrevious, onNext, toggleLike, setStars, moveToTrash, putBack, trash });
  keys.current = { onPrevious, onNext, toggleLike, setStars, moveToTrash, putBack, trash };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const k = keys.current;
      if (e.key === 'ArrowLeft' && k.onPrevious) k.onPrevious();
      else if (e.key === 'ArrowRight' && k.onNext) k.onNext();
      else if ((e.key === 'f' || e.key === 'F') && !k.trash) k.toggleLike();
      else if (/^[0-5]$/.test(e.key) && !k.trash) k.setStars(Number(e.key));
      else if (e.key === 'i' || e.key === 'I') setShowInfo((v) => !v);
      else if (e.key === 'Delete' && !k.trash) k.moveToTrash();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  let media: React.ReactNode;
  if (asset.state === 'failed') {
    media = (
      <div className="overlay__problem" role="status">
        <Icon name="alert" size={34} />
        <p>Hearth could not process this file.</p>
        {asset.last_error && <p className="overlay__reason">{asset.last_error}</p>}
        <Button variant="secondary" busy={reprocess.isPending} busyLabel="Queuing…" onClick={() => reprocess.mutate(asset.asset_id)}>
          Try processing again
        </Button>
        {reprocess.isSuccess && <p>Queued. The photo will appear when it is ready.</p>}
        {reprocess.isError && <p className="field__error">{messageOf(reprocess.error)}</p>}
      </div>
    );
  } else if (asset.type === 'VIDEO' && asset.state === 'ready' && token) {
    media = (
      <video key={asset.asset_id} className="overlay__media" src={mediaUrl(asset.asset_id, 'video', token)} controls autoPlay playsInline preload="metadata">
        Your browser cannot play this video. Use “Open original” to download it.
      </video>
    );
  } else if (asset.type === 'AUDIO' && asset.state === 'ready' && token) {
    media = (
      <div className="overlay__audio">
        <Icon name="play" size={48} />
        <audio key={asset.asset_id} src={mediaUrl(asset.asset_id, 'audio', token)} controls autoPlay preload="metadata">
          Your browser cannot play this recording. Use “Open original” to download it.
        </audio>
      </div>
    );
  } else if (asset.type === 'PHOTO' && asset.state === 'ready') {
    media = <ZoomablePhoto key={asset.asset_id} assetId={asset.asset_id} alt={asset.original_filename} />;
  } else {
    media = (
      <Thumbnail
        key={`${asset.asset_id}:${asset.state}`}
        assetId={asset.asset_id}
        size="large"
        alt={asset.original_filename}
        className="overlay__media"
        fallback={<p className="overlay__problem">{asset.state === 'ready' ? 'No preview available.' : 'Still being processed…'}</p>}
      />
    );
  }

  if (pickedId && !picked.data) {
    media = picked.isError ? (
      <p className="overlay__problem">{messageOf(picked.error)}</p>
    ) : (
      <p className="overlay__problem" role="status">
        Loading…
      </p>
    );
  }

  const actionError = like.error ?? rate.error ?? remove.error ?? restore.error;
  return (
    <dialog
      ref={dialog}
      className={showInfo ? 'overlay overlay--info' : 'overlay'}
      aria-label={asset.original_filename}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="overlay__bar">
        <div className="overlay__title">
          <strong>{asset.original_filename}</strong>
          <span>
            {when}
            {(asset.type === 'VIDEO' || asset.type === 'AUDIO') && asset.duration ? ` · ${formatDuration(asset.duration)}` : ''}
          </span>
        </div>
        <div className="overlay__actions">
          {!trash && (
            <button
              type="button"
              className={liked ? 'button button--quiet overlay__like overlay__like--on' : 'button button--quiet overlay__like'}
              aria-pressed={liked}
              aria-label={liked ? 'Remove from favourites' : 'Add to favourites'}
              title="Favourite (F)"
              onClick={toggleLike}
            >
              <Icon name="heart" />
            </button>
          )}
          {trash ? (
            <Button variant="secondary" busy={restore.isPending} busyLabel="Restoring…" onClick={putBack}>
              Restore
            </Button>
          ) : (
            <button type="button" className="button button--quiet" aria-label="Move to trash" title="Move to trash (Delete)" onClick={moveToTrash}>
              <Icon name="trash" />
            </button>
          )}
          <button type="button" className="button button--quiet" aria-pressed={showInfo} aria-label="Details" title="Details (I)" onClick={() => setShowInfo((v) => !v)}>
            <Icon name="info" />
          </button>
          {asset.type === 'PHOTO' && asset.state === 'ready' && (
            <button type="button" className="button button--quiet" aria-pressed={exporting} onClick={() => setExporting((v) => !v)}>
              Export
            </button>
          )}
          {token && (
            <a className="button button--quiet overlay__link" href={mediaUrl(asset.asset_id, 'original', token)} target="_blank" rel="noreferrer">
              Open original
            </a>
          )}
          <button type="button" className="button button--quiet overlay__close" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
      </div>
      {actionError && (
        <p className="overlay__error" role="alert">
          {messageOf(actionError)}
        </p>
      )}
      {note?.item === item.id && (
        <p className="overlay__note" role="status">
          {note.text}
        </p>
      )}
      <div className="overlay__body">
        <div className="overlay__stage">
          {onPrevious && (
            <button type="button" className="overlay__nav overlay__nav--prev" onClick={onPrevious} aria-label="Previous">
              ‹
            </button>
          )}
          {media}
          {onNext && (
            <button type="button" className="overlay__nav overlay__nav--next" onClick={onNext} aria-label="Next">
              ›
            </button>
          )}
        </div>
        {exporting && (
          <aside className="info" aria-label="Export options">
            <ExportPanel assetId={asset.asset_id} filename={asset.original_filename} onClose={() => setExporting(false)} />
          </aside>
        )}
        {showInfo && !exporting && <ViewerInfo assetId={asset.asset_id} rating={rating} onRate={trash ? undefined : setStars} />}
      </div>
      {inStack && (
        <StackStrip
          assetId={rowAsset.asset_id}
          shownId={pickedId ?? rowAsset.asset_id}
          onShow={(id) => setPick({ item: item.id, asset: id })}
          onRemoved={() => {
            // A member picked in the strip has left it: back to the item the viewer was opened on.
            setPick(null);
            setNote({ item: item.id, text: `${asset.original_filename} was taken out of the stack.` });
          }}
        />
      )}
    </dialog>
  );
}
