/**
 * What the hand-assembled WebAssembly kernels share (features/semantic/vector-index/hamming-kernel.ts and
 * int8-dot-kernel.ts, features/faces/dot-kernel.ts): the byte encoding of a module's numbers, sections and names,
 * and the few members of the WebAssembly JS API they use. No toolchain is in the tree: each kernel writes its
 * module's bytes with these, and a test checks its answers against plain JavaScript.
 */

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

/** The core opcodes the kernels use (WebAssembly core spec 1.0), by name. */
export const OP = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, void: 0x40,
  drop: 0x1a, select: 0x1b, localGet: 0x20, localSet: 0x21,
  i32Load: 0x28, i64Load: 0x29, i32Load8u: 0x2d, i32Store: 0x36, f32Store: 0x38, i32Store16: 0x3b,
  i32Const: 0x41, i32Eqz: 0x45, i32GeU: 0x4f, i32Add: 0x6a, i32Sub: 0x6b, i32Mul: 0x6c, i32Shl: 0x74,
  i64Popcnt: 0x7b, i64Add: 0x7c, i64Xor: 0x85, f32Add: 0x92, i32WrapI64: 0xa7,
} as const;

/** Value types, as signatures and local declarations write them. */
export const TYPE = { i32: 0x7f, i64: 0x7e, v128: 0x7b } as const;

/** The SIMD opcodes the kernels use (WebAssembly 2.0, "fixed-width SIMD"), written by `simd`. */
export const SIMD = {
  v128Load: 0x00, v128Const: 0x0c, i32x4ExtractLane: 0x1b, f32x4ExtractLane: 0x1f,
  i16x8ExtendLowI8x16S: 0x87, i16x8ExtendHighI8x16S: 0x88, i32x4Add: 0xae, i32x4DotI16x8S: 0xba, f32x4Add: 0xe4, f32x4Mul: 0xe6,
} as const;

/** A SIMD instruction: the 0xFD prefix, then its opcode as unsigned LEB128. */
export const simd = (op: number) => [0xfd, ...uleb(op)];

/** The sum of the four lanes (i32 or f32) of v128 local `acc`, stored at the address in local `out`. */
export function storeLaneSum(acc: number, out: number, lanes: 'i32' | 'f32'): number[] {
  const [extract, add, store] = lanes === 'i32' ? [SIMD.i32x4ExtractLane, OP.i32Add, OP.i32Store] : [SIMD.f32x4ExtractLane, OP.f32Add, OP.f32Store];
  const b: number[] = [OP.localGet, out];
  for (let lane = 0; lane < 4; lane++) b.push(OP.localGet, acc, ...simd(extract), lane, ...(lane > 0 ? [add] : []));
  return [...b, store, 2, 0];
}

/**
 * The end of a kernel's loop over a list (`slots` and `out` are byte addresses of i32 and 32-bit items, `n` the items
 * left): both addresses step to the next item, `n` counts down, and the loop starts again; then the ends of that loop,
 * of the block around it and of the function. The local indices are the kernel's.
 */
export function nextListedItem(slots: number, out: number, n: number): number[] {
  const [localGet, localSet, i32Const, i32Add, i32Sub, br, end] = [0x20, 0x21, 0x41, 0x6a, 0x6b, 0x0c, 0x0b];
  const step = (local: number, by: number) => [localGet, local, i32Const, ...sleb(by), i32Add, localSet, local];
  return [...step(slots, 4), ...step(out, 4), localGet, n, i32Const, 1, i32Sub, localSet, n, br, 0, end, end, end];
}

/**
 * A module of one function taking `params` i32 arguments and returning nothing, exported as `exportName`, that
 * works on the memory imported as env.mem; `body` is its code entry without the size (locals, then instructions).
 */
export function oneFunctionModule(exportName: string, params: number, body: readonly number[]): Uint8Array {
  const I32 = 0x7f;
  const type = section(1, [1, 0x60, params, ...new Array<number>(params).fill(I32), 0]);
  const imports = section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 1]);
  const funcs = section(3, [1, 0]);
  const exports = section(7, [1, ...name(exportName), 0x00, 0]);
  const code = section(10, [1, ...uleb(body.length), ...body]);
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
