/**
 * The virtualised photo grid: items in justified rows (timeline-layout.ts) with day labels and month
 * headers inline (or not grouped at all), and only the rows near the viewport in the page. The page itself scrolls (the window), so the grid
 * measures its own offset and the window's scroll position. While fewer than PREFETCH screens of
 * loaded rows are left below the window, `onNearEnd` asks for the next page.
 *
 * What keeps scrolling smooth with 100k items (found with traces of `npm run bench:timeline` on a
 * 2-core machine with software rendering):
 * - tiles are one flat list of keyed elements, so a tile is made once while it is in range (rows
 *   as nested arrays were matched by position: every move by a row made all 80 tiles again);
 * - the layout continues from the previous one when a page is appended (timeline-layout.ts);
 * - the grid renders when the window has moved an eighth of its height, not in every frame, and a
 *   tile already in the page does not render again (memoised, with callbacks that stay the same);
 * - during a fling, tiles ask for no thumbnail and take no hover (fling-detector.ts), and the next
 *   page is asked for further ahead (FLUNG_PREFETCH);
 * - CSS containment on the grid and on every tile: a tile coming or going lays out and restyles
 *   itself only; "something is selected" is a class on the grid, not a `:has()` rule.
 *
 * Thumbnail size: `rowHeight` (thumbnail-size.ts), changed by a pinch on the grid (use-pinch-steps.ts).
 * Dates: a scrubber on the right edge (TimelineScrubber.tsx) when `years` are given; a jump pages
 * through the list until the month's first photo is loaded, then scrolls to it.
 *
 * Selecting: a click on a tile's box, shift-click for a range, a rubber band dragged with the mouse
 * (use-rubber-band.ts), a long press on touch (PhotoTile.tsx); then taps and clicks add and remove.
 * Keyboard: one Tab stop, arrows, Home/End, Enter opens, Space selects (use-grid-keys.ts); the
 * frame's "Skip to photos" link lands on it (components/Layout/skip-target.ts).
 *
 * The grid is a list, and a list holds list items only (axe: aria-required-children): a day's label
 * and a month's header are drawn inside the list item of their first tile, so each is read just
 * before its photos. One whose first tile is out of range is drawn alone, hidden from assistive
 * technology (its photos are not in the page either).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { GalleryItem } from './library-api';
import { PhotoTile } from './PhotoTile';
import { useSkipTarget } from '../components/Layout/skip-target';
import { useGridKeys } from './use-grid-keys';
import { useScrollView } from './use-scroll-view';
import { useRubberBand } from './use-rubber-band';
import { dayLabel, dayLabelParts, firstRowAt, layoutTimeline, monthLabel, rowOfItem, type TimelineLayout, type TimelineRow } from './timeline-layout';
import { GALLERY_ENTRY } from './timeline-entry';
import { TimelineScrubber } from './TimelineScrubber';
import type { YearCount } from './scrubber-scale';
import { usePinchSteps } from './use-pinch-steps';
import { useThumbnailSize } from './thumbnail-size';

interface TimelineProps {
  items: readonly GalleryItem[];
  groupByDay: boolean;
  label: string;
  onOpen: (index: number) => void;
  selected: ReadonlySet<string>;
  onToggleSelect: (index: number, range: boolean) => void;
  /** The tiles a rubber band covers while it is dragged, then null (desktop drag-select). */
  onBand?: ((indices: number[] | null) => void) | undefined;
  onNearEnd?: (() => void) | undefined;
  /** The height rows aim at (thumbnail-size.ts); absent: the remembered size, and a pinch changes it here. */
  rowHeight?: number | undefined;
  /** A pinch on the grid: thumbnails a step larger (1) or smaller (-1). */
  onZoomStep?: ((delta: 1 | -1) => void) | undefined;
  /** Items per year (getStatsYears): with them, the scrubber shows on the right edge. */
  years?: readonly YearCount[] | undefined;
  /** More items can be loaded (the scrubber's jumps page until they reach their month). */
  hasMore?: boolean;
}

const GAP = 4;
/** Between the last tile of a day and the first of the next in one row. */
const DAY_GAP = 8;
/** The band above a row in which a day starts, for its label. */
const DAY_HEADER = 28;
const MONTH_HEADER = 52;
/** Rows drawn above and below the viewport, in viewport heights. */
const OVERSCAN = 0.5;
/**
 * Lists of at most this many items are drawn whole. Justified rows with month headers make a few
 * photos spread over months taller than the overscan on a phone, and a household's album or a
 * filtered search is often that small.
 */
const SMALL_LIST = 60;
/** The next page is asked for while less than this many viewport heights are loaded below the viewport. */
const PREFETCH = 3;
/**
 * The same while the window is flung. At 4000 px/s three screens last about half a second, less
 * than a page takes to come and be laid out on a busy machine: the window then ran into the end of
 * the loaded rows and stood there, the fling over, and every tile on screen asked for its thumbnail.
 */
const FLUNG_PREFETCH = 12;

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([e]) => setWidth(e!.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

interface CellProps {
  item: GalleryItem;
  index: number;
  top: number;
  left: number;
  width: number;
  height: number;
  selected: boolean;
  selecting: boolean;
  deferImage: boolean;
  tabbable: boolean;
  /** The month's header drawn inside this tile's list item (its first tile), relative to the tile. */
  month?: { ts: number; top: number; height: number; width: number } | undefined;
  /** The day's label drawn inside this tile's list item (the day's first tile), relative to the tile. */
  day?: { ts: number | null; left: number; width: number; height: number; headed: boolean } | undefined;
  /** The viewer's day (midnight, ms), for "Today" and "Yesterday". */
  today: number;
  onOpen: (index: number) => void;
  onToggleSelect: (index: number, range: boolean) => void;
}

/**
 * One tile at its place. Memoised on plain values: while scrolling, only the tiles that come into
 * range render; the ones already on screen are left alone.
 */
/** Cell's props are equal: plain values by value, and the heading objects (made afresh each render) by their fields. */
function sameCell(a: CellProps, b: CellProps): boolean {
  for (const k of Object.keys(a) as (keyof CellProps)[]) {
    if (k === 'month' || k === 'day') continue;
    if (a[k] !== b[k]) return false;
  }
  const same = (x: object | undefined, y: object | undefined) =>
    x === y || (x !== undefined && y !== undefined && (Object.keys(x) as (keyof typeof x)[]).every((f) => x[f] === y[f]));
  return Object.keys(a).length === Object.keys(b).length && same(a.month, b.month) && same(a.day, b.day);
}

const Cell = memo(
  function Cell({ item, index, top, left, width, height, selected, selecting, deferImage, tabbable, month, day, today, onOpen, onToggleSelect }: CellProps) {
    const before =
      month || day ? (
        <>
          {month && (
            <h2 className="timeline__month" style={{ top: month.top, left: -left, right: 'auto', width: month.width, height: month.height }}>
              {monthLabel(month.ts)}
            </h2>
          )}
          {day && <DayHeading ts={day.ts} today={today} top={-day.height} left={day.left} width={day.width} height={day.height} headed={day.headed} />}
        </>
      ) : undefined;
    return (
      <PhotoTile
        item={item}
        before={before}
        gridIndex={index}
        tabbable={tabbable}
        selected={selected}
        selecting={selecting}
        deferImage={deferImage}
        onOpen={() => onOpen(index)}
        onToggleSelect={(range) => onToggleSelect(index, range)}
        style={{ position: 'absolute', top, left, width, height, contain: 'size layout style' }}
      />
    );
  },
  sameCell,
);

/** Below these widths (px) a day's label leaves out its year, then its weekday too (the month header above says the year). */
const SHORT_LABEL = 175;
const SHORTER_LABEL = 115;

/**
 * A day's label over its first tile. Its text and name stay the whole label (what screen readers
 * read, and what the tests and `npm run bench:timeline` read); over a narrow day the weekday and
 * year pieces are hidden from sight only. Memoised on plain values (`today` is the viewer's day, as
 * midnight in ms): while scrolling, only the labels that come into range are formatted.
 */
const DayHeading = memo(function DayHeading({ ts, today, top, left, width, height, headed }: { ts: number | null; today: number; top: number; left: number; width: number; height: number; headed: boolean }) {
  const now = new Date(today);
  const parts = dayLabelParts(ts, now);
  const fit = width < SHORTER_LABEL ? ' timeline__day--shorter' : width < SHORT_LABEL ? ' timeline__day--short' : '';
  return (
    <h2 className={`timeline__day${fit}${headed ? '' : ' timeline__day--alone'}`} style={{ top, left, width, height }} aria-label={fit ? dayLabel(ts, now) : undefined}>
      {/* One inline box inside the flex heading, so the pieces keep their spaces and the whole can end in an ellipsis. */}
      <span className="timeline__day-text">{parts.length === 1 ? parts[0]!.text : parts.map((p, n) => <span key={n} className={`timeline__day-${p.kind}`}>{p.text}</span>)}</span>
    </h2>
  );
});

/**
 * The sticky top bar of phones covers the top of the window: a jump lands below it. A wide screen's
 * top bar (the search field) scrolls away with the page: once above the window it covers nothing.
 */
function coveredTop(): number {
  const bar = document.querySelector('.topbar');
  if (!bar) return 0;
  const r = bar.getBoundingClientRect();
  return r.height > 0 && r.top <= 0 ? Math.max(0, r.bottom) : 0;
}

export function Timeline({ items, groupByDay, label, onOpen, selected, onToggleSelect, onBand, onNearEnd, rowHeight: rowHeightProp, onZoomStep, years, hasMore = false }: TimelineProps) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const view = useScrollView(ref);
  const fast = view.fast;
  const ownSize = useThumbnailSize();
  const rowHeight = rowHeightProp ?? ownSize.rowHeight;
  const ownStep = useCallback((delta: 1 | -1) => ownSize.setStep((s) => s + delta), [ownSize.setStep]);
  usePinchSteps(ref, onZoomStep ?? (rowHeightProp === undefined ? ownStep : undefined));
  // The previous layout is continued when a page was appended (see layoutTimeline).
  const previous = useRef<TimelineLayout | undefined>(undefined);
  const layout = useMemo(
    () =>
      layoutTimeline(
        items,
        { width: width || 800, rowHeight, gap: GAP, dayGap: DAY_GAP, dayHeader: DAY_HEADER, monthHeader: MONTH_HEADER, groupByDay },
        previous.current,
        GALLERY_ENTRY,
      ),
    [items, width, rowHeight, groupByDay],
  );
  useEffect(() => {
    previous.current = layout;
  }, [layout]);
  const span = view.bottom - view.top;
  // A small list is drawn whole: its few tiles cost nothing, and every tile is there to find.
  const whole = items.length <= SMALL_LIST;
  const from = whole ? 0 : firstRowAt(layout.rows, view.top - span * OVERSCAN);
  const visible: TimelineRow[] = [];
  for (let r = from; r < layout.rows.length && (whole || layout.rows[r]!.top < view.bottom + span * OVERSCAN); r++) visible.push(layout.rows[r]!);
  const nearEnd = layout.rows.length > 0 && layout.height - view.bottom < span * (fast ? FLUNG_PREFETCH : PREFETCH);

  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  }, [nearEnd, onNearEnd, items.length]);

  // Tiles get callbacks that stay the same while the page hands new ones on every page of items,
  // so the tiles already on screen do not render again each time a page arrives.
  const handlers = useRef({ onOpen, onToggleSelect });
  useLayoutEffect(() => {
    handlers.current = { onOpen, onToggleSelect };
  });
  const open = useCallback((index: number) => handlers.current.onOpen(index), []);
  const toggle = useCallback((index: number, range: boolean) => handlers.current.onToggleSelect(index, range), []);

  const rubber = useRubberBand(ref, layout, onBand);
  const rendered = visible.flatMap((row) => (row.kind === 'tiles' ? Array.from({ length: row.count }, (_, c) => row.firstIndex + c) : []));
  const keys = useGridKeys({ grid: ref, layout, count: items.length, rendered, onOpen: open, onToggleSelect: toggle });
  useSkipTarget(keys.focusGrid);

  // Thumbnail size changed: keep the photo that was at the top of the window there.
  const anchor = useRef<{ rowHeight: number; index: number } | null>(null);
  const topIndex = layout.rows[Math.min(firstRowAt(layout.rows, view.top), layout.rows.length - 1)]?.firstIndex ?? 0;
  useLayoutEffect(() => {
    const a = anchor.current;
    anchor.current = { rowHeight, index: topIndex };
    if (!a || a.rowHeight === rowHeight || !ref.current || window.scrollY === 0) return;
    const row = layout.rows[rowOfItem(layout.rows, a.index)];
    if (row) window.scrollTo(0, ref.current.getBoundingClientRect().top + window.scrollY + row.top - coveredTop());
    // Only a new size moves the window: the layout and the top item are read, not watched.
  }, [rowHeight]);

  // A scrubber jump: page through the list until an item taken before `before` is loaded, then
  // scroll to its row (to its month's header when it opens the month).
  const [jump, setJump] = useState<{ before: number; label: string } | null>(null);
  useEffect(() => {
    if (!jump || !ref.current) return;
    const times = layout.basis.ts;
    let index = -1;
    for (let k = 0; k < layout.count; k++) {
      const t = times[k];
      if (t !== null && t !== undefined && t < jump.before) {
        index = k;
        break;
      }
    }
    if (index === -1 && hasMore) {
      onNearEnd?.();
      return;
    }
    setJump(null);
    const r = index === -1 ? layout.rows.length - 1 : rowOfItem(layout.rows, index);
    const row = layout.rows[r > 0 && layout.rows[r - 1]!.kind === 'month' && layout.rows[r - 1]!.firstIndex === layout.rows[r]!.firstIndex ? r - 1 : r];
    if (row) window.scrollTo(0, ref.current.getBoundingClientRect().top + window.scrollY + row.top - coveredTop());
  }, [jump, layout, hasMore, onNearEnd]);
  const onJump = useCallback((before: number) => {
    const d = new Date(before - 1);
    setJump({ before, label: monthLabel(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)) });
  }, []);
  const current = layout.basis.ts[topIndex] ?? null;

  const selecting = selected.size > 0;
  const now = new Date();
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return (
    <>
    {groupByDay && years && years.length > 0 && <TimelineScrubber years={years} current={current} onJump={onJump} pending={jump?.label ?? null} />}
    <div
      ref={ref}
      className={['timeline', selecting ? 'timeline--selecting' : '', fast ? 'timeline--flung' : ''].filter(Boolean).join(' ')}
      style={{ height: layout.height, contain: 'size layout style' }}
      role="list"
      aria-label={label}
      {...rubber.handlers}
      {...keys.handlers}
    >
      {rubber.band && <div className="timeline__band" aria-hidden="true" style={rubber.band} />}
      {/* One flat list of keyed elements. Rows as nested arrays would be matched by their position,
          so when the window moved by a row every tile below would be thrown away and made again. */}
      {visible.flatMap((row, r) => {
        if (row.kind === 'month') {
          // Drawn with its first tile when that is in range (below); alone and hidden otherwise.
          if (visible[r + 1]?.kind === 'tiles') return [];
          return [
            <h2 key={row.key} className="timeline__month" aria-hidden="true" style={{ top: row.top, height: row.height }}>
              {monthLabel(row.ts)}
            </h2>,
          ];
        }
        const above = r > 0 ? visible[r - 1] : undefined;
        const month = above?.kind === 'month' ? above : undefined;
        const tileTop = row.top + row.band;
        return Array.from({ length: row.count }, (_, c) => {
          const index = row.firstIndex + c;
          const item = items[index]!;
          const left = row.lefts[c]!;
          const day = row.days.find((d) => d.firstIndex === index);
          const withMonth = month !== undefined && c === 0;
          return (
            <Cell
              key={item.id}
              item={item}
              index={index}
              top={tileTop}
              left={left}
              width={row.widths[c]!}
              height={row.tileHeight}
              selected={selected.has(item.id)}
              selecting={selecting}
              deferImage={fast}
              tabbable={index === keys.tabbable}
              // Headings go in as plain values (the memo holds); placed from the tile's own corner.
              month={withMonth ? { ts: month.ts, top: month.top - tileTop, height: month.height, width: width || 800 } : undefined}
              day={day ? { ts: day.ts, left: day.left - left, width: day.width, height: row.band, headed: day.headed } : undefined}
              today={today}
              onOpen={open}
              onToggleSelect={toggle}
            />
          );
        });
      })}
    </div>
    </>
  );
}
