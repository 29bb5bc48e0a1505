/**
 * Where the clustering finds a face's neighbours (the faces within the cosine threshold), nearest first.
 *
 * - `ExactNeighbours` scans every face: O(n) per query, no set-up. Used when queries × faces is small (the
 *   corpus, an incremental pass's leftovers) and as the reference the index is measured against.
 * - `HnswNeighbours` asks a usearch HNSW graph (f32, cosine, M 16) for candidates, then re-checks every
 *   candidate with the same f32 dot product as the exact scan: similarities, the threshold and the order are
 *   exact, only a neighbour the graph did not return can be missed. Measured on 100k synthetic 128-d faces
 *   (`npm run bench:faces -- --faces 100000`, 500 faces, k 16): recall vs the exact scan 0.999–1.000 over
 *   runs (7992–8000 of 8000). The graph is built on 2 threads, so it is not the same graph every run: at 100k
 *   a rebuild can place a handful of faces differently from the last (1992 vs 1993 groups of 100k seen); the
 *   exact scan (below EXACT_BUDGET, cluster.ts) is fully reproducible.
 *   Chosen over i8 (recall 0.938: unit vectors' components ~0.09 keep ~11 levels), f16 at ef 64/64 (0.9985)
 *   and f32 at ef 64/32 (0.989): build and search of f32 with ef_add 128 cost ~1.5× those, on a machine
 *   whose load made every timing vary 2×, and exact groups are worth it (reproducible rebuilds).
 *
 * A list of k may be cut short (`more`): the caller asks again with a larger k when what it needs was not in
 * the first k (cluster.ts), so a person with thousands of faces costs no more memory than one with ten.
 */
import { createRequire } from 'node:module';

export interface NeighbourList {
  /** Face rows (indices into the matrix), nearest first; never the query itself. */
  ids: Int32Array;
  /** Their exact cosine similarities, all ≥ the threshold. */
  sims: Float32Array;
  /** Further neighbours may exist beyond the k asked for. */
  more: boolean;
}

export interface NeighbourSource {
  query(i: number, k: number): NeighbourList;
  /** The lists of many faces at once (the index searches them on its threads). */
  queryMany(rows: ArrayLike<number>, k: number): NeighbourList[];
}

/** Row-major n × dims unit vectors, and the exact similarity both sources use. */
export class FaceMatrix {
  readonly data: Float32Array;
  constructor(
    vectors: readonly Float32Array[],
    readonly dims = vectors[0]?.length ?? 0,
  ) {
    this.data = new Float32Array(vectors.length * dims);
    vectors.forEach((v, i) => this.data.set(v, i * dims));
  }
  /**
   * The same matrix built a slice at a time (`pause` between slices of about `budgetMs`): copying 100k vectors
   * is 50 MB, too long for one turn of the event loop on a loaded machine.
   */
  static async inSlices(vectors: readonly Float32Array[], pause: () => Promise<unknown>, budgetMs: number): Promise<FaceMatrix> {
    const m = new FaceMatrix([], vectors[0]?.length ?? 0);
    const data = new Float32Array(vectors.length * m.dims);
    let start = performance.now();
    for (let i = 0; i < vectors.length; i++) {
      data.set(vectors[i]!, i * m.dims);
      if ((i & 255) === 255 && performance.now() - start >= budgetMs) {
        await pause();
        start = performance.now();
      }
    }
    (m as { data: Float32Array }).data = data;
    return m;
  }
  /** A matrix over `data` as it is (no copy): row-major, `dims` per row. */
  static over(data: Float32Array, dims: number): FaceMatrix {
    const m = new FaceMatrix([], dims);
    (m as { data: Float32Array }).data = data;
    return m;
  }
  get size(): number {
    return this.dims ? this.data.length / this.dims : 0;
  }
  sim(i: number, j: number): number {
    const m = this.data, d = this.dims, a = i * d, b = j * d;
    let s = 0;
    for (let k = 0; k < d; k++) s += m[a + k]! * m[b + k]!;
    return s;
  }
  row(i: number): Float32Array {
    return this.data.subarray(i * this.dims, (i + 1) * this.dims);
  }
}

/** Candidates → a list: exact sims, ≥ threshold, nearest first (ties: lower row first), at most k. */
function toList(m: FaceMatrix, i: number, candidates: Iterable<number>, threshold: number, k: number, moreIfFull: boolean): NeighbourList {
  const ids: number[] = [];
  const sims: number[] = [];
  for (const j of candidates) {
    if (j === i) continue;
    const s = m.sim(i, j);
    if (s >= threshold) {
      ids.push(j);
      sims.push(s);
    }
  }
  return ordered(ids, sims, k, moreIfFull);
}

/**
 * Neighbours found (ids, their exact sims) as a list: nearest first (ties: lower row first), at most k. The k nearest
 * are picked by insertion into a list of k, not by sorting them all: a face of a person of 500 faces has 500 within
 * the threshold, and sorting each face's all made most of a component's clustering (scripts/bench/faces.ts).
 */
function ordered(ids: number[], sims: number[], k: number, moreIfFull: boolean): NeighbourList {
  const size = Math.min(k, ids.length);
  const topIds = new Int32Array(size);
  const topSims = new Float64Array(size);
  let len = 0;
  for (let x = 0; x < ids.length; x++) {
    const s = sims[x]!, j = ids[x]!;
    // Ahead of the last kept one: nearer, or as near and a lower row (a strict order: rows differ).
    if (len === size && !(s > topSims[size - 1]! || (s === topSims[size - 1]! && j < topIds[size - 1]!))) continue;
    let p = len < size ? len++ : size - 1;
    while (p > 0 && (s > topSims[p - 1]! || (s === topSims[p - 1]! && j < topIds[p - 1]!))) {
      topSims[p] = topSims[p - 1]!;
      topIds[p] = topIds[p - 1]!;
      p--;
    }
    topSims[p] = s;
    topIds[p] = j;
  }
  return { ids: topIds, sims: Float32Array.from(topSims), more: ids.length > k || moreIfFull };
}

/**
 * Up to this many faces, `ExactNeighbours` computes every pair's similarity once (n² float64s: 2 MB at 512): a
 * clustering of n faces asks for every face's list, and each pair was computed twice per list before (the filter, then
 * `toList`), four times in all. That is the incremental pass's clustering of a component, inside the photo's write
 * (a person of 150 faces: 14 ms of it, scripts/bench/faces.ts).
 */
const PAIR_TABLE_MAX = 512;

export class ExactNeighbours implements NeighbourSource {
  /** sim(i, j) at i × n + j, for small matrices (PAIR_TABLE_MAX); made at the first query. */
  private table: Float64Array | null = null;
  constructor(
    private readonly m: FaceMatrix,
    private readonly threshold: number,
  ) {}
  query(i: number, k: number): NeighbourList {
    const n = this.m.size;
    // One pass keeping only the faces within the threshold (few) with their similarity, then the index's ordering.
    const ids: number[] = [];
    const sims: number[] = [];
    const table = n <= PAIR_TABLE_MAX ? (this.table ??= pairTable(this.m)) : null;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = table ? table[i * n + j]! : this.m.sim(i, j);
      if (s >= this.threshold) {
        ids.push(j);
        sims.push(s);
      }
    }
    return ordered(ids, sims, k, false);
  }
  queryMany(rows: ArrayLike<number>, k: number): NeighbourList[] {
    return Array.from(rows, (i) => this.query(i, k));
  }
}

/**
 * Every pair's similarity, each computed once: sim(i, j) and sim(j, i) are the same number (the same products, summed
 * in the same order), so the table holds exactly what `FaceMatrix.sim` gives either way.
 */
function pairTable(m: FaceMatrix): Float64Array {
  const n = m.size, d = m.dims, data = m.data;
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    // FaceMatrix.sim written out (the same products summed in the same order: the same numbers).
    for (let j = i + 1, a = i * d; j < n; j++) {
      let s = 0;
      for (let k = 0, b = j * d; k < d; k++) s += data[a + k]! * data[b + k]!;
      t[i * n + j] = s;
      t[j * n + i] = s;
    }
  }
  return t;
}

interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  search(v: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array; counts?: BigUint64Array };
}

export interface HnswParams {
  quantization: 'f32' | 'f16' | 'i8';
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
  addBatch: number;
}
export const HNSW_PARAMS: HnswParams = { quantization: 'f32', connectivity: 16, expansionAdd: 128, expansionSearch: 64, addBatch: 250 };

export class HnswNeighbours implements NeighbourSource {
  private constructor(
    private readonly m: FaceMatrix,
    private readonly threshold: number,
    private readonly index: UsearchIndex,
    private readonly threads: number,
  ) {}

  /**
   * Builds the graph over every face in batches, calling `pause` between them (the caller yields to the event
   * loop there), each batch sized to take about `budgetMs` (default: `addBatch` faces every time).
   */
  static async build(m: FaceMatrix, threshold: number, opts: { threads: number; pause: () => Promise<void>; budgetMs?: number; params?: Partial<HnswParams> }): Promise<HnswNeighbours> {
    const p = { ...HNSW_PARAMS, ...opts.params };
    const require = createRequire(import.meta.url);
    const { Index } = require('usearch') as { Index: new (o: object) => UsearchIndex };
    const index = new Index({
      metric: 'cos',
      dimensions: m.dims,
      quantization: p.quantization,
      connectivity: p.connectivity,
      expansion_add: p.expansionAdd,
      expansion_search: p.expansionSearch,
    });
    const n = m.size;
    // Each add is one native call that holds the event loop: its size follows the time the last one took
    // (`budgetMs`, at most `addBatch` faces). Faces are added in the same order whatever the batch sizes, and
    // one thread adds them one after another, so the graph does not depend on them.
    let size = Math.min(16, p.addBatch);
    const budget = opts.budgetMs ?? Infinity;
    for (let i = 0; i < n; ) {
      const c = Math.min(size, n - i);
      const keys = new BigUint64Array(c);
      for (let j = 0; j < c; j++) keys[j] = BigInt(i + j);
      const t = performance.now();
      index.add(keys, m.data.subarray(i * m.dims, (i + c) * m.dims), opts.threads);
      const ms = performance.now() - t;
      i += c;
      if (budget === Infinity) size = p.addBatch;
      else if (ms < budget / 2) size = Math.min(p.addBatch, c * 2);
      else if (ms > budget) size = Math.max(1, Math.floor((c * budget) / ms));
      await opts.pause();
    }
    return new HnswNeighbours(m, threshold, index, opts.threads);
  }

  query(i: number, k: number): NeighbourList {
    return this.queryMany([i], k)[0]!;
  }

  queryMany(rows: ArrayLike<number>, k: number): NeighbourList[] {
    const n = this.m.size;
    // k + 1: the face itself comes back among its own neighbours.
    const fetch = Math.min(n, k + 1);
    const q = new Float32Array(rows.length * this.m.dims);
    for (let r = 0; r < rows.length; r++) q.set(this.m.row(rows[r]!), r * this.m.dims);
    const res = this.index.search(q, fetch, this.threads);
    const out: NeighbourList[] = [];
    for (let r = 0; r < rows.length; r++) {
      const count = res.counts ? Number(res.counts[r]) : res.keys.length;
      const keys: number[] = [];
      for (let x = 0; x < count; x++) keys.push(Number(res.keys[r * fetch + x]));
      const i = rows[r]!;
      // A full answer whose farthest hit is still within the threshold may have more beyond it.
      const farthest = keys.length ? keys[keys.length - 1]! : -1;
      const full = count === fetch && fetch < n && farthest >= 0 && this.m.sim(i, farthest) >= this.threshold;
      out.push(toList(this.m, i, keys, this.threshold, k, full));
    }
    return out;
  }
}
