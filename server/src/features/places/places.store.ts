/**
 * SQL of map points beyond the map index (map-index.ts reads the points themselves).
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

  repositoryExists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM repositories WHERE repository_id = ?').get(id) !== undefined;
  }
}
