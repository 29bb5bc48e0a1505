/**
 * Google Takeout parts opened as one `RemoteLibrary`. Opening reads every part once (zip: the central directory
 * and the small JSON files; tgz: one streamed pass), so the preview and every item's facts are known before the
 * first byte of media is read.
 *
 * Zip items are read by random access whenever `download` asks. A tgz part can only be read front to back, so
 * `list` streams the tgz parts again and extracts each item into the scratch folder as it yields it; `download`
 * then moves that file into `dest`. Call `download` for an item before asking `list` for the next one: when the
 * listing moves on, the previous unclaimed extraction is removed (disk use stays at about one file), and a later
 * `download` of it streams its part again to find it (correct, but slow).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DownloadOptions, ListingProblem, RemoteItem, RemoteLibrary } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import type { ArchiveEntry } from './archive-entry.ts';
import { writeCounted, type WrittenFile } from './crc32-sink.ts';
import type { TakeoutLimits } from './options.ts';
import { previewOf, type TakeoutPreview } from './preview.ts';
import type { ScannedParts } from './scan-parts.ts';
import { readTgz } from './tar-reader.ts';
import type { IndexedItem, TakeoutIndex } from './takeout-index.ts';

interface Extracted {
  id: string;
  file: string;
}

export class TakeoutLibrary implements RemoteLibrary {
  private readonly byId: Map<string, IndexedItem>;
  private readonly problems: ListingProblem[];
  private pending: Extracted | null = null;
  private extractions = 0;
  private closed = false;

  constructor(
    private readonly files: string[],
    private readonly scanned: ScannedParts,
    private readonly index: TakeoutIndex,
    private readonly scratch: string,
    private readonly limits: TakeoutLimits,
  ) {
    this.byId = new Map(index.items.map((i) => [i.item.id, i]));
    this.problems = [...scanned.problems, ...index.problems];
  }

  preview(): TakeoutPreview {
    return previewOf(this.index, this.problems, this.scanned.parts);
  }

  async *list(signal: AbortSignal): AsyncGenerator<RemoteItem | ListingProblem> {
    for (const p of this.problems) yield { ...p };
    const streamed: IndexedItem[] = [];
    for (const indexed of this.index.items) {
      signal.throwIfAborted();
      if (indexed.copies.some((c) => c.zip)) yield structuredClone(indexed.item);
      else streamed.push(indexed);
    }
    if (streamed.length) yield* this.listFromTgz(streamed, signal);
  }

  private async *listFromTgz(items: IndexedItem[], signal: AbortSignal): AsyncGenerator<RemoteItem | ListingProblem> {
    const remaining = new Map(items.map((i) => [i.item.id, i]));
    const byCopy = new Map<string, IndexedItem>();
    for (const i of items) for (const c of i.copies) byCopy.set(copyKey(c.part, c.path), i);
    // Items still to offer that have a copy in each part: a part is read only until it has nothing left to give.
    const waiting = new Map<number, number>();
    const partsOf = (i: IndexedItem) => [...new Set(i.copies.map((c) => c.part))];
    for (const i of items) for (const part of partsOf(i)) waiting.set(part, (waiting.get(part) ?? 0) + 1);
    try {
      for (const part of [...waiting.keys()].sort((a, b) => a - b)) {
        try {
          for await (const entry of readTgz(this.files[part]!, this.limits, signal)) {
            if (!waiting.get(part)) break;
            const indexed = entry.type === 'file' ? byCopy.get(copyKey(part, entry.name)) : undefined;
            if (!indexed || !remaining.has(indexed.item.id) || entry.size !== indexed.item.size) continue;
            const file = path.join(this.scratch, `${++this.extractions}`);
            try {
              await writeCounted(entry.body(), file, signal);
            } catch (e) {
              await fs.promises.rm(file, { force: true });
              throw e;
            }
            this.pending = { id: indexed.item.id, file };
            remaining.delete(indexed.item.id);
            for (const p of partsOf(indexed)) waiting.set(p, waiting.get(p)! - 1);
            yield structuredClone(indexed.item);
            await this.dropPending();
          }
        } catch (e) {
          if (signal.aborted) throw e;
          yield { problem: true, where: this.scanned.parts[part]!.name, reason: `part could not be read again (${(e as Error).message})` };
        }
      }
      for (const { item } of remaining.values()) {
        yield { problem: true, where: item.id, reason: 'not found again in its archive part: not imported' };
      }
    } finally {
      await this.dropPending();
    }
  }

  private async dropPending(): Promise<void> {
    if (!this.pending) return;
    const { file } = this.pending;
    this.pending = null;
    await fs.promises.rm(file, { force: true });
  }

  async download(item: RemoteItem, dest: string, opts: DownloadOptions): Promise<void> {
    if (this.closed) throw new ProviderError('protocol', 'The Takeout archive was closed');
    const indexed = this.byId.get(item.id);
    if (!indexed) throw new ProviderError('not_found', `${item.name} is not in these Takeout parts`);
    opts.signal.throwIfAborted();
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    let lastError: Error | null = null;
    if (this.pending?.id === item.id) {
      const { file } = this.pending;
      this.pending = null;
      await moveFile(file, dest);
      const { size } = await fs.promises.stat(dest);
      if (size === indexed.item.size) {
        opts.onProgress?.(size);
        return;
      }
      lastError = new Error(`extracted ${size} bytes, the archive declares ${indexed.item.size}`);
    }
    // Any copy has the same bytes: a damaged one is not the end of the item. Zip copies first (random access).
    for (const copy of [...indexed.copies].sort((a, b) => Number(b.zip !== null) - Number(a.zip !== null))) {
      try {
        const written = await this.extractCopy(copy, dest, opts);
        const problem = mismatch(written, copy);
        if (!problem) return;
        lastError = new Error(problem);
      } catch (e) {
        if (opts.signal.aborted) {
          await fs.promises.rm(dest, { force: true });
          throw e;
        }
        lastError = e as Error;
      }
    }
    await fs.promises.rm(dest, { force: true });
    throw new ProviderError('protocol', `${item.name} could not be extracted from the archive (${lastError?.message ?? 'no readable copy'})`);
  }

  private async extractCopy(copy: ArchiveEntry, dest: string, opts: DownloadOptions): Promise<WrittenFile> {
    const zip = this.scanned.zips[copy.part];
    if (copy.zip && zip) return zip.extract(copy.zip, dest, opts.signal, opts.onProgress);
    for await (const entry of readTgz(this.files[copy.part]!, this.limits, opts.signal)) {
      // Awaited here: leaving the loop first would close the stream under the write.
      if (entry.type === 'file' && entry.name === copy.path) return await writeCounted(entry.body(), dest, opts.signal, opts.onProgress);
    }
    throw new Error('entry not found again in its part');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const zip of this.scanned.zips) zip?.close();
    await fs.promises.rm(this.scratch, { recursive: true, force: true });
  }
}

function copyKey(part: number, entryPath: string): string {
  return `${part}\0${entryPath}`;
}

function mismatch(written: WrittenFile, copy: ArchiveEntry): string | null {
  if (written.bytes !== copy.size) return `wrote ${written.bytes} bytes, the archive declares ${copy.size}`;
  if (copy.crc32 !== null && written.crc32 !== copy.crc32) return 'CRC-32 does not match the archive (damaged entry)';
  return null;
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (e) {
    // The scratch folder should share the destination's disk; when it does not, copy.
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await fs.promises.copyFile(from, to);
    await fs.promises.rm(from, { force: true });
  }
}
