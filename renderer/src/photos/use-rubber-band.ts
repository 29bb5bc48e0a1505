/**
 * Drag-select on a desktop: press the mouse on the grid and drag, and every tile the rectangle
 * touches is selected (added to what was selected before; see use-selection.ts). A press that does
 * not move past a few pixels stays a click (opens the photo, or ticks its box). The click that ends
 * a drag is swallowed, so the tile under the pointer does not open.
 *
 * The rectangle is kept in grid coordinates (from the grid's top-left, as the layout's rows are),
 * so scrolling with the wheel while dragging keeps its start where it was on the grid.
 * Touch has its own way in (long press, PhotoTile.tsx): a finger dragging the grid scrolls it.
 */
import { useRef, useState } from 'react';
import type { TimelineLayout } from './timeline-layout';

/** Pixels the mouse must move before a press becomes a drag. */
const THRESHOLD = 8;

export interface Band {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Indices of the tiles a rectangle (grid coordinates) touches (the tiles, not the day labels above them). */
export function tilesIn(layout: TimelineLayout, r: Band): number[] {
  const out: number[] = [];
  const bottom = r.top + r.height;
  const right = r.left + r.width;
  for (const row of layout.rows) {
    if (row.kind !== 'tiles') continue;
    const top = row.top + row.band;
    if (top > bottom) break;
    if (top + row.tileHeight < r.top) continue;
    for (let c = 0; c < row.count; c++) {
      const x = row.lefts[c]!;
      if (x < right && x + row.widths[c]! > r.left) out.push(row.firstIndex + c);
    }
  }
  return out;
}

export function useRubberBand(grid: React.RefObject<HTMLElement | null>, layout: TimelineLayout, onBand: ((indices: number[] | null) => void) | undefined) {
  const [band, setBand] = useState<Band | null>(null);
  const start = useRef<{ id: number; x: number; y: number; active: boolean; last: string } | null>(null);
  const swallowClick = useRef(false);

  const at = (e: React.PointerEvent) => {
    const r = grid.current!.getBoundingClientRect();
    return { x: Math.min(r.width, Math.max(0, e.clientX - r.left)), y: e.clientY - r.top };
  };

  const handlers = {
    onPointerDown: (e: React.PointerEvent<HTMLElement>) => {
      swallowClick.current = false;
      if (!onBand || e.pointerType !== 'mouse' || e.button !== 0 || e.shiftKey || e.ctrlKey || e.metaKey) return;
      if (e.target instanceof HTMLInputElement) return; // a selection box is a click of its own
      const p = at(e);
      start.current = { id: e.pointerId, x: p.x, y: p.y, active: false, last: '' };
    },
    onPointerMove: (e: React.PointerEvent<HTMLElement>) => {
      const s = start.current;
      if (!s || s.id !== e.pointerId || !onBand) return;
      const p = at(e);
      if (!s.active) {
        if (Math.hypot(p.x - s.x, p.y - s.y) < THRESHOLD) return;
        s.active = true;
        e.currentTarget.setPointerCapture(e.pointerId);
      }
      const r = { left: Math.min(s.x, p.x), top: Math.min(s.y, p.y), width: Math.abs(p.x - s.x), height: Math.abs(p.y - s.y) };
      setBand(r);
      const indices = tilesIn(layout, r);
      const key = indices.join(',');
      if (key !== s.last) {
        s.last = key;
        onBand(indices);
      }
    },
    onPointerUp: (e: React.PointerEvent<HTMLElement>) => {
      const s = start.current;
      if (!s || s.id !== e.pointerId) return;
      start.current = null;
      if (!s.active) return;
      swallowClick.current = true;
      setBand(null);
      onBand?.(null);
    },
    onPointerCancel: () => {
      if (start.current?.active) onBand?.(null);
      start.current = null;
      setBand(null);
    },
    onClickCapture: (e: React.MouseEvent) => {
      if (!swallowClick.current) return;
      swallowClick.current = false;
      e.stopPropagation();
      e.preventDefault();
    },
  };

  return { band, handlers };
}
