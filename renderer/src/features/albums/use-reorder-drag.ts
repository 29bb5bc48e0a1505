/**
 * Dragging a tile of the reorder grid to another place, with a mouse, a finger or a pen.
 *
 * - Mouse: press and move a few pixels; the tile lifts and follows the pointer.
 * - Touch and pen: touch and hold (LIFT_MS) without moving; the tile lifts and follows the finger,
 *   and the page stops scrolling under it. A finger that moves first is scrolling the page, and is
 *   left alone (so a long album still scrolls in reorder mode).
 * - While dragging near the top or bottom of the window the page scrolls, so a photo can travel
 *   the whole album. Escape puts it back.
 *
 * The slots of the grid do not move while a tile is dragged (only what they show changes), so their
 * places are measured once when the tile lifts, in page coordinates, and the slot under the pointer
 * (or the nearest one) is where the tile would land.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** Touch held this long (ms) without moving lifts the tile. */
const LIFT_MS = 350;
/** A mouse moving this far (px) with the button down starts a drag; a finger moving this far first is a scroll. */
const MOUSE_SLOP = 4;
const TOUCH_SLOP = 10;
/** Within this distance (px) of the window's top or bottom edge the page scrolls while dragging. */
const EDGE = 72;
const EDGE_SPEED = 14;

export interface DragState {
  id: string;
  from: number;
  over: number;
  /** Where the pointer is (client coordinates) and where it held the tile, for the lifted copy. */
  x: number;
  y: number;
  grabX: number;
  grabY: number;
  width: number;
  height: number;
}

interface Slot {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Press {
  id: string;
  index: number;
  pointerId: number;
  touch: boolean;
  startX: number;
  startY: number;
  timer: number;
  lifted: boolean;
}

/** The slot at a page point, else the nearest slot's index. */
function slotAt(slots: readonly Slot[], px: number, py: number): number {
  let best = 0;
  let bestDistance = Infinity;
  slots.forEach((s, i) => {
    if (px >= s.left && px <= s.right && py >= s.top && py <= s.bottom) {
      best = i;
      bestDistance = -1;
      return;
    }
    if (bestDistance < 0) return;
    const dx = Math.max(s.left - px, 0, px - s.right);
    const dy = Math.max(s.top - py, 0, py - s.bottom);
    const d = dx * dx + dy * dy;
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  return best;
}

export function useReorderDrag({ grid, onDrop }: { grid: React.RefObject<HTMLElement | null>; onDrop: (id: string, to: number) => void }) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const press = useRef<Press | null>(null);
  const dragRef = useRef<DragState | null>(null);
  const slots = useRef<Slot[]>([]);
  const scrollFrame = useRef(0);
  const onDropRef = useRef(onDrop);
  onDropRef.current = onDrop;

  const update = (next: DragState | null) => {
    dragRef.current = next;
    setDrag(next);
  };

  const stopScrolling = () => {
    cancelAnimationFrame(scrollFrame.current);
    scrollFrame.current = 0;
  };

  const end = useCallback((drop: boolean) => {
    const p = press.current;
    if (p) window.clearTimeout(p.timer);
    press.current = null;
    stopScrolling();
    const d = dragRef.current;
    update(null);
    if (drop && d && d.over !== d.from) onDropRef.current(d.id, d.over);
  }, []);

  const moveTo = (clientX: number, clientY: number) => {
    const d = dragRef.current;
    if (!d) return;
    update({ ...d, x: clientX, y: clientY, over: slotAt(slots.current, clientX + window.scrollX, clientY + window.scrollY) });
  };

  // Scrolls the page while the pointer rests near an edge; the slot under it changes as it goes.
  const edgeScroll = () => {
    const d = dragRef.current;
    if (!d) return stopScrolling();
    const step = d.y < EDGE ? -EDGE_SPEED : d.y > window.innerHeight - EDGE ? EDGE_SPEED : 0;
    if (step) {
      window.scrollBy(0, step);
      moveTo(d.x, d.y);
    }
    scrollFrame.current = requestAnimationFrame(edgeScroll);
  };

  const lift = (p: Press, clientX: number, clientY: number) => {
    const cells = grid.current ? [...grid.current.querySelectorAll<HTMLElement>('[data-reorder-slot]')] : [];
    slots.current = cells.map((c) => {
      const r = c.getBoundingClientRect();
      return { left: r.left + window.scrollX, top: r.top + window.scrollY, right: r.right + window.scrollX, bottom: r.bottom + window.scrollY };
    });
    // The lifted copy is the photo's size (the slot also holds its step buttons).
    const cell = cells[p.index];
    const own = (cell?.querySelector('[data-reorder-handle]') ?? cell)?.getBoundingClientRect();
    if (!own) return end(false);
    p.lifted = true;
    if (p.touch) navigator.vibrate?.(10);
    update({ id: p.id, from: p.index, over: p.index, x: clientX, y: clientY, grabX: clientX - own.left, grabY: clientY - own.top, width: own.width, height: own.height });
    scrollFrame.current = requestAnimationFrame(edgeScroll);
  };

  useEffect(() => {
    const onMove = (e: PointerEvent) => {
      const p = press.current;
      if (!p || e.pointerId !== p.pointerId) return;
      if (p.lifted) return moveTo(e.clientX, e.clientY);
      const far = Math.hypot(e.clientX - p.startX, e.clientY - p.startY);
      if (!p.touch && far > MOUSE_SLOP) lift(p, e.clientX, e.clientY);
      else if (p.touch && far > TOUCH_SLOP) end(false);
    };
    const onUp = (e: PointerEvent) => {
      if (press.current && e.pointerId === press.current.pointerId) end(true);
    };
    const onCancel = (e: PointerEvent) => {
      if (press.current && e.pointerId === press.current.pointerId) end(false);
    };
    // A lifted tile holds the finger: the page must not scroll (or zoom) under it.
    const onTouchMove = (e: TouchEvent) => {
      if (press.current?.lifted) e.preventDefault();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && dragRef.current) {
        e.preventDefault();
        end(false);
      }
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onCancel);
    window.addEventListener('touchmove', onTouchMove, { passive: false });
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onCancel);
      window.removeEventListener('touchmove', onTouchMove);
      window.removeEventListener('keydown', onKey);
      end(false);
    };
    // Attached once: the handlers read the current press and drag through refs (`lift` and `moveTo`
    // are made again each render but do the same).
  }, [end]);

  /** Pointer-down handler for the tile at `index`. */
  const start = (id: string, index: number) => (e: React.PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    end(false);
    const touch = e.pointerType !== 'mouse';
    const p: Press = { id, index, pointerId: e.pointerId, touch, startX: e.clientX, startY: e.clientY, timer: 0, lifted: false };
    if (touch) p.timer = window.setTimeout(() => press.current === p && lift(p, p.startX, p.startY), LIFT_MS);
    else e.preventDefault(); // no text selection while dragging with the mouse
    press.current = p;
  };

  return { drag, start };
}
