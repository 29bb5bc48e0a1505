/**
 * The library a set of Takeout parts adds up to, built from the entries of every part at once (a sidecar may sit in
 * another part than its photo, an album may be spread over parts): one item per distinct media file, its facts
 * from its sidecar, its albums from the album folders it is copied into, and every file a person would miss if it
 * were silently left out reported as a problem.
 *
 * The same photo is in its year folder and in each of its albums: copies with the same name, size and CRC-32 are
 * one item. A tgz part gives no CRC before its bytes are read, so there copies are grouped by name and size alone
 * (reading every part twice to learn the CRCs would double the import's I/O). Copies whose names differ stay apart
 * and the caller's content dedup joins them; two different files with the same name and byte-exact size in one
 * tgz export would be offered once, which is the price of that choice.
 */
import path from 'node:path';
import type { ListingProblem, RemoteFacts, RemoteItem } from '../provider.ts';
import { FOLDER_METADATA_NAMES, NON_SIDECAR_JSON, parseAlbumMetadata, type AlbumMetadata } from './album-metadata.ts';
import type { ArchiveEntry } from './archive-entry.ts';
import { isBookkeeping, mediaKindOf, type MediaKind } from './media-kinds.ts';
import { findPhotosRoot, namesAYear, underRoot } from './photos-root.ts';
import { matchFolderSidecars, stripOriginalPrefix, type SidecarMatch } from './sidecar-names.ts';
import { parseSidecar, type SidecarFacts } from './sidecar.ts';

export interface IndexedItem {
  item: RemoteItem;
  kind: MediaKind;
  /** Every copy of the file in the archive, the one the id names first. Any of them gives the same bytes. */
  copies: ArchiveEntry[];
  hasSidecar: boolean;
}

export interface TakeoutIndex {
  photosRoot: string | null;
  items: IndexedItem[];
  problems: ListingProblem[];
  albums: { name: string; count: number }[];
}

/** A JSON file's text, or why it was not read (too large, unreadable). */
export type JsonText = { text: string } | { unreadable: string };

interface Copy {
  entry: ArchiveEntry;
  /** Path under the Photos root. */
  rel: string;
  folder: string;
  name: string;
  album: string | null;
  inYearFolder: boolean;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function fold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export function versionOf(entry: ArchiveEntry): string {
  return entry.crc32 === null ? `${entry.size}` : `${entry.size}:${entry.crc32.toString(16).padStart(8, '0')}`;
}

/** The sidecar's `title` as the item's name when it is a plain file name with the entry's own extension. */
function plausibleTitle(title: string | null, entryName: string): string | null {
  if (title === null || title.length > 255 || title === '.' || title === '..') return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  if (/[/\\\u0000-\u001f\u007f]/.test(title)) return null;
  const ext = path.posix.extname(entryName).toLowerCase();
  return ext !== '' && path.posix.extname(title).toLowerCase() === ext && title.length > ext.length ? title : null;
}

export function buildTakeoutIndex(entries: ArchiveEntry[], json: Map<string, JsonText>, now = Date.now()): TakeoutIndex {
  const problems: ListingProblem[] = [];
  const problem = (where: string, reason: string) => problems.push({ problem: true, where, reason });
  const mediaEntries = entries.filter((e) => mediaKindOf(e.path) !== null);
  const root = findPhotosRoot(mediaEntries.map((e) => e.path));
  if (root === null) return { photosRoot: null, items: [], problems, albums: [] };

  // Folders under the root: their media, their sidecars, and (for top-level folders) what album they are.
  const folderMedia = new Map<string, Copy[]>();
  const folderJson = new Map<string, string[]>();
  const topFolders = new Set<string>();
  for (const entry of entries) {
    const rel = underRoot(root, entry.path);
    const kind = mediaKindOf(entry.path);
    if (rel === null) {
      if (kind) problem(entry.path, `outside the Google Photos folder (${root || 'archive top'}): not imported`);
      continue;
    }
    const folder = path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel);
    const name = path.posix.basename(rel);
    if (folder) topFolders.add(folder.split('/')[0]!);
    if (kind) {
      const list = folderMedia.get(folder) ?? [];
      list.push({ entry, rel, folder, name, album: null, inYearFolder: false });
      folderMedia.set(folder, list);
    } else if (name.toLowerCase().endsWith('.json')) {
      if (!FOLDER_METADATA_NAMES.has(name.toLowerCase()) && !NON_SIDECAR_JSON.has(name.toLowerCase())) {
        const list = folderJson.get(folder) ?? [];
        list.push(name);
        folderJson.set(folder, list);
      }
    } else if (!isBookkeeping(name)) {
      problem(entry.path, `not a photo or video (${path.posix.extname(name) || 'no extension'}): not imported`);
    }
  }

  const albumOf = new Map<string, { name: string; meta: AlbumMetadata | null } | null>();
  for (const top of [...topFolders].sort(byString)) {
    const meta = readAlbumMetadata(root, top, json, problem);
    const isYear = namesAYear(top) && !meta?.title;
    albumOf.set(top, isYear ? null : { name: meta?.title ?? top, meta });
  }

  // Sidecar matches per folder, and the copies grouped into items.
  const matches = new Map<string, Map<string, SidecarMatch>>();
  const groups = new Map<string, Copy[]>();
  for (const [folder, copies] of folderMedia) {
    matches.set(folder, matchFolderSidecars(copies.map((c) => c.name), folderJson.get(folder) ?? []));
    const top = folder ? folder.split('/')[0]! : '';
    for (const copy of copies) {
      const album = top ? albumOf.get(top) : null;
      copy.album = album ? album.name : null;
      copy.inYearFolder = !album;
      const key = `${fold(copy.name)}\0${copy.entry.size}`;
      const group = groups.get(key) ?? [];
      group.push(copy);
      groups.set(key, group);
    }
  }

  const sidecarCache = new Map<string, SidecarFacts | null>();
  const readSidecar = (jsonPath: string): SidecarFacts | null => {
    if (sidecarCache.has(jsonPath)) return sidecarCache.get(jsonPath)!;
    let parsed: SidecarFacts | null = null;
    const got = json.get(jsonPath);
    if (!got) problem(jsonPath, 'sidecar could not be read: the file keeps its own metadata');
    else if ('unreadable' in got) problem(jsonPath, `sidecar not read (${got.unreadable}): the file keeps its own metadata`);
    else {
      try {
        parsed = parseSidecar(got.text, now);
      } catch (e) {
        problem(jsonPath, `sidecar is not valid JSON (${(e as Error).message}): the file keeps its own metadata`);
      }
    }
    sidecarCache.set(jsonPath, parsed);
    return parsed;
  };

  const albumPlaces = new Map<string, { latitude: number; longitude: number }>();
  for (const a of albumOf.values()) if (a?.meta?.place && !albumPlaces.has(a.name)) albumPlaces.set(a.name, a.meta.place);

  const items: IndexedItem[] = [];
  const idOfCopy = new Map<string, string>();
  const usedIds = new Set<string>();
  const pending: { indexed: IndexedItem; primary: Copy }[] = [];
  for (const copies of [...groups.values()].flatMap(splitByCrc)) {
    copies.sort((a, b) => Number(b.inYearFolder) - Number(a.inYearFolder) || byString(a.rel, b.rel));
    const primary = copies[0]!;
    let id = primary.rel;
    for (let n = 2; usedIds.has(id); n++) id = `${primary.rel}#${n}`;
    usedIds.add(id);
    for (const c of copies) idOfCopy.set(`${c.folder}\0${c.name}`, id);

    const withSidecar = copies.find((c) => matches.get(c.folder)?.get(c.name)?.json);
    const match = withSidecar ? matches.get(withSidecar.folder)!.get(withSidecar.name)! : null;
    const sidecarPath = withSidecar && match?.json ? joinPath(root, withSidecar.folder, match.json) : null;
    const sidecar = sidecarPath ? readSidecar(sidecarPath) : null;
    const facts: RemoteFacts = { ...(sidecar?.facts ?? {}), fileModified: null };
    for (const reason of sidecar?.dropped ?? []) problem(primary.entry.path, `${reason}: dropped, the file keeps its own date`);

    const albums = [...new Set(copies.map((c) => c.album).filter((a): a is string => a !== null))].sort(byString);
    if (albums.length) facts.albumNames = albums;
    if (!facts.gps) {
      const place = albums.map((a) => albumPlaces.get(a)).find((p) => p !== undefined);
      if (place) facts.gps = place;
    }
    const ownTitle = match?.own ? plausibleTitle(sidecar?.title ?? null, primary.name) : null;
    const indexed: IndexedItem = {
      item: {
        id,
        // A zip copy's CRC makes a stronger version than the size alone of a tgz copy.
        version: versionOf(copies.find((c) => c.entry.crc32 !== null)?.entry ?? primary.entry),
        name: ownTitle ?? stripOriginalPrefix(primary.name),
        folder: primary.folder ? primary.folder.split('/') : [],
        size: primary.entry.size,
        facts,
      },
      kind: mediaKindOf(primary.name)!,
      copies: copies.map((c) => c.entry),
      // A sidecar that could not be read counts as none: the file arrives with its own metadata either way.
      hasSidecar: sidecar !== null,
    };
    items.push(indexed);
    pending.push({ indexed, primary });
  }

  // Edited copies and live-photo videos point at their original's item, known only once every item has its id.
  for (const { indexed, primary } of pending) {
    const m = matches.get(primary.folder)?.get(primary.name);
    const editOf = m?.editOf ? idOfCopy.get(`${primary.folder}\0${m.editOf}`) : undefined;
    const companionOf = m?.companionOf ? idOfCopy.get(`${primary.folder}\0${m.companionOf}`) : undefined;
    if (editOf && editOf !== indexed.item.id) indexed.item.facts.editOf = editOf;
    if (companionOf && companionOf !== indexed.item.id) indexed.item.facts.companionOf = companionOf;
  }

  items.sort((a, b) => byString(a.item.id, b.item.id));
  const albumCounts = new Map<string, number>();
  for (const { item } of items) for (const a of item.facts.albumNames ?? []) albumCounts.set(a, (albumCounts.get(a) ?? 0) + 1);
  const albums = [...albumCounts].map(([name, count]) => ({ name, count })).sort((a, b) => byString(a.name, b.name));
  return { photosRoot: root, items, problems, albums };
}

/**
 * Copies with the same name and size split by their CRC-32 when they have one (zip): different CRCs are different
 * files. Copies without one (tgz) join the first group, as the same name and size is all that can be known of them.
 */
function splitByCrc(copies: Copy[]): Copy[][] {
  const byCrc = new Map<number, Copy[]>();
  const unknown: Copy[] = [];
  for (const c of copies) {
    if (c.entry.crc32 === null) unknown.push(c);
    else byCrc.set(c.entry.crc32, [...(byCrc.get(c.entry.crc32) ?? []), c]);
  }
  const groups = [...byCrc.values()];
  if (groups.length === 0) return [unknown];
  groups[0]!.push(...unknown);
  return groups;
}

function joinPath(root: string, folder: string, name: string): string {
  return [root, folder, name].filter((s) => s !== '').join('/');
}

function readAlbumMetadata(
  root: string,
  top: string,
  json: Map<string, JsonText>,
  problem: (where: string, reason: string) => void,
): AlbumMetadata | null {
  for (const name of FOLDER_METADATA_NAMES) {
    const where = joinPath(root, top, name);
    const got = json.get(where);
    if (!got) continue;
    if ('unreadable' in got) {
      problem(where, `album metadata not read (${got.unreadable}): the folder name is the album's name`);
      return null;
    }
    try {
      return parseAlbumMetadata(got.text);
    } catch (e) {
      problem(where, `album metadata is not valid JSON (${(e as Error).message}): the folder name is the album's name`);
      return null;
    }
  }
  return null;
}
