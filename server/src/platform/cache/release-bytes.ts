/**
 * Hands a large buffer's memory back now, at the point its last reader is done, instead of at the next full
 * garbage collection.
 *
 * Why: a Buffer's bytes live outside V8's heap and are freed only when the collector finds its wrapper dead. A
 * buffer that lives across an `await` (a read, an inflate, a write) is promoted out of the young generation, and
 * from there only a full collection frees it; V8 starts one for outside bytes only after some 64 MB of them have
 * piled up. A Takeout import beside the media pipeline made ~40 MB of such garbage a second (each photo's packed
 * and inflated bytes, zlib's spare output buffer, each original read whole for libvips), and the pile was what
 * took the server over its 300 MB target (scripts/bench/import.ts). Detaching the buffer's ArrayBuffer
 * (`transfer(0)`) frees its bytes at once.
 *
 * After the call the buffer reads as empty: call it only where nothing reads the bytes any more (every write,
 * inflate and decode given them has finished).
 */
const WORTH_RELEASING = 64 * 1024;

/** ES2024's ArrayBuffer (Node 22 has it; the project's TypeScript library is ES2023). */
type DetachableArrayBuffer = ArrayBuffer & { readonly detached: boolean; transfer(newLength?: number): ArrayBuffer };

/**
 * Releases each buffer that owns its whole ArrayBuffer. A buffer that is a slice of a larger one is left to the
 * collector: a small Buffer is a slice of Node's shared pool, and detaching that would empty its neighbours.
 */
export function releaseBytes(...buffers: Array<ArrayBufferView | null | undefined>): void {
  for (const buf of buffers) if (buf && buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) detach(buf);
}

/**
 * Releases the whole ArrayBuffer under `view`, which the caller knows to be the only view into it though it does
 * not cover all of it (zlib's output: the inflated bytes at the start of its one output buffer, a byte larger).
 */
export function releaseOnlyView(view: Uint8Array): void {
  detach(view);
}

function detach(view: ArrayBufferView): void {
  const whole = view.buffer as DetachableArrayBuffer;
  if (view.byteOffset !== 0 || whole.byteLength < WORTH_RELEASING || !(whole instanceof ArrayBuffer) || whole.detached) return;
  whole.transfer(0);
}
