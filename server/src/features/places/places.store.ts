/**
 * The map points' row and viewport types (map-index.ts reads the points themselves).
 */

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
