/**
 * getEventRelations: what an event is related to (the reference's events-v1 relations).
 * - event → album `represented_in` (origin `album_membership`): the person's albums holding files of the event;
 * - event → location cell `occurred_at` (origin `gps`): geohash-7 cells of its items' places, id `repository_id:geohash7`;
 * - event → person `contains_person` (origin `face_assignment`): from `PeopleOfItems`, the extension point
 *   the faces feature fills (wired by the composition root). Until it is wired, people are not listed and
 *   the answer says `complete: false`.
 * `facts.distinct_media_items` counts the event's items behind each relation; confidence is that share.
 */
import type { Db } from '../../platform/db/connection.ts';
import { geohash } from './geo.ts';

/** People seen in these media items (the faces feature's answer): person id and items each is in. */
export type PeopleOfItems = (ownerId: number, mediaItemIds: readonly string[]) => { person_id: number | string; distinct_media_items: number }[];

export interface Relation {
  confidence: number;
  facts: Record<string, number>;
  from: { id: string; kind: 'event' };
  origin: string;
  relation: 'represented_in' | 'occurred_at' | 'contains_person';
  to: { id: string; kind: 'album' | 'location_cell' | 'person' };
}

export function eventRelations(db: Db, ownerId: number, eventId: string, items: readonly string[], people: PeopleOfItems | null): { complete: boolean; relations: Relation[] } {
  const total = items.length || 1;
  const from = { id: eventId, kind: 'event' as const };
  const relations: Relation[] = [];
  const albums = db
    .prepare(
      `SELECT al.album_id, count(DISTINCT m.media_item_id) AS n FROM photo_event_members m
       JOIN assets a ON a.media_item_id = m.media_item_id AND a.is_deleted = 0
       JOIN album_assets aa ON aa.asset_id = a.asset_id JOIN albums al ON al.album_id = aa.album_id AND al.owner_id = ?
       WHERE m.event_id = ? GROUP BY al.album_id ORDER BY n DESC, al.album_id`,
    )
    .all(ownerId, eventId) as { album_id: number; n: number }[];
  for (const a of albums) {
    relations.push({ confidence: a.n / total, facts: { distinct_media_items: a.n }, from, origin: 'album_membership', relation: 'represented_in', to: { id: String(a.album_id), kind: 'album' } });
  }
  const places = db
    .prepare(
      `SELECT m.media_item_id, a.repository_id, a.gps_latitude AS lat, a.gps_longitude AS lon FROM photo_event_members m
       JOIN media_items mi ON mi.media_item_id = m.media_item_id JOIN assets a ON a.media_item_id = m.media_item_id
       WHERE m.event_id = ? AND a.is_deleted = 0 AND a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL
       ORDER BY m.position, a.asset_id = mi.primary_asset_id DESC`,
    )
    .all(eventId) as { media_item_id: string; repository_id: string; lat: number; lon: number }[];
  const cells = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const p of places) {
    if (seen.has(p.media_item_id)) continue; // one place per item: its primary's when it has one
    seen.add(p.media_item_id);
    const key = `${p.repository_id}:${geohash(p.lat, p.lon, 7)}`;
    let s = cells.get(key);
    if (!s) cells.set(key, (s = new Set()));
    s.add(p.media_item_id);
  }
  for (const [key, s] of [...cells].sort((x, y) => y[1].size - x[1].size || (x[0] < y[0] ? -1 : 1))) {
    relations.push({ confidence: s.size / total, facts: { distinct_media_items: s.size }, from, origin: 'gps', relation: 'occurred_at', to: { id: key, kind: 'location_cell' } });
  }
  if (people) {
    for (const p of people(ownerId, items)) {
      relations.push({
        confidence: p.distinct_media_items / total,
        facts: { distinct_media_items: p.distinct_media_items },
        from,
        origin: 'face_assignment',
        relation: 'contains_person',
        to: { id: String(p.person_id), kind: 'person' },
      });
    }
  }
  return { complete: people !== null, relations };
}
