/**
 * The viewer: one item large, with the neighbours a key or a swipe away. A modal <dialog> (focus
 * moves in and back, the page behind is inert); its address is the list's plus `/photos/<id>`
 * (viewer-route.ts, RoutedViewer.tsx). Photos zoom (double-click or double tap, pinch, + / −, wheel)
 * and pan by dragging; videos and audio play; the info panel shows details and lets the owner like,
 * rate, describe and tag. Keys: ← → step, Esc closes, F favourite, 0–5 rate, I info, Delete moves
 * to the trash. Touch: swipe sideways to step, down to close (use-viewer-swipe.ts).
 *
 * The top bar is one line at any width: Close, the name (cut with an ellipsis), favourite and
 * details, then the rest. On a wide screen the rest sits in the bar; on a phone it folds into a
 * "More" menu, so Close and the name always fit. Details are a side panel on a wide screen and a
 * bottom sheet on a phone (library.css).
 *
 * A live photo has a "Live" button that plays its motion over the still (LiveMotion.tsx); an item
 * with a RAW file says so in the title and offers the RAW itself in the menu.
 *
 * An item in a stack shows the stack's members in a strip below: picking one shows it here (it may
 * not be a row of the list when stacks are collapsed, so it is fetched on its own).
 *
 * The parts below come from other features through viewer-slots.tsx (filled in app/photo-slots.ts).
 *
 * Search (features/search): "Find similar" opens the search for photos that look like this one; a
 * video found by one of its frames (a search result's `match.frame_ts_ms`) starts at that frame; a
 * line of the photo's text chosen in the details is boxed over the photo.
 *
 * Assistant (features/assistant): "Ask about this" closes the viewer and opens the assistant with the photo as
 * the question's context (the viewer is a modal dialog: the assistant's panel beside it would be inert).
 *
 * People (features/people): with the details open, the faces found in the photo are boxed over it, each
 * named, with "Not this person" and "This is…" in its menu; the details list the photo's people.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../api/problem';
import { useMe } from '../api/use-me';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { formatDuration } from '../lib/format';
import { formatCaptureTimeShort } from '../lib/capture-time';
import { ToastHost } from '../components/Toast';
import { useRestoreWithUndo, useSetLikedWithUndo, useSetRating, useTrashWithUndo } from './asset-actions-api';
import { useAssetDetail } from './asset-detail';
import { useReprocessAsset, type GalleryItem } from './library-api';
import { mediaUrl, useMediaToken } from './media-token';
import { Thumbnail } from './Thumbnail';
import { ExportPanel } from './ExportDialog';
import { ViewerInfo } from './ViewerInfo';
import { ZoomablePhoto } from './ZoomablePhoto';
import { LiveButton, LiveMotionClip } from './LiveMotion';
import { hasRaw, isLive, useMediaItemFiles } from './media-item';
import { useViewerSwipe } from './use-viewer-swipe';
import { matchOf, startSeconds } from './match';
import type { Quad } from './picture-geometry';
import { viewerSlots } from './viewer-slots';
// Its own styles, whichever page opened it: a page that does not load library.css (Duplicates) showed
// the viewer unstyled and see-through.
import './library.css';

interface ViewerProps {
  item: GalleryItem;
  trash?: boolean;
  onClose: () => void;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
}

/** Phones (as in library.css): the rest of the actions fold into "More", details open as a sheet. */
const PHONE_QUERY = '(max-width: 700px)';
const isPhone = () => typeof window !== 'undefined' && window.matchMedia(PHONE_QUERY).matches;

const noAskAbout = () => null;

const typingIn = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function Viewer({ item, trash = false, onClose, onPrevious, onNext }: ViewerProps) {
  const { overlays, actions } = viewerSlots();
  const { Faces } = overlays;
  const { StackStrip, similarHref, useAskAbout } = actions;
  // The slot is filled once before the viewer's script runs, so the hook is called on every render or never.
  const askAbout = (useAskAbout ?? noAskAbout)();
  const dialog = useRef<HTMLDialogElement>(null);
  const token = useMediaToken();
  const reprocess = useReprocessAsset();
  const { run: setLikedWithUndo, mutation: like } = useSetLikedWithUndo();
  const rate = useSetRating();
  const { run: trashWithUndo, mutation: remove } = useTrashWithUndo();
  const { run: restoreWithUndo, mutation: restore } = useRestoreWithUndo();
  // The details panel stays open from one visit to the next on a wide screen; on a phone it would
  // cover the photo, so it starts closed there.
  const [showInfo, setShowInfo] = useState(() => !isPhone() && localStorage.getItem('hearth.viewer.info') === '1');
  const [exporting, setExporting] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  const swipe = useViewerSwipe({ onNext, onPrevious, onClose, disabled: zoomed });
  const onZoomedChange = useCallback((z: boolean) => setZoomed(z), []);
  const rowAsset = item.media_item.primary_asset;
  const me = useMe();
  // The stack member picked in the strip; it belongs to that item (another item shows its own photo).
  const [pick, setPick] = useState<{ item: string; asset: string } | null>(null);
  const pickedId = pick?.item === item.id && pick.asset !== rowAsset.asset_id ? pick.asset : null;
  const picked = useAssetDetail(pickedId ?? rowAsset.asset_id, pickedId !== null);
  const asset = pickedId && picked.data ? picked.data : rowAsset;
  const inStack = !trash && (item.stack != null || item.media_item.stack != null || rowAsset.stack != null);
  const [note, setNote] = useState<{ item: string; text: string } | null>(null);
  // The motion and the RAW belong to the row's item (a stack member picked in the strip is another item).
  const showingRow = asset.asset_id === rowAsset.asset_id;
  const live = showingRow && isLive(item);
  const raw = showingRow && hasRaw(item);
  const files = useMediaItemFiles(rowAsset.asset_id, raw);
  const rawId = files.data?.rawAssetId;
  const [livePlaying, setLivePlaying] = useState(false);
  const navigate = useNavigate();
  const [ocrLine, setOcrLine] = useState<Quad | null>(null);
  // A search result found by one of its video frames opens at that frame (the row's own asset only).
  const startAt = showingRow ? startSeconds(matchOf(item)) : 0;
  const canFindSimilar = similarHref !== null && !trash && (asset.type === 'PHOTO' || asset.type === 'VIDEO') && asset.state === 'ready';
  const findSimilar = () => similarHref && void navigate(similarHref(asset.asset_id));
  // The photo's own clock (its offset is in the details); an undated file says so rather than showing its upload time.
  const when = formatCaptureTimeShort(asset) || 'No date';
  // Someone else's photo (a partner's, or added to a shared album by another member) is read-only:
  // no Trash (likes and ratings are the reader's own).
  const mine = me === null || asset.owner_id === me.user_id;
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
  useEffect(() => {
    if (!isPhone()) localStorage.setItem('hearth.viewer.info', showInfo ? '1' : '0');
  }, [showInfo]);

  const { reset } = reprocess;
  useEffect(() => reset(), [asset.asset_id, reset]);
  useEffect(() => {
    setExporting(false);
    setMoreOpen(false);
    setLivePlaying(false);
    setOcrLine(null);
  }, [asset.asset_id]);

  const toggleLike = () => {
    setLiked(!liked);
    const before = liked;
    setLikedWithUndo([asset.asset_id], !before, { onError: () => setLiked(before), onUndone: () => setLiked(before) });
  };
  const setStars = (n: number) => {
    const before = rating;
    setRating(n);
    rate.mutate({ ids: [asset.asset_id], rating: n }, { onError: () => setRating(before) });
  };
  const moveToTrash = () => trashWithUndo([asset.asset_id], () => (onNext ?? onPrevious ?? onClose)());
  const putBack = () => restoreWithUndo([asset.asset_id], () => (onNext ?? onPrevious ?? onClose)());

  const keys = useRef({ onPrevious, onNext, toggleLike, setStars, moveToTrash, putBack, trash, mine });
  keys.current = { onPrevious, onNext, toggleLike, setStars, moveToTrash, putBack, trash, mine };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const k = keys.current;
      if (e.key === 'ArrowLeft' && k.onPrevious) k.onPrevious();
      else if (e.key === 'ArrowRight' && k.onNext) k.onNext();
      else if ((e.key === 'f' || e.key === 'F') && !k.trash) k.toggleLike();
      else if (/^[0-5]$/.test(e.key) && !k.trash) k.setStars(Number(e.key));
      else if (e.key === 'i' || e.key === 'I') setShowInfo((v) => !v);
      else if (e.key === 'Delete' && !k.trash && k.mine) k.moveToTrash();
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
        {/* The tile's words (PhotoTile.tsx), with the reason; only its owner can try again (or move it to the Trash, under More). */}
        <p>Can't be shown.</p>
        {asset.last_error && <p className="overlay__reason">{asset.last_error}</p>}
        {mine && (
          <Button variant="secondary" busy={reprocess.isPending} busyLabel="Queuing…" onClick={() => reprocess.mutate(asset.asset_id)}>
            Try processing again
          </Button>
        )}
        {reprocess.isSuccess && <p>Queued. The photo will appear when it is ready.</p>}
        {reprocess.isError && <p className="field__error">{messageOf(reprocess.error)}</p>}
      </div>
    );
  } else if (asset.type === 'VIDEO' && asset.state === 'ready' && token) {
    media = (
      <video
        key={asset.asset_id}
        className="overlay__media"
        src={mediaUrl(asset.asset_id, 'video', token)}
        aria-label={`Video: ${asset.original_filename}`}
        controls
        autoPlay
        playsInline
        preload="metadata"
        data-start={startAt || undefined}
        onLoadedMetadata={(e) => {
          if (startAt > 0 && startAt < (e.currentTarget.duration || Infinity)) e.currentTarget.currentTime = startAt;
        }}
      >
        Your browser cannot play this video. Use “Open original” to download it.
      </video>
    );
  } else if (asset.type === 'AUDIO' && asset.state === 'ready' && token) {
    media = (
      <div className="overlay__audio">
        <Icon name="play" size={48} />
        <audio key={asset.asset_id} src={mediaUrl(asset.asset_id, 'audio', token)} aria-label={`Recording: ${asset.original_filename}`} controls autoPlay preload="metadata">
          Your browser cannot play this recording. Use “Open original” to download it.
        </audio>
      </div>
    );
  } else if (asset.type === 'PHOTO' && asset.state === 'ready') {
    media = (
      <ZoomablePhoto key={asset.asset_id} assetId={asset.asset_id} alt={asset.original_filename} onZoomedChange={onZoomedChange} highlight={ocrLine}>
        {/* The faces are boxed while the details are open (people/FaceBoxes.tsx); only the owner's photos have their people. */}
        {showInfo && mine && !trash && Faces && <Faces assetId={asset.asset_id} />}
      </ZoomablePhoto>
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
      className={['overlay', showInfo ? 'overlay--info' : '', ocrLine ? 'overlay--text-box' : ''].filter(Boolean).join(' ')}
      aria-label={asset.original_filename}
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
          <strong>{asset.original_filename}</strong>
          <span>
            {when}
            {(asset.type === 'VIDEO' || asset.type === 'AUDIO') && asset.duration ? ` · ${formatDuration(asset.duration)}` : ''}
            {item.media_item.owner ? ` · from ${item.media_item.owner.display_name}` : ''}
            {raw && (
              <span className="overlay__kind" title="A RAW file is kept with this photo">
                RAW
              </span>
            )}
          </span>
        </div>
        <div className="overlay__actions">
          {trash ? (
            <Button variant="secondary" busy={restore.isPending} busyLabel="Restoring…" onClick={putBack}>
              Restore
            </Button>
          ) : (
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
          {live && <LiveButton playing={livePlaying} onPlay={() => setLivePlaying(true)} onStop={() => setLivePlaying(false)} />}
          <button type="button" className="button button--quiet" aria-pressed={showInfo} aria-label="Details" title="Details (I)" onClick={() => setShowInfo((v) => !v)}>
            <Icon name="info" />
          </button>
          <button
            type="button"
            className="button button--quiet overlay__more-button"
            aria-label="More actions"
            aria-expanded={moreOpen}
            aria-controls="viewer-more"
            onClick={() => setMoreOpen((v) => !v)}
          >
            <Icon name="more" />
          </button>
          {/* Inline on a wide screen; the "More" menu on a phone (one set of controls, placed by CSS). */}
          <div id="viewer-more" className="overlay__more" data-open={moreOpen ? 'true' : 'false'} onClick={() => setMoreOpen(false)}>
            {canFindSimilar && (
              <button type="button" className="button button--quiet" aria-label="Find similar" title="Find similar photos" onClick={findSimilar}>
                <Icon name="similar" />
                <span className="overlay__more-label">Find similar</span>
              </button>
            )}
            {askAbout && !trash && (
              <button
                type="button"
                className="button button--quiet"
                aria-label="Ask about this"
                title="Ask the assistant about this photo"
                onClick={() => {
                  askAbout({ assetId: asset.asset_id, label: asset.original_filename });
                  onClose();
                }}
              >
                <Icon name="assistant" />
                <span className="overlay__more-label">Ask about this</span>
              </button>
            )}
            {!trash && mine && (
              <button type="button" className="button button--quiet" aria-label="Move to trash" title="Move to trash (Delete)" onClick={moveToTrash}>
                <Icon name="trash" />
                <span className="overlay__more-label">Move to trash</span>
              </button>
            )}
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
            {token && rawId && rawId !== asset.asset_id && (
              // The RAW as it came from the camera (the photo shown is its developed companion).
              <a className="button button--quiet overlay__link" href={mediaUrl(rawId, 'original', token)} download>
                Download RAW
              </a>
            )}
          </div>
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
            {livePlaying && <LiveMotionClip stillId={rowAsset.asset_id} className="overlay__motion" muted={false} onEnded={() => setLivePlaying(false)} />}
          </div>
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
        {showInfo && !exporting && <ViewerInfo assetId={asset.asset_id} rating={rating} onRate={trash ? undefined : setStars} onOcrLine={setOcrLine} />}
      </div>
      {inStack && StackStrip && (
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
      <ToastHost />
    </dialog>
  );
}
