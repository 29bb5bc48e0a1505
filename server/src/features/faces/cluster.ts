/**
 * Face clustering per owner, the reference's `immich-dbscan-sequential-v1` (original-system.md §3) with
 * Hearth's thresholds: faces are taken best score first; a face is a core point when it has at least
 * MIN_POINTS − 1 neighbours (cosine ≥ THRESHOLD). Pass 1: each core face joins the group of its nearest
 * already-placed face within the threshold, or starts a new group. Pass 2: each other face joins the group of
 * its nearest placed face within the threshold, or stays unclustered (noise: no person).
 *
 * Faces may come already placed (`fixed`: a member's placements and a confirmed person's faces); they are never
 * moved and new faces may join them. `rejects` keeps a face out of a group ("not this person").
 *
 * The rule reads only a face's neighbours, so its groups inside one connected component of the "cosine ≥
 * threshold" graph depend on that component's faces alone: the incremental pass after each photo clusters the
 * new faces' components again with this same function (faces.store.ts reclusterAround), which is why people
 * found as photos arrive are the people a rebuild of the same faces gives, in any order.
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
 *
 * Scale (issue 14, 100k faces): the algorithm needs, per face, only its neighbours within the threshold, nearest
 * first, never all pairs. They come from a `NeighbourSource` (cluster-neighbours.ts): the exact scan for small
 * sets, an HNSW index with every candidate re-checked exactly for large ones. Each face keeps its first 16
 * (enough for the core check); "nearest placed face" reads that list, and only when none of them is placed
 * (and more may exist) asks again with 4× the k, or scans the placed faces directly while they are fewer than
 * that k. The groups are the all-pairs scan's (cluster-reference.ts) whenever the lists are complete, which the
 * exact scan always is; with the index, a neighbour the graph misses can change a face's group (measured
 * recall in `npm run bench:faces`). Exact ties in similarity go, as in the all-pairs scan, to the face placed
 * last. `clusterFacesIndexed` yields to the event loop between batches; a people rebuild runs it on a thread of
 * its own besides (cluster-thread.ts), so that neither its work nor its garbage reaches the server's event loop.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { ExactNeighbours, FaceMatrix, HnswNeighbours, type NeighbourList, type NeighbourSource } from './cluster-neighbours.ts';
import { cosine } from './embed.ts';
import { sortInSlices } from '../../platform/cache/sort-in-slices.ts';

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

export interface IndexedClusterOptions extends ClusterOptions {
  /** `auto` (default): the exact scan while faces to place × all faces ≤ EXACT_BUDGET, the HNSW index above. */
  neighbours?: 'auto' | 'exact' | 'hnsw';
  /**
   * Index threads (default 1). One thread builds the same graph from the same faces every time, so a rebuild
   * of unchanged faces gives the same people (a household expects that); two threads built faster but a
   * different graph each run, now and then missing a neighbour the other run found (a face changed group
   * between two identical rebuilds of 6,000 faces, people-scale.test.ts).
   */
  threads?: number;
}

/** Pairs the exact scan may read before the index pays off (~5k × 5k faces: well under a second). */
export const EXACT_BUDGET = 25_000_000;
/** Each face's first list: enough for the core check and, nearly always, for its nearest placed face. */
const FIRST_K = 16;
/**
 * The longest stretch of clustering work between two yields (ms). The server's event loop must never be held
 * for more than 50 ms during a rebuild (issue 25): the work checks the clock as it goes and yields once a slice
 * has run this long, so a slice's length is the same on a fast or a loaded machine. Index searches are sized to
 * it too (`Batcher`: a search of many faces is one native call that cannot be cut).
 */
export const SLICE_MS = 12;

/**
 * Batch sizes for calls that cannot be cut (a native search or insert of many faces): each call's time is
 * measured and the next batch grown or shrunk towards `SLICE_MS`. The first batch is small (what one face
 * costs is not known before the first call: a search at 100k faces is ~1 ms a face, an exact scan at 5k faces
 * about the same).
 */
export class Batcher {
  constructor(
    private size = 8,
    private readonly max = 4096,
  ) {}
  next(): number {
    return this.size;
  }
  took(ms: number, size: number): void {
    if (ms < SLICE_MS / 2) this.size = Math.min(this.max, size * 2);
    else if (ms > SLICE_MS) this.size = Math.max(1, Math.floor((size * SLICE_MS) / ms));
  }
}

/**
 * Groups of the faces: a map face id → group (a `fixed` person id, or a new group numbered −1, −2, … for the
 * caller to turn into people); faces left out are noise. Synchronous, exact scan: for the small sets of an
 * incremental pass (inside a write transaction); a full rebuild uses `clusterFacesIndexed`.
 */
export function clusterFaces(faces: ClusterFace[], opts: ClusterOptions = {}): Map<number, number> {
  const threshold = opts.threshold ?? CLUSTER_PARAMS.threshold;
  const m = new FaceMatrix(faces.map((f) => f.embedding));
  const steps = clusterSteps(faces, m, new ExactNeighbours(m, threshold), threshold, opts.minPoints ?? CLUSTER_PARAMS.minPoints);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The same groups for any number of faces, yielding to the event loop between batches. */
export async function clusterFacesIndexed(faces: ClusterFace[], opts: IndexedClusterOptions = {}): Promise<Map<number, number>> {
  const threshold = opts.threshold ?? CLUSTER_PARAMS.threshold;
  const m = await FaceMatrix.inSlices(faces.map((f) => f.embedding), () => tick(), SLICE_MS);
  const toPlace = faces.filter((f) => f.fixed == null).length;
  const mode = opts.neighbours ?? 'auto';
  const useIndex = mode === 'hnsw' || (mode === 'auto' && toPlace * faces.length > EXACT_BUDGET);
  const pause = () => tick();
  const src: NeighbourSource = useIndex
    ? await HnswNeighbours.build(m, threshold, { threads: opts.threads ?? 1, pause, budgetMs: SLICE_MS })
    : new ExactNeighbours(m, threshold);
  const steps = clusterSteps(faces, m, src, threshold, opts.minPoints ?? CLUSTER_PARAMS.minPoints, true);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/**
 * The clustering itself. `sliced`: yields whenever a slice of work has run SLICE_MS (the caller gives the event
 * loop a turn there); the groups never depend on where it yielded.
 */
function* clusterSteps(faces: ClusterFace[], m: FaceMatrix, src: NeighbourSource, threshold: number, minPoints: number, sliced = false): Generator<void, Map<number, number>> {
  let sliceStart = performance.now();
  /** Yields when the slice is over; the next slice starts when the caller resumes. */
  function* slice(): Generator<void, void> {
    if (!sliced || performance.now() - sliceStart < SLICE_MS) return;
    yield;
    sliceStart = performance.now();
  }
  const n = faces.length;
  const group = new Int32Array(n); // 0: not placed
  // Placement order (−1: not placed): equal similarities go to the face placed last, as in the all-pairs scan.
  const rank = new Int32Array(n).fill(-1);
  const placed: number[] = [];
  const place = (i: number, g: number) => {
    group[i] = g;
    rank[i] = placed.length;
    placed.push(i);
  };
  faces.forEach((f, i) => {
    if (f.fixed != null) place(i, f.fixed);
  });
  const unplaced = faces.map((_, i) => i).filter((i) => group[i] === 0);
  const order = yield* sortInSlices(unplaced, (a, b) => faces[b]!.score - faces[a]!.score || faces[a]!.id - faces[b]!.id, slice);
  const firstK = Math.max(FIRST_K, minPoints);
  const lists: (NeighbourList | undefined)[] = new Array(n);
  const batcher = new Batcher();
  for (let s = 0; s < order.length; ) {
    const size = sliced ? batcher.next() : order.length;
    const rows = order.slice(s, s + size);
    const t = performance.now();
    src.queryMany(rows, firstK).forEach((l, x) => (lists[rows[x]!] = l));
    batcher.took(performance.now() - t, rows.length);
    s += rows.length;
    yield* slice();
  }

  const better = (j: number, s: number, best: number, bestSim: number) => best < 0 || s > bestSim || (s === bestSim && rank[j]! > rank[best]!);
  const nearestPlaced = (i: number): number => {
    const rejects = faces[i]!.rejects;
    const allowed = (j: number) => rank[j]! >= 0 && !rejects?.has(group[j]!);
    let list = lists[i]!;
    let k = firstK;
    for (;;) {
      // Few faces placed yet: reading them all is cheaper than a longer list.
      if (placed.length <= k) {
        let best = -1, bestSim = threshold;
        for (const j of placed) {
          const s = m.sim(i, j);
          if (s >= threshold && allowed(j) && better(j, s, best, bestSim)) {
            best = j;
            bestSim = s;
          }
        }
        return best;
      }
      let best = -1, bestSim = threshold;
      for (let x = 0; x < list.ids.length; x++) {
        const j = list.ids[x]!;
        if (allowed(j) && better(j, list.sims[x]!, best, bestSim)) {
          best = j;
          bestSim = list.sims[x]!;
        }
      }
      // Every face beyond the list is no nearer than its last entry, so a hit in the list is the nearest.
      if (best >= 0 || !list.more) return best;
      k = Math.min(n, k * 4);
      list = src.query(i, k);
    }
  };

  let next = -1;
  const deferred: number[] = [];
  for (const i of order) {
    if (lists[i]!.ids.length + 1 < minPoints) deferred.push(i);
    else {
      const j = nearestPlaced(i);
      place(i, j >= 0 ? group[j]! : next--);
    }
    yield* slice();
  }
  // Border faces join a group but are not placed: later faces never join through them.
  for (const i of deferred) {
    const j = nearestPlaced(i);
    if (j >= 0) group[i] = group[j]!;
    yield* slice();
  }
  const out = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (group[i] !== 0) out.set(faces[i]!.id, group[i]!);
    if ((i & 1023) === 1023) yield* slice();
  }
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
