/**
 * A small map of where an event's photos were taken: the world outline of the Map screen (map/world.ts,
 * offline) framed on the event's geotagged photos. Photos close together on the map share one dot with
 * their count (a day in one town is one dot, not a pile of them hiding each other); a dot opens its
 * first photo in the viewer, which then steps through the event. The map itself does not pan or zoom
 * (the Map screen is there for exploring).
 * Nothing is drawn when no photo of the event has a position.
 */
import { useMemo } from 'react';
import { countryPaths, project, WORLD } from '../../lib/world';
// The map's canvas styles, which come with its public surface.
import '../map';
import type { GalleryItem } from '../../photos/library-api';
import { CELLS_ACROSS, frameOf, groupDots, type Dot } from './map-frame';

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
  const f = useMemo(() => (dots.length > 0 ? frameOf(dots, WORLD) : null), [dots]);
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
