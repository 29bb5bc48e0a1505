/**
 * `weighted_aes_v1`: deterministic weighted sampling of featured photos with diversity caps.
 *
 * 1. Weight per candidate, from its age, quality and how much metadata it carries:
 *    recency  = exp(−ln2 · daysOld / 120)            (half-life 120 days; future dates count as today)
 *    resolution = clamp(megapixels / 24, 0, 1)
 *    quality  = 0.45 · rating/5 + 0.20 · liked + 0.35 · resolution
 *    richness = min(1, 0.20 taken time + 0.20 camera + 0.15 lens + 0.20 GPS (not (0,0))
 *                      + 0.10 exposure time + 0.15 f-number)
 *    score    = 0.45 · recency + 0.35 · quality + 0.20 · richness
 *    weight   = 0.05 + 0.95 · score
 * 2. Efraimidis–Spirakis key = −ln(u) / weight, where u comes from SHA-256(`${seed}:${assetId}`): its
 *    first 8 bytes as a big-endian unsigned integer, top 53 bits, u = (n + 0.5) / 2^53, strictly
 *    inside (0, 1). Smaller key = higher rank; heavier photos tend to rank higher, and the same seed
 *    always gives the same ranks.
 * 3. Walk the ranks in order and take a photo unless it would exceed a cap: 2 per local capture day,
 *    3 per camera model (lower-cased; photos without one are not capped by camera), 4 per aspect
 *    bucket (landscape: width/height ≥ 1.2, portrait ≤ 0.85, else squareish; unknown size counts
 *    as squareish). If fewer than `count` were taken, fill the remaining slots by rank, ignoring
 *    the caps. The result is in the order taken (capped picks first, then fills, each by rank).
 */
import { createHash } from 'node:crypto';

export const STRATEGY = 'weighted_aes_v1';
export const CAPS = { day: 2, camera: 3, aspect: 4 } as const;

const DAY_MS = 86_400_000;
const HALF_LIFE_DAYS = 120;

export interface FeaturedCandidate {
  asset_id: string;
  /** Capture time, else upload time (epoch ms): what recency is measured from. */
  best_time: number;
  /** The same instant as local wall-clock time (epoch ms read as UTC): gives the day bucket. */
  local_ms: number;
  width: number | null;
  height: number | null;
  rating: number;
  liked: boolean;
  has_taken_time: boolean;
  camera_model: string | null;
  lens_model: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  exposure_time: string | number | null;
  f_number: number | null;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const present = (v: unknown) => v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');

export function weight(c: FeaturedCandidate, refMs: number): number {
  const daysOld = Math.max(0, (refMs - c.best_time) / DAY_MS);
  const recency = Math.exp((-Math.LN2 * daysOld) / HALF_LIFE_DAYS);
  const mp = c.width && c.height ? (c.width * c.height) / 1e6 : 0;
  const resolution = clamp01(mp / 24);
  const quality = 0.45 * (c.rating / 5) + 0.2 * (c.liked ? 1 : 0) + 0.35 * resolution;
  const hasGps = c.gps_latitude !== null && c.gps_longitude !== null && !(c.gps_latitude === 0 && c.gps_longitude === 0);
  const richness = Math.min(
    1,
    (c.has_taken_time ? 0.2 : 0) +
      (present(c.camera_model) ? 0.2 : 0) +
      (present(c.lens_model) ? 0.15 : 0) +
      (hasGps ? 0.2 : 0) +
      (present(c.exposure_time) ? 0.1 : 0) +
      (present(c.f_number) ? 0.15 : 0),
  );
  const score = 0.45 * recency + 0.35 * quality + 0.2 * richness;
  return 0.05 + 0.95 * score;
}

/** u in (0, 1) from SHA-256(`${seed}:${assetId}`). */
export function uniform(seed: string, assetId: string): number {
  const digest = createHash('sha256').update(`${seed}:${assetId}`).digest();
  const n = digest.readBigUInt64BE(0) >> 11n;
  return (Number(n) + 0.5) / 2 ** 53;
}

export function aesKey(seed: string, c: FeaturedCandidate, refMs: number): number {
  return -Math.log(uniform(seed, c.asset_id)) / weight(c, refMs);
}

export function aspectBucket(c: Pick<FeaturedCandidate, 'width' | 'height'>): 'landscape' | 'portrait' | 'squareish' {
  if (!c.width || !c.height) return 'squareish';
  const ratio = c.width / c.height;
  return ratio >= 1.2 ? 'landscape' : ratio <= 0.85 ? 'portrait' : 'squareish';
}

const dayBucket = (c: FeaturedCandidate) => new Date(c.local_ms).toISOString().slice(0, 10);
const cameraBucket = (c: FeaturedCandidate) => (present(c.camera_model) ? c.camera_model!.trim().toLowerCase() : null);

/** Picks up to `count` candidates (see the file comment). `refMs`: "now" for recency. */
export function selectFeatured<T extends FeaturedCandidate>(candidates: T[], count: number, seed: string, refMs: number): T[] {
  const ranked = candidates
    .map((c) => ({ c, key: aesKey(seed, c, refMs) }))
    .sort((x, y) => x.key - y.key || (x.c.asset_id < y.c.asset_id ? -1 : x.c.asset_id > y.c.asset_id ? 1 : 0))
    .map((r) => r.c);
  const days = new Map<string, number>();
  const cameras = new Map<string, number>();
  const aspects = new Map<string, number>();
  const taken: T[] = [];
  const chosen = new Set<string>();
  for (const c of ranked) {
    if (taken.length >= count) break;
    const day = dayBucket(c);
    const camera = cameraBucket(c);
    const aspect = aspectBucket(c);
    if ((days.get(day) ?? 0) >= CAPS.day) continue;
    if (camera !== null && (cameras.get(camera) ?? 0) >= CAPS.camera) continue;
    if ((aspects.get(aspect) ?? 0) >= CAPS.aspect) continue;
    taken.push(c);
    chosen.add(c.asset_id);
    days.set(day, (days.get(day) ?? 0) + 1);
    if (camera !== null) cameras.set(camera, (cameras.get(camera) ?? 0) + 1);
    aspects.set(aspect, (aspects.get(aspect) ?? 0) + 1);
  }
  for (const c of ranked) {
    if (taken.length >= count) break;
    if (!chosen.has(c.asset_id)) taken.push(c);
  }
  return taken;
}
