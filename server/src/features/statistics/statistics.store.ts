/**
 * SQL of the library statistics and filter options. Every query is over the caller's live assets
 * (scope.ts); the statistics count media items (a RAW+JPEG pair once), see statistics.service.ts.
 *
 * Local time: LOCAL_MS shifts the capture time by its recorded offset, so a photo taken at 23:30 on
 * 31 December in Sydney is a December photo; times without an offset are already wall-clock.
 * `x / 1000.0` keeps pre-1970 times exact (integer division would truncate toward zero).
 *
 * Indexes: the daily heatmap is a range of assets_owner_best_time; filter options walk
 * assets_owner_camera / assets_owner_lens one distinct value at a time (a skip scan: one seek per
 * camera, not one row per photo). The other statistics read every live asset of the owner once.
 */
import type { Db } from '../../platform/db/connection.ts';
import { LOCAL_MS, LOCAL_TAKEN_MS, MAX_OFFSET_MS, liveScope, type Scope } from './scope.ts';

export interface YearRow {
  year: number;
  count: number;
}
export interface CameraLensRow {
  camera_model: string;
  lens_model: string | null;
  count: number;
}
export interface DayRow {
  day: string;
  count: number;
}
export interface FocalRow {
  fl: number | null;
  count: number;
}
export interface BucketRow {
  bucket: number;
  count: number;
}

export class StatisticsStore {
  constructor(private readonly db: Db) {}

  /**
   * Items per local year. Without a repository filter this never reads the table: the owner's live
   * items are counted per UTC year as ranges of assets_owner_best_time (best_time and rowid are in the
   * index), then the few items within 14 hours of a New Year whose capture offset moves them into
   * the neighbouring local year are looked up and moved. With a repository filter (not in that index)
   * every asset is read.
   */
  years(scope: Scope, nonHeads: readonly number[]): YearRow[] {
    if (scope.repositoryId === undefined) return this.yearsByIndex(scope.ownerId, nonHeads);
    const w = liveScope(scope, nonHeads);
    return this.db
      .prepare(
        `SELECT CAST(strftime('%Y', ${LOCAL_MS} / 1000.0, 'unixepoch') AS INTEGER) AS year, count(*) AS count
         FROM assets a WHERE ${w.sql} GROUP BY year ORDER BY year DESC`,
      )
      .all(w.params) as YearRow[];
  }

  private yearsByIndex(ownerId: number, nonHeads: readonly number[]): YearRow[] {
    // Every live asset first (no media-item rule: the statements stay cheap however many pairs
    // there are), then the assets that do not stand for their item are taken off by their year.
    const w = liveScope({ ownerId });
    const from = `FROM assets a INDEXED BY assets_owner_best_time WHERE ${w.sql}`;
    // Two seeks at the ends of the index range (min() and max() together would scan it).
    const end = (dir: 'ASC' | 'DESC') => this.db.prepare(`SELECT a.best_time ${from} ORDER BY a.best_time ${dir} LIMIT 1`).pluck().get(w.params) as number | undefined;
    const span = { lo: end('ASC'), hi: end('DESC') };
    if (span.lo === undefined || span.hi === undefined) return [];
    const count = this.db.prepare(`SELECT count(*) ${from} AND a.best_time >= @from AND a.best_time < @to`).pluck();
    const near = this.db.prepare(
      `SELECT ${LOCAL_MS} AS local_ms, a.best_time AS t ${from} AND a.best_time >= @from AND a.best_time < @to AND a.capture_offset_minutes IS NOT NULL AND a.capture_offset_minutes <> 0`,
    );
    const yearStart = (y: number) => Date.UTC(y, 0, 1);
    const yearOf = (ms: number) => new Date(ms).getUTCFullYear();
    const first = yearOf(span.lo);
    const last = yearOf(span.hi);
    const counts = new Map<number, number>();
    const move = (year: number, by: number) => counts.set(year, (counts.get(year) ?? 0) + by);
    for (let y = first; y <= last; y++) move(y, count.get({ ...w.params, from: yearStart(y), to: yearStart(y + 1) }) as number);
    for (let y = first; y <= last + 1; y++) {
      const b = yearStart(y);
      for (const r of near.all({ ...w.params, from: b - MAX_OFFSET_MS, to: b + MAX_OFFSET_MS }) as { local_ms: number; t: number }[]) {
        if (yearOf(r.t) === yearOf(r.local_ms)) continue;
        move(yearOf(r.t), -1);
        move(yearOf(r.local_ms), 1);
      }
    }
    if (nonHeads.length > 0) {
      const parts = this.db
        .prepare(`SELECT ${LOCAL_MS} FROM assets a WHERE a.rowid IN (SELECT value FROM json_each(@ids))`)
        .pluck()
        .all({ ids: JSON.stringify(nonHeads) }) as number[];
      for (const ms of parts) move(yearOf(ms), -1);
    }
    return [...counts].filter(([, n]) => n > 0).map(([year, n]) => ({ year, count: n })).sort((x, y) => y.year - x.year);
  }

  /** Every (camera, lens) combination of photos with a camera model. */
  cameraLens(scope: Scope, nonHeads: readonly number[]): CameraLensRow[] {
    const w = liveScope(scope, nonHeads);
    return this.db
      .prepare(
        `SELECT cam AS camera_model, lens AS lens_model, count(*) AS count FROM (
           SELECT trim(a.camera_model) AS cam, nullif(trim(a.lens_model), '') AS lens FROM assets a
           WHERE ${w.sql} AND a.type = 'PHOTO' AND a.camera_model IS NOT NULL)
         WHERE cam <> '' GROUP BY cam, lens`,
      )
      .all(w.params) as CameraLensRow[];
  }

  /** Items per local day whose best time falls in [fromMs, toMs) (a window, widened by the caller). */
  days(scope: Scope, nonHeads: readonly number[], fromMs: number, toMs: number): DayRow[] {
    const w = liveScope(scope, nonHeads);
    return this.db
      .prepare(
        `SELECT date(${LOCAL_MS} / 1000.0, 'unixepoch') AS day, count(*) AS count
         FROM assets a WHERE ${w.sql} AND a.best_time >= @from AND a.best_time < @to GROUP BY day`,
      )
      .all({ ...w.params, from: fromMs, to: toMs }) as DayRow[];
  }

  /** Photos per recorded focal length (mm, one decimal); `fl` null: none recorded. */
  focalLengths(scope: Scope, nonHeads: readonly number[]): FocalRow[] {
    const w = liveScope(scope, nonHeads);
    return this.db
      .prepare(
        `SELECT CASE WHEN f > 0 THEN round(f, 1) END AS fl, count(*) AS count FROM (
           SELECT CAST(json_extract(a.specific_metadata, '$.focal_length') AS REAL) AS f FROM assets a
           WHERE ${w.sql} AND a.type = 'PHOTO')
         GROUP BY fl`,
      )
      .all(w.params) as FocalRow[];
  }

  /** Items with a capture time per local hour of day (0..23) or month of year (1..12). */
  timeBuckets(scope: Scope, nonHeads: readonly number[], unit: 'hour' | 'month'): BucketRow[] {
    const w = liveScope(scope, nonHeads);
    const fmt = unit === 'hour' ? '%H' : '%m';
    return this.db
      .prepare(
        `SELECT CAST(strftime('${fmt}', ${LOCAL_TAKEN_MS} / 1000.0, 'unixepoch') AS INTEGER) AS bucket, count(*) AS count
         FROM assets a WHERE ${w.sql} AND a.taken_time IS NOT NULL GROUP BY bucket`,
      )
      .all(w.params) as BucketRow[];
  }

  /**
   * Distinct values of an indexed metadata column among the owner's live assets: a skip scan over
   * (owner_id, column) that seeks to the next distinct value, then keeps values with at least one
   * asset not in the Trash.
   */
  distinct(ownerId: number, column: 'camera_model' | 'lens_model'): string[] {
    return this.db
      .prepare(
        `WITH RECURSIVE v(m) AS (
           SELECT (SELECT min(${column}) FROM assets WHERE owner_id = @owner AND ${column} IS NOT NULL)
           UNION ALL
           SELECT (SELECT min(${column}) FROM assets WHERE owner_id = @owner AND ${column} > v.m) FROM v WHERE v.m IS NOT NULL)
         SELECT m FROM v WHERE m IS NOT NULL
           AND EXISTS (SELECT 1 FROM assets x WHERE x.owner_id = @owner AND x.${column} = v.m AND x.is_deleted = 0)`,
      )
      .pluck()
      .all({ owner: ownerId }) as string[];
  }

  repositoryExists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM repositories WHERE repository_id = ?').get(id) !== undefined;
  }
}
