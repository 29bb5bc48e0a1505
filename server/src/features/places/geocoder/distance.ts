/** Great-circle distance on a spherical Earth (haversine): good to ~0.5 %, plenty for "which town". */
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Kilometres per degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = EARTH_RADIUS_KM * RAD;
