/**
 * Geohashes (base-32, longitude bit first), stored on assets at precision 5 (~4.9 × 4.9 km: a town)
 * and 7 (~153 × 153 m: a street corner) as the reference does; clusters group by precision 7.
 */
import { isGeocodable } from './geocoder/reverse-geocoder.ts';

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

export function geohash(lat: number, lon: number, precision: number): string {
  let latLo = -90;
  let latHi = 90;
  let lonLo = -180;
  let lonHi = 180;
  let out = '';
  let bits = 0;
  let ch = 0;
  let even = true;
  while (out.length < precision) {
    if (even) {
      const mid = (lonLo + lonHi) / 2;
      if (lon >= mid) {
        ch = (ch << 1) | 1;
        lonLo = mid;
      } else {
        ch <<= 1;
        lonHi = mid;
      }
    } else {
      const mid = (latLo + latHi) / 2;
      if (lat >= mid) {
        ch = (ch << 1) | 1;
        latLo = mid;
      } else {
        ch <<= 1;
        latHi = mid;
      }
    }
    even = !even;
    if (++bits === 5) {
      out += BASE32[ch];
      bits = 0;
      ch = 0;
    }
  }
  return out;
}

/** The centre of a geohash cell. */
export function geohashCenter(hash: string): { lat: number; lon: number } {
  let latLo = -90;
  let latHi = 90;
  let lonLo = -180;
  let lonHi = 180;
  let even = true;
  for (const c of hash) {
    const v = BASE32.indexOf(c);
    if (v < 0) throw new RangeError(`not a geohash: ${hash}`);
    for (let b = 4; b >= 0; b--) {
      const bit = (v >> b) & 1;
      if (even) {
        const mid = (lonLo + lonHi) / 2;
        if (bit) lonLo = mid;
        else lonHi = mid;
      } else {
        const mid = (latLo + latHi) / 2;
        if (bit) latLo = mid;
        else latHi = mid;
      }
      even = !even;
    }
  }
  return { lat: (latLo + latHi) / 2, lon: (lonLo + lonHi) / 2 };
}

export const GEOHASH_RE = /^[0-9b-hjkmnp-z]{1,12}$/;

/**
 * The geohash columns for a position: both null without one, '' for a position that is not a place
 * ((0, 0), out of range), else precision 5 and 7.
 */
export function geohashFields(lat: number | null, lon: number | null): { geohash5: string | null; geohash7: string | null } {
  if (lat === null || lon === null) return { geohash5: null, geohash7: null };
  if (!isGeocodable(lat, lon)) return { geohash5: '', geohash7: '' };
  return { geohash5: geohash(lat, lon, 5), geohash7: geohash(lat, lon, 7) };
}
