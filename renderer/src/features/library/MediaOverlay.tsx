/**
 * A simple overlay for one item: the large thumbnail of a photo, the playable copy of a video, and a
 * link to the original. A modal <dialog>: focus moves in and back, Escape closes, the page behind is
 * inert. The full viewer (zoom, swipe, details) comes later.
 */
import { useEffect, useRef } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatDateTime, formatDuration } from '../../lib/format';
import { useReprocessAsset, type GalleryItem } from './library-api';
import { mediaUrl, useMediaToken } from './media-token';
import { Thumbnail } from './Thumbnail';

interface MediaOverlayProps {
  item: GalleryItem;
  onClose: () => void;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
}

export function MediaOverlay({ item, onClose, onPrevious, onNext }: MediaOverlayProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const token = useMediaToken();
  const reprocess = useReprocessAsset();
  const asset = item.media_item.primary_asset;
  const when = formatDateTime(asset.taken_time ?? asset.upload_time);

  // Removing an open dialog from the page also ends its modal state: no close() on unmount, whose
  // close event would arrive after the next item was already showing.
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const { reset } = reprocess;
  useEffect(() => reset(), [asset.asset_id, reset]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft' && onPrevious) onPrevious();
      if (e.key === 'ArrowRight' && onNext) onNext();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onPrevious, onNext]);

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

  return (
    <dialog
      ref={dialog}
      className="overlay"
      aria-label={asset.original_filename}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="overlay__bar">
        <div className="overlay__title">
          <strong>{asset.original_filename}</strong>
          <span>
            {when}
            {asset.type === 'VIDEO' && asset.duration ? ` · ${formatDuration(asset.duration)}` : ''}
          </span>
        </div>
        <div className="overlay__actions">
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
    </dialog>
  );
}
