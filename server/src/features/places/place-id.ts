/**
 * Place ids (listPlaces, queryAssets `filter.place_id`): which place, at which level, as one opaque
 * URL-safe string, so the UI can put it in a route (`/places/<id>`) and hand it back as a filter.
 *
 * Decisions:
 * - A place is named by the offline gazetteer (place-names.ts), not stored as a row: its id is the
 *   names themselves, base64url of `[level, country_code, region, city]` (nulls where a level has no
 *   such part, or where the gazetteer found none: a photo in the hills of Tuscany is in no town, so
 *   its "city" entry is Tuscany's, with city null). The same place has the same id across rebuilds,
 *   restarts and members (a place is geography; whose photos it holds comes from the assets).
 * - An id that does not decode to that shape is 422 `invalid_place_id`; a well-formed id of a place
 *   where the caller has no photos lists nothing (like another member's album).
 */
export const PLACE_LEVELS = ['city', 'region', 'country'] as const;
export type PlaceLevel = (typeof PLACE_LEVELS)[number];

export interface PlaceKey {
  level: PlaceLevel;
  country_code: string;
  region: string | null;
  city: string | null;
}

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

export function encodePlaceId(k: PlaceKey): string {
  const parts = k.level === 'country' ? [k.level, k.country_code] : k.level === 'region' ? [k.level, k.country_code, k.region] : [k.level, k.country_code, k.region, k.city];
  return b64url(JSON.stringify(parts));
}

const nameOrNull = (v: unknown): v is string | null => v === null || (typeof v === 'string' && v.length > 0 && v.length <= 200);

/** The place an id names, or null when it is not a place id. */
export function decodePlaceId(id: string): PlaceKey | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(id)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts)) return null;
  const [level, cc, region = null, city = null] = parts as unknown[];
  const want = level === 'country' ? 2 : level === 'region' ? 3 : level === 'city' ? 4 : -1;
  if (parts.length !== want || typeof cc !== 'string' || !/^[A-Z]{2}$/.test(cc) || !nameOrNull(region) || !nameOrNull(city)) return null;
  return { level: level as PlaceLevel, country_code: cc, region, city };
}

/**
 * The SQL test "the place_cells row `c` lies in this place" with its parameters (prefix `p`):
 * exact names, a missing part matching only a missing part.
 */
export function placeCellTerm(k: PlaceKey, p = 'place'): { sql: string; params: Record<string, unknown> } {
  const terms = [`c.country_code = @${p}Cc`];
  const params: Record<string, unknown> = { [`${p}Cc`]: k.country_code };
  if (k.level !== 'country') {
    terms.push(`c.region IS @${p}Region`);
    params[`${p}Region`] = k.region;
  }
  if (k.level === 'city') {
    terms.push(`c.city IS @${p}City`);
    params[`${p}City`] = k.city;
  }
  return { sql: terms.join(' AND '), params };
}
