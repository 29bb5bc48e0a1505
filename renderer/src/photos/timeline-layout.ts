/**
 * Layout of the timeline: justified rows, as the photo apps people know lay them out. Tiles keep
 * their photo's aspect ratio and a row is scaled so its tiles fill the width exactly; days flow
 * inside rows (a day with one photo shares its row with the next days), each day with a small label
 * above its first tile, and a larger month header (a row of its own) where a month with at least a
 * row of photos begins. The grid then renders only the rows near the viewport (Timeline.tsx), which
 * keeps 100k items smooth.
 *
 * Small months share rows too (issue 24: a library of one photo here and there showed a header and
 * a lone tile per month, three photos to a phone's screen): a month whose photos at the target
 * height do not fill one row gets no header and flows on in the row of the months before it, as
 * Google Photos packs sparse days. Its days' labels then carry the month and the year themselves
 * (DayLabel.headed false: the grid keeps their year however narrow the day). A month that fills a
 * row starts a new row under its own header, so a busy month still reads as a chapter.
 *
 * Days are the photo's own days: an entry's `ts` is its wall clock (lib/capture-time.ts, the photo's
 * local time read as UTC), so a day (and a month) is a UTC day of those numbers, wherever the viewer
 * is. Entries without a capture time (`ts` null) are grouped under "No date" where the list puts them
 * (the server's date_captured sort places them by upload time), never under "Today"; a run of them
 * gets its label but no month header.
 *
 * Rows: items are added to a row at the target height until their widths reach the width, then the
 * row is scaled down to fit exactly (so rows are at most the target height). The last row before a
 * month header (and of an ungrouped list) is not stretched: it keeps the target height and leaves the rest of the
 * width empty. Aspect ratios are clamped (MIN_RATIO..MAX_RATIO) so a panorama does not make a row a
 * sliver and a tall screenshot does not take a column of its own; an item without a size is square.
 *
 * Cheap at 100k items (measured with `npm run bench:timeline`):
 * - one pass over the items with a few number comparisons each: a day's and a month's bounds are
 *   computed once per day/month, not a Date and a key string per item;
 * - no labels: a header holds its timestamp and the grid formats the few on screen (dayLabel,
 *   monthLabel, with cached formatters);
 * - resumable: when a page of items is appended (paging through the timeline) the layout continues
 *   from the start of the last month (the last row when ungrouped) of the previous one instead of
 *   starting over, so a page costs its own items and at most one month (with the small months
 *   flowing after it), not the whole timeline.
 */
import { DAY_MS, utcFormat } from '../lib/capture-time.ts';

export interface TimelineEntry {
  id: string;
  /** The photo's wall clock in ms read as UTC (lib/capture-time.ts), or null when it has no capture time. */
  ts: number | null;
  /** Width / height as shown (orientation applied); absent or null: unknown (laid out square). */
  ratio?: number | null;
}

/** A day's label in a row of tiles: above its first tile, as wide as the day's tiles in that row. */
export interface DayLabel {
  /** The day's first item's wall clock (the grid formats it; null: "No date"). */
  ts: number | null;
  firstIndex: number;
  left: number;
  width: number;
  /** Under its month's header; false when its month is small and flowed on without one (the label then says the year). */
  headed: boolean;
}

export type TimelineRow =
  /** A month header: `ts` is its first item's wall clock (the grid formats it). */
  | { kind: 'month'; key: string; ts: number; top: number; height: number; firstIndex: number; count: 0 }
  /**
   * Tiles: items firstIndex..firstIndex+count-1 at `lefts`/`widths`, `tileHeight` high, below a band
   * of `band` px that holds the labels of the days starting in this row (0 when none does).
   */
  | {
      kind: 'tiles';
      key: string;
      top: number;
      height: number;
      band: number;
      tileHeight: number;
      firstIndex: number;
      count: number;
      lefts: number[];
      widths: number[];
      days: DayLabel[];
    };

export interface TimelineLayout {
  rows: TimelineRow[];
  height: number;
  /** How many items this layout covers. */
  count: number;
  /** What the layout was made with, so a later call can tell whether it may continue it. */
  readonly basis: { key: string; ids: string[]; ts: (number | null)[]; ratios: number[] };
  /** Where a continuation restarts: the row, item and top of the last month (or last row). */
  readonly resume: { row: number; index: number; top: number };
}

export interface LayoutOptions {
  width: number;
  /** The height rows aim at (px); full rows are scaled down to fit the width, never up. */
  rowHeight: number;
  gap: number;
  /** Space added to `gap` between the last tile of a day and the first of the next in one row. */
  dayGap: number;
  /** The band above a row in which a day starts, for the day's label. */
  dayHeader: number;
  /** The month header's row. */
  monthHeader: number;
  /** Group by day and month (the timeline) or not at all (trash sorted by deletion, album order…). */
  groupByDay: boolean;
}

/** Reads an item's id, time and aspect ratio, so the grid lays out its own items without copying them. */
export interface EntryAccess<T> {
  id: (item: T) => string;
  ts: (item: T) => number | null;
  /** Width / height as shown; null when unknown. Absent: every item square. */
  ratio?: (item: T) => number | null;
}

/** Clamp of aspect ratios: a panorama as at most 3:1, a tall screenshot as at least 2:5. */
export const MIN_RATIO = 0.4;
export const MAX_RATIO = 3;

const ENTRY: EntryAccess<TimelineEntry> = { id: (e) => e.id, ts: (e) => e.ts, ratio: (e) => e.ratio ?? null };

/**
 * "Today", "Yesterday", a weekday and date (with the year only when it is not this year), or "No date".
 * `ts` is a wall clock (see above), compared with the viewer's calendar day: a photo taken today at
 * 23:30 in New York is "Today" for a viewer in New York, whatever Berlin's date is.
 */
export function dayLabel(ts: number | null, now = new Date(), locale?: string): string {
  return dayLabelParts(ts, now, locale)
    .map((p) => p.text)
    .join('');
}

/** A piece of a day's label: the weekday and the year can be left out where the label is narrow. */
export interface LabelPart {
  text: string;
  kind: 'weekday' | 'date' | 'year';
}

/** dayLabel in pieces (joined, they are dayLabel): the grid hides the weekday and year over narrow days. */
export function dayLabelParts(ts: number | null, now = new Date(), locale?: string): LabelPart[] {
  if (ts === null) return [{ text: NO_DATE, kind: 'date' }];
  const that = Math.floor(ts / DAY_MS);
  const today = Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / DAY_MS);
  const days = today - that;
  if (days === 0) return [{ text: 'Today', kind: 'date' }];
  if (days === 1) return [{ text: 'Yesterday', kind: 'date' }];
  const withYear = new Date(ts).getUTCFullYear() !== now.getFullYear();
  const parts = utcFormat(locale, { weekday: 'short', day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}) }).formatToParts(ts);
  // A literal goes with the weekday after it ("Tue, ") and with the year before it (", 2024").
  const out: LabelPart[] = [];
  parts.forEach((p, n) => {
    const kind: LabelPart['kind'] =
      p.type === 'weekday' ? 'weekday' : p.type === 'year' ? 'year' : p.type === 'literal' && parts[n - 1]?.type === 'weekday' ? 'weekday' : p.type === 'literal' && parts[n + 1]?.type === 'year' ? 'year' : 'date';
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += p.value;
    else out.push({ text: p.value, kind });
  });
  return out;
}

/** "March 2024": a month header (wall clock `ts`, read as UTC like the days). */
export function monthLabel(ts: number, locale?: string): string {
  return utcFormat(locale, { month: 'long', year: 'numeric' }).format(ts);
}

export const NO_DATE = 'No date';

/** A predicate true for wall clocks in [start, stop); null only matches null (undated runs are groups of their own). */
function within(start: number, stop: number): (other: number | null) => boolean {
  return (other) => other !== null && other >= start && other < stop;
}
const undated = (other: number | null) => other === null;

function sameDay(ts: number | null): (other: number | null) => boolean {
  if (ts === null) return undated;
  const start = Math.floor(ts / DAY_MS) * DAY_MS;
  return within(start, start + DAY_MS);
}

function sameMonth(ts: number | null): (other: number | null) => boolean {
  if (ts === null) return undated;
  const d = new Date(ts);
  return within(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

const clampRatio = (r: number | null): number => (r === null || !Number.isFinite(r) || r <= 0 ? 1 : Math.min(MAX_RATIO, Math.max(MIN_RATIO, r)));

/** Whether `previous` laid out a prefix of `items` with the same options (then it can be continued). */
function continues<T>(previous: TimelineLayout | undefined, items: readonly T[], key: string, get: Required<EntryAccess<T>>): previous is TimelineLayout {
  if (!previous || previous.basis.key !== key || previous.count > items.length || previous.count === 0) return false;
  const { ids, ts, ratios } = previous.basis;
  for (let k = 0; k < previous.count; k++) {
    const item = items[k]!;
    if (get.id(item) !== ids[k] || get.ts(item) !== ts[k] || clampRatio(get.ratio(item)) !== ratios[k]) return false;
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
  const given = access ?? (ENTRY as unknown as EntryAccess<T>);
  const get: Required<EntryAccess<T>> = { id: given.id, ts: given.ts, ratio: given.ratio ?? (() => 1) };
  const width = Math.max(o.width, 1);
  const H = Math.max(1, o.rowHeight);
  const key = `${width}|${H}|${o.gap}|${o.dayGap}|${o.dayHeader}|${o.monthHeader}|${o.groupByDay}`;

  let rows: TimelineRow[];
  let ids: string[];
  let times: (number | null)[];
  let ratios: number[];
  let top: number;
  let i: number;
  if (continues(previous, items, key, get)) {
    rows = previous.rows.slice(0, previous.resume.row);
    // Copies (cheap next to the layout): a layout stays as it was made, whatever follows it.
    ids = previous.basis.ids.slice(0, previous.count);
    times = previous.basis.ts.slice(0, previous.count);
    ratios = previous.basis.ratios.slice(0, previous.count);
    top = previous.resume.top;
    i = previous.resume.index;
  } else {
    rows = [];
    ids = [];
    times = [];
    ratios = [];
    top = 0;
    i = 0;
  }
  for (let k = ids.length; k < items.length; k++) {
    const item = items[k]!;
    ids.push(get.id(item));
    times.push(get.ts(item));
    ratios.push(clampRatio(get.ratio(item)));
  }

  /** Rows of items start..end-1 (a run of months, or everything), from `top`; returns the top after them. */
  const flow = (start: number, end: number, y: number, headedUntil = start): number => {
    let inDay = o.groupByDay ? sameDay(times[start]!) : undefined;
    let r = start;
    while (r < end) {
      // Gather a row: items at the target height until they reach the width.
      let sum = 0;
      let gaps = 0;
      let k = r;
      const starts: number[] = [];
      const before: number[] = [];
      while (k < end) {
        let dayStart = false;
        if (inDay && (k === start || !inDay(times[k]!))) {
          dayStart = true;
          if (k !== start) inDay = sameDay(times[k]!);
          starts.push(k);
        }
        const space = k === r ? 0 : dayStart ? o.gap + o.dayGap : o.gap;
        before.push(space);
        gaps += space;
        sum += ratios[k]!;
        k++;
        if (sum * H + gaps >= width) break;
      }
      const full = sum * H + gaps >= width;
      const h = full ? (width - gaps) / sum : H;
      const lefts: number[] = [];
      const widths: number[] = [];
      let x = 0;
      for (let j = r; j < k; j++) {
        x += before[j - r]!;
        lefts.push(x);
        const w = ratios[j]! * h;
        widths.push(w);
        x += w;
      }
      const days: DayLabel[] = starts.map((s, n) => {
        const left = lefts[s - r]!;
        const next = n + 1 < starts.length ? lefts[starts[n + 1]! - r]! - o.gap - o.dayGap : width;
        return { ts: times[s]!, firstIndex: s, left, width: next - left, headed: s < headedUntil };
      });
      const band = days.length > 0 ? o.dayHeader : 0;
      rows.push({ kind: 'tiles', key: `r:${ids[r]!}`, top: y, height: band + h, band, tileHeight: h, firstIndex: r, count: k - r, lefts, widths, days });
      y += band + h + o.gap;
      r = k;
    }
    return y;
  };

  /** The end of the month (or undated run) starting at item k. */
  const monthEnd = (k: number): number => {
    const inMonth = sameMonth(times[k]!);
    let end = k + 1;
    while (end < items.length && inMonth(times[end]!)) end++;
    return end;
  };
  /** Items k..end-1 at the target height fill a row: the month is a chapter of its own. */
  const fillsARow = (k: number, end: number): boolean => {
    let sum = 0;
    for (let j = k; j < end; j++) {
      sum += ratios[j]!;
      if (sum * H + (j - k) * o.gap >= width) return true;
    }
    return false;
  };

  let resume = { row: rows.length, index: i, top };
  if (o.groupByDay) {
    while (i < items.length) {
      // A run: a month that fills a row (or the list's first month), then the small months after it.
      resume = { row: rows.length, index: i, top };
      const ts = times[i]!;
      let end = monthEnd(i);
      const headed = ts !== null && fillsARow(i, end);
      if (headed) {
        rows.push({ kind: 'month', key: `m:${ids[i]!}`, ts, top, height: o.monthHeader, firstIndex: i, count: 0 });
        top += o.monthHeader;
      }
      const headedUntil = headed ? end : i;
      while (end < items.length) {
        const next = monthEnd(end);
        if (fillsARow(end, next)) break;
        end = next;
      }
      top = flow(i, end, top, headedUntil);
      i = end;
    }
  } else if (i < items.length) {
    top = flow(i, items.length, top);
    // Without months, the last row is where a continuation restarts (it may fill up).
    const last = rows[rows.length - 1]!;
    resume = { row: rows.length - 1, index: last.firstIndex, top: last.top };
  }
  // The gap after the last row is no part of the grid.
  const height = rows.length ? Math.max(0, top - (rows[rows.length - 1]!.kind === 'tiles' ? o.gap : 0)) : 0;
  return { rows, height, count: items.length, basis: { key, ids, ts: times, ratios }, resume };
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

/**
 * The row of tiles holding item `index` (binary search), or -1 before any. Rows are sorted by
 * firstIndex, and a month header shares its firstIndex with the row of tiles after it, so the last
 * row starting at or before `index` is a row of tiles.
 */
export function rowOfItem(rows: readonly TimelineRow[], index: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.firstIndex <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
