/**
 * The viewer's one-finger gestures on touch screens: swipe left for the next item, right for the
 * previous one, down to close. The item follows the finger while it moves (`offset`), and springs
 * back if the swipe was too short. Mouse pointers are left alone (a desktop has the arrows, keys and
 * a drag that pans a zoomed photo), and so is everything while the photo is zoomed (the finger pans
 * it) or while two fingers are down (a pinch).
 *
 * Pointer events: the stage has `touch-action: none`, so the browser neither scrolls nor zooms the
 * page and sends every move here.
 */
import { useRef, useState } from 'react';

/** A swipe counts past this share of the stage's width (or height, down), or this many px. */
const DISTANCE_SHARE = 0.18;
const DISTANCE_MAX = 90;
/** Or, shorter, if it was quick: px per ms. */
const FLICK_SPEED = 0.5;
const FLICK_MIN = 30;
/** Moves below this (px) do not decide a direction yet. */
const SLOP = 10;

interface SwipeOptions {
  onNext?: (() => void) | undefined;
  onPrevious?: (() => void) | undefined;
  onClose: () => void;
  /** True while the photo is zoomed: the finger pans it instead. */
  disabled: boolean;
}

interface Track {
  id: number;
  x: number;
  y: number;
  t: number;
  axis: 'x' | 'y' | null;
}

export function useViewerSwipe({ onNext, onPrevious, onClose, disabled }: SwipeOptions) {
  const [offset, setOffset] = useState<{ x: number; y: number } | null>(null);
  const track = useRef<Track | null>(null);
  const down = useRef(new Set<number>());

  const reset = () => {
    track.current = null;
    setOffset(null);
  };

  const handlers = {
    onPointerDown: (e: React.PointerEvent<HTMLElement>) => {
      if (e.pointerType === 'mouse') return;
      down.current.add(e.pointerId);
      if (disabled || down.current.size > 1) return reset();
      track.current = { id: e.pointerId, x: e.clientX, y: e.clientY, t: e.timeStamp, axis: null };
    },
    onPointerMove: (e: React.PointerEvent<HTMLElement>) => {
      const s = track.current;
      if (!s || s.id !== e.pointerId) return;
      if (disabled || down.current.size > 1) return reset();
      const dx = e.clientX - s.x;
      const dy = e.clientY - s.y;
      if (!s.axis) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) < SLOP) return;
        // Sideways steps; downwards closes; upwards means nothing here.
        if (Math.abs(dx) >= Math.abs(dy)) s.axis = 'x';
        else if (dy > 0) s.axis = 'y';
        else return reset();
      }
      setOffset(s.axis === 'x' ? { x: dx, y: 0 } : { x: 0, y: Math.max(0, dy) });
    },
    onPointerUp: (e: React.PointerEvent<HTMLElement>) => {
      down.current.delete(e.pointerId);
      const s = track.current;
      if (!s || s.id !== e.pointerId || !s.axis) return reset();
      const rect = e.currentTarget.getBoundingClientRect();
      const dx = e.clientX - s.x;
      const dy = e.clientY - s.y;
      const ms = Math.max(1, e.timeStamp - s.t);
      const far = (d: number, size: number) => Math.abs(d) >= Math.min(DISTANCE_MAX, size * DISTANCE_SHARE) || (Math.abs(d) >= FLICK_MIN && Math.abs(d) / ms >= FLICK_SPEED);
      reset();
      if (s.axis === 'x' && far(dx, rect.width)) {
        if (dx < 0) onNext?.();
        else onPrevious?.();
      } else if (s.axis === 'y' && dy > 0 && far(dy, rect.height)) onClose();
    },
    onPointerCancel: (e: React.PointerEvent<HTMLElement>) => {
      down.current.delete(e.pointerId);
      reset();
    },
  };

  return { offset, handlers };
}
