/**
 * The in-memory part of the vector index: per stored vector a 512-bit code (bit j = vector[j] above the
 * centre's [j]) and the assets.rowid it belongs to, in WebAssembly memory so hamming-kernel.ts can scan them, and
 * an int8 copy of the vector with its scale for the second pass (in a second WebAssembly memory that
 * int8-dot-kernel.ts reads).
 * Per million vectors: 64 MB of codes + 4 MB of rowids + 2 MB of scratch distances + 4 MB of the pool's slot list
 * + 512 MB int8 + 4 MB scales, 1 byte per asset rowid for the copied `allowed` bitmap, 8 per rowid for the int8
 * pass's best scores and 4 bytes per slot and per rowid for the per-asset slot lists: ~610 MB (the float32 vectors
 * themselves would be 2 GB). Final scores come from SQLite (exact-scan.ts), so a stale slot can never answer with
 * a wrong score.
 *
 * Why one Hamming stage over all 512 bits: two stages (the first 256 bits of every code, then all 512 of the best
 * 96,000) measured 10.3 ms of CPU at 1M against 4.3 ms for the one scan, interleaved on the same codes: the scan
 * streams sequentially at memory speed, while the second stage's reads are random (and recall@20 fell to 0.958).
 *
 * Why centre before taking signs: CLIP vectors share a common direction (unrelated photos still have cosine
 * ~0.3–0.5), so raw sign bits are biased and carry less information; subtracting the library's mean vector
 * spreads them. The centre is fixed for the life of the structure (taken at load from the first vectors), so codes
 * added later stay comparable.
 *
 * Slots: a removed vector's slot gets rowid 0 (rowid 0 is never an asset: SQLite rowids start at 1, and the
 * kernel's allowed[0] is always 0) and goes to a free list for reuse. Each asset's slots form a linked list
 * (head by rowid, next by slot) so replacing or removing an asset touches only its own slots.
 */
import { DIMENSIONS } from './change.ts';
import { wasmMemory, WASM_PAGE as PAGE, type WasmMemory } from '../../../platform/wasm.ts';
import { hammingScan, type ScanFn } from './hamming-kernel.ts';
import { SCORE_ALL_UP_TO } from './chooser.ts';
import { int8Dots, PREFETCH_AHEAD, type DotsFn } from './int8-dot-kernel.ts';

const CODE_BYTES = DIMENSIONS / 8;
const HIST_BINS = DIMENSIONS + 1;
/** The int8 vectors' own WebAssembly memory: the i16 query, a batch of slots and their dots, then the vectors. */
const FINE_QUERY_OFF = 0;
const FINE_BATCH = 4096;
const FINE_SLOTS_OFF = DIMENSIONS * 2;
const FINE_OUT_OFF = FINE_SLOTS_OFF + (FINE_BATCH + PREFETCH_AHEAD) * 4;
const FINE_BASE = PAGE;
/** Growth step of that memory, in slots (4 MB): growing never zeroes or copies hundreds of MB in one go. */
const FINE_GROW_SLOTS = 8192;
/** The query's largest component maps to this in the i16 query (see int8-dot-kernel.ts for why i16). */
const QUERY_I16_MAX = 32767;
const QUERY_OFF = 0;
const HIST_OFF = 64;
const FIXED_BYTES = HIST_OFF + HIST_BINS * 4;

/** Regions of the codes' memory. Only rowids and codes hold data (and move up when capacities grow). */
interface Layout {
  allowed: number;
  out: number;
  /** the pool's slots, handed to the int8 pass */
  pool: number;
  rowids: number;
  codes: number;
  end: number;
}

const align8 = (n: number) => (n + 7) & ~7;

function layoutFor(slotCap: number, rowidCap: number): Layout {
  const allowed = align8(FIXED_BYTES);
  const out = align8(allowed + rowidCap);
  const pool = align8(out + slotCap * 2);
  const rowids = align8(pool + slotCap * 4);
  const codes = align8(rowids + slotCap * 4);
  return { allowed, out, pool, rowids, codes, end: codes + slotCap * CODE_BYTES };
}

export interface Candidates {
  /** distinct asset rowids of the best codes, nearest code first */
  rowids: number[];
  /** how many stored vectors belong to allowed assets */
  allowedVectors: number;
}

export class BinaryCodes {
  private readonly centre: Float32Array;
  private memory: WasmMemory;
  private scan: ScanFn;
  /** the slots of a selective filter's assets (see sparseSlots), reused by every query */
  private readonly sparse = new Int32Array(SCORE_ALL_UP_TO);
  /** one encoded code before it is split into its halves */
  private readonly code = new Uint8Array(CODE_BYTES);
  private layout: Layout;
  private slotCap: number;
  private rowidCap: number;
  /** slots ever used (the scan covers 0..size) */
  private size = 0;
  private live = 0;
  private liveAssets = 0;
  private free: number[] = [];
  /**
   * int8 copy of each vector (v[j]·scale⁻¹ rounded; per-vector scale so the largest component maps to ±127) at
   * FINE_BASE + slot·512 of a WebAssembly memory of its own, which int8-dot-kernel.ts reads. Its own memory, not
   * the codes': the codes' regions move when capacities double, and moving 512 MB stalled the event loop
   * (~200 ms); this one only grows at its end, FINE_GROW_SLOTS at a time (V8 grows a wasm memory in place).
   */
  private fineMemory: WasmMemory;
  private dots: DotsFn;
  /** slots the fine memory has room for */
  private fineCap = 0;
  /** a view of the fine memory, remade when it grows (growing detaches the old buffer) */
  private fineBytes: Int8Array;
  private scale: Float32Array;
  /** per rowid, its best int8 score in the query being answered; -Infinity between queries (see score) */
  private bestScore: Float64Array;
  /** the rowids score() met, in the order it met them */
  private met = new Int32Array(0);
  /** head[rowid] = first slot + 1 (0: the asset has no vectors) */
  private head: Int32Array;
  /** next[slot] = the asset's next slot + 1 */
  private next: Int32Array;

  constructor(centre: Float32Array, slotCap = 1024, rowidCap = 1024) {
    this.centre = centre;
    this.slotCap = slotCap;
    this.rowidCap = rowidCap;
    this.layout = layoutFor(slotCap, rowidCap);
    this.memory = wasmMemory(Math.ceil(this.layout.end / PAGE));
    this.scan = hammingScan(this.memory);
    this.head = new Int32Array(rowidCap);
    this.bestScore = new Float64Array(rowidCap).fill(-Infinity);
    this.next = new Int32Array(slotCap);
    this.scale = new Float32Array(slotCap);
    this.fineMemory = wasmMemory(1);
    this.dots = int8Dots(this.fineMemory);
    this.fineBytes = new Int8Array(this.fineMemory.buffer);
  }

  get vectors(): number {
    return this.live;
  }

  get assets(): number {
    return this.liveAssets;
  }

  /** Bytes held: the WebAssembly memory plus the slot lists. */
  get bytes(): number {
    return (
      this.memory.buffer.byteLength +
      this.fineMemory.buffer.byteLength +
      this.scale.byteLength +
      this.head.byteLength +
      this.bestScore.byteLength +
      this.next.byteLength +
      this.free.length * 8
    );
  }

  /** Adds one vector of the asset at `rowid`. */
  add(rowid: number, vector: ArrayLike<number>): void {
    if (!Number.isInteger(rowid) || rowid < 1) throw new RangeError(`asset rowid must be a positive integer, got ${rowid}`);
    this.ensure(this.free.length > 0 ? this.size : this.size + 1, rowid + 1);
    const slot = this.free.pop() ?? this.size++;
    this.encodeInto(vector, this.layout.codes + slot * CODE_BYTES);
    this.quantise(vector, slot);
    new Int32Array(this.memory.buffer, this.layout.rowids, this.slotCap)[slot] = rowid;
    if (this.head[rowid] === 0) this.liveAssets++;
    this.next[slot] = this.head[rowid]!;
    this.head[rowid] = slot + 1;
    this.live++;
  }

  /** Drops every vector of the asset at `rowid`. */
  remove(rowid: number): void {
    if (rowid < 1 || rowid >= this.rowidCap) return;
    let link = this.head[rowid]!;
    if (link === 0) return;
    const rowids = new Int32Array(this.memory.buffer, this.layout.rowids, this.slotCap);
    while (link !== 0) {
      const slot = link - 1;
      rowids[slot] = 0;
      this.free.push(slot);
      this.live--;
      link = this.next[slot]!;
      this.next[slot] = 0;
    }
    this.head[rowid] = 0;
    this.liveAssets--;
  }

  clear(): void {
    new Int32Array(this.memory.buffer, this.layout.rowids, this.slotCap).fill(0);
    this.head.fill(0);
    this.next.fill(0);
    this.free = [];
    // A wasm memory cannot shrink: a fresh one gives the vectors' bytes back.
    this.fineMemory = wasmMemory(1);
    this.dots = int8Dots(this.fineMemory);
    this.fineBytes = new Int8Array(this.fineMemory.buffer);
    this.fineCap = 0;
    this.size = 0;
    this.live = 0;
    this.liveAssets = 0;
  }

  /**
   * Passes over memory, no SQLite:
   * 1. Hamming: the `poolFor(allowed vectors)` allowed codes nearest the query's code (ties cut by slot order, so
   *    the same data gives the same pool). A selective filter (at most SCORE_ALL_UP_TO allowed vectors) skips it:
   *    its slots are listed from the allowed assets and all go to the int8 pass. Otherwise the WebAssembly
   *    scan over every code;
   * 2. those codes' int8 vectors dotted with the query (cosine to ~1e-3), best frame per asset.
   * Returns the `assets` best asset rowids by the second score, best first.
   */
  candidates(query: ArrayLike<number>, allowed: Uint8Array, poolFor: (allowedVectors: number) => number, assets: number): Candidates {
    const queryScale = this.writeQuery(query);
    const sparse = this.sparseSlots(allowed);
    if (sparse >= 0) return { rowids: this.score(this.sparse, sparse, queryScale, assets), allowedVectors: sparse };

    const { layout, size } = this;
    const u8 = new Uint8Array(this.memory.buffer);
    this.encodeInto(query, QUERY_OFF);
    // The caller's bitmap is copied in (≈1 byte per asset, a memcpy); rowids past its end are not allowed.
    const n = Math.min(allowed.length, this.rowidCap);
    u8.set(n === allowed.length ? allowed : allowed.subarray(0, n), layout.allowed);
    u8.fill(0, layout.allowed + n, layout.allowed + this.rowidCap);
    u8[layout.allowed] = 0;
    const hist = new Uint32Array(this.memory.buffer, HIST_OFF, HIST_BINS);
    hist.fill(0);
    this.scan(layout.codes, size, QUERY_OFF, layout.out, layout.rowids, layout.allowed, HIST_OFF);

    let allowedVectors = 0;
    for (let d = 0; d < HIST_BINS; d++) allowedVectors += hist[d]!;
    const pool = poolFor(allowedVectors);
    // The distance at which the pool fills: everything nearer is taken, ties at it in slot order.
    const { distance: threshold, below } = fillDistance(hist, pool);
    let tiesLeft = pool - below;
    const out = new Uint16Array(this.memory.buffer, layout.out, size);
    const slots = new Int32Array(this.memory.buffer, layout.pool, this.slotCap);
    let taken = 0;
    for (let slot = 0; slot < size; slot++) {
      const d = out[slot]!;
      if (d > threshold || (d === threshold && tiesLeft-- <= 0)) continue;
      slots[taken++] = slot;
    }
    return { rowids: this.score(slots, taken, queryScale, assets), allowedVectors };
  }

  /**
   * The slots of the allowed assets into this.sparse when there are at most SCORE_ALL_UP_TO of them (their
   * count), else -1. The walk over the bitmap stops as soon as the list would overflow, so a broad filter costs
   * a few thousand steps before the scan; a narrow one (a date range, an album) is listed whole and never scanned.
   */
  private sparseSlots(allowed: Uint8Array): number {
    const n = Math.min(allowed.length, this.rowidCap);
    const { head, next, sparse } = this;
    let count = 0;
    // 4 bitmap bytes at a time where the bitmap is aligned for it (runs of disallowed assets are skipped fast)
    const words = allowed.byteOffset % 4 === 0 ? new Uint32Array(allowed.buffer, allowed.byteOffset, n >>> 2) : null;
    let r = 1;
    const visit = (rowid: number): boolean => {
      for (let link = head[rowid]!; link !== 0; link = next[link - 1]!) {
        if (count === sparse.length) return false;
        sparse[count++] = link - 1;
      }
      return true;
    };
    if (words) {
      for (let w = 0; w < words.length; w++) {
        if (words[w] === 0) continue;
        for (let rowid = Math.max(w * 4, 1); rowid < w * 4 + 4; rowid++) if (allowed[rowid] === 1 && !visit(rowid)) return -1;
      }
      r = Math.max(1, words.length * 4);
    }
    for (; r < n; r++) if (allowed[r] === 1 && !visit(r)) return -1;
    return count;
  }

  /**
   * The int8 pass over `count` listed slots: each asset's best score, then the `assets` best asset rowids (score
   * desc, rowid asc). Scores go to a per-rowid array, reset after use, and the assets met to a list: a Map of
   * thousands of entries cost more than the dot products themselves.
   */
  private score(slots: Int32Array, count: number, queryScale: number, assets: number): number[] {
    const batch = new Int32Array(this.fineMemory.buffer, FINE_SLOTS_OFF, FINE_BATCH + PREFETCH_AHEAD);
    const dots = new Int32Array(this.fineMemory.buffer, FINE_OUT_OFF, FINE_BATCH);
    const rowidOf = new Int32Array(this.memory.buffer, this.layout.rowids, this.slotCap);
    const { bestScore, scale } = this;
    if (this.met.length < count) this.met = new Int32Array(count);
    const met = this.met;
    let metCount = 0;
    for (let from = 0; from < count; from += FINE_BATCH) {
      const queued = Math.min(FINE_BATCH, count - from);
      batch.set(slots.subarray(from, from + queued));
      batch.fill(batch[0]!, queued, queued + PREFETCH_AHEAD);
      this.dots(FINE_BASE, FINE_SLOTS_OFF, queued, FINE_QUERY_OFF, FINE_OUT_OFF);
      for (let i = 0; i < queued; i++) {
        const slot = batch[i]!;
        const score = dots[i]! * scale[slot]! * queryScale;
        const r = rowidOf[slot]!;
        const had = bestScore[r]!;
        if (had === -Infinity) met[metCount++] = r;
        if (score > had) bestScore[r] = score;
      }
    }
    const top = topAssets(met, metCount, bestScore, assets);
    for (let i = 0; i < metCount; i++) bestScore[met[i]!] = -Infinity;
    return top;
  }

  /** Every asset rowid that has vectors here and is allowed. */
  allowedAssets(allowed: Uint8Array): number[] {
    const out: number[] = [];
    const n = Math.min(allowed.length, this.rowidCap);
    for (let r = 1; r < n; r++) if (this.head[r] !== 0 && allowed[r] === 1) out.push(r);
    return out;
  }

  private quantise(vector: ArrayLike<number>, slot: number): void {
    let max = 0;
    for (let j = 0; j < DIMENSIONS; j++) max = Math.max(max, Math.abs(vector[j]!));
    const k = max > 0 ? 127 / max : 0;
    if (slot >= this.fineCap) {
      const slots = Math.ceil((slot + 1) / FINE_GROW_SLOTS) * FINE_GROW_SLOTS;
      const need = FINE_BASE + slots * DIMENSIONS - this.fineMemory.buffer.byteLength;
      if (need > 0) this.fineMemory.grow(Math.ceil(need / PAGE));
      this.fineBytes = new Int8Array(this.fineMemory.buffer);
      this.fineCap = slots;
    }
    const fine = this.fineBytes;
    const at = FINE_BASE + slot * DIMENSIONS;
    for (let j = 0; j < DIMENSIONS; j++) fine[at + j] = Math.round(vector[j]! * k);
    this.scale[slot] = max > 0 ? max / 127 : 0;
  }

  /** The query as i16 (largest component → ±32767) for the dot kernel; returns the factor back to floats. */
  private writeQuery(query: ArrayLike<number>): number {
    let max = 0;
    for (let j = 0; j < DIMENSIONS; j++) max = Math.max(max, Math.abs(query[j]!));
    const k = max > 0 ? QUERY_I16_MAX / max : 0;
    const q = new Int16Array(this.fineMemory.buffer, FINE_QUERY_OFF, DIMENSIONS);
    for (let j = 0; j < DIMENSIONS; j++) q[j] = Math.round(query[j]! * k);
    return max > 0 ? max / QUERY_I16_MAX : 0;
  }

  private encodeInto(vector: ArrayLike<number>, offset: number): void {
    if (vector.length !== DIMENSIONS) throw new RangeError(`a vector must have ${DIMENSIONS} dimensions, got ${vector.length}`);
    const c = this.centre;
    const code = this.code;
    for (let byte = 0; byte < CODE_BYTES; byte++) {
      let bits = 0;
      const base = byte * 8;
      for (let b = 0; b < 8; b++) if (vector[base + b]! > c[base + b]!) bits |= 1 << b;
      code[byte] = bits;
    }
    new Uint8Array(this.memory.buffer).set(code, offset);
  }

  /** Grows capacities (doubling) so `slots` slots and rowids below `rowids` fit, moving regions up in place. */
  private ensure(slots: number, rowids: number): void {
    if (slots <= this.slotCap && rowids <= this.rowidCap) return;
    let slotCap = this.slotCap;
    while (slotCap < slots) slotCap *= 2;
    let rowidCap = this.rowidCap;
    while (rowidCap < rowids) rowidCap *= 2;
    const old = this.layout;
    const next = layoutFor(slotCap, rowidCap);
    const have = this.memory.buffer.byteLength;
    if (next.end > have) this.memory.grow(Math.ceil((next.end - have) / PAGE));
    const u8 = new Uint8Array(this.memory.buffer);
    // Every region only moves up; moving the last one first never overwrites data not yet moved.
    u8.copyWithin(next.codes, old.codes, old.codes + this.slotCap * CODE_BYTES);
    u8.copyWithin(next.rowids, old.rowids, old.rowids + this.slotCap * 4);
    u8.fill(0, next.rowids + this.slotCap * 4, next.rowids + slotCap * 4);
    if (slotCap > this.slotCap) {
      const grown = new Int32Array(slotCap);
      grown.set(this.next);
      this.next = grown;
      const scale = new Float32Array(slotCap);
      scale.set(this.scale);
      this.scale = scale;
    }
    if (rowidCap > this.rowidCap) {
      const grown = new Int32Array(rowidCap);
      grown.set(this.head);
      this.head = grown;
      this.bestScore = new Float64Array(rowidCap).fill(-Infinity);
    }
    this.layout = next;
    this.slotCap = slotCap;
    this.rowidCap = rowidCap;
  }

  /** Capacity hint before a bulk load (avoids repeated doubling). */
  reserve(slots: number, maxRowid: number): void {
    this.ensure(slots, maxRowid + 1);
  }
}

/**
 * The smallest distance d at which the histogram's count up to d reaches `pool` (the last bin if it never does),
 * and how many lie below d.
 */
function fillDistance(hist: Uint32Array, pool: number): { distance: number; below: number } {
  let distance = 0;
  let below = 0;
  while (distance < hist.length - 1 && below + hist[distance]! < pool) below += hist[distance++]!;
  return { distance, below };
}

/**
 * The `k` best of the `count` rowids in `met` by score (desc, rowid asc), by one pass with a small sorted buffer
 * (the list holds thousands).
 */
function topAssets(met: Int32Array, count: number, score: Float64Array, k: number): number[] {
  const top: [number, number][] = [];
  const worse = (a: [number, number], b: [number, number]) => a[1] < b[1] || (a[1] === b[1] && a[0] > b[0]);
  for (let m = 0; m < count; m++) {
    const r = met[m]!;
    const s = score[r]!;
    if (top.length === k && !(top[k - 1]![1] < s || (top[k - 1]![1] === s && top[k - 1]![0] > r))) continue;
    const e: [number, number] = [r, s];
    let i = top.length === k ? k - 1 : top.length;
    while (i > 0 && worse(top[i - 1]!, e)) {
      if (i < k) top[i] = top[i - 1]!;
      i--;
    }
    if (i < k) top[i] = e;
  }
  return top.map((e) => e[0]);
}
