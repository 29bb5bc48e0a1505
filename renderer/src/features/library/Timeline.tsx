/**
 * The virtualised photo grid: items grouped by day (or not), laid out in rows of square tiles, and
 * only the rows near the viewport in the page. The page itself scrolls (the window), so the grid
 * measures its own offset and the window's scroll position. When the last loaded rows come near,
 * `onNearEnd` asks for the next page.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { GalleryItem } from './library-api';
import { PhotoTile } from './PhotoTile';
import { firstRowAt, layoutTimeline } from './timeline-layout';

interface TimelineProps {
  items: readonly GalleryItem[];
  groupByDay: boolean;
  label: string;
  onOpen: (index: number) => void;
  selected: ReadonlySet<string>;
  onToggleSelect: (index: number, range: boolean) => void;
  onNearEnd?: (() => void) | undefined;
}

const GAP = 4;
const HEADER = 44;
/** Rows drawn above and below the viewport, in viewport heights. */
const OVERSCAN = 1;

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

function useViewport(ref: React.RefObject<HTMLElement | null>) {
  const [view, setView] = useState({ top: 0, bottom: typeof window === 'undefined' ? 1000 : window.innerHeight });
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const offset = el.getBoundingClientRect().top; // grid top relative to the viewport
      setView((v) => {
        const next = { top: -offset, bottom: -offset + window.innerHeight };
        return Math.abs(next.top - v.top) < 8 && Math.abs(next.bottom - v.bottom) < 8 ? v : next;
      });
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

export function Timeline({ items, groupByDay, label, onOpen, selected, onToggleSelect, onNearEnd }: TimelineProps) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const view = useViewport(ref);
  const minTile = width < 600 ? Math.max(90, (width - 2 * GAP) / 3 - 1) : 150;
  const layout = useMemo(
    () => layoutTimeline(items.map((i) => ({ id: i.id, ts: i.best_ts_ms })), { width: width || 800, minTile, gap: GAP, headerHeight: HEADER, groupByDay }),
    [items, width, minTile, groupByDay],
  );
  const span = view.bottom - view.top;
  const from = firstRowAt(layout.rows, view.top - span * OVERSCAN);
  const visible = [];
  for (let r = from; r < layout.rows.length && layout.rows[r]!.top < view.bottom + span * OVERSCAN; r++) visible.push(layout.rows[r]!);
  const lastVisible = visible.at(-1);
  const nearEnd = !!lastVisible && lastVisible.firstIndex + lastVisible.count >= items.length - layout.columns * 4;

  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  }, [nearEnd, onNearEnd, items.length]);

  const selecting = selected.size > 0;
  return (
    <div ref={ref} className="timeline" style={{ height: layout.height }} role="list" aria-label={label}>
      {visible.map((row) =>
        row.kind === 'header' ? (
          <h2 key={row.key} className="timeline__day" style={{ top: row.top, height: row.height }}>
            {row.label}
          </h2>
        ) : (
          Array.from({ length: row.count }, (_, c) => {
            const index = row.firstIndex + c;
            const item = items[index]!;
            return (
              <PhotoTile
                key={item.id}
                item={item}
                selected={selected.has(item.id)}
                selecting={selecting}
                onOpen={() => onOpen(index)}
                onToggleSelect={(range) => onToggleSelect(index, range)}
                style={{ position: 'absolute', top: row.top, left: c * (layout.tile + GAP), width: layout.tile, height: layout.tile }}
              />
            );
          })
        ),
      )}
    </div>
  );
}
