/**
 * Where the photo grid's keys take the focus (use-grid-keys.ts): pure, on the timeline's layout
 * (timeline-layout.ts), so it is tested on its own (test/renderer/grid-keys.test.ts).
 */
import type { TimelineLayout, TimelineRow } from './timeline-layout.ts';

type TileRow = Extract<TimelineRow, { kind: 'tiles' }>;

/** The tile row holding `index` (rows are in order; binary search, the list can be 100k long). */
export function rowIndexOf(rows: readonly TimelineRow[], index: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid]!.firstIndex <= index) lo = mid;
    else hi = mid - 1;
  }
  // A header shares its first index with the tile row after it.
  while (lo < rows.length - 1 && rows[lo]!.kind === 'header') lo++;
  return lo;
}

/** The first tile row from `r` stepping by `dir`, or -1. */
function tileRowFrom(rows: readonly TimelineRow[], r: number, dir: 1 | -1): number {
  for (let i = r; i >= 0 && i < rows.length; i += dir) if (rows[i]!.kind === 'tiles') return i;
  return -1;
}

/** Where a key takes the focus from `index`, or null when the key is not the grid's. */
export function targetOf(key: string, index: number, count: number, layout: TimelineLayout, screenRows: number): number | null {
  const rows = layout.rows;
  const inRow = (r: number, column: number) => {
    const row = rows[r] as TileRow;
    return row.firstIndex + Math.min(column, row.count - 1);
  };
  /** The photo `steps` tile rows away in the same column (the last one of a shorter row), or null at the edge. */
  const byRows = (steps: number): number | null => {
    const r = rowIndexOf(rows, index);
    const column = index - rows[r]!.firstIndex;
    const dir = steps > 0 ? 1 : -1;
    let target = r;
    for (let n = 0; n < Math.abs(steps); n++) {
      const next = tileRowFrom(rows, target + dir, dir);
      if (next < 0) break;
      target = next;
    }
    return target === r ? null : inRow(target, column);
  };
  switch (key) {
    case 'ArrowRight':
      return Math.min(count - 1, index + 1);
    case 'ArrowLeft':
      return Math.max(0, index - 1);
    case 'ArrowDown':
      return byRows(1) ?? index;
    case 'ArrowUp':
      return byRows(-1) ?? index;
    case 'PageDown':
      return byRows(screenRows) ?? count - 1;
    case 'PageUp':
      return byRows(-screenRows) ?? 0;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
