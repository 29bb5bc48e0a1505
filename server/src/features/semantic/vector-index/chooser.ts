/**
 * How many candidates each pass keeps. Figures behind the numbers: `npm run bench:search` (clustered 512-d data
 * with near-duplicates and videos, top-20 with no filter, 30% and 1% of assets allowed). At 100k, re-scoring the
 * 1,000 nearest codes by their int8 vectors and the best 40 assets exactly gave recall@20 0.979 / 0.985 / 1.000
 * (2,000 codes: 0.995 / 0.993 / 1.000); re-scoring hundreds of assets straight from SQLite instead cost ~10 ms
 * per 800 assets, which is why the int8 pass exists.
 *
 * The filter never changes the method: the scan tests `allowed` for every code before it counts it, so the pool
 * is drawn from the allowed vectors only and a selective filter keeps its recall (a graph index has to widen its
 * search or give up under a 1% filter). When fewer vectors are allowed than the pool, all of them are re-scored.
 */

/** Codes handed from the Hamming pass to the int8 pass: 50 per result, and more as the library grows (a
 * million codes hold more near-ties at the same Hamming distance than 100k). */
export function hammingPool(k: number, allowedVectors: number): number {
  return Math.min(50_000, Math.max(1000, 50 * k, Math.round(2 * Math.sqrt(allowedVectors))));
}

/** Assets re-scored exactly from SQLite (all their frames): int8 cosines are within ~1e-3, so twice k is ample. */
export function rerankAssets(k: number): number {
  return Math.max(2 * k, k + 20);
}
