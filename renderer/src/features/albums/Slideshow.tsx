/**
 * A slideshow of an album (or of the photos selected in it): full screen, one photo after another.
 *
 * - A photo stays SLIDE_MS once it has loaded (a slow connection does not cut it short), then the
 *   next one cross-fades in; a video or a recording plays through and the next follows when it ends
 *   (one this browser cannot play shows its poster for a photo's time instead).
 * - Pause and resume (the button, or Space), next and previous (buttons, ← →, or a swipe sideways);
 *   Escape, Close or a swipe down ends it. After the last photo it starts again, like a photo frame
 *   (decision: a household leaves it running on the television).
 * - With "reduce motion" set on the device, photos change without the cross-fade.
 * - Files that could not be processed are left out; photos still being processed show their
 *   thumbnail or a note for the same time.
 * - Full screen when the browser allows it (the Play click is the gesture it asks for); leaving full
 *   screen with the browser's own Escape ends the slideshow too, so one Escape is enough.
 * The controls fade after a few seconds without the pointer moving, and come back on any move, tap
 * or key (they stay in the tab order all along).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import type { Asset } from '../../photos/library-api';
import { mediaUrl, useMediaToken } from '../../photos/media-token';
import { useViewerSwipe } from '../../photos/use-viewer-swipe';

/** How long a photo stays (ms). */
export const SLIDE_MS = 5_000;
/** Controls fade after this long without a pointer move (ms). */
const IDLE_MS = 2_500;

type SlideAsset = Pick<Asset, 'asset_id' | 'type' | 'state' | 'original_filename'>;

interface SlideshowProps {
  items: readonly SlideAsset[];
  /** Index in `items` to begin with. */
  start?: number;
  onClose: () => void;
}

function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setReduced(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return reduced;
}

/** Plays (video or recording) rather than showing for a set time; `broken` media show their poster instead. */
const plays = (a: SlideAsset, broken: boolean) => (a.type === 'VIDEO' || a.type === 'AUDIO') && a.state === 'ready' && !broken;

interface SlideProps {
  asset: SlideAsset;
  token: string;
  playing: boolean;
  /** This video or recording cannot be played here: its poster stands in for the usual time. */
  broken: boolean;
  onLoaded: () => void;
  onEnded: () => void;
  onBroken: () => void;
}

function Slide({ asset, token, playing, broken, onLoaded, onEnded, onBroken }: SlideProps) {
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  // Autoplay with sound may be refused; the same media then plays muted rather than not at all.
  useEffect(() => {
    const m = media.current;
    if (!m) return;
    if (!playing) return void m.pause();
    m.play().catch((e: unknown) => {
      if (e instanceof DOMException && e.name === 'AbortError') return; // paused or replaced meanwhile
      m.muted = true;
      void m.play().catch(onBroken);
    });
  }, [playing, onBroken]);

  if (plays(asset, broken) && asset.type === 'VIDEO') {
    return <video ref={media} className="slideshow__media" src={mediaUrl(asset.asset_id, 'video', token)} playsInline aria-label={asset.original_filename} onEnded={onEnded} onError={onBroken} />;
  }
  if (plays(asset, broken) && asset.type === 'AUDIO') {
    return (
      <div className="slideshow__audio">
        <Icon name="play" size={64} />
        <p>{asset.original_filename}</p>
        <audio ref={media} src={mediaUrl(asset.asset_id, 'audio', token)} onEnded={onEnded} onError={onBroken} />
      </div>
    );
  }
  if (asset.state !== 'ready') return <StillProcessing name={asset.original_filename} onShown={onLoaded} />;
  return <img className="slideshow__media" src={mediaUrl(asset.asset_id, 'thumbnail-large', token)} alt={asset.original_filename} onLoad={onLoaded} onError={onLoaded} draggable={false} />;
}

/** A note in place of a photo not processed yet; it counts as shown at once. */
function StillProcessing({ name, onShown }: { name: string; onShown: () => void }) {
  useEffect(onShown, [onShown]);
  return <p className="slideshow__note">{name} is still being processed.</p>;
}

export function Slideshow({ items: all, start = 0, onClose }: SlideshowProps) {
  const items = useMemo(() => all.filter((a) => a.state !== 'failed'), [all]);
  const startAt = Math.max(0, items.findIndex((a) => a.asset_id === all[start]?.asset_id));
  const dialog = useRef<HTMLDialogElement>(null);
  const token = useMediaToken();
  const reduced = usePrefersReducedMotion();
  const [index, setIndex] = useState(startAt);
  const [previous, setPrevious] = useState<number | null>(null);
  const [playing, setPlaying] = useState(true);
  const [loaded, setLoaded] = useState(false);
  const [idle, setIdle] = useState(false);
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const statusId = useId();
  const n = items.length;
  const current = items[index];

  const go = useCallback(
    (to: number) => {
      if (n === 0) return;
      const target = ((to % n) + n) % n;
      if (target === index) return;
      // The one on screen stays under the next while it fades in (not with reduced motion).
      setPrevious(reduced ? null : index);
      setLoaded(false);
      setIndex(target);
    },
    [n, reduced, index],
  );
  const next = useCallback(() => go(index + 1), [go, index]);
  const back = useCallback(() => go(index - 1), [go, index]);
  const toggle = useCallback(() => setPlaying((p) => !p), []);

  const closing = useRef(false);
  const close = useCallback(() => {
    if (closing.current) return;
    closing.current = true;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    onClose();
  }, [onClose]);

  // Open as a modal, full screen where allowed; leaving full screen (the browser's Escape) ends it.
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (!d.open) d.showModal();
    let wasFull = false;
    const onFullscreen = () => {
      if (document.fullscreenElement === d) wasFull = true;
      else if (wasFull) close();
    };
    document.addEventListener('fullscreenchange', onFullscreen);
    d.requestFullscreen?.().catch(() => undefined);
    return () => document.removeEventListener('fullscreenchange', onFullscreen);
  }, [close]);

  // A photo's time starts once it is on screen; media advance on their own end.
  useEffect(() => {
    if (!playing || !current || !loaded || plays(current, broken.has(current.asset_id))) return;
    const t = window.setTimeout(next, SLIDE_MS);
    return () => window.clearTimeout(t);
  }, [playing, current, loaded, next, broken]);

  // The next photo loads while this one shows.
  useEffect(() => {
    const following = items[(index + 1) % Math.max(n, 1)];
    if (!token || !following || following.type !== 'PHOTO' || following.state !== 'ready') return;
    const img = new Image();
    img.src = mediaUrl(following.asset_id, 'thumbnail-large', token);
  }, [index, items, n, token]);

  // Controls fade when the pointer rests.
  useEffect(() => {
    if (idle) return;
    const t = window.setTimeout(() => setIdle(true), IDLE_MS);
    return () => window.clearTimeout(t);
  }, [idle, index]);
  const wake = () => setIdle(false);

  const keys = useRef({ next, back, toggle });
  keys.current = { next, back, toggle };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      setIdle(false);
      const onButton = e.target instanceof HTMLButtonElement;
      if (e.key === 'ArrowRight') keys.current.next();
      else if (e.key === 'ArrowLeft') keys.current.back();
      else if ((e.key === ' ' || e.key === 'k') && !onButton) keys.current.toggle();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const swipe = useViewerSwipe({ onNext: n > 1 ? next : undefined, onPrevious: n > 1 ? back : undefined, onClose: close, disabled: false });
  const onLoaded = useCallback(() => setLoaded(true), []);
  const currentId = current?.asset_id;
  const onBroken = useCallback(() => {
    if (currentId) setBroken((b) => new Set(b).add(currentId));
  }, [currentId]);
  const shownBefore = previous !== null && previous !== index ? items[previous] : undefined;

  return (
    <dialog
      ref={dialog}
      className={idle ? 'slideshow slideshow--idle' : 'slideshow'}
      aria-label="Slideshow"
      aria-describedby={statusId}
      data-transition={reduced ? 'cut' : 'fade'}
      data-playing={playing ? 'true' : 'false'}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onPointerMove={wake}
      onPointerDown={wake}
    >
      <div className="slideshow__stage" {...swipe.handlers}>
        {n === 0 && <p className="slideshow__note">Nothing here can be shown.</p>}
        {token && shownBefore && (
          <div key={`before-${shownBefore.asset_id}`} className="slideshow__slide slideshow__slide--before" aria-hidden="true">
            <Slide asset={shownBefore} token={token} playing={false} broken={broken.has(shownBefore.asset_id)} onLoaded={noop} onEnded={noop} onBroken={noop} />
          </div>
        )}
        {token && current && (
          <div
            key={current.asset_id}
            className={shownBefore ? 'slideshow__slide slideshow__slide--in' : 'slideshow__slide'}
            style={swipe.offset ? { transform: `translate(${swipe.offset.x}px, ${swipe.offset.y}px)` } : undefined}
            onAnimationEnd={() => setPrevious(null)}
          >
            <Slide asset={current} token={token} playing={playing} broken={broken.has(current.asset_id)} onLoaded={onLoaded} onEnded={next} onBroken={onBroken} />
          </div>
        )}
      </div>
      <div className="slideshow__bar">
        <p id={statusId} className="slideshow__status" aria-live={playing ? 'off' : 'polite'}>
          {current ? `${index + 1} of ${n}` : ''}
          {current && <span className="slideshow__name">{current.original_filename}</span>}
        </p>
        <div className="slideshow__controls">
          <button type="button" className="slideshow__button" aria-label="Previous photo" onClick={back} disabled={n < 2}>
            <Icon name="back" />
          </button>
          <button type="button" className="slideshow__button slideshow__button--main" aria-label={playing ? 'Pause slideshow' : 'Resume slideshow'} onClick={toggle}>
            {playing ? <PauseIcon /> : <Icon name="play" />}
          </button>
          <button type="button" className="slideshow__button slideshow__button--next" aria-label="Next photo" onClick={next} disabled={n < 2}>
            <Icon name="back" />
          </button>
          <button type="button" className="slideshow__button" aria-label="Close slideshow" onClick={close}>
            <Icon name="close" />
          </button>
        </div>
      </div>
    </dialog>
  );
}

const noop = () => undefined;

function PauseIcon() {
  return (
    <svg className="icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <path d="M9 5.5v13M15 5.5v13" />
    </svg>
  );
}
