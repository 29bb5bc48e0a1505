/**
 * Two-finger pinch on the grid (phones): spreading the fingers by PINCH_RATIO makes thumbnails a
 * step larger, pinching them together a step smaller; a long pinch moves several steps. Touch events
 * rather than pointer events: the grid scrolls vertically (touch-action), and the browser cancels
 * the pointers of a gesture it takes for a scroll, while touch events keep coming. The page's own
 * zoom is held off while two fingers are down (a non-passive touchmove that prevents the default).
 */
import { useEffect, useRef } from 'react';

/** Spread (or pinch) by this factor for one step. */
export const PINCH_RATIO = 1.3;

interface TouchLike {
  clientX: number;
  clientY: number;
}

const gap = (t: TouchList) => {
  const a = t[0] as TouchLike;
  const b = t[1] as TouchLike;
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
};

export function usePinchSteps(ref: React.RefObject<HTMLElement | null>, onStep: ((delta: 1 | -1) => void) | undefined) {
  const handler = useRef(onStep);
  handler.current = onStep;
  const enabled = Boolean(onStep);
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled) return;
    let base: number | null = null;
    const start = (e: TouchEvent) => {
      base = e.touches.length === 2 ? gap(e.touches) : null;
    };
    const move = (e: TouchEvent) => {
      if (e.touches.length !== 2) return;
      if (e.cancelable) e.preventDefault();
      const now = gap(e.touches);
      if (base === null || base === 0) {
        base = now;
        return;
      }
      if (now >= base * PINCH_RATIO) {
        handler.current?.(1);
        base = now;
      } else if (now <= base / PINCH_RATIO) {
        handler.current?.(-1);
        base = now;
      }
    };
    const end = (e: TouchEvent) => {
      if (e.touches.length < 2) base = null;
    };
    el.addEventListener('touchstart', start, { passive: true });
    el.addEventListener('touchmove', move, { passive: false });
    el.addEventListener('touchend', end, { passive: true });
    el.addEventListener('touchcancel', end, { passive: true });
    return () => {
      el.removeEventListener('touchstart', start);
      el.removeEventListener('touchmove', move);
      el.removeEventListener('touchend', end);
      el.removeEventListener('touchcancel', end);
    };
  }, [ref, enabled]);
}
