/**
 * The name a household calls a place by, for titles such as "Lisbon · June 2024" (photo events): the
 * town, else the region (a photo far from any town: "Tuscany"), else the country; null at sea, at
 * (0, 0) or where the gazetteer knows nothing. Read from the offline reverse geocoder, so nothing
 * leaves the machine.
 */
import { isGeocodable, type ReverseGeocoder } from './geocoder/reverse-geocoder.ts';

export function placeNameAt(geocoder: ReverseGeocoder, lat: number, lon: number): string | null {
  if (!isGeocodable(lat, lon)) return null;
  const p = geocoder.lookup(lat, lon);
  return p ? (p.city ?? p.region ?? p.country) : null;
}
