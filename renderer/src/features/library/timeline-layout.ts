/**
 * Layout of the timeline: items grouped by local day under a header, in rows of square tiles.
 * Pure and cheap (one pass), so it is recomputed on every width change or page load; the grid
 * then renders only the rows near the viewport (Timeline.tsx), which keeps 100k items smooth.
 */

export interface TimelineEntry {
  id: string;
  /** Epoch ms the item stands for (capture time, else when it was added). */
  ts: number;
}

export type TimelineRow =
  | { kind: 'header'; key: string; label: string; top: number; height: number; firstIndex: number; count: number }
  | { kind: 'tiles'; key: string; top: number; height: number; firstIndex: number; count: number };

export interface TimelineLayout {
  rows: TimelineRow[];
  columns: number;
  tile: number;
  height: number;
}

export interface LayoutOptions {
  width: number;
  minTile: number;
  gap: number;
  headerHeight: number;
  /** Group by day (the timeline) or not at all (trash sorted by deletion, album order…). */
  groupByDay: boolean;
  locale?: string | undefined;
}

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

export function dayLabel(ts: number, now = new Date(), locale?: string): string {
  const d = new Date(ts);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const that = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const days = Math.round((today.getTime() - that.getTime()) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return d.toLocaleDateString(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

export function layoutTimeline(items: readonly TimelineEntry[], o: LayoutOptions, now = new Date()): TimelineLayout {
  const width = Math.max(o.width, o.minTile);
  const columns = Math.max(1, Math.floor((width + o.gap) / (o.minTile + o.gap)));
  const tile = (width - o.gap * (columns - 1)) / columns;
  const rows: TimelineRow[] = [];
  let top = 0;
  let i = 0;
  while (i < items.length) {
    // One group: a day (timeline) or everything.
    let end = i + 1;
    if (o.groupByDay) {
      const key = dayKey(new Date(items[i]!.ts));
      while (end < items.length && dayKey(new Date(items[end]!.ts)) === key) end++;
      rows.push({ kind: 'header', key: `h:${items[i]!.id}`, label: dayLabel(items[i]!.ts, now, o.locale), top, height: o.headerHeight, firstIndex: i, count: end - i });
      top += o.headerHeight;
    } else end = items.length;
    for (let r = i; r < end; r += columns) {
      const count = Math.min(columns, end - r);
      rows.push({ kind: 'tiles', key: `r:${items[r]!.id}`, top, height: tile, firstIndex: r, count });
      top += tile + o.gap;
    }
    i = end;
  }
  return { rows, columns, tile, height: top };
}

/** Index of the first row whose bottom is below `y` (binary search: rows are sorted by top). */
export function firstRowAt(rows: readonly TimelineRow[], y: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[mid]!;
    if (r.top + r.height < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
