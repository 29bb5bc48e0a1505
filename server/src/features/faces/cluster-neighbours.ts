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
import { WASM_PAGE, wasmMemory, type WasmMemory } from '../../platform/wasm.ts';
import { DOT_FILTER_MARGIN, f32Dots, type F32DotsFn } from './dot-kernel.ts';

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
  const order = ids.map((_, x) => x).sort((a, b) => sims[b]! - sims[a]! || ids[a]! - ids[b]!);
  const keep = order.slice(0, k);
  return {
    ids: Int32Array.from(keep, (x) => ids[x]!),
    sims: Float32Array.from(keep, (x) => sims[x]!),
    more: order.length > k || moreIfFull,
  };
}

export class ExactNeighbours implements NeighbourSource {
  constructor(
    private readonly m: FaceMatrix,
    private readonly threshold: number,
  ) {}
  query(i: number, k: number): NeighbourList {
    // One pass keeping only the faces within the threshold (few), then the same ordering as the index's lists.
    const within: number[] = [];
    for (let j = 0, n = this.m.size; j < n; j++) if (j !== i && this.m.sim(i, j) >= this.threshold) within.push(j);
    return toList(this.m, i, within, this.threshold, k, false);
  }
  queryMany(rows: ArrayLike<number>, k: number): NeighbourList[] {
    return Array.from(rows, (i) => this.query(i, k));
  }
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

/**
 * The faces linked to `seeds` through chains of neighbours within the threshold (their connected components
 * of the "cosine ≥ threshold" graph), as sorted rows, the seeds included; `null` when the search would read
 * more than `maxPairs` face pairs (the caller then leaves the work to a rebuild).
 *
 * The clustering's rule only ever looks at a face's neighbours (cluster.ts), so clustering a union of whole
 * components gives each of their faces the group a clustering of every face would: this is the set an
 * incremental pass must cluster again for its result to equal a rebuild's. Exact scan: each face reached is
 * compared once with every face not reached yet, so the cost is (component size) × (faces); from KERNEL_MIN_FACES
 * faces on, a wasm SIMD kernel (dot-kernel.ts) makes those comparisons and only the pairs it finds near or above
 * the threshold are compared again exactly, so the faces found are the same.
 */
export function componentsOf(m: FaceMatrix, seeds: Iterable<number>, threshold: number, maxPairs = Infinity): number[] | null {
  const reached = new Uint8Array(m.size);
  const queue: number[] = [];
  for (const s of seeds) {
    if (reached[s]) continue;
    reached[s] = 1;
    queue.push(s);
  }
  const data = m.data, dims = m.dims;
  // The kernel (dot-kernel.ts) filters each scan: a face it puts clearly below the threshold is not looked at again;
  // the rest are decided by the exact loop below, so the component is the one the exact loop alone finds.
  const kernel = m.size >= KERNEL_MIN_FACES ? componentKernel(m) : null;
  const below = threshold - DOT_FILTER_MARGIN;
  // The faces not reached yet, compacted as they are reached (later scans read fewer); in the kernel's memory when
  // there is one (its slot list).
  let rest = kernel ? kernel.slots(m.size) : new Int32Array(m.size);
  {
    let n = 0;
    for (let i = 0; i < m.size; i++) if (!reached[i]) rest[n++] = i;
    rest = rest.subarray(0, n);
  }
  let pairs = 0;
  for (let q = 0; q < queue.length; q++) {
    pairs += rest.length;
    if (pairs > maxPairs) return null;
    const i = queue[q]!;
    // The face's vector copied once; the dot product written out here (a hot loop: n reads per face reached).
    const v = data.slice(i * dims, (i + 1) * dims);
    const approx = kernel ? kernel.dots(i, rest) : null;
    let kept = 0;
    for (let x = 0; x < rest.length; x++) {
      const j = rest[x]!;
      if (approx && approx[x]! < below) {
        rest[kept++] = j;
        continue;
      }
      let s = 0;
      for (let k = 0, b = j * dims; k < dims; k++) s += v[k]! * data[b + k]!;
      if (s >= threshold) {
        reached[j] = 1;
        queue.push(j);
      } else rest[kept++] = j;
    }
    rest = rest.subarray(0, kept);
  }
  return queue.sort((a, b) => a - b);
}

/** Below this many faces the scans are short and the copy into the kernel's memory is not worth it. */
const KERNEL_MIN_FACES = 1024;
/** The kernel's memory is let go this long after its last use: an import's passes reuse it, an idle server does not keep it. */
const KERNEL_IDLE_MS = 30_000;

interface ComponentKernel {
  /** An i32 array of `n` slots in the kernel's memory. */
  slots(n: number): Int32Array;
  /** The approximate dots of row `i` with the rows listed in `rows` (an array from `slots`), in order. */
  dots(i: number, rows: Int32Array): Float32Array;
}

let kernelMemory: { memory: WasmMemory; dots: F32DotsFn; idle: NodeJS.Timeout | null } | null = null;
let kernelUnavailable = false;

/** The matrix copied into the kernel's memory, with room for a query, the slot list and the results; null where wasm SIMD is missing. */
function componentKernel(m: FaceMatrix): ComponentKernel | null {
  if (kernelUnavailable || m.dims % 4 !== 0) return null;
  const matrixBytes = m.data.byteLength;
  const queryAt = matrixBytes;
  const slotsAt = queryAt + m.dims * 4;
  const outAt = slotsAt + m.size * 4;
  const bytes = outAt + m.size * 4;
  try {
    if (!kernelMemory) {
      const memory = wasmMemory(Math.ceil(bytes / WASM_PAGE));
      kernelMemory = { memory, dots: f32Dots(memory), idle: null };
    }
  } catch {
    kernelUnavailable = true; // an engine without wasm SIMD: the exact loop alone, as before
    return null;
  }
  const held = kernelMemory;
  const more = bytes - held.memory.buffer.byteLength;
  if (more > 0) held.memory.grow(Math.ceil(more / WASM_PAGE));
  if (held.idle) clearTimeout(held.idle);
  held.idle = setTimeout(() => {
    if (kernelMemory === held) kernelMemory = null;
  }, KERNEL_IDLE_MS);
  held.idle.unref();
  const buffer = held.memory.buffer;
  new Float32Array(buffer, 0, m.data.length).set(m.data);
  const query = new Float32Array(buffer, queryAt, m.dims);
  const out = new Float32Array(buffer, outAt, m.size);
  return {
    slots: (n) => new Int32Array(buffer, slotsAt, n),
    dots: (i, rows) => {
      query.set(m.data.subarray(i * m.dims, (i + 1) * m.dims));
      held.dots(0, rows.byteOffset, rows.length, queryAt, outAt, m.dims / 4);
      return out;
    },
  };
}
