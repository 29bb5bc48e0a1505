/**
 * A zip part read by random access: the central directory is walked once (zip64 included, by yauzl) and each
 * entry's bytes are opened only when needed, so memory stays bounded whatever the part's size.
 *
 * Names are decoded here rather than by yauzl: yauzl rejects an unsafe name by failing the whole enumeration, and
 * one `../evil.jpg` must cost only that entry, not the rest of the part.
 */
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { Readable } from 'node:stream';
import { writeCounted, type WrittenFile } from './crc32-sink.ts';

export interface ZipListedEntry {
  name: string;
  entry: Entry;
}

export class ZipPart {
  private constructor(private readonly zip: ZipFile) {}

  static async open(file: string): Promise<ZipPart> {
    const zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      // Keeps yauzl's check that an entry inflates to exactly its declared size (it stops a lying header).
      validateEntrySizes: true,
    });
    return new ZipPart(zip);
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

  async readSmall(entry: Entry): Promise<Buffer> {
    const stream = await this.zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async openStream(entry: Entry): Promise<Readable> {
    return this.zip.openReadStreamPromise(entry);
  }

  async extract(entry: Entry, dest: string, signal: AbortSignal, onProgress?: (bytes: number) => void): Promise<WrittenFile> {
    return writeCounted(await this.openStream(entry), dest, signal, onProgress);
  }

  close(): void {
    this.zip.close();
  }
}
