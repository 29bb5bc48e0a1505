/**
 * SQL of map points: the caller's live, geotagged media items inside an optional viewport.
 *
 * A viewport is a latitude range and a longitude range; when west > east the box crosses the
 * antimeridian and the longitude test becomes `lon >= west OR lon <= east`. The latitude range drives
 * assets_owner_gps (owner_id, gps_latitude, gps_longitude; partial on gps_latitude IS NOT NULL).
 * Exact (0, 0) is "no position" (what an empty GPS block decodes to), never a point.
 *
 * The total over a whole library is the expensive part (measured on 1M assets, 530k geotagged: a
 * plain count looks up every geotagged row to read is_deleted, ≈ 1.5–2 s). Without a repository
 * filter it is counted as all geotagged rows of the owner in the box (a covering scan of
 * assets_owner_gps, ≈ 0.1 s) minus those in the Trash (found through assets_owner_best_time's
 * (owner_id, is_deleted = 1) range: the Trash is small) minus the non-head components. With a
 * repository filter (in neither index) every geotagged row of the owner is read; the service
 * memoises totals until the catalog changes.
 *
 * A page has two ways in, chosen by cost rather than left to the planner (which, with bound
 * parameters, cannot tell a street from the whole world): walk the owner's assets newest first
 * (assets_owner_best_time) until the page is full, which reads about (offset + limit) × live /
 * matched rows; or read every matching point through assets_owner_gps and sort, which reads
 * `matched` rows. The smaller estimate wins.
 */
import type { Db } from '../../platform/db/connection.ts';
import { liveScope, type Scope } from '../statistics/scope.ts';

const HAS_GPS = 'a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL AND NOT (a.gps_latitude = 0 AND a.gps_longitude = 0)';

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

  private box(box: Viewport | undefined): { sql: string; params: Record<string, unknown> } {
    if (!box) return { sql: HAS_GPS, params: {} };
    const lon = box.west <= box.east ? 'a.gps_longitude BETWEEN @west AND @east' : '(a.gps_longitude >= @west OR a.gps_longitude <= @east)';
    return { sql: `${HAS_GPS} AND a.gps_latitude BETWEEN @south AND @north AND ${lon}`, params: { ...box } };
  }

  private where(scope: Scope, box: Viewport | undefined, nonHeads: readonly number[]) {
    const s = liveScope(scope, nonHeads);
    const b = this.box(box);
    return { sql: `${s.sql} AND ${b.sql}`, params: { ...s.params, ...b.params } };
  }

  count(scope: Scope, box: Viewport | undefined, nonHeads: readonly number[]): number {
    if (scope.repositoryId !== undefined) {
      const w = this.where(scope, box, nonHeads);
      return this.db.prepare(`SELECT count(*) FROM assets a WHERE ${w.sql}`).pluck().get(w.params) as number;
    }
    const b = this.box(box);
    const p = { ...b.params, owner: scope.ownerId };
    const all = this.db.prepare(`SELECT count(*) FROM assets a WHERE a.owner_id = @owner AND ${b.sql}`).pluck().get(p) as number;
    const trash = this.db.prepare(`SELECT count(*) FROM assets a WHERE a.owner_id = @owner AND a.is_deleted = 1 AND ${b.sql}`).pluck().get(p) as number;
    const parts =
      nonHeads.length === 0
        ? 0
        : (this.db
            .prepare(`SELECT count(*) FROM assets a WHERE a.rowid IN (SELECT value FROM json_each(@non_heads)) AND ${b.sql}`)
            .pluck()
            .get({ ...b.params, non_heads: JSON.stringify(nonHeads) }) as number);
    return all - trash - parts;
  }

  /** The owner's live assets (a covering count of assets_owner_best_time). */
  liveCount(ownerId: number): number {
    return this.db.prepare('SELECT count(*) FROM assets a WHERE a.owner_id = ? AND a.is_deleted = 0').pluck().get(ownerId) as number;
  }

  /**
   * Newest capture first (taken_time, else upload_time), then id: a stable order for paging.
   * `matched`: the total for this scope and box (from count()).
   */
  page(scope: Scope, box: Viewport | undefined, nonHeads: readonly number[], limit: number, offset: number, matched: number): PointRow[] {
    if (offset >= matched) return [];
    const viaGps = matched <= 5000 || matched * matched <= (offset + limit) * this.liveCount(scope.ownerId);
    const w = this.where(scope, box, nonHeads);
    return this.db
      .prepare(
        `SELECT a.asset_id, a.gps_latitude, a.gps_longitude, a.original_filename, a.taken_time, a.upload_time
         FROM assets a INDEXED BY ${viaGps ? 'assets_owner_gps' : 'assets_owner_best_time'} WHERE ${w.sql}
         ORDER BY a.best_time DESC, a.asset_id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...w.params, limit, offset }) as PointRow[];
  }
}
