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
