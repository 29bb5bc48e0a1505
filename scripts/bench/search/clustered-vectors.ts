/**
 * Synthetic CLIP-like vectors for the vector-index bench and tests: 512-d, unit length, seeded (the same seed
 * gives the same data on every machine), with the structure that makes real embeddings hard for an index and
 * uniform noise does not have:
 * - a common direction shared by every vector (real CLIP photos of unrelated things still have cosine ~0.2–0.4),
 * - a few thousand cluster centres (subjects), drawn with a skew (some subjects are far more common) and each
 *   with its own spread (tight "screenshots of one app" vs loose "outdoors"),
 * - near-duplicate pairs (bursts, edits: cosine ~0.99 to an earlier vector),
 * - videos: a few assets carry several frames, close to one another.
 * Queries come in two kinds: text-like (a subject's centre seen from further away, cosine ~0.3–0.5 to its
 * photos, as CLIP text vectors are) and image-like ("more like this": a stored vector plus noise).
 */
import { seededRandom } from '../../../test/shared/seeded-random.ts';

export const DIMS = 512;

export interface ClusteredSet {
  /** all vectors, row-major, unit length */
  vectors: Float32Array;
  /** per vector: its asset's index (0-based; assets are numbered in order of their first vector) */
  assetOf: Int32Array;
  /** per vector: -1 for a photo, else the frame's ms */
  frameTs: Int32Array;
  assets: number;
  /** the cluster of each asset (so tests can pick a subject) */
  clusterOfAsset: Int32Array;
  centres: Float32Array;
  common: Float32Array;
}

export interface ClusteredOptions {
  vectors: number;
  seed?: number;
  clusters?: number;
  /** share of assets that are videos (3–8 frames) */
  videoShare?: number;
  /** share of vectors that are a near-duplicate of an earlier one */
  nearDuplicateShare?: number;
}

export function gaussian(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
  return v;
}

function unitGaussian(g: () => number): Float32Array {
  const v = new Float32Array(DIMS);
  for (let j = 0; j < DIMS; j++) v[j] = g();
  return normalise(v);
}

const COMMON_WEIGHT = 0.6;

export function clusteredSet(opts: ClusteredOptions): ClusteredSet {
  const n = opts.vectors;
  const random = seededRandom(opts.seed ?? 13);
  const g = gaussian(random);
  const clusters = opts.clusters ?? Math.max(20, Math.min(5000, Math.round(n / 200)));
  const videoShare = opts.videoShare ?? 0.03;
  const dupShare = opts.nearDuplicateShare ?? 0.05;
  const common = unitGaussian(g);
  const centres = new Float32Array(clusters * DIMS);
  const spread = new Float32Array(clusters);
  const cumulative = new Float64Array(clusters);
  let total = 0;
  for (let c = 0; c < clusters; c++) {
    centres.set(unitGaussian(g), c * DIMS);
    spread[c] = 0.6 + 0.8 * random();
    total += 1 / Math.pow(c + 1, 0.7);
    cumulative[c] = total;
  }
  const pickCluster = () => {
    const x = random() * total;
    let lo = 0;
    let hi = clusters - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const vectors = new Float32Array(n * DIMS);
  const assetOf = new Int32Array(n);
  const frameTs = new Int32Array(n);
  const clusterOfAsset: number[] = [];
  const scratch = new Float32Array(DIMS);
  const write = (i: number, base: Float32Array | null, c: number, sigma: number) => {
    for (let j = 0; j < DIMS; j++) {
      const noise = (g() * sigma) / Math.sqrt(DIMS);
      scratch[j] = base ? base[j]! + noise : COMMON_WEIGHT * common[j]! + centres[c * DIMS + j]! + noise;
    }
    vectors.set(normalise(scratch), i * DIMS);
  };

  let i = 0;
  let asset = 0;
  while (i < n) {
    const c = pickCluster();
    clusterOfAsset.push(c);
    const isVideo = random() < videoShare;
    if (isVideo) {
      const frames = Math.min(n - i, 3 + Math.floor(random() * 6));
      write(i, null, c, spread[c]!);
      const first = vectors.slice(i * DIMS, (i + 1) * DIMS);
      for (let f = 0; f < frames; f++) {
        if (f > 0) write(i, first, c, 0.5);
        assetOf[i] = asset;
        frameTs[i] = 500 + f * 2000;
        i++;
      }
    } else {
      if (i > 0 && random() < dupShare) write(i, vectors.slice((i - 1) * DIMS, i * DIMS), c, 0.15);
      else write(i, null, c, spread[c]!);
      assetOf[i] = asset;
      frameTs[i] = -1;
      i++;
    }
    asset++;
  }
  return { vectors, assetOf, frameTs, assets: asset, clusterOfAsset: Int32Array.from(clusterOfAsset), centres, common };
}

/** Seeded queries: half text-like (a subject seen from afar), half image-like (a stored vector plus noise). */
export function clusteredQueries(set: ClusteredSet, count: number, seed = 99): Float32Array[] {
  const random = seededRandom(seed);
  const g = gaussian(random);
  const n = set.vectors.length / DIMS;
  const clusters = set.centres.length / DIMS;
  const out: Float32Array[] = [];
  for (let q = 0; q < count; q++) {
    const v = new Float32Array(DIMS);
    if (q % 2 === 0) {
      const c = set.clusterOfAsset[set.assetOf[Math.floor(random() * n)]!]! % clusters;
      for (let j = 0; j < DIMS; j++) v[j] = 0.3 * set.common[j]! + 0.5 * set.centres[c * DIMS + j]! + (g() * 1.2) / Math.sqrt(DIMS);
    } else {
      const i = Math.floor(random() * n);
      for (let j = 0; j < DIMS; j++) v[j] = set.vectors[i * DIMS + j]! + (g() * 0.5) / Math.sqrt(DIMS);
    }
    out.push(normalise(v));
  }
  return out;
}
