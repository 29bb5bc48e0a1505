/**
 * The hot loops of the vector index's Hamming pass, as two tiny WebAssembly functions over 512-bit codes stored
 * in two halves (binary-codes.ts): a prefix of PREFIX_BYTES per code in one contiguous region, the rest of the
 * code in another.
 * - `prefix` (stage 1): for every code, the Hamming distance of its prefix to the query's prefix (i64.popcnt,
 *   which the engine compiles to the CPU's POPCNT), written to `out` (u16) and counted in a histogram of
 *   PREFIX_BITS + 1 bins when the code's asset is allowed; a code whose asset is not allowed gets 0xFFFF and is
 *   not counted.
 * - `refine` (stage 2): lists every code whose prefix distance is at most a threshold (picked by the caller from
 *   stage 1's histogram), in slot order, then gives each listed code its full 512-bit distance (prefix distance +
 *   the rest's) and counts it in a 513-bin histogram. Returns how many it listed.
 *
 * Why two stages: the scan over every code is the floor of a query at a million vectors, and it is bound by
 * memory, not arithmetic: one 512-bit code per vector is 64 MB streamed per query. Ranking every code by half of
 * its bits first and reading the other half only for the best few percent streams 32 MB instead (and the random
 * reads of the second halves are a few thousand cache lines). Sign bits of different dimensions are (nearly)
 * independent estimates of the angle, so half of them rank well enough to keep the nearest codes in a pool many
 * times the size the int8 pass needs (chooser.ts has the figures).
 *
 * Why WebAssembly and why written out as bytes: JavaScript has no popcount, and the same scan in JS measured
 * 43 ms over 1M codes against 3 ms here (scripts/bench/search.ts); the ownership/filter test fused into the same
 * loop costs less than a separate JS pass (6.5 ms measured, the random bitmap reads mispredict). No toolchain is
 * needed (no wat2wasm in the tree): the module is a few hundred bytes assembled below, and its results are checked
 * against a plain JS popcount by test/server/vector-index/hamming-kernel.test.ts.
 *
 * Memory layout is the caller's (binary-codes.ts): prefixes PREFIX_BYTES each, rests REST_BYTES each, rowids i32
 * per code, an allowed byte per rowid, out u16 per code, the candidate slots (i32) and distances (u16), the
 * histograms (u32), the query's code (64 bytes: prefix then rest).
 */

/** The share of each code that stage 1 reads (256 bits: measured against 128 in chooser.ts). */
export const PREFIX_BYTES = 32;
export const REST_BYTES = 64 - PREFIX_BYTES;
export const PREFIX_BITS = PREFIX_BYTES * 8;
/** The mark of a code whose asset is not allowed, in `out`. */
export const NOT_ALLOWED = 0xffff;

/** unsigned LEB128 */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** signed LEB128 (i32.const immediates) */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

export const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
export const name = (s: string) => {
  const b = [...Buffer.from(s, 'utf8')];
  return [...uleb(b.length), ...b];
};

// Opcodes used (WebAssembly core spec 1.0).
const OP = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, void: 0x40,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  drop: 0x1a, i32Load: 0x28, i64Load: 0x29, i32Load8u: 0x2d, i32Load16u: 0x2f, i32Store: 0x36, i32Store16: 0x3b,
  select: 0x1b, i32Const: 0x41, i32Eqz: 0x45, i32LeU: 0x4d, i32GeU: 0x4f, i32Add: 0x6a, i32Sub: 0x6b, i32And: 0x71, i32Shl: 0x74,
  i64Popcnt: 0x7b, i64Add: 0x7c, i64Xor: 0x85, i32WrapI64: 0xa7,
} as const;
const I32 = 0x7f;
const I64 = 0x7e;
const V128 = 0x7b;
// SIMD (WebAssembly 2.0): the 0xFD prefix and the opcode as unsigned LEB128.
const simd = (op: number) => [0xfd, ...uleb(op)];
const V128_LOAD = 0x00;
const I16X8_SPLAT = 0x10;
const I16X8_LE_U = 0x34;
const V128_ANY_TRUE = 0x53;
/** how many list entries ahead refine's second loop touches a rest; the list needs this many entries of room past its end */
export const RESTS_AHEAD = 4;
/** refine skips this many slots at once when none of their prefix distances is under the limit */
const GROUP = 8;

/** Pushes `local += by`. */
function step(b: number[], local: number, by: number): void {
  b.push(OP.localGet, local, OP.i32Const, ...sleb(by), OP.i32Add, OP.localSet, local);
}

/** Pushes the popcount of (words at `code` xor the query words in locals q0..) summed, as an i32. */
function distance(b: number[], code: number, q0: number, words: number): void {
  for (let j = 0; j < words; j++) {
    b.push(OP.localGet, code, OP.i64Load, 3, ...uleb(j * 8), OP.localGet, q0 + j, OP.i64Xor, OP.i64Popcnt);
    if (j > 0) b.push(OP.i64Add);
  }
  b.push(OP.i32WrapI64);
}

/**
 * prefix(codes, n, query, out, rowids, allowed, hist): params 0..6; locals 7.. the query prefix's i64 words,
 * then the distance and the allowed byte.
 */
function prefixBody(): number[] {
  const words = PREFIX_BYTES / 8;
  const [codes, n, query, out, rowids, allowed, hist] = [0, 1, 2, 3, 4, 5, 6];
  const q0 = 7;
  const d = q0 + words;
  const a = d + 1;
  const b: number[] = [];
  for (let j = 0; j < words; j++) b.push(OP.localGet, query, OP.i64Load, 3, ...uleb(j * 8), OP.localSet, q0 + j);
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, n, OP.i32Eqz, OP.brIf, 1);
  // a = allowed[rowids[i]] (0 or 1)
  b.push(OP.localGet, allowed, OP.localGet, rowids, OP.i32Load, 2, 0, OP.i32Add, OP.i32Load8u, 0, 0, OP.localSet, a);
  distance(b, codes, q0, words);
  b.push(OP.localSet, d);
  // Branch-free: out = a ? d : 0xFFFF, hist[d] += a. With a branch, a filter allowing a random 30% of assets
  // mispredicted on most codes and made the scan slower than with no filter.
  b.push(OP.localGet, out, OP.localGet, d, OP.i32Const, ...sleb(NOT_ALLOWED), OP.localGet, a, OP.select, OP.i32Store16, 1, 0);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, 2, 0);
  b.push(OP.localGet, a, OP.i32Add, OP.i32Store, 2, 0);
  step(b, codes, PREFIX_BYTES);
  step(b, rowids, 4);
  step(b, out, 2);
  b.push(OP.localGet, n, OP.i32Const, 1, OP.i32Sub, OP.localSet, n);
  b.push(OP.br, 0, OP.end, OP.end, OP.end);
  return [2, words, I64, 2, I32, ...b];
}

/**
 * refine(rests, n, query, out, limit, slots, dists, hist) → count: params 0..7; locals 8.. the query rest's i64
 * words, then the slot, the distance, the count, and the limit in every i16 lane. `query` points at the rest of
 * the query's code.
 * At each group of GROUP slots, one SIMD compare of their distances with the limit skips the group when none is
 * taken (most groups: stage 2 takes a few percent): a slot-by-slot loop cost twice stage 1's scan at 1M.
 */
function refineBody(): number[] {
  const words = REST_BYTES / 8;
  const [rests, n, query, out, limit, slots, dists, hist] = [0, 1, 2, 3, 4, 5, 6, 7];
  const q0 = 8;
  const slot = q0 + words;
  const d = slot + 1;
  const m = d + 1;
  const addr = m + 1;
  const lim = addr + 1;
  const restAt = (listed: number) =>
    b.push(OP.localGet, rests, OP.localGet, slots, OP.localGet, slot, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, 2, ...uleb(listed * 4), OP.i32Const, Math.log2(REST_BYTES), OP.i32Shl, OP.i32Add);
  const b: number[] = [];
  for (let j = 0; j < words; j++) b.push(OP.localGet, query, OP.i64Load, 3, ...uleb(j * 8), OP.localSet, q0 + j);
  b.push(OP.localGet, limit, ...simd(I16X8_SPLAT), OP.localSet, lim);
  // Loop 1 lists the slots taken with their prefix distance (no rest is read yet).
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, slot, OP.localGet, n, OP.i32GeU, OP.brIf, 1);
  // At a group's first slot, with the whole group below n: skip it if no distance in it is ≤ limit.
  b.push(OP.localGet, slot, OP.i32Const, GROUP - 1, OP.i32And, OP.i32Eqz);
  b.push(OP.localGet, slot, OP.i32Const, GROUP, OP.i32Add, OP.localGet, n, OP.i32LeU, OP.i32And, OP.if, OP.void);
  b.push(OP.localGet, out, ...simd(V128_LOAD), 0, 0, OP.localGet, lim, ...simd(I16X8_LE_U), ...simd(V128_ANY_TRUE), OP.i32Eqz, OP.if, OP.void);
  step(b, slot, GROUP);
  step(b, out, GROUP * 2);
  b.push(OP.br, 2, OP.end, OP.end);
  // NOT_ALLOWED is above any limit, so a code not allowed is never taken.
  b.push(OP.localGet, out, OP.i32Load16u, 1, 0, OP.localTee, d, OP.localGet, limit, OP.i32LeU, OP.if, OP.void);
  b.push(OP.localGet, slots, OP.localGet, m, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.localGet, slot, OP.i32Store, 2, 0);
  b.push(OP.localGet, dists, OP.localGet, m, OP.i32Const, 1, OP.i32Shl, OP.i32Add, OP.localGet, d, OP.i32Store16, 1, 0);
  step(b, m, 1);
  b.push(OP.end);
  step(b, out, 2);
  step(b, slot, 1);
  b.push(OP.br, 0, OP.end, OP.end);
  // Pad the list with slot 0 so loop 2 can touch RESTS_AHEAD entries past its end.
  for (let j = 0; j < RESTS_AHEAD; j++) {
    b.push(OP.localGet, slots, OP.localGet, m, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Const, 0, OP.i32Store, 2, ...uleb(j * 4));
  }
  // Loop 2 over the list (slot now counts list entries): the full distance, the histogram. Touching the rest
  // RESTS_AHEAD entries ahead lets its cache and TLB misses overlap this entry's work (as int8-dot-kernel.ts).
  b.push(OP.i32Const, 0, OP.localSet, slot);
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, slot, OP.localGet, m, OP.i32GeU, OP.brIf, 1);
  restAt(RESTS_AHEAD);
  b.push(OP.i32Load8u, 0, 0, OP.drop);
  restAt(0);
  b.push(OP.localSet, addr);
  distance(b, addr, q0, words);
  b.push(OP.localGet, dists, OP.localGet, slot, OP.i32Const, 1, OP.i32Shl, OP.i32Add, OP.i32Load16u, 1, 0, OP.i32Add, OP.localSet, d);
  // dists[i] = d; hist[d] += 1
  b.push(OP.localGet, dists, OP.localGet, slot, OP.i32Const, 1, OP.i32Shl, OP.i32Add, OP.localGet, d, OP.i32Store16, 1, 0);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, 2, 0);
  b.push(OP.i32Const, 1, OP.i32Add, OP.i32Store, 2, 0);
  step(b, slot, 1);
  b.push(OP.br, 0, OP.end, OP.end);
  b.push(OP.localGet, m, OP.end);
  return [3, words, I64, 4, I32, 1, V128, ...b];
}

function moduleBytes(): Uint8Array {
  const type = section(1, [2, 0x60, 7, I32, I32, I32, I32, I32, I32, I32, 0, 0x60, 8, I32, I32, I32, I32, I32, I32, I32, I32, 1, I32]);
  const imports = section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 1]);
  const funcs = section(3, [2, 0, 1]);
  const exports = section(7, [2, ...name('prefix'), 0x00, 0, ...name('refine'), 0x00, 1]);
  const bodies = [prefixBody(), refineBody()];
  const code = section(10, [bodies.length, ...bodies.flatMap((body) => [...uleb(body.length), ...body])]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...funcs, ...exports, ...code]);
}

/**
 * The few WebAssembly JS-API members used here, typed locally: the server compiles against lib ES2023 and
 * @types/node, which do not declare the WebAssembly namespace's classes.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export interface WasmApi {
  Memory: new (desc: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export const WASM_PAGE = 65536;

export function wasmMemory(pages: number): WasmMemory {
  return new wasm.Memory({ initial: pages });
}

let compiled: object | null = null;

/** Stage 1: prefix distances of `n` codes from `codes` into `out` (u16), counted in `hist` (PREFIX_BITS + 1 u32). */
export type PrefixFn = (codes: number, n: number, query: number, out: number, rowids: number, allowed: number, hist: number) => void;
/**
 * Stage 2: for each slot < n with out[slot] ≤ limit, its full distance (out[slot] + the rest's), appended to
 * slots (i32) and dists (u16) and counted in `hist` (513 u32); returns the count. `query` is the query's rest.
 * `slots` needs room for RESTS_AHEAD entries past the count.
 */
export type RefineFn = (rests: number, n: number, query: number, out: number, limit: number, slots: number, dists: number, hist: number) => number;

export interface HammingKernels {
  prefix: PrefixFn;
  refine: RefineFn;
}

/** The two stages bound to `memory` (the caller owns and grows the memory; addresses are byte offsets). */
export function hammingKernels(memory: WasmMemory): HammingKernels {
  compiled ??= new wasm.Module(moduleBytes());
  const instance = new wasm.Instance(compiled, { env: { mem: memory } });
  return { prefix: instance.exports.prefix as PrefixFn, refine: instance.exports.refine as RefineFn };
}
