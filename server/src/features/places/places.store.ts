/**
 * SQL of map points: the rows of one page (which rows, and in what order, comes from the map index,
 * map-index.ts).
 */
import type { Db } from '../../platform/db/connection.ts';

export interface Viewport {
  south: number;
  north: number;
  west: number;
  east: number;
}

export interface PointRow {
  asset_id: string;
  gps_latitude: number;
  gps_longitude: number;
  original_filename: string;
  taken_time: number | null;
  upload_time: number;
}

export class PlacesStore {
  constructor(private readonly db: Db) {}

  /** These rows, in the order given. */
  rows(rowids: number[]): PointRow[] {
    if (rowids.length === 0) return [];
    const found = this.db
      .prepare(
        `SELECT a.rowid AS rid, a.asset_id, a.gps_latitude, a.gps_longitude, a.original_filename, a.taken_time, a.upload_time
         FROM assets a WHERE a.rowid IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(rowids)) as (PointRow & { rid: number })[];
    const byRowid = new Map(found.map(({ rid, ...row }) => [rid, row]));
    return rowids.map((r) => byRowid.get(r)!);
  }
}
