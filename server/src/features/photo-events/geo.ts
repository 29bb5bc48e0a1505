/** Distances and centroids for events (plain spherical geometry); geohashes are the places feature's. */

const EARTH_RADIUS_KM = 6371.0088;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The spherical mean of points (mean of their unit vectors): right across the antimeridian too. Null for none. */
export function sphericalMean(points: readonly LatLon[]): LatLon | null {
  if (points.length === 0) return null;
  let x = 0;
  let y = 0;
  let z = 0;
  for (const p of points) {
    const la = rad(p.lat);
    const lo = rad(p.lon);
    x += Math.cos(la) * Math.cos(lo);
    y += Math.cos(la) * Math.sin(lo);
    z += Math.sin(la);
  }
  const n = Math.hypot(x, y, z);
  // Antipodal points cancel out: the first one stands for them.
  if (n < 1e-12) return { lat: points[0]!.lat, lon: points[0]!.lon };
  return { lat: deg(Math.asin(z / n)), lon: deg(Math.atan2(y, x)) };
}

/** The standard geohash (features/places: the cells assets are stored and named by). */
export { geohash } from '../places/index.ts';
