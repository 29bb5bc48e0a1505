/**
 * A long press on touch or pen (selecting a photo in the grid, a person on People): `onLongPress` fires
 * while the finger is still down, and the tap that ends it is swallowed so it does not also open what was
 * pressed. A finger that moves is scrolling, not pressing; a mouse never long-presses (it has a right button
 * and checkboxes). `ignoreInside` names controls inside the pressed element that keep their own touch (a
 * name field, a button).
 */
import { useRef } from 'react';

/** A touch held this long (ms) without moving is a long press. */
const LONG_PRESS_MS = 500;
/** A touch that moves this far (px) is a scroll, not a press. */
const PRESS_SLOP = 10;

export function useLongPress(onLongPress: (() => void) | undefined, opts: { ignoreInside?: string } = {}) {
  const press = useRef<{ timer: number; x: number; y: number; fired: boolean } | null>(null);
  const cancel = () => {
    if (press.current) window.clearTimeout(press.current.timer);
  };
  /** True once, for the click that ends a long press. */
  const swallowClick = () => {
    const fired = press.current?.fired ?? false;
    press.current = null;
    return fired;
  };
  /** Spread onto the pressed element. */
  const handlers = {
    onPointerDown: (e: React.PointerEvent) => {
      cancel();
      press.current = null;
      if (!onLongPress || e.pointerType === 'mouse') return;
      if (opts.ignoreInside && (e.target as HTMLElement).closest(opts.ignoreInside)) return;
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
    // The phone's own long-press menu (save image, open in a new tab…) would cover the selection just started.
    onContextMenu: (e: React.MouseEvent) => {
      if (press.current) e.preventDefault();
    },
  };
  /** For an element whose own onClick must not see the click that ends a long press. */
  const onClickCapture = (e: React.MouseEvent) => {
    if (!swallowClick()) return;
    e.preventDefault();
    e.stopPropagation();
  };
  return { handlers, swallowClick, onClickCapture };
}
