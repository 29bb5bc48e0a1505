/**
 * A small map of where an event's photos were taken: the world outline of the Map screen (map/world.ts,
 * offline) framed on the event's geotagged photos. Photos close together on the map share one dot with
 * their count (a day in one town is one dot, not a pile of them hiding each other); a dot opens its
 * first photo in the viewer, which then steps through the event. The map itself does not pan or zoom
 * (the Map screen is there for exploring).
 * Nothing is drawn when no photo of the event has a position.
 */
import { useMemo } from 'react';
import { countryPaths, project, WORLD } from '../map/world';
import '../map/map.css';
import type { GalleryItem } from '../library/library-api';

interface Dot {
  assetId: string;
  name: string;
  x: number;
  y: number;
}

/** At least this many map units (degrees) wide, so one spot still shows the land around it. */
const MIN_SPAN = 1.2;

/** The map's frame (viewBox) around the dots, 2:1 like the world, with a margin. */
export function frameOf(dots: readonly { x: number; y: number }[]): { x: number; y: number; w: number; h: number } {
  const xs = dots.map((d) => d.x);
  const ys = dots.map((d) => d.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let w = Math.max(MIN_SPAN, (x1 - x0) * 1.4);
  let h = Math.max(MIN_SPAN / 2, (y1 - y0) * 1.4);
  if (w < h * 2) w = h * 2;
  else h = w / 2;
  w = Math.min(w, WORLD.width);
  h = Math.min(h, WORLD.height);
  return { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h };
}

/** Dots per frame width that stay apart; closer ones share a dot. */
const CELLS_ACROSS = 30;

/** Dots in square cells of `cell` map units, each group at the mean of its dots, in the event's order. */
export function groupDots(dots: readonly Dot[], cell: number): { x: number; y: number; dots: Dot[] }[] {
  const cells = new Map<string, { x: number; y: number; dots: Dot[] }>();
  for (const d of dots) {
    const key = `${Math.floor(d.x / cell)}:${Math.floor(d.y / cell)}`;
    let g = cells.get(key);
    if (!g) cells.set(key, (g = { x: 0, y: 0, dots: [] }));
    g.dots.push(d);
    g.x += d.x;
    g.y += d.y;
  }
  return [...cells.values()].map((g) => ({ ...g, x: g.x / g.dots.length, y: g.y / g.dots.length }));
}

export function EventMap({ items, onOpen }: { items: readonly GalleryItem[]; onOpen: (assetId: string) => void }) {
  const dots = useMemo<Dot[]>(
    () =>
      items.flatMap((i) => {
        const a = i.media_item.primary_asset;
        if (a.gps_latitude === null || a.gps_longitude === null) return [];
        const [x, y] = project(a.gps_longitude, a.gps_latitude);
        return [{ assetId: a.asset_id, name: a.original_filename, x, y }];
      }),
    [items],
  );
  const countries = useMemo(() => (dots.length > 0 ? countryPaths() : []), [dots.length]);
  const f = useMemo(() => (dots.length > 0 ? frameOf(dots) : null), [dots]);
  const groups = useMemo(() => (f ? groupDots(dots, f.w / CELLS_ACROSS) : []), [dots, f]);
  if (!f) return null;

  return (
    <section className="event-map" aria-label="Where the photos were taken">
      <h2 className="event-section__title">Map</h2>
      <svg className="event-map__svg map__svg" viewBox={`${f.x} ${f.y} ${f.w} ${f.h}`} role="group" aria-label={dots.length === 1 ? '1 photo on the map' : `${dots.length} photos on the map`}>
        <rect className="map__sea" x={-WORLD.width} y={-WORLD.height} width={WORLD.width * 3} height={WORLD.height * 3} />
        <g className="map__land">
          {countries.map((c) => (
            <path key={c.id} d={c.d} vectorEffect="non-scaling-stroke" />
          ))}
        </g>
        <g className="map__points">
          {groups.map((g) => {
            const first = g.dots[0]!;
            const n = g.dots.length;
            const r = (f.w / 1000) * Math.min(28, 12 + Math.log2(n) * 4);
            return (
              <g
                key={first.assetId}
                className="map__cluster"
                role="button"
                tabIndex={0}
                aria-label={n === 1 ? `Open ${first.name}` : `${n} photos here, open ${first.name}`}
                onClick={() => onOpen(first.assetId)}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onOpen(first.assetId)}
              >
                <circle cx={g.x} cy={g.y} r={r} />
                {n > 1 && (
                  <text x={g.x} y={g.y} fontSize={r * 1.1} textAnchor="middle" dominantBaseline="central">
                    {n}
                  </text>
                )}
              </g>
            );
          })}
        </g>
      </svg>
    </section>
  );
}
