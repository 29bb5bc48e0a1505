/**
 * The map's base layer, offline: country outlines from the `world-atlas` package (Natural Earth,
 * public domain) bundled with the app, drawn in an equirectangular projection. No tile server is
 * contacted, so the map works on a LAN without internet.
 *
 * Two levels of detail: 1:110m is in the page's own script and always drawn; 1:50m (a separate
 * chunk, loaded the first time the map is zoomed in past DETAIL_ZOOM) is drawn over it. Past the
 * finest level the map overzooms it (vector outlines stay sharp); while the finer level loads, or if
 * it cannot, the coarser one is still there: a zoomed-in view is never empty.
 */
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';

/** Map units: longitude -180..180 → x 0..360, latitude 90..-90 → y 0..180. */
export const WORLD = { width: 360, height: 180 };
export const project = (lon: number, lat: number): [number, number] => [lon + 180, 90 - lat];
export const unproject = (x: number, y: number): [number, number] => [x - 180, 90 - y];

type Ring = number[][];

function ringPath(ring: Ring): string {
  let d = '';
  let prevLon: number | null = null;
  for (const [lon, lat] of ring) {
    const [x, y] = project(lon!, lat!);
    // A jump across the antimeridian starts a new sub-path instead of a line across the world.
    d += (prevLon === null || Math.abs(lon! - prevLon) > 180 ? 'M' : 'L') + x.toFixed(2) + ' ' + y.toFixed(2);
    prevLon = lon!;
  }
  return `${d}Z`;
}

/** From this zoom on, the 1:50m outlines are drawn (at 1:110m a coast is off by tens of km). */
export const DETAIL_ZOOM = 4;

export type CountryPath = { id: string; d: string };

/** One SVG path per country, at 1:110m. */
export function countryPaths(): CountryPath[] {
  return pathsOf(countries110m);
}

/** One SVG path per country at 1:50m (loaded on first use). */
export async function detailedCountryPaths(): Promise<CountryPath[]> {
  const { default: countries50m } = await import('world-atlas/countries-50m.json');
  return pathsOf(countries50m);
}

function pathsOf(json: unknown): CountryPath[] {
  const topo = json as Topology<{ countries: GeometryCollection }>;
  const fc = feature(topo, topo.objects.countries);
  return fc.features.map((f, i) => {
    const g = f.geometry;
    const polys: Ring[][] = g.type === 'Polygon' ? [g.coordinates as Ring[]] : g.type === 'MultiPolygon' ? (g.coordinates as Ring[][]) : [];
    return { id: String(f.id ?? i), d: polys.flatMap((p) => p.map(ringPath)).join('') };
  });
}
