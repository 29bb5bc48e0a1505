/**
 * One photo of a public link, large: the signed-in viewer's look and gestures (swipe sideways to
 * step, down to close, pinch and double tap to zoom: use-viewer-swipe.ts, ZoomableImage.tsx) with
 * none of its account actions. Videos play (getSharedLinkVideo); "Download" appears only when the
 * link allows downloads.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../../../components/Icon';
import { formatCaptureTimeShort } from '../../../lib/capture-time';
import { useViewerSwipe } from '../../../photos/use-viewer-swipe';
import { ZoomableImage } from '../../../photos/ZoomableImage';
import { linkUrls, type SharedPhoto } from './public-api';

interface PublicViewerProps {
  photo: SharedPhoto;
  linkKey: string;
  token: string | null;
  allowDownload: boolean;
  onClose: () => void;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
}

export function PublicViewer({ photo, linkKey, token, allowDownload, onClose, onPrevious, onNext }: PublicViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [zoomed, setZoomed] = useState(false);
  const onZoomedChange = useCallback((z: boolean) => setZoomed(z), []);
  const swipe = useViewerSwipe({ onNext, onPrevious, onClose, disabled: zoomed });
  const [broken, setBroken] = useState<string | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const keys = useRef({ onPrevious, onNext });
  keys.current = { onPrevious, onNext };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') keys.current.onPrevious?.();
      else if (e.key === 'ArrowRight') keys.current.onNext?.();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const large = linkUrls.thumbnail(linkKey, photo.photo_id, 'large', token);
  let media: React.ReactNode;
  if (photo.type === 'VIDEO') {
    media = (
      <video key={photo.photo_id} className="overlay__media" src={linkUrls.video(linkKey, photo.photo_id, token)} poster={large} controls autoPlay playsInline preload="metadata" aria-label={photo.file_name}>
        This browser cannot play this video.
      </video>
    );
  } else if (broken === photo.photo_id) {
    media = <p className="overlay__problem">No preview available.</p>;
  } else {
    media = (
      <ZoomableImage key={photo.photo_id} onZoomedChange={onZoomedChange}>
        <img className="overlay__media" src={large} alt={photo.file_name} draggable={false} onError={() => setBroken(photo.photo_id)} />
      </ZoomableImage>
    );
  }

  return (
    <dialog
      ref={dialog}
      className="overlay"
      aria-label={photo.file_name}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="overlay__bar">
        <button type="button" className="button button--quiet overlay__close" onClick={onClose} aria-label="Close" title="Close (Esc)">
          <Icon name="back" />
        </button>
        <div className="overlay__title">
          <strong>{photo.file_name}</strong>
          <span>{formatCaptureTimeShort(photo) || 'No date'}</span>
        </div>
        <div className="overlay__actions">
          {allowDownload && (
            <a className="button button--quiet" href={linkUrls.original(linkKey, photo.photo_id, token)} download aria-label={`Download ${photo.file_name}`}>
              <Icon name="download" />
            </a>
          )}
        </div>
      </div>
      <div className="overlay__body">
        <div className="overlay__stage" {...swipe.handlers}>
          {onPrevious && (
            <button type="button" className="overlay__nav overlay__nav--prev" onClick={onPrevious} aria-label="Previous">
              ‹
            </button>
          )}
          <div
            className={swipe.offset ? 'overlay__slide overlay__slide--dragging' : 'overlay__slide'}
            style={
              swipe.offset
                ? { transform: `translate(${swipe.offset.x}px, ${swipe.offset.y}px)`, opacity: swipe.offset.y ? Math.max(0.4, 1 - swipe.offset.y / 600) : 1 }
                : undefined
            }
          >
            {media}
          </div>
          {onNext && (
            <button type="button" className="overlay__nav overlay__nav--next" onClick={onNext} aria-label="Next">
              ›
            </button>
          )}
        </div>
      </div>
    </dialog>
  );
}
