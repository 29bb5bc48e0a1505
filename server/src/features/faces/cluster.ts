/**
 * Face clustering per owner, the reference's `immich-dbscan-sequential-v1` (original-system.md §3) with
 * Hearth's thresholds: faces are taken best score first; a face is a core point when it has at least
 * MIN_POINTS − 1 neighbours (cosine ≥ THRESHOLD). Pass 1: each core face joins the group of its nearest
 * already-placed face within the threshold, or starts a new group. Pass 2: each other face joins the group of
 * its nearest placed face within the threshold, or stays unclustered (noise: no person).
 *
 * Faces may come already placed (`fixed`: a person's confirmed faces, or every face at an incremental pass);
 * they are never moved and new faces may join them. `rejects` keeps a face out of a group ("not this person").
 *
 * Thresholds, chosen on ../shared/corpus/faces (labels.json: the largest face of each of the 62 photos of one
 * identity, 16 people; every other detected face clustered too but not scored) by BCubed precision, recall and
 * F1 over a grid of threshold 0.30–0.60 by 0.05 and min size 2–3 (test/server/faces/clustering-quality.test.ts
 * prints the figures at the chosen values):
 *
 *   min size 2: threshold 0.30–0.45 → precision 1.000, recall 1.000, F1 1.000; 0.50–0.55 → recall 0.957, F1 0.978;
 *               0.60 → recall 0.935, F1 0.967
 *   min size 3: threshold 0.30–0.45 → precision 1.000, recall 0.968, F1 0.984; 0.50–0.55 → F1 0.961
 *   No group mixed two identities anywhere on the grid.
 *
 * Chosen: threshold 0.40, min size 2, the middle of the perfect plateau. With YuNet + aligned, flip-averaged
 * MobileFaceNet the same person scored 0.47–0.96 (mean 0.73) and different people at most 0.31 on that corpus:
 * 0.40 leaves room on both sides for a household's harder photos (profiles, small faces). Min size 2 rather than
 * the reference's 3: a household library has many people seen in only two photos, and min size 3 only lost
 * recall here (a pair at ≥ 0.40 was never wrong).
 */
import { cosine } from './embed.ts';

export const CLUSTER_PARAMS = { threshold: 0.4, minPoints: 2 } as const;

export interface ClusterFace {
  id: number;
  score: number;
  embedding: Float32Array;
  /** Already placed in this group (a person id); never moved. */
  fixed?: number | null;
  /** Groups (person ids) this face must not join. */
  rejects?: ReadonlySet<number>;
}

export interface ClusterOptions {
  threshold?: number;
  minPoints?: number;
}

/**
 * Groups of the faces: a map face id → group (a `fixed` person id, or a new group numbered −1, −2, … for the
 * caller to turn into people); faces left out are noise.
 */
export function clusterFaces(faces: ClusterFace[], opts: ClusterOptions = {}): Map<number, number> {
  const threshold = opts.threshold ?? CLUSTER_PARAMS.threshold;
  const minPoints = opts.minPoints ?? CLUSTER_PARAMS.minPoints;
  const n = faces.length;
  const dims = n ? faces[0]!.embedding.length : 0;
  // One contiguous matrix: the O(n²) neighbour scan reads it row by row.
  const m = new Float32Array(n * dims);
  faces.forEach((f, i) => m.set(f.embedding, i * dims));
  const sim = (i: number, j: number) => {
    let s = 0;
    const a = i * dims, b = j * dims;
    for (let k = 0; k < dims; k++) s += m[a + k]! * m[b + k]!;
    return s;
  };
  const group = new Int32Array(n); // 0: not placed
  const placed: number[] = [];
  faces.forEach((f, i) => {
    if (f.fixed != null) {
      group[i] = f.fixed;
      placed.push(i);
    }
  });
  const order = faces.map((_, i) => i).filter((i) => group[i] === 0).sort((a, b) => faces[b]!.score - faces[a]!.score || faces[a]!.id - faces[b]!.id);
  const neighbours = new Int32Array(n);
  // Only "has at least minPoints − 1 neighbours" matters: counting stops there (same groups, far fewer reads).
  const enough = minPoints - 1;
  for (const i of order) {
    let c = 0;
    for (let j = 0; j < n && c < enough; j++) if (j !== i && sim(i, j) >= threshold) c++;
    neighbours[i] = c;
  }
  let next = -1;
  const nearestPlaced = (i: number): number => {
    let best = -1, bestSim = threshold;
    const rejects = faces[i]!.rejects;
    for (const j of placed) {
      const s = sim(i, j);
      if (s >= bestSim && !(rejects?.has(group[j]!))) {
        best = j;
        bestSim = s;
      }
    }
    return best;
  };
  const deferred: number[] = [];
  for (const i of order) {
    if (neighbours[i]! + 1 < minPoints) {
      deferred.push(i);
      continue;
    }
    const j = nearestPlaced(i);
    group[i] = j >= 0 ? group[j]! : next--;
    placed.push(i);
  }
  for (const i of deferred) {
    const j = nearestPlaced(i);
    if (j >= 0) group[i] = group[j]!;
  }
  const out = new Map<number, number>();
  faces.forEach((f, i) => {
    if (group[i] !== 0) out.set(f.id, group[i]!);
  });
  return out;
}

/** The L2-normalised mean of embeddings (a person's centroid). */
export function centroid(vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]?.length ?? 0);
  for (const v of vectors) for (let i = 0; i < v.length; i++) out[i]! += v[i]!;
  let s = 0;
  for (const x of out) s += x * x;
  const norm = Math.sqrt(s) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

export { cosine };
