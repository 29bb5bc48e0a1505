/**
 * The `place` channel (the reference: FTS over place names, weight 0.8): photos taken in the town,
 * region or country the query names ("Lisbon", "Portugal", "Tuscany"), from the place names the
 * offline geocoder gave each geohash-7 cell (features/places, migration 0023).
 *
 * Matching, self-thresholded like every channel: the whole query as a phrase of a place name first
 * ("new york" is New York, not York and New South Wales); when no name holds the phrase, each word
 * of three letters or more that is not a little word names places on its own ("Helsinki harbour":
 * Helsinki). Accents are folded ("Zurich" finds Zürich). Ranked by how well the name matches
 * (bm25: a town named exactly so before a region that contains the word), then newest first.
 *
 * Cost: the index holds one row per named cell (a few thousand in a large library); the cells found
 * lead to the caller's assets through assets(owner_id, geohash7).
 */
import type { Db } from '../../../platform/db/connection.ts';
import { boundsOf } from '../../places/index.ts';
import type { PlaceName } from '../query-language/index.ts';
import { CHANNEL_CAP, isAllowed, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';

/** Words too common to name a place on their own (a query's little words). */
const LITTLE = new Set(['the', 'and', 'for', 'with', 'from', 'photos', 'photo', 'pictures', 'videos', 'video', 'new', 'san', 'saint', 'city', 'old']);

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

type Row = [rowid: number, label: string, rank: number, t: number];

export function placeChannel(db: Db, userId: number, isDeleted: boolean, text: string, words: string[], allowed: Uint8Array): ChannelHit[] {
  if (words.length === 0) return [];
  const phrase = words.join(' ');
  const singles = words.filter((w) => [...w].length >= 3 && !LITTLE.has(w));
  const tries = [quote(phrase), ...(words.length > 1 && singles.length ? [singles.map(quote).join(' OR ')] : [])];
  const statement = db
    .prepare(
      `SELECT a.rowid, coalesce(c.city, c.region, c.country), bm25(place_cells_fts), coalesce(a.taken_time, a.upload_time)
         FROM place_cells_fts f CROSS JOIN place_cells c ON c.rowid = f.rowid
         CROSS JOIN assets a INDEXED BY assets_owner_geohash7 ON a.geohash7 = c.geohash7 AND a.owner_id IN ${SEARCHED_OWNERS} AND a.geohash7 IS NOT NULL AND a.geohash7 <> ''
        WHERE place_cells_fts MATCH @match AND a.is_deleted = @del
        ORDER BY 3, 4 DESC, 1 LIMIT @cap`,
    )
    .raw();
  for (const [n, match] of tries.entries()) {
    let rows: Row[];
    try {
      rows = statement.all({ me: userId, del: isDeleted ? 1 : 0, cap: CHANNEL_CAP * 4, match }) as Row[];
    } catch {
      continue; // a query FTS5 cannot read as words (only punctuation): no place
    }
    // Strong: a place named by the whole query; a place named by one of its words is a weak match.
    const hits = rows.filter((r) => isAllowed(allowed, r[0])).map(([rowid, label, rank]) => ({ rowid, rawScore: -rank, why: `taken in ${label}`, strong: n === 0 }));
    if (hits.length) return hits;
  }
  return [];
}

/**
 * The caller's places for the parser ("in Lisbon"): every town, region and country their photos were
 * taken in, with the box around the cells of those photos (queryAssets' location filter). Read from
 * the distinct cells of the owner (an index-only scan), so it stays cheap on a large library.
 */
export function knownPlaces(db: Db, userId: number): PlaceName[] {
  const rows = db
    .prepare(
      `SELECT c.geohash7, c.city, c.region, c.country FROM (SELECT DISTINCT geohash7 FROM assets INDEXED BY assets_owner_geohash7
         WHERE owner_id = ? AND geohash7 IS NOT NULL AND geohash7 <> '') g JOIN place_cells c ON c.geohash7 = g.geohash7`,
    )
    .raw()
    .all(userId) as [string, string | null, string | null, string | null][];
  const cells = new Map<string, { name: string; hashes: string[] }>();
  for (const [hash, ...names] of rows) {
    for (const name of names) {
      if (!name) continue;
      const key = name.toLowerCase();
      const entry = cells.get(key) ?? { name, hashes: [] };
      entry.hashes.push(hash);
      cells.set(key, entry);
    }
  }
  return [...cells.values()].map(({ name, hashes }) => ({ name, location: boundsOf(hashes)! }));
}
