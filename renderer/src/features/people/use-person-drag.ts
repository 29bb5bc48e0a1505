/**
 * Merge by dragging (desktop): a person's card is picked up with the mouse and dropped on another's; the
 * page then asks which one to keep (the one dropped on, unless changed). Pointer events, with the pointer
 * captured by the card picked up, so the drag goes on over the whole page; the card under the pointer is
 * found by its `data-person-id`. A press that moves less than a few pixels stays a click (it opens the
 * person); the click that ends a real drag is swallowed.
 *
 * Touch and pen do not drag here: a finger on the grid scrolls it, and a long press selects (PersonCard),
 * after which "Merge" does the same.
 */
import { useRef, useState } from 'react';

/** A mouse press that moves this far (px) is a drag. */
const DRAG_SLOP = 6;

export interface DragState {
  from: number;
  over: number | null;
  x: number;
  y: number;
}

const personUnder = (x: number, y: number): number | null => {
  const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-person-id]');
  return el ? Number(el.dataset.personId) : null;
};

export function usePersonDrag(onDrop: (from: number, onto: number) => void) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const press = useRef<{ id: number; x: number; y: number; dragging: boolean } | null>(null);
  const swallow = useRef(false);

  const handlersFor = (personId: number) => ({
    onPointerDown: (e: React.PointerEvent<HTMLElement>) => {
      swallow.current = false;
      // Fields and buttons on the card keep their own pointer (typing a name, pressing Hide).
      if (e.pointerType !== 'mouse' || e.button !== 0 || (e.target as HTMLElement).closest('input, button, textarea')) return;
      press.current = { id: personId, x: e.clientX, y: e.clientY, dragging: false };
    },
    onPointerMove: (e: React.PointerEvent<HTMLElement>) => {
      const p = press.current;
      if (!p || p.id !== personId) return;
      if (!p.dragging) {
        if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < DRAG_SLOP) return;
        p.dragging = true;
        e.currentTarget.setPointerCapture(e.pointerId);
      }
      const over = personUnder(e.clientX, e.clientY);
      setDrag({ from: personId, over: over === personId ? null : over, x: e.clientX, y: e.clientY });
    },
    onPointerUp: (e: React.PointerEvent<HTMLElement>) => {
      const p = press.current;
      press.current = null;
      if (!p?.dragging) return;
      swallow.current = true;
      setDrag(null);
      const onto = personUnder(e.clientX, e.clientY);
      if (onto !== null && onto !== p.id) onDrop(p.id, onto);
    },
    onPointerCancel: () => {
      press.current = null;
      setDrag(null);
    },
    // The card's link and image would start the browser's own drag (of a URL) instead.
    onDragStart: (e: React.DragEvent) => e.preventDefault(),
    onClickCapture: (e: React.MouseEvent) => {
      if (!swallow.current) return;
      swallow.current = false;
      e.preventDefault();
      e.stopPropagation();
    },
  });

  return { drag, handlersFor };
}
