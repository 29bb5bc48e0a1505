/**
 * The first pass over every part: each entry's path, size and CRC (zip: from the central directory; tgz: from a
 * streamed pass), the text of every small JSON file (sidecars and album metadata are needed before any item can be
 * described), and a problem for every entry that is refused. A damaged part costs only itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ListingProblem } from '../provider.ts';
import { archiveFormatOf, type ArchiveEntry, type PartSummary } from './archive-entry.ts';
import { printableName, unsafeEntryReason } from './entry-path.ts';
import type { TakeoutLimits } from './options.ts';
import { readTgz } from './tar-reader.ts';
import type { JsonText } from './takeout-index.ts';
import { ZipPart } from './zip-part.ts';

export interface ScannedParts {
  entries: ArchiveEntry[];
  json: Map<string, JsonText>;
  problems: ListingProblem[];
  parts: PartSummary[];
  /** Open zip parts by part index (null for tgz or a part that could not be opened). */
  zips: (ZipPart | null)[];
}

class Scan {
  readonly out: ScannedParts = { entries: [], json: new Map(), problems: [], parts: [], zips: [] };
  private total = 0;

  constructor(readonly limits: TakeoutLimits) {}

  problem(where: string, reason: string): void {
    this.out.problems.push({ problem: true, where, reason });
  }

  /** Whether the part may take one more entry (the cap bounds the index's memory). */
  admit(partName: string): boolean {
    if (this.total >= this.limits.maxEntries) {
      this.problem(partName, `more than ${this.limits.maxEntries} entries in the archive: the rest of this part is not listed`);
      return false;
    }
    this.total++;
    return true;
  }

  /** Why an entry is refused before any of its bytes are read, or null. */
  refusal(name: string, size: number, compressedSize: number | null): string | null {
    const unsafe = unsafeEntryReason(name);
    if (unsafe) return `${unsafe}: not extracted`;
    if (size > this.limits.maxEntryBytes) return `declares ${size} bytes, over the limit of ${this.limits.maxEntryBytes}: not extracted`;
    if (compressedSize !== null && size > this.limits.ratioFloorBytes) {
      const ratio = compressedSize === 0 ? Infinity : size / compressedSize;
      if (ratio > this.limits.maxCompressionRatio) {
        return `inflates ${compressedSize} bytes to ${size} (over ${this.limits.maxCompressionRatio}:1, a compression bomb): not extracted`;
      }
    }
    return null;
  }

  isJson(name: string): boolean {
    return name.toLowerCase().endsWith('.json');
  }
}

async function scanZip(scan: Scan, file: string, part: number, summary: PartSummary, signal?: AbortSignal): Promise<void> {
  let zip: ZipPart;
  try {
    zip = await ZipPart.open(file);
  } catch (e) {
    scan.problem(summary.name, `not a readable zip archive (${(e as Error).message}): nothing imported from this part`);
    scan.out.zips[part] = null;
    return;
  }
  scan.out.zips[part] = zip;
  try {
    for await (const { name, entry } of zip.entries()) {
      signal?.throwIfAborted();
      summary.entries++;
      if (name.endsWith('/')) continue;
      if (!scan.admit(summary.name)) break;
      const refused = scan.refusal(name, entry.uncompressedSize, entry.compressedSize) ?? ZipPart.unreadableReason(entry);
      if (refused) {
        scan.problem(`${summary.name}: ${printableName(name)}`, refused);
        continue;
      }
      scan.out.entries.push({ part, path: name, size: entry.uncompressedSize, crc32: entry.crc32, zip: entry });
      if (scan.isJson(name)) {
        if (entry.uncompressedSize > scan.limits.maxJsonBytes) scan.out.json.set(name, { unreadable: 'larger than the JSON limit' });
        else {
          try {
            scan.out.json.set(name, { text: (await zip.readSmall(entry)).toString('utf8') });
          } catch (e) {
            scan.out.json.set(name, { unreadable: (e as Error).message });
          }
        }
      }
    }
  } catch (e) {
    if (signal?.aborted) throw e;
    scan.problem(summary.name, `damaged zip directory (${(e as Error).message}): reading stopped after ${summary.entries} entries`);
  }
}

async function scanTgz(scan: Scan, file: string, part: number, summary: PartSummary, signal?: AbortSignal): Promise<void> {
  scan.out.zips[part] = null;
  // An entry counts only once the reader is past its whole body: a part that breaks inside a body (truncated,
  // a bomb) must not offer that entry.
  let previous: ArchiveEntry | null = null;
  const settle = () => {
    if (previous) scan.out.entries.push(previous);
    previous = null;
  };
  try {
    for await (const entry of readTgz(file, scan.limits, signal)) {
      settle();
      summary.entries++;
      if (entry.type === 'directory' || entry.type === 'other') continue;
      if (!scan.admit(summary.name)) break;
      if (entry.type === 'link') {
        scan.problem(`${summary.name}: ${printableName(entry.name)}`, 'a link, not a file: not followed');
        continue;
      }
      const refused = scan.refusal(entry.name, entry.size, null);
      if (refused) {
        scan.problem(`${summary.name}: ${printableName(entry.name)}`, refused);
        // Skipping a refused entry would mean inflating all of it.
        if (entry.size > scan.limits.maxEntryBytes) throw new Error('an entry over the size limit');
        continue;
      }
      previous = { part, path: entry.name, size: entry.size, crc32: null, zip: null };
      if (scan.isJson(entry.name)) {
        if (entry.size > scan.limits.maxJsonBytes) scan.out.json.set(entry.name, { unreadable: 'larger than the JSON limit' });
        else {
          const chunks: Buffer[] = [];
          for await (const chunk of entry.body()) chunks.push(chunk);
          scan.out.json.set(entry.name, { text: Buffer.concat(chunks).toString('utf8') });
          settle();
        }
      }
    }
    settle();
  } catch (e) {
    if (signal?.aborted) throw e;
    scan.problem(summary.name, `damaged or refused tgz part (${(e as Error).message}): reading stopped after ${summary.entries} entries`);
  }
}

export async function scanParts(files: string[], limits: TakeoutLimits, signal?: AbortSignal): Promise<ScannedParts> {
  const scan = new Scan(limits);
  try {
    for (const [part, file] of files.entries()) {
      signal?.throwIfAborted();
      const summary: PartSummary = { name: path.basename(file), size: (await fs.promises.stat(file)).size, entries: 0 };
      scan.out.parts.push(summary);
      if (archiveFormatOf(file) === 'zip') await scanZip(scan, file, part, summary, signal);
      else await scanTgz(scan, file, part, summary, signal);
    }
  } catch (e) {
    for (const zip of scan.out.zips) zip?.close();
    throw e;
  }
  return scan.out;
}
