/**
 * How many candidates each pass keeps, chosen by the figures of `npm run bench:search` (clustered 512-d data with
 * near-duplicates and videos; top-20 with no filter, 30% of assets allowed by a coin per asset, 1% as one rowid
 * range). Re-scoring hundreds of assets straight from SQLite cost ~10 ms per 800 assets, hence the int8 pass
 * between the Hamming scan and the exact re-rank.
 *
 * Figures (recall@20 against the exact answer, no filter / 30% / 1%):
 * - 100k vectors, Hamming pool 1,000 → 0.979 / 0.985 / 1.000; 2,000 → 0.995 / 0.993 / 1.000; 4,000 → 0.999 / 0.996 / 1.000
 * - 1M vectors, pool 2,000 → 0.962 / 0.937 / 0.828: the nearest allowed vectors of a selective filter are further
 *   away, where 512 sign bits tell them apart less well, so the pool must cover more of them.
 * - 1M vectors with the rule below → 0.972 / 0.985 / 1.000.
 * Hence: a pool of 200 per result (4,000 for top-20), and every allowed vector when at most 16,384 are allowed
 * (1% of a million: the int8 pass then scores them all, ~8M multiply-adds). Such a filter's vectors are listed
 * from its assets' slots (binary-codes.ts sparseSlots) instead of found by scanning every code: at 1M with a 1%
 * filter that took a query from 13.5 ms of CPU to ~2 ms.
 *
 * The filter never changes the method: the scan tests `allowed` for every code before it counts it, so the pool
 * is drawn from the allowed vectors only (a graph index has to widen its search or give up under a 1% filter).
 */
export const SCORE_ALL_UP_TO = 16_384;

/** Codes handed from the Hamming pass to the int8 pass. */
export function hammingPool(k: number, allowedVectors: number): number {
  if (allowedVectors <= SCORE_ALL_UP_TO) return allowedVectors;
  // 200 per result up to the top 20 (the figures above); beyond, 20 per result: the hybrid search asks for its
  // whole candidate pool (200 for a first page of 50) to fuse ranks, where the tail's order matters little, and
  // 200 per result there (40,000 int8 scores) cost more than the rest of the request.
  return Math.min(50_000, Math.max(4000, 200 * Math.min(k, 20), 20 * k));
}

/** Assets re-scored exactly from SQLite (all their frames): int8 cosines are within ~1e-3, so twice k is ample. */
export function rerankAssets(k: number): number {
  // Twice k up to k = 20; then k + 40 (each exact re-score reads the asset's rows from SQLite, ~50–80 µs each).
  return k + Math.max(20, Math.min(k, 40));
}

