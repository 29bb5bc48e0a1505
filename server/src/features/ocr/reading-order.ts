/**
 * Reading order of the lines: rows from top to bottom, and left to right within a row. PaddleOCR sorts by the
 * top-left corner and swaps neighbours less than 10 px apart vertically; a fixed 10 px means nothing across a
 * 800-px thumbnail and a 6000-px photo, so here two boxes share a row when the centre of one lies within the
 * vertical extent of the row's first box (labels side by side on a sign: "西 315" and "东 309").
 */
import type { Quad } from './types.ts';

function extent(q: Quad): { top: number; bottom: number; left: number; centre: number } {
  const ys = q.map((p) => p.y), xs = q.map((p) => p.x);
  const top = Math.min(...ys), bottom = Math.max(...ys);
  return { top, bottom, left: Math.min(...xs), centre: (top + bottom) / 2 };
}

/** Items sorted into reading order by their boxes (stable for equal positions). */
export function readingOrder<T extends { box: Quad }>(items: readonly T[]): T[] {
  const withExtent = items.map((item) => ({ item, ...extent(item.box) }));
  withExtent.sort((a, b) => a.centre - b.centre || a.left - b.left);
  const rows: (typeof withExtent)[] = [];
  for (const e of withExtent) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row && first && e.centre >= first.top && e.centre <= first.bottom) row.push(e);
    else rows.push([e]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.left - b.left).map((e) => e.item));
}
