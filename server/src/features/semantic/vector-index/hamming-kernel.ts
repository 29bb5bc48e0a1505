/**
 * The one hot loop of the vector index, as a tiny WebAssembly function: for every stored 512-bit code, its Hamming
 * distance to the query's code (8 × i64.popcnt, which the engine compiles to the CPU's POPCNT), written to `out`
 * and counted in a 513-bin histogram when the code's asset is allowed; a code whose asset is not allowed gets
 * 0xFFFF and is not counted.
 *
 * Why WebAssembly and why written out as bytes: JavaScript has no popcount, and the same scan in JS measured
 * 43 ms over 1M codes against 3 ms here (scripts/bench/search.ts); the ownership/filter test fused into the same
 * loop costs less than a separate JS pass (6.5 ms measured, the random bitmap reads mispredict). No toolchain is
 * needed (no wat2wasm in the tree): the module is ~150 bytes assembled below, and its result is checked against a
 * plain JS popcount by test/server/vector-index/hamming-kernel.test.ts.
 *
 * Memory layout is the caller's (binary-codes.ts): codes 64 bytes each, rowids i32 per code, an allowed byte per
 * rowid, out u16 per code, hist u32[513], query code 64 bytes.
 */

import { OP, oneFunctionModule, sleb, TYPE, wasm, type WasmMemory } from '../../../platform/wasm.ts';

/**
 * scan(codes, n, query, out, rowids, allowed, hist): params 0..6; locals 7..14 the query's eight i64 words,
 * 15 the distance, 16 the allowed byte.
 */
function scanBody(): number[] {
  const [codes, n, query, out, rowids, allowed, hist] = [0, 1, 2, 3, 4, 5, 6];
  const q = (j: number) => 7 + j;
  const d = 15;
  const a = 16;
  const b: number[] = [];
  for (let j = 0; j < 8; j++) b.push(OP.localGet, query, OP.i64Load, 3, j * 8, OP.localSet, q(j));
  b.push(OP.block, OP.void, OP.loop, OP.void);
  b.push(OP.localGet, n, OP.i32Eqz, OP.brIf, 1);
  // a = allowed[rowids[i]] (0 or 1)
  b.push(OP.localGet, allowed, OP.localGet, rowids, OP.i32Load, 2, 0, OP.i32Add, OP.i32Load8u, 0, 0, OP.localSet, a);
  for (let j = 0; j < 8; j++) {
    b.push(OP.localGet, codes, OP.i64Load, 3, j * 8, OP.localGet, q(j), OP.i64Xor, OP.i64Popcnt);
    if (j > 0) b.push(OP.i64Add);
  }
  b.push(OP.i32WrapI64, OP.localSet, d);
  // Branch-free: out = a ? d : 0xFFFF, hist[d] += a. With a branch, a filter allowing a random 30% of assets
  // mispredicted on most codes and made the scan slower than with no filter.
  b.push(OP.localGet, out, OP.localGet, d, OP.i32Const, ...sleb(0xffff), OP.localGet, a, OP.select, OP.i32Store16, 1, 0);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add);
  b.push(OP.localGet, hist, OP.localGet, d, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, 2, 0);
  b.push(OP.localGet, a, OP.i32Add, OP.i32Store, 2, 0);
  const step = (local: number, by: number) => b.push(OP.localGet, local, OP.i32Const, ...sleb(by), OP.i32Add, OP.localSet, local);
  step(codes, 64);
  step(rowids, 4);
  step(out, 2);
  b.push(OP.localGet, n, OP.i32Const, 1, OP.i32Sub, OP.localSet, n);
  b.push(OP.br, 0, OP.end, OP.end, OP.end);
  return [2, 8, TYPE.i64, 2, TYPE.i32, ...b];
}

function moduleBytes(): Uint8Array {
  return oneFunctionModule('scan', 7, scanBody());
}

let compiled: object | null = null;

export type ScanFn = (codes: number, n: number, query: number, out: number, rowids: number, allowed: number, hist: number) => void;

/** A scan function bound to `memory` (the caller owns and grows the memory; addresses are byte offsets). */
export function hammingScan(memory: WasmMemory): ScanFn {
  compiled ??= new wasm.Module(moduleBytes());
  const instance = new wasm.Instance(compiled, { env: { mem: memory } });
  return instance.exports.scan as ScanFn;
}
