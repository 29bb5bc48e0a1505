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
 *   any asset), sorted case-insensitively in natural order. `cameras` (beyond the contract, additive)
 *   pairs each model with its make and a name to show (camera-names.ts), so the camera filter can say
 *   "Nikon D70" rather than a bare model code or "NIKON CORPORATION NIKON D70"; `make` and `model`
 *   are the exact values the list filters take.
 * - Asset types: `types` is the list of filter values; `formats` describes the recognised formats.
 *
 * Cost on a large library (1M assets): the statistics count facts kept in memory per owner
 * (owner-facts.ts: read once, then only changed rows again), a pass of a few milliseconds; filter
 * options walk three indexes and are memoised until files or their metadata change (memo.ts).
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Dep } from '../../platform/cache/change-journal.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid } from '../../platform/http/errors.ts';
import { ASSET_TYPES, FORMATS } from './asset-types.ts';
import { cameraName } from './camera-names.ts';
import type { CatalogMemo } from './memo.ts';
import type { OwnerFacts, Counted } from './owner-facts.ts';
import { StatisticsStore } from './statistics.store.ts';
import type { RepositoryLookup } from '../repositories/index.ts';
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

/** What a statistic counts can move with (change-journal.ts `Dep`): owner-facts.ts's kinds plus standing for an item. */
const COUNTED_DEPS: readonly Dep[] = ['rows', 'trash', 'time', 'type', 'meta', 'path', 'shape', 'media'];

/** Focal length buckets: [min, max) in mm. */
const FOCAL_EDGES = [0, 10, 16, 24, 35, 50, 85, 135, 200, 400];

export class StatisticsService {
  private readonly store: StatisticsStore;

  /** One per catalog, built by the container with the server's facts and memo. */
  constructor(
    private readonly db: Db,
    private readonly facts: OwnerFacts,
    private readonly memos: CatalogMemo,
    private readonly repositories: RepositoryLookup,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new StatisticsStore(db);
  }

  /**
   * A statistic's answer, kept while nothing it counts moved (memo.ts): a like, a rating, a tag or
   * an album change, from any connection, leaves every statistic as it was, so going back to the
   * statistics screen costs a lookup instead of a pass over every file of a large library.
   */
  private memoised<T>(actor: Actor, name: string, params: unknown, compute: () => Promise<T>): Promise<T> {
    return this.memos.getAsync(`stats:${name}:${actor.userId}:${JSON.stringify(params)}`, COUNTED_DEPS, compute);
  }

  /** The caller's files the statistics count (one per media item, live), in one repository or all. */
  private async counted(actor: Actor, repositoryId: string | undefined): Promise<Counted> {
    if (repositoryId !== undefined) this.repositories.require(repositoryId);
    return this.facts.counted(actor.userId, repositoryId);
  }

  filterOptions(actor: Actor): Promise<FilterOptions> {
    // The distinct makes, cameras and lenses of live files: files come and go (rows), move to the
    // Trash, or get their metadata.
    return this.memos.get(`filter-options:${actor.userId}`, ['rows', 'trash', 'meta'], () => {
      const models = this.store.distinct(actor.userId, 'camera_model');
      const makes = this.store.makesOfModels(actor.userId, models);
      return {
        camera_makes: this.store.distinct(actor.userId, 'camera_make').map((s) => s.trim()).filter(Boolean).sort(byName),
        camera_models: models.map((s) => s.trim()).filter(Boolean).sort(byName),
        cameras: models
          .filter((model) => model.trim())
          .map((model) => ({ make: makes.get(model) ?? null, model, name: cameraName(makes.get(model), model) }))
          .sort((x, y) => byName(x.name, y.name)),
        lenses: this.store.distinct(actor.userId, 'lens_model').map((s) => s.trim()).filter(Boolean).sort(byName),
      };
    });
  }

  assetTypes(): AssetTypes {
    return { types: [...ASSET_TYPES], formats: FORMATS.map((f) => ({ ...f, extensions: [...f.extensions], mime_types: [...f.mime_types] })) };
  }

  years(actor: Actor, repositoryId?: string): Promise<StatsYears> {
    return this.memoised(actor, 'years', { repositoryId }, async () => {
      const { facts, rows } = await this.counted(actor, repositoryId);
      const counts = new Map<number, number>();
      for (const i of rows) counts.set(facts.year[i]!, (counts.get(facts.year[i]!) ?? 0) + 1);
      const years = [...counts].map(([year, count]) => ({ year, count })).sort((x, y) => y.year - x.year);
      return { years, total: rows.length };
    });
  }

  cameraLens(actor: Actor, q: { limit: number; repository_id?: string | undefined }): Promise<CameraLensStats> {
    return this.memoised(actor, 'camera-lens', { limit: q.limit, repositoryId: q.repository_id }, async () => {
      const { facts, rows: counted } = await this.counted(actor, q.repository_id);
      const pairs = new Map<number, number>();
      // A pair of dictionary indexes as one number (lens -1: none recorded).
      const width = facts.names.length + 1;
      for (const i of counted) {
        if (facts.photo[i] !== 1 || facts.camera[i] === -1) continue;
        const key = facts.camera[i]! * width + (facts.lens[i]! + 1);
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
      const rows = [...pairs].map(([key, count]) => {
        const lens = (key % width) - 1;
        return { camera_model: facts.names[Math.floor(key / width)]!, lens_model: lens === -1 ? null : facts.names[lens]!, count };
      });
      rows.sort((x, y) => y.count - x.count || byName(x.camera_model, y.camera_model) || byName(x.lens_model ?? '', y.lens_model ?? ''));
      return {
        items: rows.slice(0, q.limit),
        limit: q.limit,
        total_combinations: rows.length,
        total_photos: rows.reduce((n, r) => n + r.count, 0),
      };
    });
  }

  async heatmap(actor: Actor, q: ActivityQuery): Promise<ActivityHeatmap> {
    // The range first: a bad one is a 422 before anything is counted, and "today" is part of the key.
    const { start, end } = this.range(q);
    return this.memoised(actor, 'heatmap', { start, end, repositoryId: q.repository_id }, async () => {
      const { facts, rows } = await this.counted(actor, q.repository_id);
      const first = msOf(start) / DAY_MS;
      const perDay = new Int32Array(msOf(end) / DAY_MS - first + 1);
      for (const i of rows) {
        const d = facts.day[i]! - first;
        if (d >= 0 && d < perDay.length) perDay[d]!++;
      }
      const days = Array.from(perDay, (count, d) => ({ date: dayOf((first + d) * DAY_MS), count }));
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

  focalLengths(actor: Actor, repositoryId?: string): Promise<FocalLengthStats> {
    return this.memoised(actor, 'focal-lengths', { repositoryId }, async () => {
      const { facts, rows: counted } = await this.counted(actor, repositoryId);
      const perValue = new Map<number | null, number>();
      for (const i of counted) {
        if (facts.photo[i] !== 1) continue;
        const fl = Number.isNaN(facts.fl[i]!) ? null : facts.fl[i]!;
        perValue.set(fl, (perValue.get(fl) ?? 0) + 1);
      }
      const rows = [...perValue].map(([fl, count]) => ({ fl, count }));
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

  timeDistribution(actor: Actor, q: { type: 'hourly' | 'monthly'; repository_id?: string | undefined }): Promise<TimeDistribution> {
    return this.memoised(actor, 'time-distribution', { type: q.type, repositoryId: q.repository_id }, async () => {
      const { facts, rows } = await this.counted(actor, q.repository_id);
      const unit = q.type === 'hourly' ? facts.hour : facts.month;
      const first = q.type === 'hourly' ? 0 : 1;
      const counts = new Array<number>(q.type === 'hourly' ? 24 : 12).fill(0);
      for (const i of rows) if (unit[i]! >= first) counts[unit[i]! - first]!++;
      const buckets = counts.map((count, k) => ({ bucket: k + first, count }));
      return { type: q.type, buckets, total: buckets.reduce((n, b) => n + b.count, 0) };
    });
  }
}
