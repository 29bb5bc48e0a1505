/**
 * Place names to positions (the opposite of the reverse geocoder): "Lisbon" → Lisbon, Lisbon, Portugal and
 * its position, for a person who sets where a photo was taken by typing a place (features/assets/corrections).
 * Offline, from the same GeoNames gazetteer (cities-data.ts).
 *
 * Matching: accents and case folded ("zurich" finds Zürich); a name equal to the query first, then names that
 * start with it, then names with a word that starts with it; among equals, shorter names first, then the
 * gazetteer's order. The gazetteer carries no population, so "Paris" lists every Paris: each suggestion says
 * its region and country, and the person picks.
 */
import type { ReverseGeocoder } from './reverse-geocoder.ts';
import type { Gazetteer } from './cities-data.ts';

export interface PlaceSuggestion {
  name: string;
  region: string | null;
  country: string;
  country_code: string;
  latitude: number;
  longitude: number;
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const folded = new WeakMap<Gazetteer, string[]>();

export function searchPlaceNames(geocoder: ReverseGeocoder, query: string, limit = 10): PlaceSuggestion[] {
  const q = fold(query);
  if (!q) return [];
  const g = geocoder.gazetteer();
  let names = folded.get(g);
  if (!names) folded.set(g, (names = g.name.map(fold)));
  const hits: { i: number; rank: number }[] = [];
  for (let i = 0; i < g.size; i++) {
    const n = names[i]!;
    const rank = n === q ? 0 : n.startsWith(q) ? 1 : n.includes(` ${q}`) ? 2 : -1;
    if (rank >= 0) hits.push({ i, rank });
  }
  hits.sort((a, b) => a.rank - b.rank || names[a.i]!.length - names[b.i]!.length || a.i - b.i);
  const seen = new Set<string>();
  const out: PlaceSuggestion[] = [];
  for (const { i } of hits) {
    const r = g.region[i]!;
    const s: PlaceSuggestion = {
      name: g.name[i]!,
      region: r >= 0 ? g.regions[r]! : null,
      country: g.countries[g.country[i]!]!,
      country_code: g.countryCodes[g.country[i]!]!,
      latitude: g.lat[i]!,
      longitude: g.lon[i]!,
    };
    // The gazetteer lists some towns twice (a town and its admin seat): one suggestion per name, region and country.
    const key = `${s.name}|${s.region}|${s.country_code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
    if (out.length >= limit) break;
  }
  return out;
}
