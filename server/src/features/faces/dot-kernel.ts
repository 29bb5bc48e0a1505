/**
 * The hot loop of the incremental people pass (componentsOf, cluster-neighbours.ts) as a WebAssembly SIMD function:
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
import { name, section, sleb, uleb, wasm, type WasmMemory } from '../../platform/wasm.ts';

/** A kernel's dot below `threshold - DOT_FILTER_MARGIN` is a pair the exact loop would refuse too. */
export const DOT_FILTER_MARGIN = 1e-3;

const OP = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, void: 0x40,
  localGet: 0x20, localSet: 0x21,
  i32Load: 0x28, f32Store: 0x38, i32Const: 0x41, i32Eqz: 0x45, i32GeU: 0x4f, i32Add: 0x6a, i32Sub: 0x6b, i32Mul: 0x6c, i32Shl: 0x74,
  f32Add: 0x92,
} as const;
const I32 = 0x7f;
const V128 = 0x7b;
const simd = (op: number) => [0xfd, ...uleb(op)];
const V128_LOAD = 0x00;
const V128_CONST = 0x0c;
const F32X4_EXTRACT_LANE = 0x1f;
const F32X4_ADD = 0xe4;
const F32X4_MUL = 0xe6;

/** dots(base, slots, n, query, out, blocks): params 0..5; locals 6 the vector's address, 7 the byte offset, 8 the sums. */
function dotsBody(): number[] {
  const [base, slots, n, query, out, blocks] = [0, 1, 2, 3, 4, 5];
  const [addr, j, acc] = [6, 7, 8];
  const b: number[] = [];
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, n, OP.i32Eqz, OP.brIf, 1);
  // addr = base + slots[0] · blocks · 16
  b.push(OP.localGet, base, OP.localGet, slots, OP.i32Load, 2, 0, OP.localGet, blocks, OP.i32Const, 4, OP.i32Shl, OP.i32Mul, OP.i32Add, OP.localSet, addr);
  b.push(...simd(V128_CONST), ...new Array(16).fill(0), OP.localSet, acc);
  b.push(OP.i32Const, 0, OP.localSet, j);
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, j, OP.localGet, blocks, OP.i32Const, 4, OP.i32Shl, OP.i32GeU, OP.brIf, 1);
  b.push(OP.localGet, acc);
  b.push(OP.localGet, addr, OP.localGet, j, OP.i32Add, ...simd(V128_LOAD), 2, 0);
  b.push(OP.localGet, query, OP.localGet, j, OP.i32Add, ...simd(V128_LOAD), 2, 0);
  b.push(...simd(F32X4_MUL), ...simd(F32X4_ADD), OP.localSet, acc);
  b.push(OP.localGet, j, OP.i32Const, 16, OP.i32Add, OP.localSet, j);
  b.push(OP.br, 0, OP.end, OP.end);
  // out[0] = the four lanes' sum
  b.push(OP.localGet, out);
  for (let lane = 0; lane < 4; lane++) {
    b.push(OP.localGet, acc, ...simd(F32X4_EXTRACT_LANE), lane);
    if (lane > 0) b.push(OP.f32Add);
  }
  b.push(OP.f32Store, 2, 0);
  const step = (local: number, by: number) => b.push(OP.localGet, local, OP.i32Const, ...sleb(by), OP.i32Add, OP.localSet, local);
  step(slots, 4);
  step(out, 4);
  b.push(OP.localGet, n, OP.i32Const, 1, OP.i32Sub, OP.localSet, n);
  b.push(OP.br, 0, OP.end, OP.end, OP.end);
  return [2, 2, I32, 1, V128, ...b];
}

function moduleBytes(): Uint8Array {
  const type = section(1, [1, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]);
  const imports = section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 1]);
  const funcs = section(3, [1, 0]);
  const exports = section(7, [1, ...name('dots'), 0x00, 0]);
  const body = dotsBody();
  const code = section(10, [1, ...uleb(body.length), ...body]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...funcs, ...exports, ...code]);
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
