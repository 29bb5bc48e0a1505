/**
 * The virtualised photo grid: items grouped by day (or not), laid out in rows of square tiles, and
 * only the rows near the viewport in the page. The page itself scrolls (the window), so the grid
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
 * - during a fling, tiles ask for no thumbnail and take no hover (use-fast-scroll.ts);
 * - CSS containment on the grid and on every tile: a tile coming or going lays out and restyles
 *   itself only; "something is selected" is a class on the grid, not a `:has()` rule.
 *
 * Selecting: a click on a tile's box, shift-click for a range, a rubber band dragged with the mouse
 * (use-rubber-band.ts), a long press on touch (PhotoTile.tsx); then taps and clicks add and remove.
 * Keyboard: one Tab stop, arrows, Home/End, Enter opens, Space selects (use-grid-keys.ts); the
 * frame's "Skip to photos" link lands on it (components/Layout/skip-target.ts).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { GalleryItem } from './library-api';
import { PhotoTile } from './PhotoTile';
import { useSkipTarget } from '../../components/Layout/skip-target';
import { useFastScroll } from './use-fast-scroll';
import { useGridKeys } from './use-grid-keys';
import { useRubberBand } from './use-rubber-band';
import { dayLabel, firstRowAt, layoutTimeline, type TimelineLayout, type TimelineRow } from './timeline-layout';
import { GALLERY_ENTRY } from './timeline-entry';

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
}

const GAP = 4;
const HEADER = 44;
/** Rows drawn above and below the viewport, in viewport heights. */
const OVERSCAN = 0.5;
/** The next page is asked for while less than this many viewport heights are loaded below the viewport. */
const PREFETCH = 3;

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

/**
 * The part of the grid in the window, in grid coordinates. Its top moves in steps of an eighth of the
 * window (the overscan covers the difference), so that a scroll renders the grid a few times per
 * screenful rather than in every frame.
 */
function useViewport(ref: React.RefObject<HTMLElement | null>) {
  const [view, setView] = useState({ top: 0, bottom: typeof window === 'undefined' ? 1000 : window.innerHeight });
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const h = window.innerHeight;
      const step = Math.max(40, Math.round(h / 8));
      const top = Math.floor(-el.getBoundingClientRect().top / step) * step; // grid top relative to the viewport
      setView((v) => (v.top === top && v.bottom === top + h + step ? v : { top, bottom: top + h + step }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return view;
}

interface CellProps {
  item: GalleryItem;
  index: number;
  top: number;
  left: number;
  size: number;
  selected: boolean;
  selecting: boolean;
  deferImage: boolean;
  tabbable: boolean;
  /** The day's heading, drawn above this tile (the first of its day): its text and height. */
  day?: { label: string; height: number; width: number } | undefined;
  onOpen: (index: number) => void;
  onToggleSelect: (index: number, range: boolean) => void;
}

/**
 * One tile at its place. Memoised on plain values: while scrolling, only the tiles that come into
 * range render; the ones already on screen are left alone.
 */
const Cell = memo(function Cell({ item, index, top, left, size, selected, selecting, deferImage, tabbable, day, onOpen, onToggleSelect }: CellProps) {
  return (
    <PhotoTile
      item={item}
      before={
        day && (
          <h2 className="timeline__day" style={{ top: -day.height, left: -left, right: 'auto', width: day.width, height: day.height }}>
            {day.label}
          </h2>
        )
      }
      gridIndex={index}
      tabbable={tabbable}
      selected={selected}
      selecting={selecting}
      deferImage={deferImage}
      onOpen={() => onOpen(index)}
      onToggleSelect={(range) => onToggleSelect(index, range)}
      style={{ position: 'absolute', top, left, width: size, height: size, contain: 'size layout style' }}
    />
  );
});

export function Timeline({ items, groupByDay, label, onOpen, selected, onToggleSelect, onBand, onNearEnd }: TimelineProps) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const view = useViewport(ref);
  const fast = useFastScroll();
  const minTile = width < 600 ? Math.max(90, (width - 2 * GAP) / 3 - 1) : 150;
  // The previous layout is continued when a page was appended (see layoutTimeline).
  const previous = useRef<TimelineLayout | undefined>(undefined);
  const layout = useMemo(
    () => layoutTimeline(items, { width: width || 800, minTile, gap: GAP, headerHeight: HEADER, groupByDay }, previous.current, GALLERY_ENTRY),
    [items, width, minTile, groupByDay],
  );
  useEffect(() => {
    previous.current = layout;
  }, [layout]);
  const span = view.bottom - view.top;
  const from = firstRowAt(layout.rows, view.top - span * OVERSCAN);
  const visible: TimelineRow[] = [];
  for (let r = from; r < layout.rows.length && layout.rows[r]!.top < view.bottom + span * OVERSCAN; r++) visible.push(layout.rows[r]!);
  const nearEnd = layout.rows.length > 0 && layout.height - view.bottom < span * PREFETCH;

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

  const rubber = useRubberBand(ref, layout, GAP, onBand);
  const rendered = visible.flatMap((row) => (row.kind === 'tiles' ? Array.from({ length: row.count }, (_, c) => row.firstIndex + c) : []));
  const keys = useGridKeys({ grid: ref, layout, count: items.length, rendered, onOpen: open, onToggleSelect: toggle });
  useSkipTarget(keys.focusGrid);

  const selecting = selected.size > 0;
  const now = new Date();
  return (
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
      {/* A day's heading is drawn inside its first tile's list item: a list may only hold list
          items (axe: aria-required-children), and so the heading is read just before that day's
          photos. A heading whose first row is out of range is drawn alone, hidden from assistive
          technology (its photos are not in the page either). */}
      {visible.flatMap((row, r) => {
        if (row.kind === 'header') {
          if (visible[r + 1]?.kind === 'tiles') return [];
          return [
            <h2 key={row.key} className="timeline__day" aria-hidden="true" style={{ top: row.top, height: row.height }}>
              {dayLabel(row.ts, now)}
            </h2>,
          ];
        }
        const header = r > 0 && visible[r - 1]!.kind === 'header' ? visible[r - 1]! : undefined;
        return Array.from({ length: row.count }, (_, c) => {
          const index = row.firstIndex + c;
          const item = items[index]!;
          return (
            <Cell
              key={item.id}
              item={item}
              index={index}
              top={row.top}
              left={c * (layout.tile + GAP)}
              size={layout.tile}
              selected={selected.has(item.id)}
              selecting={selecting}
              deferImage={fast}
              tabbable={index === keys.tabbable}
              day={header && c === 0 ? { label: dayLabel(header.kind === 'header' ? header.ts : null, now), height: row.top - header.top, width: width || 800 } : undefined}
              onOpen={open}
              onToggleSelect={toggle}
            />
          );
        });
      })}
    </div>
  );
}
