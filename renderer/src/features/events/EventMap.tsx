/**
 * A small map of where an event's photos were taken: the world outline of the Map screen (map/world.ts,
 * offline) framed on the event's geotagged photos, one dot per photo. A dot opens its photo in the
 * viewer; the map itself does not pan or zoom (the Map screen is there for exploring).
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
  if (dots.length === 0) return null;
  const f = frameOf(dots);
  const r = f.w / 90;

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
          {dots.map((d) => (
            <g
              key={d.assetId}
              className="map__cluster"
              role="button"
              tabIndex={0}
              aria-label={`Open ${d.name}`}
              onClick={() => onOpen(d.assetId)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onOpen(d.assetId)}
            >
              <circle cx={d.x} cy={d.y} r={r} />
            </g>
          ))}
        </g>
      </svg>
    </section>
  );
}
