/**
 * A live photo's motion, played over its still: in the grid while the mouse rests on the tile (muted,
 * as every gallery does on hover), and in the viewer while the "Live" button is pressed or after a
 * click on it (with sound: the press is the user's gesture). The clip plays once and the still comes
 * back, as on the phone that took it. Touch has no hover, and a long press in the grid selects, so
 * on a phone the motion plays from the viewer's button (press and hold, or tap).
 */
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icon';
import { mediaUrl, useMediaToken } from './media-token';
import { useMediaItemFiles } from './media-item';

/** The mouse must rest this long (ms) on a tile before its motion loads: a pass over the grid loads nothing. */
const HOVER_INTENT_MS = 250;

interface MotionProps {
  /** The asset the grid or viewer shows (the still). */
  stillId: string;
  className: string;
  muted: boolean;
  onEnded: () => void;
}

/** The motion clip of the live photo whose still is `stillId`, playing once from the start. */
export function LiveMotionClip({ stillId, className, muted, onEnded }: MotionProps) {
  const token = useMediaToken();
  const files = useMediaItemFiles(stillId, true);
  const motion = files.data?.motionAssetId;
  if (!token || !motion) return null;
  return (
    <video
      className={className}
      src={mediaUrl(motion, 'video', token)}
      autoPlay
      muted={muted}
      playsInline
      aria-label="Live photo motion"
      data-live-motion={motion}
      onEnded={onEnded}
      onError={onEnded}
    />
  );
}

/** Mouse hover on a grid tile: true once the pointer has rested on it, false when it leaves. */
export function useHoverIntent(enabled: boolean) {
  const [hovering, setHovering] = useState(false);
  const timer = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  if (!enabled) return { hovering: false, handlers: {}, stop: () => {} };
  const stop = () => {
    window.clearTimeout(timer.current);
    setHovering(false);
  };
  return {
    hovering,
    stop,
    handlers: {
      onPointerEnter: (e: React.PointerEvent) => {
        if (e.pointerType !== 'mouse') return;
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => setHovering(true), HOVER_INTENT_MS);
      },
      onPointerLeave: stop,
    },
  };
}

/**
 * The viewer's "Live" control: press and hold plays the motion until released; a click (or Enter)
 * plays it once through. `playing` is lifted so the stage can lay the clip over the photo.
 */
export function LiveButton({ playing, onPlay, onStop }: { playing: boolean; onPlay: () => void; onStop: () => void }) {
  const held = useRef<number | null>(null);
  return (
    <button
      type="button"
      className="button button--quiet overlay__live"
      aria-pressed={playing}
      aria-label={playing ? 'Stop live photo' : 'Play live photo'}
      title="Live photo: press to play"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        held.current = e.timeStamp;
        onPlay();
      }}
      onPointerUp={(e) => {
        // A long hold ends with the release (as on the phone); a short press lets the clip play through.
        if (held.current !== null && e.timeStamp - held.current > 400) onStop();
        held.current = null;
      }}
      onClick={(e) => {
        // Keyboard activation (no pointer down before it) toggles.
        if (e.detail === 0) {
          if (playing) onStop();
          else onPlay();
        }
      }}
      onContextMenu={(e) => e.preventDefault()}
    >
      <Icon name="live" />
      <span className="overlay__live-label">Live</span>
    </button>
  );
}
