/**
 * The hot loop of the incremental people pass (component-search.ts) as a WebAssembly SIMD function:
 * the dot products of one face's embedding with a list of others, four float32 lanes at a time.
 *
 * Why: the incremental pass compares each face of a new face's component with every face of the owner, inside the
 * photo's write transaction on the event loop. In JavaScript that loop ran 5.8M face pairs a second (128 dims):
 * at 20,000 faces a photo held the loop 177 ms on average for it alone (scripts/bench/faces.ts, "incremental").
 * Here a pair is 32 multiply-adds of four lanes instead of 128 scalar ones: about 20 ns a pair against 180 (20,000
 * faces of 128 dims, measured alone). A pass over 20,000 faces reads 10 MB, so memory, not arithmetic, sets that
 * pace: four running sums instead of one measured no faster; smaller stored vectors (int8) would be the next step.
 *
 * Its sums are float32 ones, in another order than the JavaScript loop's float64 sum, so they are a filter, not the
 * answer: a pair the kernel puts within DOT_FILTER_MARGIN of the threshold is decided by the exact loop, as before.
 * The margin is far above the kernel's rounding (each of 128 products and sums rounded to float32: under 1e-5 for
 * unit vectors), so the faces found are exactly those the JavaScript loop finds, shown by
 * test/server/faces/dot-kernel.test.ts.
 *
 * Assembled here as bytes like the vector index's kernels (semantic/vector-index/hamming-kernel.ts: no toolchain in
 * the tree). Node 22's V8 has wasm SIMD128 on every x86-64 and arm64 it runs on.
 */
import { nextListedItem, OP, oneFunctionModule, SIMD, simd, storeLaneSum, TYPE, wasm, type WasmMemory } from '../../platform/wasm.ts';

/** A kernel's dot below `threshold - DOT_FILTER_MARGIN` is a pair the exact loop would refuse too. */
export const DOT_FILTER_MARGIN = 1e-3;

/** dots(base, slots, n, query, out, blocks): params 0..5; locals 6 the vector's address, 7 the byte offset, 8 the sums. */
function dotsBody(): number[] {
  const [base, slots, n, query, out, blocks] = [0, 1, 2, 3, 4, 5];
  const [addr, j, acc] = [6, 7, 8];
  const b: number[] = [];
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, n, OP.i32Eqz, OP.brIf, 1);
  // addr = base + slots[0] · blocks · 16
  b.push(OP.localGet, base, OP.localGet, slots, OP.i32Load, 2, 0, OP.localGet, blocks, OP.i32Const, 4, OP.i32Shl, OP.i32Mul, OP.i32Add, OP.localSet, addr);
  b.push(...simd(SIMD.v128Const), ...new Array(16).fill(0), OP.localSet, acc);
  b.push(OP.i32Const, 0, OP.localSet, j);
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, j, OP.localGet, blocks, OP.i32Const, 4, OP.i32Shl, OP.i32GeU, OP.brIf, 1);
  b.push(OP.localGet, acc);
  b.push(OP.localGet, addr, OP.localGet, j, OP.i32Add, ...simd(SIMD.v128Load), 2, 0);
  b.push(OP.localGet, query, OP.localGet, j, OP.i32Add, ...simd(SIMD.v128Load), 2, 0);
  b.push(...simd(SIMD.f32x4Mul), ...simd(SIMD.f32x4Add), OP.localSet, acc);
  b.push(OP.localGet, j, OP.i32Const, 16, OP.i32Add, OP.localSet, j);
  b.push(OP.br, 0, OP.end, OP.end);
  b.push(...storeLaneSum(acc, out, 'f32'));
  b.push(...nextListedItem(slots, out, n));
  return [2, 2, TYPE.i32, 1, TYPE.v128, ...b];
}

function moduleBytes(): Uint8Array {
  return oneFunctionModule('dots', 6, dotsBody());
}

/**
 * dots(base, slots, n, query, out, blocks): for i < n, out[i] (f32) = Σ_k f32[base + slots[i]·blocks·16 + 4k] ·
 * f32[query + 4k] over k < 4·blocks. Addresses are byte offsets into the bound memory, 16-byte aligned for the
 * vectors and the query; slots is an i32 array of n rows.
 */
export type F32DotsFn = (base: number, slots: number, n: number, query: number, out: number, blocks: number) => void;

let compiled: object | null = null;

/** A dots function bound to `memory` (the caller owns and grows it). */
export function f32Dots(memory: WasmMemory): F32DotsFn {
  compiled ??= new wasm.Module(moduleBytes());
  const instance = new wasm.Instance(compiled, { env: { mem: memory } });
  return instance.exports.dots as F32DotsFn;
}
