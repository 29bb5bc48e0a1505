/**
 * Random access to a file's bytes, for the container parsers (TIFF IFDs, ISO-BMFF boxes).
 *
 * Why not read the whole file: a RAW can be 100 MB and its metadata sits in a few kilobytes scattered through
 * it; a Samsung HEIC puts its 'meta' box after megabytes of 'mdat'. Positioned reads touch only what is needed.
 * Reads past the end return the bytes that exist (possibly none): a truncated file yields partial results
 * instead of exceptions, and each parser checks lengths itself.
 */
import fs from 'node:fs/promises';

export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Never allocate more than this for a single read: a corrupt length field must not ask for 4 GB. */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

export function bufferSource(buf: Uint8Array): ByteSource {
  return {
    size: buf.byteLength,
    async read(offset, length) {
      if (offset < 0 || offset >= buf.byteLength || length <= 0) return new Uint8Array(0);
      return buf.subarray(offset, Math.min(buf.byteLength, offset + Math.min(length, MAX_READ_BYTES)));
    },
  };
}

/** Open a file for positioned reads; call `close()` when done (use try/finally). */
export async function openFileSource(filePath: string): Promise<ByteSource & { close(): Promise<void> }> {
  const fh = await fs.open(filePath, 'r');
  const { size } = await fh.stat();
  return {
    size,
    async read(offset, length) {
      if (offset < 0 || offset >= size || length <= 0) return new Uint8Array(0);
      const n = Math.min(length, size - offset, MAX_READ_BYTES);
      const out = new Uint8Array(n);
      const { bytesRead } = await fh.read(out, 0, n, offset);
      return bytesRead === n ? out : out.subarray(0, bytesRead);
    },
    close: () => fh.close(),
  };
}

/** Run `fn` with a file source that is always closed afterwards. */
export async function withFileSource<T>(filePath: string, fn: (src: ByteSource) => Promise<T>): Promise<T> {
  const src = await openFileSource(filePath);
  try {
    return await fn(src);
  } finally {
    await src.close();
  }
}
