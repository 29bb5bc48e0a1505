/**
 * Where the photo grid's keys take the focus (use-grid-keys.ts): pure, on the timeline's layout
 * (timeline-layout.ts), so it is tested on its own (test/renderer/grid-keys.test.ts).
 * Rows are justified (tiles of different widths), so ↑/↓ go to the tile of the row above or below
 * whose middle is nearest the middle of the tile left, as a photo app's grid does; month headers
 * are passed over.
 */
import { rowOfItem, type TimelineLayout, type TimelineRow } from './timeline-layout.ts';

type TileRow = Extract<TimelineRow, { kind: 'tiles' }>;

/** The row of tiles holding `index` (rows are in order; binary search, the list can be 100k long). */
export function rowIndexOf(rows: readonly TimelineRow[], index: number): number {
  return Math.max(0, rowOfItem(rows, index));
}

/** The first row of tiles from `r` stepping by `dir`, or -1. */
function tileRowFrom(rows: readonly TimelineRow[], r: number, dir: 1 | -1): number {
  for (let i = r; i >= 0 && i < rows.length; i += dir) if (rows[i]!.kind === 'tiles') return i;
  return -1;
}

/** The tile of `row` whose middle is nearest `x`. */
function nearestIn(row: TileRow, x: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let c = 0; c < row.count; c++) {
    const d = Math.abs(row.lefts[c]! + row.widths[c]! / 2 - x);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return row.firstIndex + best;
}

/** Where a key takes the focus from `index`, or null when the key is not the grid's. */
export function targetOf(key: string, index: number, count: number, layout: TimelineLayout, screenRows: number): number | null {
  const rows = layout.rows;
  /** The photo `steps` tile rows away nearest the same place across, or null at the edge. */
  const byRows = (steps: number): number | null => {
    const r = rowIndexOf(rows, index);
    const from = rows[r];
    if (!from || from.kind !== 'tiles') return null;
    const c = index - from.firstIndex;
    const x = from.lefts[c]! + from.widths[c]! / 2;
    const dir = steps > 0 ? 1 : -1;
    let target = r;
    for (let n = 0; n < Math.abs(steps); n++) {
      const next = tileRowFrom(rows, target + dir, dir);
      if (next < 0) break;
      target = next;
    }
    return target === r ? null : nearestIn(rows[target] as TileRow, x);
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

/** The usual height of a row of tiles (for "a screenful of rows"). */
export function typicalRowHeight(layout: TimelineLayout): number {
  const row = layout.rows.find((r) => r.kind === 'tiles');
  return row ? row.height : 150;
}
