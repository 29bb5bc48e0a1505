/**
 * Finding connected components of the "cosine ≥ threshold" graph of an owner's faces, and a face's neighbours in it,
 * by exact scans: what the incremental people pass needs (faces.store.ts, face-components.ts).
 *
 * From KERNEL_MIN_FACES faces on, a wasm SIMD kernel (dot-kernel.ts) makes the comparisons and only the pairs it puts
 * near or above the threshold are compared again exactly, so the faces found are exactly those the exact loop finds.
 * The kernel works on a copy of the matrix in its own memory. A matrix its owner only ever appends rows to is given
 * with a `lineage`, an object that stands for that growing set of rows whatever arrays hold it (the owner's kept
 * components: owner-face-vectors.store.ts moves the rows to larger arrays as they grow). Only the rows added since the
 * last use under the same lineage are copied, not all of them: at 100,000 faces the whole copy is 51 MB, about 70 ms the
 * first time (the memory is new) and 15 ms after. `fillKernel` makes that first copy ahead, a slice per turn of the
 * event loop, so that neither the search ahead nor the write pays it in one turn.
 */
import { WASM_PAGE, wasmMemory, type WasmMemory } from '../../platform/wasm.ts';
import type { FaceMatrix } from './cluster-neighbours.ts';
import { DOT_FILTER_MARGIN, f32Dots, type F32DotsFn } from './dot-kernel.ts';

/** Below this many faces the scans are short and the copy into the kernel's memory is not worth it. */
const KERNEL_MIN_FACES = 1024;
/** The kernel's memory is let go this long after its last use: an import's passes reuse it, an idle server does not keep it. */
const KERNEL_IDLE_MS = 30_000;
/** Rows `fillKernel` copies between two looks at the clock: 4 MB of 128-dimension rows, a few milliseconds. */
const FILL_ROWS = 8192;

/** Rows copied into the kernel's memory since the start (tests and benches: what a pass copied). */
export const kernelCounts = { copiedRows: 0 };

/**
 * A search from `seeds` through chains of neighbours within the threshold, over `candidates` (the rows it may reach;
 * the seeds are not among them), run in steps so that a caller may spread it over turns of the event loop.
 *
 * Exact scan: each face reached is compared once with every candidate not reached yet, so the cost is (component
 * size) × (candidates). `pairs` counts those comparisons; past `maxPairs` the search stops, unfinished (`result` null).
 * With `limits`, it also stops once it has reached more than `maxRows` faces, or a face `large` says is in such a
 * component (`tooLarge`: a component no write clusters, whose full search would only cost time).
 */
export class ComponentScan {
  private readonly queue: number[] = [];
  private q = 0;
  private rest: Int32Array;
  pairs = 0;
  private over = false;
  /** Stopped because the component has more than `limits.maxRows` faces. */
  tooLarge = false;

  constructor(
    private readonly m: FaceMatrix,
    seeds: Iterable<number>,
    candidates: Int32Array,
    private readonly threshold: number,
    private readonly maxPairs = Infinity,
    /** The identity under which `m` only ever gains rows (see the file comment); null: copied whole each time. */
    private readonly lineage: object | null = null,
    private readonly limits: { maxRows: number; large: (row: number) => boolean } | null = null,
  ) {
    for (const s of new Set(seeds)) this.queue.push(s);
    this.rest = candidates;
  }

  get done(): boolean {
    return this.over || this.tooLarge || this.q >= this.queue.length;
  }

  /** Scans faces of the queue until it is empty or `untilMs` (performance.now()) has passed; true once done. */
  run(untilMs = Infinity): boolean {
    const { m, threshold } = this;
    const data = m.data, dims = m.dims;
    const kernel = m.size >= KERNEL_MIN_FACES ? matrixKernel(m, this.lineage) : null;
    const below = threshold - DOT_FILTER_MARGIN;
    while (!this.done) {
      this.pairs += this.rest.length;
      if (this.pairs > this.maxPairs) {
        this.over = true;
        break;
      }
      const i = this.queue[this.q++]!;
      const rest = this.rest;
      // The face's vector copied once; the dot product written out here (a hot loop: a read per candidate).
      const v = data.slice(i * dims, (i + 1) * dims);
      const approx = kernel ? kernel.dots(v, rest) : null;
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
          this.queue.push(j);
          if (this.limits && (this.queue.length > this.limits.maxRows || this.limits.large(j))) this.tooLarge = true;
        } else rest[kept++] = j;
      }
      this.rest = rest.subarray(0, kept);
      if (performance.now() >= untilMs) break;
    }
    return this.done;
  }

  /** The faces reached so far, seeds included (all of the component once done, unless stopped). */
  reached(): readonly number[] {
    return this.queue;
  }

  /** The faces reached, seeds included, as sorted rows; null when the search stopped (`maxPairs`, `tooLarge`). */
  result(): number[] | null {
    if (this.over || this.tooLarge) return null;
    return [...this.queue].sort((a, b) => a - b);
  }
}

/**
 * The faces linked to `seeds` through chains of neighbours within the threshold (their connected components of the
 * "cosine ≥ threshold" graph), as sorted rows, the seeds included; `null` when the search would read more than
 * `maxPairs` face pairs (the caller then leaves the work to a rebuild).
 *
 * The clustering's rule only ever looks at a face's neighbours (cluster.ts), so clustering a union of whole
 * components gives each of their faces the group a clustering of every face would: this is the set an incremental
 * pass must cluster again for its result to equal a rebuild's.
 */
export function componentsOf(m: FaceMatrix, seeds: Iterable<number>, threshold: number, maxPairs = Infinity): number[] | null {
  const seedSet = new Set(seeds);
  const candidates = new Int32Array(m.size - seedSet.size);
  let n = 0;
  for (let i = 0; i < m.size; i++) if (!seedSet.has(i)) candidates[n++] = i;
  const scan = new ComponentScan(m, seedSet, candidates, threshold, maxPairs);
  scan.run();
  return scan.result();
}

/** The rows below `upTo` whose similarity with `v` is at least `threshold`, ascending (exact, through the kernel's filter). */
export function neighboursOf(m: FaceMatrix, v: Float32Array, threshold: number, upTo = m.size, lineage: object | null = null): number[] {
  const data = m.data, dims = m.dims;
  const found: number[] = [];
  const exact = (j: number) => {
    let s = 0;
    for (let k = 0, b = j * dims; k < dims; k++) s += v[k]! * data[b + k]!;
    return s >= threshold;
  };
  const kernel = upTo >= KERNEL_MIN_FACES ? matrixKernel(m, lineage) : null;
  if (!kernel) {
    for (let j = 0; j < upTo; j++) if (exact(j)) found.push(j);
    return found;
  }
  const rows = kernel.slots(upTo);
  for (let j = 0; j < upTo; j++) rows[j] = j;
  const approx = kernel.dots(v, rows);
  const below = threshold - DOT_FILTER_MARGIN;
  for (let j = 0; j < upTo; j++) if (approx[j]! >= below && exact(j)) found.push(j);
  return found;
}

interface MatrixKernel {
  /** An i32 array of `n` slots in the kernel's memory (a row list `dots` reads without a copy). */
  slots(n: number): Int32Array;
  /** The approximate dots of `v` with the rows listed in `rows`, in order (valid until the next call). */
  dots(v: Float32Array, rows: Int32Array): Float32Array;
}

interface HeldKernel {
  memory: WasmMemory;
  dots: F32DotsFn;
  idle: NodeJS.Timeout | null;
  /** The lineage whose first `rows` rows are in the kernel's memory as they are now (null: none). */
  source: object | null;
  rows: number;
  dims: number;
}

let held: HeldKernel | null = null;
let kernelUnavailable = false;

/** Where a matrix's rows and what follows them sit in the kernel's memory. */
function layout(m: FaceMatrix) {
  const queryAt = m.size * m.dims * 4;
  const slotsAt = queryAt + m.dims * 4;
  const outAt = slotsAt + m.size * 4;
  return { queryAt, slotsAt, outAt, bytes: outAt + m.size * 4 };
}

/** The kernel's memory, made or grown to `bytes`, its idle timer restarted; null where wasm SIMD is missing. */
function holdKernel(bytes: number): HeldKernel | null {
  if (kernelUnavailable) return null;
  try {
    if (!held) {
      const memory = wasmMemory(Math.ceil(bytes / WASM_PAGE));
      held = { memory, dots: f32Dots(memory), idle: null, source: null, rows: 0, dims: 0 };
    }
  } catch {
    kernelUnavailable = true; // an engine without wasm SIMD: the exact loop alone, as before
    return null;
  }
  const k = held;
  const more = bytes - k.memory.buffer.byteLength;
  if (more > 0) k.memory.grow(Math.ceil(more / WASM_PAGE)); // keeps what the memory holds
  if (k.idle) clearTimeout(k.idle);
  k.idle = setTimeout(() => {
    if (held === k) held = null;
  }, KERNEL_IDLE_MS);
  k.idle.unref();
  return k;
}

/** How many of `m`'s first rows the kernel's memory holds as they are now (rows of a lineage never change once written). */
function rowsHeld(k: HeldKernel, m: FaceMatrix, lineage: object | null): number {
  return lineage !== null && k.source === lineage && k.dims === m.dims ? Math.min(k.rows, m.size) : 0;
}

/** Copies `m`'s rows `from` to `to` into the kernel's memory, after which it holds the first `to` rows of `lineage`. */
function copyRows(k: HeldKernel, m: FaceMatrix, lineage: object | null, from: number, to: number): void {
  new Float32Array(k.memory.buffer, from * m.dims * 4, (to - from) * m.dims).set(m.data.subarray(from * m.dims, to * m.dims));
  kernelCounts.copiedRows += to - from;
  k.source = lineage;
  k.rows = to;
  k.dims = m.dims;
}

/**
 * Copies the rows of `m` (of `lineage`) the kernel's memory does not hold yet, FILL_ROWS at a time until `untilMs`
 * (performance.now()) has passed; true once it holds them all (or when no kernel will be used for `m`). A caller
 * spreads the first copy of a large matrix over turns of the event loop this way.
 */
export function fillKernel(m: FaceMatrix, lineage: object, untilMs: number): boolean {
  if (m.size < KERNEL_MIN_FACES || m.dims % 4 !== 0) return true;
  const k = holdKernel(layout(m).bytes);
  if (!k) return true;
  let rows = rowsHeld(k, m, lineage);
  while (rows < m.size) {
    const to = Math.min(m.size, rows + FILL_ROWS);
    copyRows(k, m, lineage, rows, to);
    rows = to;
    if (rows < m.size && performance.now() >= untilMs) return false;
  }
  return true;
}

/**
 * The kernel over `m`, copied into its memory (only the rows not held yet for a `lineage`), with room for a query, a
 * row list and the results after it; null where wasm SIMD is missing. Valid until the next call: whoever spreads work
 * over turns of the event loop asks again after each.
 */
function matrixKernel(m: FaceMatrix, lineage: object | null): MatrixKernel | null {
  if (kernelUnavailable || m.dims % 4 !== 0) return null;
  const { queryAt, slotsAt, outAt, bytes } = layout(m);
  const k = holdKernel(bytes);
  if (!k) return null;
  const buffer = k.memory.buffer;
  // The query, the row list and the results sit after this matrix's rows: rows past them are no longer held.
  copyRows(k, m, lineage, rowsHeld(k, m, lineage), m.size);
  const query = new Float32Array(buffer, queryAt, m.dims);
  const out = new Float32Array(buffer, outAt, m.size);
  return {
    slots: (n) => new Int32Array(buffer, slotsAt, n),
    dots: (v, rows) => {
      query.set(v);
      // A row list outside the kernel's memory is copied into its slots first.
      let at = rows.byteOffset;
      if (rows.buffer !== buffer) {
        new Int32Array(buffer, slotsAt, rows.length).set(rows);
        at = slotsAt;
      }
      k.dots(0, at, rows.length, queryAt, outAt, m.dims / 4);
      return out;
    },
  };
}
