/**
 * The places list (listPlaces) and the named cells (listPlaceCells): the caller's geotagged photos
 * grouped by the names the offline gazetteer gave their geohash-7 cells (place-names.ts).
 *
 * Decisions where nothing is written down:
 * - Read live from the catalog (assets joined to place_cells), not from the location clusters: those
 *   are a snapshot of the last rebuild, while a household expects a trip's photos under Places as
 *   soon as they are added. A cell not named yet (the job runs moments after ingest) is not listed.
 * - Counts: photos and videos alike, a RAW+JPEG pair or a live photo once, never the Trash, only the
 *   caller's own (administrators too; partners' shared photos are theirs to place).
 * - The `city` level lists photos in no town under their region (or country): a walk in the hills
 *   of Tuscany is still somewhere the household went. `name` is what to show.
 * - Cover: the best-rated photo there, then a liked one, then the newest; a video only where a place
 *   has no photo (its thumbnail still shows).
 * - Order: most photos first, then by name; paged with limit/offset.
 * - Centre and box are those of the photos (mean, min/max): enough to open the map there. A place
 *   across the antimeridian (Fiji) gets a box the width of the world; the centre still lands on it.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { decodePlaceId, encodePlaceId, type PlaceLevel } from './place-id.ts';
import { PlaceListStore, type PlaceRow } from './place-list.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** "Lisbon, Portugal"; "Tuscany, Italy"; "Austria" (the location clusters' label). */
export const placeLabel = (p: { city: string | null; region: string | null; country: string }) => (p.city ?? p.region ? `${p.city ?? p.region}, ${p.country}` : p.country);

function placeView(level: PlaceLevel, r: PlaceRow) {
  return {
    place_id: encodePlaceId({ level, country_code: r.country_code, region: r.region, city: r.city }),
    level,
    name: r.city ?? r.region ?? r.country,
    city: r.city,
    region: r.region,
    country: r.country,
    country_code: r.country_code,
    photo_count: r.photo_count,
    cover_asset_id: r.cover_asset_id,
    latitude: r.latitude,
    longitude: r.longitude,
    bounds: { south: r.south, north: r.north, west: r.west, east: r.east },
    first_taken: iso(r.first_time),
    last_taken: iso(r.last_time),
  };
}

export class PlaceListService {
  private readonly store: PlaceListStore;

  constructor(db: Db) {
    this.store = new PlaceListStore(db);
  }

  list(actor: Actor, q: { level: PlaceLevel; limit: number; offset: number }) {
    const { total, rows } = this.store.list(actor.userId, q.level, q.limit, q.offset);
    return { places: rows.map((r) => placeView(q.level, r)), level: q.level, limit: q.limit, offset: q.offset, total };
  }

  get(actor: Actor, placeId: string) {
    const key = decodePlaceId(placeId);
    if (!key) throw new Invalid('Not a place id: use a place_id from listPlaces.', [{ field: 'path.place_id', message: 'must be a place_id from listPlaces', code: 'invalid_place_id' }], 'invalid_place_id');
    const row = this.store.get(actor.userId, key);
    if (!row) throw new NotFound('None of your photos is in this place.', 'place_not_found');
    return placeView(key.level, row);
  }

  cells(actor: Actor, q: { limit: number; offset: number }) {
    const { total, rows } = this.store.cells(actor.userId, q.limit, q.offset);
    return {
      cells: rows.map((r) => ({
        geohash: r.geohash,
        label: placeLabel(r),
        city_place_id: encodePlaceId({ level: 'city', country_code: r.country_code, region: r.region, city: r.city }),
        photo_count: r.photo_count,
      })),
      limit: q.limit,
      offset: q.offset,
      total,
    };
  }
}
