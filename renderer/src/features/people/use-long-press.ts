/**
 * A long press on touch or pen (as on the library's tiles, PhotoTile.tsx): `onLongPress` fires while the
 * finger is still down, and the tap that ends it is swallowed so it does not also open the person. A
 * finger that moves is scrolling, not pressing.
 */
import { useRef } from 'react';

const LONG_PRESS_MS = 500;
const PRESS_SLOP = 10;

export function useLongPress(onLongPress: () => void) {
  const press = useRef<{ timer: number; x: number; y: number; fired: boolean } | null>(null);
  const cancel = () => {
    if (press.current) window.clearTimeout(press.current.timer);
  };
  return {
    onPointerDown: (e: React.PointerEvent) => {
      cancel();
      press.current = null;
      if (e.pointerType === 'mouse' || (e.target as HTMLElement).closest('input, button, textarea')) return;
      const p = { x: e.clientX, y: e.clientY, fired: false, timer: 0 };
      p.timer = window.setTimeout(() => {
        p.fired = true;
        onLongPress();
      }, LONG_PRESS_MS);
      press.current = p;
    },
    onPointerMove: (e: React.PointerEvent) => {
      const p = press.current;
      if (p && !p.fired && Math.hypot(e.clientX - p.x, e.clientY - p.y) > PRESS_SLOP) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    // The phone's own long-press menu (open link in a new tab…) would cover the selection just started.
    onContextMenu: (e: React.MouseEvent) => {
      if (press.current) e.preventDefault();
    },
    onClickCapture: (e: React.MouseEvent) => {
      if (!press.current?.fired) return;
      press.current = null;
      e.preventDefault();
      e.stopPropagation();
    },
  };
}
