/**
 * Layout of the timeline: items grouped by day under a header, in rows of square tiles. The
 * grid then renders only the rows near the viewport (Timeline.tsx), which keeps 100k items smooth.
 *
 * Days are the photo's own days: an entry's `ts` is its wall clock (lib/capture-time.ts, the photo's
 * local time read as UTC), so a day is a UTC day of those numbers, wherever the viewer is. Entries
 * without a capture time (`ts` null) are grouped under "No date" where the list puts them (the
 * server's date_captured sort places them by upload time), never under "Today".
 *
 * Cheap at 100k items (measured with `npm run bench:timeline`):
 * - one pass over the items with two number comparisons each: a day's bounds are computed once per
 *   day, not a Date and a key string per item;
 * - no labels: a header row holds its day's timestamp and the grid formats the few headers on
 *   screen (dayLabel, with cached formatters; toLocaleDateString for every day of 15 years is a
 *   long task of its own);
 * - resumable: when a page of items is appended (paging through the timeline) the layout continues
 *   from the last day of the previous one instead of starting over, so a page costs its own items,
 *   not the whole timeline.
 */
import { DAY_MS, utcFormat } from '../../lib/capture-time.ts';

export interface TimelineEntry {
  id: string;
  /** The photo's wall clock in ms read as UTC (lib/capture-time.ts), or null when it has no capture time. */
  ts: number | null;
}

export type TimelineRow =
  /** A day's header: `ts` is the first item's wall clock (the grid formats it; null: "No date"), `count` the day's items. */
  | { kind: 'header'; key: string; ts: number | null; top: number; height: number; firstIndex: number; count: number }
  | { kind: 'tiles'; key: string; top: number; height: number; firstIndex: number; count: number };

export interface TimelineLayout {
  rows: TimelineRow[];
  columns: number;
  tile: number;
  height: number;
  /** How many items this layout covers. */
  count: number;
  /** What the layout was made with, so a later call can tell whether it may continue it. */
  readonly basis: { key: string; ids: string[]; ts: (number | null)[] };
  /** Where a continuation restarts: the row, item and top of the last group (or last row). */
  readonly resume: { row: number; index: number; top: number };
}

export interface LayoutOptions {
  width: number;
  minTile: number;
  gap: number;
  headerHeight: number;
  /** Group by day (the timeline) or not at all (trash sorted by deletion, album order…). */
  groupByDay: boolean;
}

/** Reads an item's id and time, so the grid lays out its own items without copying them. */
export interface EntryAccess<T> {
  id: (item: T) => string;
  ts: (item: T) => number | null;
}

const ENTRY: EntryAccess<TimelineEntry> = { id: (e) => e.id, ts: (e) => e.ts };

/**
 * "Today", "Yesterday", a weekday and date (with the year only when it is not this year), or "No date".
 * `ts` is a wall clock (see above), compared with the viewer's calendar day: a photo taken today at
 * 23:30 in New York is "Today" for a viewer in New York, whatever Berlin's date is.
 */
export function dayLabel(ts: number | null, now = new Date(), locale?: string): string {
  if (ts === null) return NO_DATE;
  const that = Math.floor(ts / DAY_MS);
  const today = Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / DAY_MS);
  const days = today - that;
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const withYear = new Date(ts).getUTCFullYear() !== now.getFullYear();
  return utcFormat(locale, { weekday: 'short', day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}) }).format(ts);
}

export const NO_DATE = 'No date';

/** Whether another entry lies on the day of wall clock `ts`; undated entries form groups of their own. */
function sameDay(ts: number | null): (other: number | null) => boolean {
  if (ts === null) return (other) => other === null;
  const start = Math.floor(ts / DAY_MS) * DAY_MS;
  const stop = start + DAY_MS;
  return (other) => other !== null && other >= start && other < stop;
}

/** Whether `previous` laid out a prefix of `items` with the same options (then it can be continued). */
function continues<T>(previous: TimelineLayout | undefined, items: readonly T[], key: string, access: EntryAccess<T>): previous is TimelineLayout {
  if (!previous || previous.basis.key !== key || previous.count > items.length || previous.count === 0) return false;
  const { ids, ts } = previous.basis;
  for (let k = 0; k < previous.count; k++) {
    const item = items[k]!;
    if (access.id(item) !== ids[k] || access.ts(item) !== ts[k]) return false;
  }
  return true;
}

/**
 * Lays out `items`. With `previous` (the layout of an earlier, shorter list), continues it when
 * that list is a prefix of this one with the same options; otherwise starts over.
 */
export function layoutTimeline(items: readonly TimelineEntry[], o: LayoutOptions, previous?: TimelineLayout): TimelineLayout;
export function layoutTimeline<T>(items: readonly T[], o: LayoutOptions, previous: TimelineLayout | undefined, access: EntryAccess<T>): TimelineLayout;
export function layoutTimeline<T>(items: readonly T[], o: LayoutOptions, previous?: TimelineLayout, access?: EntryAccess<T>): TimelineLayout {
  const get = access ?? (ENTRY as unknown as EntryAccess<T>);
  const width = Math.max(o.width, o.minTile);
  const columns = Math.max(1, Math.floor((width + o.gap) / (o.minTile + o.gap)));
  const tile = (width - o.gap * (columns - 1)) / columns;
  const key = `${width}|${o.minTile}|${o.gap}|${o.headerHeight}|${o.groupByDay}`;

  let rows: TimelineRow[];
  let ids: string[];
  let times: (number | null)[];
  let top: number;
  let i: number;
  if (continues(previous, items, key, get)) {
    rows = previous.rows.slice(0, previous.resume.row);
    // Copies (cheap next to the layout): a layout stays as it was made, whatever follows it.
    ids = previous.basis.ids.slice(0, previous.count);
    times = previous.basis.ts.slice(0, previous.count);
    top = previous.resume.top;
    i = previous.resume.index;
  } else {
    rows = [];
    ids = [];
    times = [];
    top = 0;
    i = 0;
  }
  for (let k = ids.length; k < items.length; k++) {
    ids.push(get.id(items[k]!));
    times.push(get.ts(items[k]!));
  }

  let resume = { row: rows.length, index: i, top };
  while (i < items.length) {
    // One group: a day (timeline) or everything.
    let end = items.length;
    if (o.groupByDay) {
      const inDay = sameDay(times[i] as number | null);
      end = i + 1;
      while (end < items.length && inDay(times[end] as number | null)) end++;
      resume = { row: rows.length, index: i, top };
      rows.push({ kind: 'header', key: `h:${ids[i]!}`, ts: times[i] as number | null, top, height: o.headerHeight, firstIndex: i, count: end - i });
      top += o.headerHeight;
    }
    for (let r = i; r < end; r += columns) {
      const count = Math.min(columns, end - r);
      rows.push({ kind: 'tiles', key: `r:${ids[r]!}`, top, height: tile, firstIndex: r, count });
      top += tile + o.gap;
    }
    if (!o.groupByDay) {
      // Without days, the last row is where a continuation restarts (it may fill up).
      const last = rows[rows.length - 1]!;
      resume = { row: rows.length - 1, index: last.firstIndex, top: last.top };
    }
    i = end;
  }
  return { rows, columns, tile, height: top, count: items.length, basis: { key, ids, ts: times }, resume };
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
