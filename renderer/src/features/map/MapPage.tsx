/**
 * Map: where photos were taken, on an offline world map. Points are clustered by zoom level; a
 * click on a cluster zooms in, or, when it is small, lists its photos beside the map. Wheel or the
 * buttons zoom, dragging pans. `?lat=&lon=` (from the viewer's details, or a place's "Show on map")
 * centres on a place. A photo of a place opens at `/map/photos/<id>` (viewer-route.ts).
 * Clusters carry the name of the place most of their photos are in (place-names.ts): on the marker's
 * label and tooltip, and at the head of the list a tap opens ("Lisbon, Portugal · 42 photos"). A tap
 * on a large cluster both zooms in and names it there.
 *
 * Sizes are in screen pixels, whatever the frame's size: on a phone the map fills the screen below
 * the header (map.css), a marker's hit area is at least 44 px across (a finger) and its dot larger on
 * touch-only devices, and zoomed in
 * the finer outlines (world.ts) are drawn over the coarse ones, which stay as the floor.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Thumbnail } from '../../photos/Thumbnail';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { useViewerRoute } from '../../photos/viewer-route';
import '../../photos/library.css';
import { clusterPoints, useMapPoints, type Cluster } from './map-api';
import { clusterName, photoCount, usePlaceCells } from './place-names';
import { PLACES_PATH, placePath } from '../places';
import './map.css';
import { TOUCH_ONLY, useMediaQuery } from '../../lib/use-media-query';
import { useElementSize } from '../../lib/use-element-size';
import { DETAIL_ZOOM, WORLD, countryPaths, detailedCountryPaths, project, type CountryPath } from '../../lib/world';

const MAX_ZOOM = 64;
/** A cluster this small (or any at full zoom) opens its list instead of zooming further. */
const LIST_AT = 12;
/** Half of the smallest hit area a finger needs (44 px across). */
const HIT_RADIUS_PX = 22;

/** The frame's size before it is first measured (the map's aspect follows the frame: a tall phone shows a tall map). */
const UNMEASURED_FRAME = { width: 1000, height: 500 };

/** The 1:50m outlines once the map has been zoomed in that far (null until then, or if they cannot load). */
function useDetailedCountries(wanted: boolean): CountryPath[] | null {
  const [paths, setPaths] = useState<CountryPath[] | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (!wanted || asked.current) return;
    asked.current = true;
    detailedCountryPaths().then(setPaths, () => {
      // The coarse outlines stay: an offline chunk that fails to load leaves the map as it was.
    });
  }, [wanted]);
  return paths;
}

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

  const frame = useElementSize(svg) ?? UNMEASURED_FRAME;
  const touchOnly = useMediaQuery(TOUCH_ONLY);
  const detailed = useDetailedCountries(view.zoom >= DETAIL_ZOOM);
  // A zoom shows as many map units per pixel on a phone as on a 1000 px desktop map: a narrow frame
  // shows less of the world rather than the same world in smaller print (so a place opened on the
  // map, at zoom 16, is as legible, and its clusters the same, on both).
  const w = (WORLD.width / view.zoom) * Math.min(1, frame.width / 1000);
  const h = w * (frame.height / frame.width);
  const viewBox = `${view.cx - w / 2} ${view.cy - h / 2} ${w} ${h}`;
  /** Map units per screen pixel. */
  const unit = w / frame.width;
  // Clusters gather what is within about 28 screen pixels.
  const cell = 28 * unit;
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
            <g className="map__land" data-detail="110m">
              {countries.map((c) => (
                <path key={c.id} d={c.d} vectorEffect="non-scaling-stroke" />
              ))}
            </g>
            {detailed && view.zoom >= DETAIL_ZOOM && (
              <g className="map__land" data-detail="50m">
                {detailed.map((c) => (
                  <path key={c.id} d={c.d} vectorEffect="non-scaling-stroke" />
                ))}
              </g>
            )}
            <g className="map__points">
              {clusters.map((c) => {
                const r = (touchOnly ? Math.min(18, 9 + Math.log2(c.points.length) * 2) : Math.min(14, 5 + Math.log2(c.points.length) * 2)) * unit;
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
                    {/* What a finger or a pointer hits: at least 44 px across, however small the dot. */}
                    <circle className="map__hit" cx={c.x} cy={c.y} r={Math.max(r, HIT_RADIUS_PX * unit)} />
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
