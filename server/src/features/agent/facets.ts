/**
 * Facets of a set of photos (the reference's ref and pin `facets`): counts by type, camera, lens, focal length,
 * place and person, the date range and a histogram over it, likes, ratings and the quality percentiles.
 * Computed from the catalog's facts of permitted ids only; likes and ratings are the reader's own marks.
 *
 * Quality (`rank by quality`, `quality` facets): the library has no learned aesthetic score, so a photo's
 * quality is a documented heuristic over what the member said and what the file is: the member's rating
 * (0–5 → 0–50), a like (+20), and the resolution (megapixels, up to +30). A file with no known size is
 * `unscored` (and ranks by its marks alone). Deterministic: the same library gives the same order.
 */
import type { AssetFacts } from './library.store.ts';

export interface Marked extends AssetFacts {
  liked: boolean;
  rating: number;
}

export interface Facets {
  count: number;
  types: Record<string, number>;
  cameras: { name: string; count: number }[];
  lenses: { name: string; count: number }[];
  focal_lengths: { name: string; count: number }[];
  top_places: { name: string; count: number }[];
  top_people: { name: string; count: number }[];
  date_range: { from: string | null; to: string | null };
  histogram: { bucket: string; count: number }[];
  histogram_granularity: 'day' | 'month' | 'year';
  liked_count: number;
  rating_dist: number[];
  quality: { p25: number | null; p50: number | null; p75: number | null; p90: number | null; scored: number; unscored: number };
}

export function qualityOf(a: Marked): number {
  const mp = a.width && a.height ? (a.width * a.height) / 1e6 : 0;
  return a.rating * 10 + (a.liked ? 20 : 0) + Math.min(30, mp * 3);
}

/** The local calendar day of a photo (its capture offset when known, else UTC), `YYYY-MM-DD`. */
export function localDay(a: Pick<AssetFacts, 'time' | 'offset'>): string {
  return new Date(a.time + (a.offset ?? 0) * 60_000).toISOString().slice(0, 10);
}

export function cameraName(a: Pick<AssetFacts, 'camera_make' | 'camera_model'>): string | null {
  if (!a.camera_model) return a.camera_make;
  if (a.camera_make && !a.camera_model.toLowerCase().startsWith(a.camera_make.split(' ')[0]!.toLowerCase())) return `${a.camera_make} ${a.camera_model}`;
  return a.camera_model;
}

export function placeName(a: Pick<AssetFacts, 'city' | 'country'>): string | null {
  return a.city ?? a.country ?? null;
}

function counted(values: (string | null)[], top = 10): { name: string; count: number }[] {
  const m = new Map<string, number>();
  for (const v of values) if (v) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)).slice(0, top);
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 10) / 10;
}

export function facetsOf(assets: readonly Marked[], people: { name: string; count: number }[]): Facets {
  const types: Record<string, number> = {};
  for (const a of assets) types[a.type] = (types[a.type] ?? 0) + 1;
  const days = assets.map(localDay).sort();
  const from = days[0] ?? null;
  const to = days.at(-1) ?? null;
  const spanDays = from && to ? (Date.parse(to) - Date.parse(from)) / 86_400_000 : 0;
  const granularity: Facets['histogram_granularity'] = spanDays <= 62 ? 'day' : spanDays <= 3 * 366 ? 'month' : 'year';
  const width = granularity === 'day' ? 10 : granularity === 'month' ? 7 : 4;
  const histogram = counted(days.map((d) => d.slice(0, width)), Infinity).sort((a, b) => a.name.localeCompare(b.name)).map((b) => ({ bucket: b.name, count: b.count }));
  const scored = assets.filter((a) => a.width && a.height).map(qualityOf).sort((x, y) => x - y);
  const ratings = [0, 0, 0, 0, 0, 0];
  for (const a of assets) ratings[a.rating] = (ratings[a.rating] ?? 0) + 1;
  return {
    count: assets.length,
    types,
    cameras: counted(assets.map(cameraName)),
    lenses: counted(assets.map((a) => a.lens)),
    focal_lengths: counted(assets.map((a) => (a.focal_length ? `${Math.round(a.focal_length)}mm` : null))),
    top_places: counted(assets.map(placeName)),
    top_people: people.slice(0, 10).map((p) => ({ name: p.name, count: p.count })),
    date_range: { from, to },
    histogram,
    histogram_granularity: granularity,
    liked_count: assets.filter((a) => a.liked).length,
    rating_dist: ratings,
    quality: { p25: percentile(scored, 25), p50: percentile(scored, 50), p75: percentile(scored, 75), p90: percentile(scored, 90), scored: scored.length, unscored: assets.length - scored.length },
  };
}
