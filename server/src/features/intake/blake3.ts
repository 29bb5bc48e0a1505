/**
 * BLAKE3 for everything that enters a repository (uploads, scans, the watcher): native (@napi-rs/blake-hash, Rust's `blake3` crate with SIMD) when its binary
 * loads, hash-wasm otherwise. Both give the same 64-hex-character digests (tested).
 *
 * Why native: hash-wasm's BLAKE3 does about 450 MB/s on one core of these machines, about as fast
 * as the rest of an upload together, so it capped upload throughput even on a worker thread. The
 * native one measured about 4–5 GB/s on the same core (AVX-512), so hashing becomes a small share
 * of an upload's CPU. The binary comes as an npm optional dependency of the package (napi-rs: one
 * package per platform, nothing downloaded by an install script). Pinned at 1.3.4: 1.3.6 lists
 * platform packages that were never published except for Linux x64, which breaks `npm ci`.
 *
 * Why keep hash-wasm: a platform without a prebuilt binary (or a bundle that did not ship it) still
 * uploads, correctly and only slower. hash-wasm is already a dependency (adapters/media/hash.ts).
 */
import { createRequire } from 'node:module';
import { createBLAKE3 } from 'hash-wasm';

/** An incremental BLAKE3 hasher that runs synchronously once created. */
export interface Blake3 {
  /** Which implementation hashes (reported in the intake's counters). */
  readonly backend: Blake3Backend;
  update(data: Uint8Array): void;
  /** 64 lower-case hex characters. The hasher cannot be used afterwards. */
  digest(): string;
}

export type Blake3Backend = 'native' | 'wasm';

interface NativeHasher {
  update(input: Uint8Array): unknown;
  digest(format?: string): string;
}
type NativeCtor = new () => NativeHasher;

/** Loads the native module's hasher class; throws when it cannot (no binary for this platform). */
export type NativeLoader = () => NativeCtor;

const defaultLoader: NativeLoader = () => {
  // createRequire and a computed name: the Electron bundler leaves the package (and its .node
  // binary) outside the bundle, to be loaded from node_modules at run time.
  const here = typeof import.meta.url === 'string' ? import.meta.url : `file://${typeof __filename === 'string' ? __filename : process.cwd() + '/'}`;
  const name = ['@napi-rs', 'blake-hash'].join('/');
  const mod = createRequire(here)(name) as { Blake3Hasher?: NativeCtor };
  if (typeof mod.Blake3Hasher !== 'function') throw new Error(`${name} has no Blake3Hasher`);
  return mod.Blake3Hasher;
};

let nativeCtor: NativeCtor | null | undefined;
let loadError: Error | null = null;

/**
 * The backend new hashers get. `loader` is for tests (a loader that throws stands for a platform
 * without the binary); HEARTH_BLAKE3=wasm forces the fallback (for comparisons and debugging).
 */
export function blake3Backend(loader: NativeLoader = defaultLoader): Blake3Backend {
  if (loader !== defaultLoader) return tryLoad(loader) ? 'native' : 'wasm';
  if (nativeCtor === undefined) nativeCtor = process.env.HEARTH_BLAKE3 === 'wasm' ? null : tryLoad(loader);
  return nativeCtor ? 'native' : 'wasm';
}

/** Why the native hasher is not used (null when it is). */
export function nativeBlake3Error(): Error | null {
  blake3Backend();
  return loadError;
}

function tryLoad(loader: NativeLoader): NativeCtor | null {
  try {
    const Ctor = loader();
    // Smoke test: a binary that loads but misbehaves must not decide asset identities.
    const h = new Ctor();
    h.update(new Uint8Array(0));
    if (h.digest('hex') !== EMPTY_DIGEST) throw new Error('the native BLAKE3 gave a wrong digest for the empty input');
    loadError = null;
    return Ctor;
  } catch (e) {
    loadError = e as Error;
    return null;
  }
}

/** BLAKE3 of zero bytes (from the specification's test vectors). */
const EMPTY_DIGEST = 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262';

/** A native hasher, or null when the native module is not available (no waiting: it is made at once). */
export function createNativeBlake3(loader: NativeLoader = defaultLoader): Blake3 | null {
  if (blake3Backend(loader) !== 'native') return null;
  const Ctor = loader === defaultLoader ? nativeCtor! : loader();
  return once('native', new Ctor());
}

/** A hasher that refuses use after its digest (both backends' own objects would misbehave). */
function once(backend: Blake3['backend'], h: { update(data: Uint8Array): unknown; digest(encoding: 'hex'): string }): Blake3 {
  let done = false;
  return {
    backend,
    update(data) {
      if (done) throw new Error('hasher already finished');
      h.update(data);
    },
    digest() {
      if (done) throw new Error('hasher already finished');
      done = true;
      return h.digest('hex');
    },
  };
}

/** A new hasher: native when available, else hash-wasm. */
export async function createBlake3(loader: NativeLoader = defaultLoader): Promise<Blake3> {
  const native = createNativeBlake3(loader);
  if (native) return native;
  const h = await createBLAKE3();
  h.init();
  return once('wasm', h);
}
