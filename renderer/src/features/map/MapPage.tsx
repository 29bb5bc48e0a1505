/**
 * Map: where photos were taken, on an offline world map. Points are clustered by zoom level; a
 * click on a cluster zooms in, or, when it is small, lists its photos beside the map. Wheel or the
 * buttons zoom, dragging pans. `?lat=&lon=` (from the viewer's details, or a place's "Show on map")
 * centres on a place. A photo of a place opens at `/map/photos/<id>` (viewer-route.ts).
 * Clusters carry the name of the place most of their photos are in (place-names.ts): on the marker's
 * label and tooltip, and at the head of the list a tap opens ("Lisbon, Portugal · 42 photos"). A tap
 * on a large cluster both zooms in and names it there.
 */
import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Thumbnail } from '../library/Thumbnail';
import { RoutedViewer } from '../library/RoutedViewer';
import { useViewerRoute } from '../library/viewer-route';
import '../library/library.css';
import { clusterPoints, useMapPoints, type Cluster } from './map-api';
import { clusterName, photoCount, usePlaceCells } from './place-names';
import { PLACES_PATH, placePath } from '../places/places-path';
import './map.css';
import { WORLD, countryPaths, project } from './world';

const MAX_ZOOM = 64;
/** A cluster this small (or any at full zoom) opens its list instead of zooming further. */
const LIST_AT = 12;

interface View {
  cx: number;
  cy: number;
  zoom: number;
}

function initialView(params: URLSearchParams): View {
  const lat = Number(params.get('lat'));
  const lon = Number(params.get('lon'));
  if (params.has('lat') && params.has('lon') && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
    const [cx, cy] = project(lon, lat);
    return { cx, cy, zoom: 16 };
  }
  return { cx: WORLD.width / 2, cy: WORLD.height / 2, zoom: 1 };
}

export function MapPage() {
  const [params] = useSearchParams();
  const data = useMapPoints();
  const countries = useMemo(countryPaths, []);
  const [view, setView] = useState<View>(() => initialView(params));
  const [picked, setPicked] = useState<Cluster | null>(null);
  const viewer = useViewerRoute();
  const svg = useRef<SVGSVGElement>(null);
  const drag = useRef<{ x: number; y: number; cx: number; cy: number; moved: boolean } | null>(null);

  const w = WORLD.width / view.zoom;
  const h = WORLD.height / view.zoom;
  const viewBox = `${view.cx - w / 2} ${view.cy - h / 2} ${w} ${h}`;
  // About 28 screen pixels per cluster cell on a ~1000 px wide map.
  const cell = (28 / 1000) * w;
  const clusters = useMemo(() => clusterPoints(data.data?.points ?? [], cell, project), [data.data, cell]);
  // Names are a nicety: the map works (unnamed) while they load or if they fail.
  const cells = usePlaceCells();
  const names = useMemo(() => new Map(clusters.map((c) => [c.key, clusterName(c, cells.data)])), [clusters, cells.data]);
  const pickedName = useMemo(() => (picked ? clusterName(picked, cells.data) : null), [picked, cells.data]);

  const zoomBy = (f: number, at?: [number, number]) =>
    setView((v) => {
      const zoom = Math.min(MAX_ZOOM, Math.max(1, v.zoom * f));
      const [ax, ay] = at ?? [v.cx, v.cy];
      // Keep the point under the pointer where it is.
      return { zoom, cx: ax + (v.cx - ax) * (v.zoom / zoom), cy: ay + (v.cy - ay) * (v.zoom / zoom) };
    });
  const toMap = (clientX: number, clientY: number): [number, number] => {
    const r = svg.current!.getBoundingClientRect();
    return [view.cx - w / 2 + ((clientX - r.left) / r.width) * w, view.cy - h / 2 + ((clientY - r.top) / r.height) * h];
  };
  const total = data.data?.total ?? 0;
  return (
    <>
      <PageHeader title="Map">
        {data.isSuccess && total > 0 && (
          <p>
            {total === 1 ? '1 photo with a location.' : `${total.toLocaleString()} photos with a location.`} <Link to={PLACES_PATH}>See them by place</Link>
          </p>
        )}
      </PageHeader>
      {data.isPending && <p role="status">Loading the map…</p>}
      {data.isError && <p className="field__error">{messageOf(data.error)}</p>}
      {data.isSuccess && total === 0 && (
        <EmptyState icon="map" title="Nothing on the map yet">
          <p>Photos that know where they were taken (GPS in their metadata) appear here.</p>
        </EmptyState>
      )}
      <div className="map">
        <div className="map__frame">
          <svg
            ref={svg}
            className="map__svg"
            viewBox={viewBox}
            // A group, not an img: it holds the places, which are buttons (an img's children are hidden).
            role="group"
            aria-label={`World map with ${clusters.length} places`}
            onWheel={(e) => zoomBy(e.deltaY < 0 ? 1.25 : 0.8, toMap(e.clientX, e.clientY))}
            onPointerDown={(e) => {
              drag.current = { x: e.clientX, y: e.clientY, cx: view.cx, cy: view.cy, moved: false };
            }}
            onPointerMove={(e) => {
              const d = drag.current;
              if (!d) return;
              const r = svg.current!.getBoundingClientRect();
              const dx = ((e.clientX - d.x) / r.width) * w;
              const dy = ((e.clientY - d.y) / r.height) * h;
              // Captured only once it is a drag, so that a plain click still reaches a cluster.
              if (!d.moved && Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 3) {
                d.moved = true;
                (e.currentTarget as Element).setPointerCapture(e.pointerId);
              }
              setView((v) => ({ ...v, cx: d.cx - dx, cy: d.cy - dy }));
            }}
            onPointerUp={() => setTimeout(() => (drag.current = null), 0)}
          >
            <rect className="map__sea" x={-WORLD.width} y={-WORLD.height} width={WORLD.width * 3} height={WORLD.height * 3} />
            <g className="map__land">
              {countries.map((c) => (
                <path key={c.id} d={c.d} vectorEffect="non-scaling-stroke" />
              ))}
            </g>
            <g className="map__points">
              {clusters.map((c) => {
                const r = (Math.min(14, 5 + Math.log2(c.points.length) * 2) / 1000) * w;
                const name = names.get(c.key)?.label;
                const said = name ? `${name} · ${photoCount(c.points.length)}` : c.points.length === 1 ? c.points[0]!.original_filename : `${c.points.length} photos here`;
                return (
                  <g
                    key={c.key}
                    className="map__cluster"
                    role="button"
                    tabIndex={0}
                    aria-label={said}
                    onClick={() => {
                      if (drag.current?.moved) return;
                      setPicked(c);
                      if (c.points.length > LIST_AT && view.zoom < MAX_ZOOM) setView((v) => ({ zoom: Math.min(MAX_ZOOM, v.zoom * 3), cx: c.x, cy: c.y }));
                    }}
                    onKeyDown={(e) => e.key === 'Enter' && setPicked(c)}
                  >
                    <title>{said}</title>
                    <circle cx={c.x} cy={c.y} r={r} />
                    {c.points.length > 1 && (
                      <text x={c.x} y={c.y} fontSize={r * 1.1} textAnchor="middle" dominantBaseline="central">
                        {c.points.length}
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          </svg>
          <div className="map__zoom">
            <Button variant="secondary" aria-label="Zoom in" onClick={() => zoomBy(2)}>
              +
            </Button>
            <Button variant="secondary" aria-label="Zoom out" onClick={() => zoomBy(0.5)}>
              −
            </Button>
          </div>
        </div>
        {picked && (
          <aside className="map__panel" aria-label="Photos at this place">
            <div className="map__panel-head">
              <strong className="map__panel-title">{pickedName?.label ? `${pickedName.label} · ${photoCount(picked.points.length)}` : photoCount(picked.points.length)}</strong>
              {pickedName?.placeId && (
                <Link to={placePath(pickedName.placeId)} className="button button--quiet">
                  Open place
                </Link>
              )}
              <button type="button" className="button button--quiet" onClick={() => setPicked(null)}>
                Close
              </button>
            </div>
            <ul className="map__thumbs">
              {picked.points.slice(0, 60).map((p) => (
                <li key={p.asset_id}>
                  <button type="button" className="tile" aria-label={p.original_filename} onClick={() => viewer.open(p.asset_id)}>
                    <Thumbnail assetId={p.asset_id} size="small" alt="" className="tile__image" fallback={<span className="tile__placeholder" />} />
                  </button>
                </li>
              ))}
            </ul>
          </aside>
        )}
      </div>
      {/* The place's photos are not a kept list: the viewer shows the one picked, on its own. */}
      <RoutedViewer items={[]} />
    </>
  );
}
