/**
 * One folder's PROPFIND answer, sorted into what the listing offers: files as RemoteItems, sub-folders to walk,
 * and ListingProblems for every entry whose name or address cannot be trusted (never an item).
 */
import type { ListingProblem, RemoteItem } from '../provider.ts';
import { etagVersion, type DavEntry } from './multistatus.ts';
import { hrefSegments, printable, sameSegments, segmentProblem } from './remote-paths.ts';

export interface FolderContents {
  items: { item: RemoteItem; segments: string[] }[];
  /** Sub-folders under the scope, as the server spells them (requests go back with the same bytes). */
  folders: string[][];
  problems: ListingProblem[];
}

/** '/'-joined NFC path under the scope, for ids, folders and problem reports. */
export function pathLabel(segments: readonly string[]): string {
  return segments.map((s) => s.normalize('NFC')).join('/');
}

function where(segments: readonly string[]): string {
  return segments.length ? printable(pathLabel(segments)) : '(the import folder)';
}

function versionOf(entry: DavEntry): string {
  const etag = entry.etag ? etagVersion(entry.etag) : '';
  return etag || `${entry.size ?? ''}:${entry.modified ?? ''}`;
}

/**
 * `folder` is the folder read, under the scope; `prefix` is every segment before it (the URL's path and the
 * scope), so that an href can be checked to be exactly `prefix + folder + one name`.
 */
export function sortFolderEntries(entries: readonly DavEntry[], base: URL, prefix: readonly string[], folder: readonly string[]): FolderContents {
  const contents: FolderContents = { items: [], folders: [], problems: [] };
  const self = [...prefix, ...folder];
  for (const entry of entries) {
    const href = hrefSegments(entry.href, base);
    if (!href.ok) {
      contents.problems.push({ problem: true, where: where(folder), reason: `${href.reason}: ${printable(entry.href)}` });
      continue;
    }
    if (sameSegments(href.segments, self)) continue;
    if (href.segments.length !== self.length + 1 || !sameSegments(href.segments.slice(0, self.length), self)) {
      contents.problems.push({
        problem: true,
        where: where(folder),
        reason: `the server listed an entry outside this folder (${printable(entry.href)}); it is not imported`,
      });
      continue;
    }
    const name = href.segments.at(-1)!;
    const segments = [...folder, name];
    const nameProblem = segmentProblem(name);
    if (nameProblem) {
      contents.problems.push({ problem: true, where: where(segments), reason: `the server gave ${nameProblem}; it is not imported` });
      continue;
    }
    if (entry.failedStatus !== null) {
      contents.problems.push({ problem: true, where: where(segments), reason: `the server could not describe it (HTTP ${entry.failedStatus})` });
      continue;
    }
    if (entry.collection) {
      contents.folders.push(segments);
      continue;
    }
    contents.items.push({
      segments,
      item: {
        id: pathLabel(segments),
        version: versionOf(entry),
        name: name.normalize('NFC'),
        folder: folder.map((s) => s.normalize('NFC')),
        size: entry.size,
        facts: entry.modified === null ? {} : { fileModified: { time: entry.modified, offsetMinutes: null } },
      },
    });
  }
  return contents;
}
