/** SQL of the places list and the named cells (place-list.service.ts says the rules). */
import type { Db } from '../../platform/db/connection.ts';
import { placeCellTerm, type PlaceKey, type PlaceLevel } from './place-id.ts';

export interface PlaceRow {
  country_code: string;
  country: string;
  region: string | null;
  city: string | null;
  photo_count: number;
  south: number;
  north: number;
  west: number;
  east: number;
  latitude: number;
  longitude: number;
  cover_asset_id: string;
  first_time: number;
  last_time: number;
}

export interface CellRow {
  geohash: string;
  country_code: string;
  country: string;
  region: string | null;
  city: string | null;
  photo_count: number;
}

/**
 * The caller's live files that stand for their media item (a RAW+JPEG pair or a live photo once, at its
 * primary; a file in no media item yet is its own) with a named place: the location clusters' rule.
 */
const NAMED_FILES = `FROM assets a INDEXED BY assets_owner_geohash7 JOIN place_cells c ON c.geohash7 = a.geohash7
  WHERE a.owner_id = @owner AND a.is_deleted = 0 AND a.geohash7 IS NOT NULL AND a.geohash7 <> '' AND c.country_code IS NOT NULL
    AND (a.media_item_id IS NULL OR EXISTS (SELECT 1 FROM media_items mi WHERE mi.media_item_id = a.media_item_id AND mi.primary_asset_id = a.asset_id))`;

/** The parts of a place at each level (the others are NULL, so one GROUP BY serves all three). */
const PARTS: Record<PlaceLevel, string> = {
  city: 'c.region AS region, c.city AS city',
  region: 'c.region AS region, NULL AS city',
  country: 'NULL AS region, NULL AS city',
};

/** The places at `level` (with `where` added to the files' conditions), each with its cover: the page asked for. */
function placesSql(level: PlaceLevel, where: string): string {
  return `WITH m AS (
        SELECT a.asset_id, a.type, a.rating, a.liked, coalesce(a.taken_time, a.upload_time) AS t, a.gps_latitude AS lat, a.gps_longitude AS lon,
          c.country_code AS country_code, c.country AS country, ${PARTS[level]}
        ${NAMED_FILES}${where}),
      g AS (
        SELECT country_code, max(country) AS country, region, city, count(*) AS photo_count,
          min(lat) AS south, max(lat) AS north, min(lon) AS west, max(lon) AS east, avg(lat) AS latitude, avg(lon) AS longitude,
          min(t) AS first_time, max(t) AS last_time
        FROM m GROUP BY country_code, region, city),
      ranked AS (
        SELECT asset_id, country_code, region, city,
          row_number() OVER (PARTITION BY country_code, region, city ORDER BY (type = 'PHOTO') DESC, rating DESC, liked DESC, t DESC, asset_id DESC) AS rn
        FROM m)
      SELECT g.*, r.asset_id AS cover_asset_id FROM g JOIN ranked r ON r.rn = 1 AND r.country_code = g.country_code AND r.region IS g.region AND r.city IS g.city
      ORDER BY g.photo_count DESC, coalesce(g.city, g.region, g.country), g.country_code, g.region, g.city
      LIMIT @limit OFFSET @offset`;
}

export class PlaceListStore {
  constructor(private readonly db: Db) {}

  /** One page of the owner's places at `level`, most photos first, then by name. */
  list(owner: number, level: PlaceLevel, limit: number, offset: number): { total: number; rows: PlaceRow[] } {
    const rows = this.db.prepare(placesSql(level, '')).all({ owner, limit, offset }) as PlaceRow[];
    const total = this.db
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM (SELECT c.country_code AS country_code, ${PARTS[level]} ${NAMED_FILES}) GROUP BY country_code, region, city)`)
      .pluck()
      .get({ owner }) as number;
    return { total, rows };
  }

  /** One place of the owner's, or undefined where none of their photos is. */
  get(owner: number, key: PlaceKey): PlaceRow | undefined {
    const term = placeCellTerm(key);
    return this.db.prepare(placesSql(key.level, ` AND ${term.sql}`)).get({ owner, limit: 1, offset: 0, ...term.params }) as PlaceRow | undefined;
  }

  /** One page of the owner's named geohash-7 cells (for naming map clusters), by geohash. */
  cells(owner: number, limit: number, offset: number): { total: number; rows: CellRow[] } {
    const rows = this.db
      .prepare(
        `SELECT a.geohash7 AS geohash, c.country_code, c.country, c.region, c.city, count(*) AS photo_count ${NAMED_FILES}
         GROUP BY a.geohash7 ORDER BY a.geohash7 LIMIT @limit OFFSET @offset`,
      )
      .all({ owner, limit, offset }) as CellRow[];
    const total = this.db.prepare(`SELECT count(DISTINCT a.geohash7) ${NAMED_FILES}`).pluck().get({ owner }) as number;
    return { total, rows };
  }
}
