/**
 * A small offline map to pick where a photo was taken with a click or a tap (the viewer's "Edit place",
 * CaptureEdits.tsx): the map page's country outlines (lib/world.ts, no tile server), zoomed with
 * buttons (a tap must stay a tap on a phone: no drag, no pinch here), centred on the photo's place or the
 * last pick. The pick is shown as a pin and given to `onPick`; saving is the caller's.
 */
import { useMemo, useRef, useState } from 'react';
import { Button } from '../components/Button';
import { WORLD, countryPaths, project, unproject } from '../lib/world';

const MAX_ZOOM = 512;

interface Props {
  latitude: number | null;
  longitude: number | null;
  onPick: (lat: number, lon: number) => void;
}

export function PlacePicker({ latitude, longitude, onPick }: Props) {
  const countries = useMemo(() => countryPaths(), []);
  const svg = useRef<SVGSVGElement>(null);
  const pin = latitude !== null && longitude !== null ? project(longitude, latitude) : null;
  const [view, setView] = useState(() => ({ cx: pin?.[0] ?? WORLD.width / 2, cy: pin?.[1] ?? WORLD.height / 2, zoom: pin ? 16 : 1 }));
  const w = WORLD.width / view.zoom;
  const h = WORLD.height / view.zoom;
  const zoom = (factor: number) => setView((v) => ({ ...v, zoom: Math.min(MAX_ZOOM, Math.max(1, v.zoom * factor)) }));

  return (
    <div className="place-picker">
      <svg
        ref={svg}
        className="place-picker__map"
        viewBox={`${view.cx - w / 2} ${view.cy - h / 2} ${w} ${h}`}
        role="img"
        aria-label="Map: click or tap where it was taken"
        onClick={(e) => {
          const r = svg.current!.getBoundingClientRect();
          const x = view.cx - w / 2 + ((e.clientX - r.left) / r.width) * w;
          const y = view.cy - h / 2 + ((e.clientY - r.top) / r.height) * h;
          const [lon, lat] = unproject(x, y);
          if (lat < -90 || lat > 90) return;
          // Longitudes past the edge wrap around the world.
          const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
          setView((v) => ({ ...v, cx: x, cy: y }));
          onPick(Math.round(lat * 1e5) / 1e5, Math.round(wrapped * 1e5) / 1e5);
        }}
      >
        <rect className="map__sea" x={-WORLD.width} y={-WORLD.height} width={WORLD.width * 3} height={WORLD.height * 3} />
        <g className="map__land">
          {countries.map((c) => (
            <path key={c.id} d={c.d} vectorEffect="non-scaling-stroke" />
          ))}
        </g>
        {pin && <circle className="place-picker__pin" cx={pin[0]} cy={pin[1]} r={4 / view.zoom} vectorEffect="non-scaling-stroke" />}
      </svg>
      <div className="place-picker__zoom">
        <Button variant="secondary" aria-label="Zoom in" disabled={view.zoom >= MAX_ZOOM} onClick={() => zoom(4)}>
          +
        </Button>
        <Button variant="secondary" aria-label="Zoom out" disabled={view.zoom <= 1} onClick={() => zoom(0.25)}>
          −
        </Button>
      </div>
    </div>
  );
}
