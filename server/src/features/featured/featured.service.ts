/**
 * Featured photos (getFeaturedPhotos): a small, varied daily selection from the caller's recent
 * photos, by the `weighted_aes_v1` algorithm (weighted-aes.ts).
 *
 * Decisions (the contract gives the parameters, defaults and response fields):
 * - Candidates: your own photos, not in the Trash, one per media item (a RAW+JPEG pair is its JPEG),
 *   with thumbnails ready (a photo still processing or that failed is never featured), at most
 *   `candidate_limit` of them in the library's default order (recently added first), captured (else
 *   added) within the last `days` days (0: no cutoff).
 * - Deterministic: the seed defaults to today's UTC date (YYYY-MM-DD), and recency is measured from
 *   the start of the current UTC day, so the same seed over the same library gives the same list all
 *   day; another seed gives another draw.
 * - "On this day" (`on_this_day`, beyond the contract, for the Photos page's memories): the viewer
 *   sends its own today, since only the viewer knows which day it is where the family sits; the
 *   candidates are the photos *taken* on that month and day in earlier years (a photo's own local
 *   date, as the timeline files it; an upload date says nothing about the day remembered), and the
 *   same weighting and caps choose among them (at most 2 per day, so several years show up).
 * - `count` in the answer is the number of assets returned (fewer than asked when the library has
 *   fewer candidates); `candidate_count` the candidates drawn from.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { toAsset } from '../assets/index.ts';
import { nonHeadRowids } from '../statistics/index.ts';
import { FeaturedStore, type CandidateRow } from './featured.store.ts';
import { STRATEGY, selectFeatured, type FeaturedCandidate } from './weighted-aes.ts';
import type { FeaturedPhotos, FeaturedQuery } from './featured.routes.ts';
import type { RepositoryLookup } from '../repositories/index.ts';

const DAY_MS = 86_400_000;

function meta(row: CandidateRow): Record<string, unknown> {
  try {
    const m: unknown = row.specific_metadata ? JSON.parse(row.specific_metadata) : null;
    return m && typeof m === 'object' ? (m as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function toCandidate(row: CandidateRow): FeaturedCandidate & { row: CandidateRow } {
  const m = meta(row);
  return {
    row,
    asset_id: row.asset_id,
    best_time: row.best_time,
    local_ms: row.local_ms,
    width: row.width,
    height: row.height,
    rating: row.rating,
    liked: row.liked === 1,
    has_taken_time: row.taken_time !== null,
    camera_model: str(m.camera_model),
    lens_model: str(m.lens_model),
    gps_latitude: row.gps_latitude,
    gps_longitude: row.gps_longitude,
    exposure_time: typeof m.exposure_time === 'number' ? m.exposure_time : str(m.exposure_time),
    f_number: num(m.f_number),
  };
}

export class FeaturedService {
  private readonly store: FeaturedStore;

  constructor(
    private readonly db: Db,
    private readonly repositories: RepositoryLookup,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new FeaturedStore(db);
  }

  featured(actor: Actor, q: FeaturedQuery): FeaturedPhotos {
    if (q.repository_id !== undefined) this.repositories.require(q.repository_id);
    const now = this.now();
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const seed = q.seed ?? new Date(now).toISOString().slice(0, 10);
    const scope = { ownerId: actor.userId, repositoryId: q.repository_id };
    const nonHeads = nonHeadRowids(this.db, actor.userId);
    const rows = q.on_this_day
      ? this.store.onThisDay(scope, nonHeads, q.candidate_limit, Number(q.on_this_day.slice(5, 7)), Number(q.on_this_day.slice(8, 10)), Number(q.on_this_day.slice(0, 4)))
      : this.store.candidates(scope, nonHeads, q.candidate_limit, q.days === 0 ? null : dayStart - q.days * DAY_MS);
    const picked = selectFeatured(rows.map(toCandidate), q.count, seed, dayStart);
    return {
      assets: picked.map((c) => toAsset(c.row)),
      candidate_count: rows.length,
      count: picked.length,
      generated_at_time: new Date(now).toISOString(),
      seed,
      strategy: STRATEGY,
    };
  }
}
