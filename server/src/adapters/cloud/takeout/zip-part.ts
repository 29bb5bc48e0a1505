/**
 * A zip part read by random access: the central directory is walked once (zip64 included, by yauzl) and each
 * entry's bytes are opened only when needed, so memory stays bounded whatever the part's size.
 *
 * Small entries (most photos and every sidecar, up to WHOLE_ENTRY_BYTES) are read whole: one positioned read of
 * their compressed bytes, one inflate, one write. Streamed, a 3 MB photo is some fifty reads, inflates and writes,
 * each a trip through the event loop and the thread pool; while indexing keeps both cores busy each trip waits
 * its turn, and an import measured ~300 ms per photo that way (scripts/bench/import.ts). zlib's one-call inflate
 * has the same trap (16 KB of output per trip): the whole entry is inflated in one output chunk.
 * Larger entries (videos) stream, so a 4 GB video never sits in memory. The checks are the same either way: the
 * entry must inflate to exactly its declared size (a lying header, a bomb), and the caller compares the CRC-32.
 *
 * Names are decoded here rather than by yauzl: yauzl rejects an unsafe name by failing the whole enumeration, and
 * one `../evil.jpg` must cost only that entry, not the rest of the part.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { Readable } from 'node:stream';
import { writeCounted, type WrittenFile } from './crc32-sink.ts';
import { releaseBytes, releaseOnlyView } from '../../../platform/cache/release-bytes.ts';

/** Entries up to this many bytes (declared, inflated) are read whole; larger ones stream (see the header). */
export const WHOLE_ENTRY_BYTES = 8 * 1024 * 1024;
const STORED = 0;
const DEFLATED = 8;
const inflateRaw = promisify(zlib.inflateRaw);

export interface ZipListedEntry {
  name: string;
  entry: Entry;
}

export class ZipPart {
  private constructor(
    private readonly zip: ZipFile,
    /** Our own handle on the part, for the positioned reads of whole entries (yauzl keeps its reader to itself). */
    private readonly handle: fs.promises.FileHandle,
  ) {}

  static async open(file: string): Promise<ZipPart> {
    const zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      // Keeps yauzl's check that an entry inflates to exactly its declared size (it stops a lying header).
      validateEntrySizes: true,
    });
    const handle = await fs.promises.open(file, 'r').catch((e: unknown) => {
      zip.close();
      throw e;
    });
    return new ZipPart(zip, handle);
  }

  get entryCount(): number {
    return this.zip.entryCount;
  }

  /** Every entry of the central directory. Throws when the directory itself is broken (after those read so far). */
  async *entries(): AsyncGenerator<ZipListedEntry> {
    for await (const entry of this.zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      yield { name, entry };
    }
  }

  /** Why this entry's bytes cannot be read here (encryption, an unknown compression), or null. */
  static unreadableReason(entry: Entry): string | null {
    if (entry.isEncrypted()) return 'encrypted entry';
    if (!entry.canDecodeFileData()) return `unsupported compression method ${entry.compressionMethod}`;
    return null;
  }

  /** A small entry's bytes (a sidecar): read whole when it is small enough, else collected from its stream. */
  async readSmall(entry: Entry): Promise<Buffer> {
    if (ZipPart.readsWhole(entry)) return this.readWhole(entry);
    const stream = await this.zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  private static readsWhole(entry: Entry): boolean {
    return entry.uncompressedSize <= WHOLE_ENTRY_BYTES && entry.compressedSize <= WHOLE_ENTRY_BYTES && (entry.compressionMethod === STORED || entry.compressionMethod === DEFLATED) && !entry.isEncrypted();
  }

  /**
   * An entry's inflated bytes from one positioned read and one inflate. Throws, as yauzl's stream would, when the
   * bytes are not all there or inflate to other than the declared size (never more: the output is capped).
   */
  private async readWhole(entry: Entry): Promise<Buffer> {
    const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const packed = Buffer.allocUnsafe(entry.compressedSize);
    const { bytesRead } = await this.handle.read(packed, 0, packed.length, fileDataStart);
    if (bytesRead !== packed.length) throw new Error(`the entry's data ends early (${bytesRead} of ${packed.length} bytes)`);
    let bytes: Buffer;
    if (entry.compressionMethod === STORED) bytes = packed;
    else {
      // One output buffer a byte larger than the declared size: zlib's convenience call otherwise inflates 16 KB
      // per trip through the thread pool and back to the event loop (what made streamed extraction slow), and an
      // output buffer of exactly the size fills up, so zlib allocates a spare one of that size for nothing.
      const size = Math.max(1, entry.uncompressedSize);
      bytes = await inflateRaw(packed, { maxOutputLength: size, chunkSize: Math.max(zlib.constants.Z_MIN_CHUNK, size + 1) })
        .catch((e: unknown) => {
          const tooLarge = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
          throw new Error(tooLarge ? `the entry inflates to too many bytes (more than its declared ${entry.uncompressedSize})` : `the entry does not inflate (${(e as Error).message})`);
        })
        .finally(() => releaseBytes(packed));
    }
    if (bytes.length !== entry.uncompressedSize) throw new Error(`the entry inflates to ${bytes.length} bytes, it declares ${entry.uncompressedSize}`);
    return bytes;
  }

  async openStream(entry: Entry): Promise<Readable> {
    return this.zip.openReadStreamPromise(entry);
  }

  async extract(entry: Entry, dest: string, signal: AbortSignal, onProgress?: (bytes: number) => void): Promise<WrittenFile> {
    if (!ZipPart.readsWhole(entry)) return writeCounted(await this.openStream(entry), dest, signal, onProgress);
    signal.throwIfAborted();
    const bytes = await this.readWhole(entry);
    try {
      await fs.promises.writeFile(dest, bytes, { signal });
      onProgress?.(bytes.length);
      return { bytes: bytes.length, crc32: zlib.crc32(bytes) };
    } finally {
      releaseOnlyView(bytes); // a photo's bytes (zlib's output buffer, or the packed ones as stored): freed now
    }
  }

  close(): void {
    this.zip.close();
    void this.handle.close().catch(() => undefined);
  }
}
