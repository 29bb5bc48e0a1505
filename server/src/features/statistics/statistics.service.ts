/**
 * Library statistics (variant-B operations of the contract), filter options and supported types.
 *
 * Decisions (the contract names the operations and parameters; the shapes are ours):
 * - Everything is over the caller's own assets not in the Trash; administrators see only their own
 *   too. An unknown repository_id is 404.
 * - Statistics count media items, like the library grid: a RAW+JPEG pair or a live photo is one.
 * - Time: local wall-clock time of capture (capture time shifted by its recorded offset; a time
 *   without an offset is the camera's clock as recorded, see adapters/media/capture-time.ts).
 *   Years and the heatmap fall back to the upload time when there is no capture time (every item
 *   then has a year and a day); hourly/monthly use capture times only.
 * - Years, heatmap, time distribution: photos, videos and audio. Camera/lens and focal length:
 *   photos only (a camera+lens pair describes still photography; video metadata has no lens).
 * - Camera/lens: combinations of the recorded camera model and lens model (trimmed; an empty lens is
 *   "no lens recorded", null), most photos first, `limit` 1..100 (default 20).
 * - Heatmap: `year`, or start_date + end_date (inclusive, ≤ 3660 days), or deprecated `days`;
 *   default the last 365 days up to today (UTC). The answer lists every day of the range.
 * - Focal length: the recorded focal length (not 35 mm equivalent) in fixed buckets plus the ten
 *   most used exact values.
 * - Filter options: camera and lens models of photos and videos alike (the list filters apply to
 *   any asset), sorted case-insensitively in natural order.
 * - Asset types: `types` is the list of filter values; `formats` describes the recognised formats.
 *
 * Cost on a large library (1M assets): the heatmap is a range of an index; years and filter options
 * read indexes only; camera/lens, focal length and time distribution read every live asset of the
 * owner once (seconds at 1M). Every answer is memoised until the catalog changes (memo.ts).
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { ASSET_TYPES, FORMATS } from './asset-types.ts';
import { catalogMemo } from './memo.ts';
import { MAX_OFFSET_MS, nonHeadRowids, type Scope } from './scope.ts';
import { StatisticsStore } from './statistics.store.ts';
import type {
  ActivityHeatmap,
  ActivityQuery,
  AssetTypes,
  CameraLensStats,
  FilterOptions,
  FocalLengthStats,
  StatsYears,
  TimeDistribution,
} from './statistics.routes.ts';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 3660;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byName = (x: string, y: string) => collator.compare(x, y) || (x < y ? -1 : x > y ? 1 : 0);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Focal length buckets: [min, max) in mm. */
const FOCAL_EDGES = [0, 10, 16, 24, 35, 50, 85, 135, 200, 400];

export class StatisticsService {
  private readonly store: StatisticsStore;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new StatisticsStore(db);
  }

  private scope(actor: Actor, repositoryId: string | undefined): Scope {
    if (repositoryId !== undefined && !this.store.repositoryExists(repositoryId)) throw new NotFound('Repository not found.', 'repository_not_found');
    return { ownerId: actor.userId, repositoryId };
  }

  private memo<T>(name: string, actor: Actor, args: unknown, compute: () => T): T {
    return catalogMemo(this.db).get(`stats:${name}:${actor.userId}:${JSON.stringify(args)}`, compute);
  }

  filterOptions(actor: Actor): FilterOptions {
    return this.memo('filter-options', actor, null, () => ({
      camera_models: this.store.distinct(actor.userId, 'camera_model').map((s) => s.trim()).filter(Boolean).sort(byName),
      lenses: this.store.distinct(actor.userId, 'lens_model').map((s) => s.trim()).filter(Boolean).sort(byName),
    }));
  }

  assetTypes(): AssetTypes {
    return { types: [...ASSET_TYPES], formats: FORMATS.map((f) => ({ ...f, extensions: [...f.extensions], mime_types: [...f.mime_types] })) };
  }

  years(actor: Actor, repositoryId?: string): StatsYears {
    const scope = this.scope(actor, repositoryId);
    return this.memo('years', actor, repositoryId ?? null, () => {
      const years = this.store.years(scope, nonHeadRowids(this.db, actor.userId));
      return { years, total: years.reduce((n, y) => n + y.count, 0) };
    });
  }

  cameraLens(actor: Actor, q: { limit: number; repository_id?: string | undefined }): CameraLensStats {
    const scope = this.scope(actor, q.repository_id);
    return this.memo('camera-lens', actor, [q.limit, q.repository_id ?? null], () => {
      const rows = this.store.cameraLens(scope, nonHeadRowids(this.db, actor.userId));
      rows.sort((x, y) => y.count - x.count || byName(x.camera_model, y.camera_model) || byName(x.lens_model ?? '', y.lens_model ?? ''));
      return {
        items: rows.slice(0, q.limit),
        limit: q.limit,
        total_combinations: rows.length,
        total_photos: rows.reduce((n, r) => n + r.count, 0),
      };
    });
  }

  heatmap(actor: Actor, q: ActivityQuery): ActivityHeatmap {
    const { start, end } = this.range(q);
    const scope = this.scope(actor, q.repository_id);
    return this.memo('heatmap', actor, [start, end, q.repository_id ?? null], () => {
      const rows = this.store.days(scope, nonHeadRowids(this.db, actor.userId), msOf(start) - MAX_OFFSET_MS, msOf(end) + DAY_MS + MAX_OFFSET_MS);
      const byDay = new Map(rows.map((r) => [r.day, r.count]));
      const days: { date: string; count: number }[] = [];
      for (let t = msOf(start); t <= msOf(end); t += DAY_MS) {
        const date = dayOf(t);
        days.push({ date, count: byDay.get(date) ?? 0 });
      }
      return {
        start_date: start,
        end_date: end,
        days,
        total: days.reduce((n, d) => n + d.count, 0),
        max_count: days.reduce((m, d) => Math.max(m, d.count), 0),
      };
    });
  }

  /** The inclusive day range asked for (see the route for the rules). */
  private range(q: ActivityQuery): { start: string; end: string } {
    const has = { year: q.year !== undefined, start: q.start_date !== undefined, end: q.end_date !== undefined, days: q.days !== undefined };
    const ways = [has.year, has.start || has.end, has.days].filter(Boolean).length;
    if (ways > 1) {
      const fields = (['year', 'start_date', 'end_date', 'days'] as const).filter((f) => q[f] !== undefined);
      throw new Invalid(
        'Give one range: year, or start_date with end_date, or days.',
        fields.map((f) => ({ field: `query.${f}`, message: 'cannot be combined with the other range parameters' })),
        'range_conflict',
      );
    }
    if (has.year) return { start: `${String(q.year).padStart(4, '0')}-01-01`, end: `${String(q.year).padStart(4, '0')}-12-31` };
    if (has.start || has.end) {
      if (!has.start || !has.end) {
        const missing = has.start ? 'end_date' : 'start_date';
        throw new Invalid(`${missing} is required with ${has.start ? 'start_date' : 'end_date'}.`, [{ field: `query.${missing}`, message: 'is required with the other date' }], 'range_incomplete');
      }
      const span = (msOf(q.end_date!) - msOf(q.start_date!)) / DAY_MS + 1;
      if (span < 1) throw new Invalid('end_date is before start_date.', [{ field: 'query.end_date', message: 'must not be before start_date' }], 'range_inverted');
      if (span > MAX_RANGE_DAYS) {
        throw new Invalid(`The range is ${span} days; at most ${MAX_RANGE_DAYS}.`, [{ field: 'query.end_date', message: `must be at most ${MAX_RANGE_DAYS} days after start_date` }], 'range_too_long');
      }
      return { start: q.start_date!, end: q.end_date! };
    }
    const today = msOf(dayOf(this.now()));
    return { start: dayOf(today - ((q.days ?? 365) - 1) * DAY_MS), end: dayOf(today) };
  }

  focalLengths(actor: Actor, repositoryId?: string): FocalLengthStats {
    const scope = this.scope(actor, repositoryId);
    return this.memo('focal', actor, repositoryId ?? null, () => {
      const rows = this.store.focalLengths(scope, nonHeadRowids(this.db, actor.userId));
      const known = rows.filter((r): r is { fl: number; count: number } => r.fl !== null);
      const buckets = FOCAL_EDGES.map((min, i) => {
        const max = FOCAL_EDGES[i + 1] ?? null;
        return {
          label: max === null ? `${min}+ mm` : min === 0 ? `<${max} mm` : `${min}–${max} mm`,
          min_mm: min,
          max_mm: max,
          count: known.filter((r) => r.fl >= min && (max === null || r.fl < max)).reduce((n, r) => n + r.count, 0),
        };
      });
      const top = [...known].sort((x, y) => y.count - x.count || x.fl - y.fl).slice(0, 10);
      return {
        buckets,
        top_values: top.map((r) => ({ focal_length: r.fl, count: r.count })),
        total: known.reduce((n, r) => n + r.count, 0),
        unknown_count: rows.filter((r) => r.fl === null).reduce((n, r) => n + r.count, 0),
      };
    });
  }

  timeDistribution(actor: Actor, q: { type: 'hourly' | 'monthly'; repository_id?: string | undefined }): TimeDistribution {
    const scope = this.scope(actor, q.repository_id);
    return this.memo('time', actor, [q.type, q.repository_id ?? null], () => {
      const rows = this.store.timeBuckets(scope, nonHeadRowids(this.db, actor.userId), q.type === 'hourly' ? 'hour' : 'month');
      const byBucket = new Map(rows.map((r) => [r.bucket, r.count]));
      const keys = q.type === 'hourly' ? Array.from({ length: 24 }, (_, i) => i) : Array.from({ length: 12 }, (_, i) => i + 1);
      const buckets = keys.map((bucket) => ({ bucket, count: byBucket.get(bucket) ?? 0 }));
      return { type: q.type, buckets, total: buckets.reduce((n, b) => n + b.count, 0) };
    });
  }
}
