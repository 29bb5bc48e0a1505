/**
 * The month/year scrubber on the right edge of the timeline (as in Google Photos and Immich): the
 * years down its length (scrubber-scale.ts, fed by getStatsYears), a handle where the window is,
 * and a label with month and year where the pointer is. Clicking or dragging (mouse, pen or a finger
 * on the handle) jumps there when let go; a year's button jumps to the start of that year (its
 * newest photos, the timeline running newest first). The keyboard moves it too: arrows by a month,
 * Page Up / Page Down by a year.
 *
 * The jump itself is the grid's (Timeline.tsx): it pages through the list until the month's first
 * photo is loaded, then scrolls to it.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { utcFormat } from '../lib/capture-time';
import { endOfMonth, fractionOf, monthAt, yearSpans, type YearCount } from './scrubber-scale';

interface ScrubberProps {
  years: readonly YearCount[];
  /** The wall clock of the photo at the top of the window (null: undated, or nothing yet). */
  current: number | null;
  /** Show the photos taken before `before` (a wall clock), from the newest of them. */
  onJump: (before: number) => void;
  /** Where a jump is going while pages load (a label), or null. */
  pending: string | null;
}

/** Year labels closer than this (px) to the one above are left out, so they never overlap. */
const LABEL_SPACING = 18;

const monthYear = (year: number, month: number) => utcFormat(undefined, { month: 'long', year: 'numeric' }).format(Date.UTC(year, month, 15));

export function TimelineScrubber({ years, current, onJump, pending }: ScrubberProps) {
  const spans = useMemo(() => yearSpans(years), [years]);
  const bar = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const drag = useRef<number | null>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    setHeight(el.getBoundingClientRect().height);
    const ro = new ResizeObserver(([e]) => setHeight(e!.contentRect.height));
    ro.observe(el);
    return () => ro.disconnect();
  }, [spans.length]);

  if (!spans.length) return null;
  const position = fractionOf(spans, current);
  const at = (clientY: number) => {
    const r = bar.current!.getBoundingClientRect();
    if (r.height !== height) setHeight(r.height);
    return r.height > 0 ? (clientY - r.top) / r.height : 0;
  };
  const jumpTo = (f: number) => {
    const m = monthAt(spans, f);
    if (m) onJump(endOfMonth(m.year, m.month));
  };
  const shown = hover ?? null;
  const label = shown !== null ? monthAt(spans, shown) : null;
  const now = monthAt(spans, position);
  const step = (months: number) => {
    const m = now ?? { year: spans[0]!.year, month: 11 };
    const total = m.year * 12 + m.month + months;
    onJump(endOfMonth(Math.floor(total / 12), ((total % 12) + 12) % 12));
  };

  // Year labels: at the top of each year's span, unless too close to the previous one shown.
  let last = -Infinity;
  const h = height || 600;
  const labels = spans.filter((s) => {
    const y = s.from * h;
    if (y - last < LABEL_SPACING) return false;
    last = y;
    return true;
  });

  return (
    <nav className={['scrubber', drag.current !== null || hover !== null ? 'scrubber--active' : ''].filter(Boolean).join(' ')} aria-label="Timeline dates">
      <div
        ref={bar}
        className="scrubber__bar"
        role="slider"
        tabIndex={0}
        aria-label="Jump to a month"
        aria-orientation="vertical"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position * 100)}
        aria-valuetext={now ? monthYear(now.year, now.month) : undefined}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.preventDefault();
          // On the element pressed: on phones that is the handle (the bar itself lets touches through).
          (e.target as Element).setPointerCapture(e.pointerId);
          drag.current = e.pointerId;
          setHover(at(e.clientY));
        }}
        onPointerMove={(e) => {
          if (drag.current === null && e.pointerType !== 'mouse') return;
          setHover(at(e.clientY));
        }}
        onPointerUp={(e) => {
          if (drag.current !== e.pointerId) return;
          drag.current = null;
          jumpTo(at(e.clientY));
          if (e.pointerType !== 'mouse') setHover(null);
        }}
        onPointerCancel={() => {
          drag.current = null;
          setHover(null);
        }}
        onPointerLeave={(e) => {
          if (drag.current === null && e.pointerType === 'mouse') setHover(null);
        }}
        onKeyDown={(e) => {
          const by = { ArrowUp: 1, ArrowDown: -1, PageUp: 12, PageDown: -12 }[e.key];
          if (by === undefined) return;
          e.preventDefault();
          step(by);
        }}
      >
        <span className="scrubber__handle" style={{ top: `${position * 100}%` }} aria-hidden="true" />
        {label && shown !== null && (
          <span className="scrubber__label" style={{ top: `${shown * 100}%` }} aria-hidden="true">
            {monthYear(label.year, label.month)}
          </span>
        )}
      </div>
      {labels.map((s) => (
        <button
          key={s.year}
          type="button"
          className="scrubber__year"
          style={{ top: `${s.from * 100}%` }}
          aria-label={`Jump to ${s.year}`}
          onClick={() => onJump(Date.UTC(s.year + 1, 0, 1))}
        >
          {s.year}
        </button>
      ))}
      {pending && (
        <span className="scrubber__pending" role="status">
          Loading {pending}…
        </span>
      )}
    </nav>
  );
}
