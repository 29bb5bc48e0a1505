/**
 * What the assistant's tools read of the catalog for ids the access layer has already permitted: the facts
 * `describe`, `rank`, `dedupe` and the cards need (type, time, camera, place, size, pHash), and the row ids
 * browse's lists are made of. A read model (test/server/table-owners.ts READ_MODELS): one statement per
 * batch, never a row of an id that was not permitted (callers pass Permitted ids only).
 */
import type { Db } from '../../platform/db/connection.ts';
import type { PermittedAssetId } from '../../platform/access/index.ts';

export interface AssetFacts {
  asset_id: string;
  owner_id: number;
  type: 'PHOTO' | 'VIDEO' | 'AUDIO';
  /** Capture time, else upload time (ms, UTC). */
  time: number;
  /** Minutes east of UTC at capture, when known: the local day of a photo. */
  offset: number | null;
  camera_make: string | null;
  camera_model: string | null;
  lens: string | null;
  focal_length: number | null;
  width: number | null;
  height: number | null;
  phash: string | null;
  filename: string;
  city: string | null;
  country: string | null;
  owner_liked: number;
  owner_rating: number;
}

const FACTS = `SELECT a.asset_id, a.owner_id, a.type, coalesce(a.taken_time, a.upload_time) AS time, a.capture_offset_minutes AS offset,
  a.camera_make, a.camera_model, a.lens_model AS lens, CAST(json_extract(a.specific_metadata, '$.focal_length') AS REAL) AS focal_length,
  a.width, a.height, a.phash, a.original_filename AS filename, pc.city, pc.country, a.liked AS owner_liked, a.rating AS owner_rating
  FROM json_each(@ids) j CROSS JOIN assets a ON a.asset_id = j.value LEFT JOIN place_cells pc ON pc.geohash7 = a.geohash7`;

export class LibraryStore {
  constructor(private readonly db: Db) {}

  /** Facts of permitted assets, by id (ids gone meanwhile are absent). */
  facts(ids: readonly PermittedAssetId[]): Map<string, AssetFacts> {
    if (ids.length === 0) return new Map();
    const rows = this.db.prepare(FACTS).all({ ids: JSON.stringify(ids) }) as AssetFacts[];
    return new Map(rows.map((r) => [r.asset_id, r]));
  }

  /** The asset ids of browse rows (rowids of `assets`), in the order given. */
  assetIdsOfRows(rowids: ArrayLike<number>, max: number): string[] {
    const n = Math.min(rowids.length, max);
    if (n === 0) return [];
    const wanted = Array.from({ length: n }, (_, i) => rowids[i]!);
    const rows = this.db.prepare('SELECT j.key AS k, a.asset_id FROM json_each(?) j CROSS JOIN assets a ON a.rowid = j.value').all(JSON.stringify(wanted)) as { k: number; asset_id: string }[];
    const out = new Array<string | undefined>(n);
    for (const r of rows) out[r.k] = r.asset_id;
    return out.filter((x): x is string => x !== undefined);
  }

  /** The rowids of permitted assets (for intersecting with a browse list). */
  rowsOf(ids: readonly PermittedAssetId[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = this.db.prepare('SELECT a.rowid AS r, a.asset_id FROM json_each(?) j CROSS JOIN assets a ON a.asset_id = j.value').all(JSON.stringify(ids)) as { r: number; asset_id: string }[];
    return new Map(rows.map((x) => [x.r, x.asset_id]));
  }

  /**
   * The named people of the reader's own in these photos (people are their owner's: a partner's names never
   * show), with how many of the photos each is in.
   */
  peopleIn(readerId: number, ids: readonly PermittedAssetId[]): { person_id: number; name: string; count: number }[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(
        `SELECT p.person_id, p.name, count(DISTINCT f.asset_id) AS count FROM json_each(?) j CROSS JOIN faces f ON f.asset_id = j.value
         JOIN people p ON p.person_id = f.person_id WHERE p.owner_id = ? AND p.name IS NOT NULL AND p.name <> '' GROUP BY p.person_id ORDER BY count DESC, p.name`,
      )
      .all(JSON.stringify(ids), readerId) as { person_id: number; name: string; count: number }[];
  }
}
