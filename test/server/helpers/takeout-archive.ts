/**
 * Builds Google-Takeout-shaped archives for tests, from corpus files and sidecars in Takeout's real format:
 * `Takeout/Google Photos/<year or album folder>/<file>`, `<file>.json` (or its quirky variants) beside each photo,
 * `metadata.json` in album folders. Parts are real `.zip` files (yazl) or real `.tgz` files (GNU tar, as Takeout
 * users' tools read them), one per part number used.
 *
 * Also builds hostile zips: entry names yazl refuses to write (`../evil.jpg`, `/abs.jpg`) are written under a
 * placeholder of the same byte length and patched in place, and a compression bomb is streamed, never held.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ListingProblem, RemoteItem, RemoteLibrary } from '../../../server/src/adapters/cloud/provider.ts';
import { CORPUS } from '../media/corpus.ts';

export const PHOTOS_ROOT = 'Takeout/Google Photos';

export interface TakeoutFile {
  /** Path under the Photos root (`Photos from 2019/IMG_1.jpg`), or under the archive top when `atTop`. */
  path: string;
  /** A corpus file (`exif/Canon_40D.jpg`) to copy in… */
  corpus?: string;
  /** …or bytes, or JSON to serialise. */
  bytes?: Buffer;
  json?: unknown;
  /** Which part it goes in (0-based; default 0). */
  part?: number;
  atTop?: boolean;
}

export interface TakeoutBuild {
  format: 'zip' | 'tgz';
  files: TakeoutFile[];
  /** The Photos root inside the archive (default `Takeout/Google Photos`). */
  root?: string;
  /** Name stem of the parts (default `takeout-20240101T000000Z`). */
  stem?: string;
  /** tgz only: GNU tar's header format (default gnu, as GNU tar writes). */
  tarFormat?: 'gnu' | 'pax' | 'ustar';
  /** zip only: write every entry with zip64 headers. */
  zip64?: boolean;
}

export function corpusFile(rel: string): string {
  return path.join(CORPUS, ...rel.split('/'));
}

function contentOf(f: TakeoutFile): Buffer {
  if (f.corpus) return fs.readFileSync(corpusFile(f.corpus));
  if (f.bytes) return f.bytes;
  return Buffer.from(JSON.stringify(f.json, null, 2));
}

function archivePath(f: TakeoutFile, root: string): string {
  return f.atTop ? f.path : `${root}/${f.path}`;
}

/** Writes the parts into `dir` and answers their paths, in part order. */
export async function buildTakeout(dir: string, build: TakeoutBuild): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const root = build.root ?? PHOTOS_ROOT;
  const stem = build.stem ?? 'takeout-20240101T000000Z';
  const partCount = Math.max(...build.files.map((f) => f.part ?? 0)) + 1;
  const out: string[] = [];
  for (let part = 0; part < partCount; part++) {
    const files = build.files.filter((f) => (f.part ?? 0) === part);
    const name = `${stem}-${String(part + 1).padStart(3, '0')}.${build.format}`;
    const file = path.join(dir, name);
    if (build.format === 'zip') await writeZip(file, files.map((f) => ({ path: archivePath(f, root), bytes: contentOf(f) })), build.zip64);
    else writeTgz(file, files, root, build.tarFormat ?? 'gnu');
    out.push(file);
  }
  return out;
}

export async function writeZip(file: string, entries: { path: string; bytes: Buffer; compress?: boolean }[], zip64 = false): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.bytes, e.path, { compress: e.compress ?? true, forceZip64Format: zip64, mtime: new Date(Date.UTC(2024, 0, 1)) });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const sink = fs.createWriteStream(file);
    zip.outputStream.pipe(sink).on('close', resolve).on('error', reject);
  });
}

function writeTgz(file: string, files: TakeoutFile[], root: string, format: 'gnu' | 'pax' | 'ustar'): void {
  const stage = fs.mkdtempSync(`${file}.stage-`);
  try {
    for (const f of files) {
      const at = path.join(stage, ...archivePath(f, root).split('/'));
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, contentOf(f));
    }
    const tops = fs.readdirSync(stage).sort();
    execFileSync('tar', [`--format=${format}`, '--sort=name', '-czf', file, '-C', stage, ...tops]);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * A zip whose entries carry names yazl refuses to write: each is written as `placeholder` (same byte length) and
 * patched to `name` in both the local header and the central directory.
 */
export async function writeZipWithRawNames(file: string, entries: { name: string; placeholder: string; bytes: Buffer }[]): Promise<void> {
  await writeZip(file, entries.map((e) => ({ path: e.placeholder, bytes: e.bytes })));
  let buf = fs.readFileSync(file);
  for (const e of entries) {
    const from = Buffer.from(e.placeholder);
    const to = Buffer.from(e.name);
    if (from.length !== to.length) throw new Error('placeholder and name must have the same byte length');
    for (let at = buf.indexOf(from); at !== -1; at = buf.indexOf(from, at + 1)) to.copy(buf, at);
  }
  fs.writeFileSync(file, buf);
  buf = Buffer.alloc(0);
}

/** A zip holding `bytes` zeros deflated (about 1000:1), streamed so memory stays small, beside a real photo. */
export async function writeZipBomb(file: string, bombPath: string, bytes: number, photo: { path: string; corpus: string }): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addFile(corpusFile(photo.corpus), photo.path);
  const chunk = Buffer.alloc(1 << 20);
  let left = bytes;
  const zeros = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
  zip.addReadStream(zeros, bombPath, { compressionLevel: 9, size: bytes });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}

/** Takeout's `{timestamp, formatted}` for an instant. */
export function takeoutTime(iso: string): { timestamp: string; formatted: string } {
  const ms = Date.parse(iso);
  return { timestamp: String(Math.floor(ms / 1000)), formatted: new Date(ms).toUTCString() };
}

export interface SidecarFields {
  title: string;
  taken?: string;
  /** A raw `photoTakenTime.timestamp` (for impossible values). */
  takenRaw?: string;
  geo?: [number, number];
  geoExif?: [number, number];
  description?: string;
  favorited?: boolean;
  archived?: boolean;
  trashed?: boolean;
  people?: string[];
}

/** A photo sidecar as Takeout writes it (fields and shapes of real exports, 0,0 for "no place"). */
export function sidecar(f: SidecarFields): Record<string, unknown> {
  const place = (p: [number, number] | undefined) => ({
    latitude: p?.[0] ?? 0,
    longitude: p?.[1] ?? 0,
    altitude: p ? 12.5 : 0,
    latitudeSpan: 0,
    longitudeSpan: 0,
  });
  const doc: Record<string, unknown> = {
    title: f.title,
    description: f.description ?? '',
    imageViews: '7',
    creationTime: takeoutTime('2024-01-01T10:00:00Z'),
    photoTakenTime: f.takenRaw !== undefined ? { timestamp: f.takenRaw, formatted: '' } : takeoutTime(f.taken ?? '2019-06-01T12:00:00Z'),
    geoData: place(f.geo),
    geoDataExif: place(f.geoExif),
    url: 'https://photos.google.com/photo/AF1QipExample',
    googlePhotosOrigin: { mobileUpload: { deviceType: 'ANDROID_PHONE' } },
  };
  if (f.people) doc['people'] = f.people.map((name) => ({ name }));
  if (f.favorited !== undefined) doc['favorited'] = f.favorited;
  if (f.archived !== undefined) doc['archived'] = f.archived;
  if (f.trashed !== undefined) doc['trashed'] = f.trashed;
  return doc;
}

/** An album's metadata.json as current exports write it; `place` becomes a location enrichment (E7 integers). */
export function albumMetadata(title: string, place?: [number, number]): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    title,
    description: `${title}, the whole family`,
    access: 'protected',
    date: takeoutTime('2019-07-01T00:00:00Z'),
  };
  if (place) {
    doc['enrichments'] = [
      { narrativeEnrichment: { text: 'Arrived' } },
      { locationEnrichment: { location: [{ name: 'Somewhere', latitudeE7: Math.round(place[0] * 1e7), longitudeE7: Math.round(place[1] * 1e7) }] } },
    ];
  }
  return doc;
}

/** Rewrites the uncompressed size the central directory declares for `entryName` (a header that lies). */
export function patchZipDeclaredSize(file: string, entryName: string, size: number): void {
  const buf = fs.readFileSync(file);
  const name = Buffer.from(entryName);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = buf.indexOf(signature); at !== -1; at = buf.indexOf(signature, at + 4)) {
    const nameLength = buf.readUInt16LE(at + 28);
    if (nameLength === name.length && buf.subarray(at + 46, at + 46 + nameLength).equals(name)) {
      buf.writeUInt32LE(size, at + 24);
      fs.writeFileSync(file, buf);
      return;
    }
  }
  throw new Error(`no central directory entry ${entryName}`);
}

function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write(`${Math.floor(Date.UTC(2024, 0, 1) / 1000).toString(8).padStart(11, '0')}\0`, 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A tgz whose one entry is `bytes` zeros (a gzip bomb), streamed through gzip so memory stays small. */
export async function writeTgzBomb(file: string, entryName: string, bytes: number): Promise<void> {
  const { createGzip } = await import('node:zlib');
  const { pipeline } = await import('node:stream/promises');
  const chunk = Buffer.alloc(1 << 20);
  async function* tar(): AsyncGenerator<Buffer> {
    yield tarHeader(entryName, bytes);
    for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    const padding = (512 - (bytes % 512)) % 512;
    yield Buffer.alloc(padding + 1024);
  }
  await pipeline(Readable.from(tar()), createGzip({ level: 9 }), fs.createWriteStream(file));
}

/**
 * A small family library: two year folders and a translated one, an album with a place (metadata.json with a
 * location enrichment) whose photos are also in their year folders, an album named like a year but titled, an
 * album with no metadata, an edited copy, a live photo, a video, a file with no sidecar and a text file.
 * `FAMILY_EXPECTED` says what it holds.
 */
export function familyTakeout(): TakeoutFile[] {
  const y19 = 'Photos from 2019';
  const y20 = 'Photos from 2020';
  const canon = sidecar({ title: 'Canon_40D.jpg', taken: '2019-06-01T12:00:00Z', geo: [48.8584, 2.2945], geoExif: [1, 1], description: 'Under the tower', favorited: true, archived: false, trashed: false, people: ['Anna', 'Ben'] });
  const pentax = sidecar({ title: 'Pentax_K10D.jpg', taken: '2019-08-15T08:30:00Z' });
  const nikon = sidecar({ title: 'Nikon_D70.jpg', taken: '2019-03-02T09:00:00Z', geoExif: [51.5, -0.12] });
  return [
    { path: `${y19}/Canon_40D.jpg`, corpus: 'exif/Canon_40D.jpg' },
    { path: `${y19}/Canon_40D.jpg.json`, json: canon },
    { path: 'Summer trip/Canon_40D.jpg', corpus: 'exif/Canon_40D.jpg' },
    { path: 'Summer trip/Canon_40D.jpg.json', json: canon },
    { path: 'Summer trip/metadata.json', json: albumMetadata('Summer trip', [43.7, 7.26]) },
    { path: `${y19}/Nikon_D70.jpg`, corpus: 'exif/Nikon_D70.jpg' },
    { path: `${y19}/Nikon_D70.jpg.json`, json: nikon },
    { path: 'Best of 2019/Nikon_D70.jpg', corpus: 'exif/Nikon_D70.jpg' },
    { path: 'Best of 2019/Nikon_D70.jpg.json', json: nikon },
    { path: 'Best of 2019/metadata.json', json: albumMetadata('Best of 2019') },
    { path: `${y19}/Pentax_K10D.jpg`, corpus: 'exif/Pentax_K10D.jpg' },
    { path: `${y19}/Pentax_K10D.jpg.json`, json: pentax },
    { path: 'Summer trip/Pentax_K10D.jpg', corpus: 'exif/Pentax_K10D.jpg' },
    { path: 'Summer trip/Pentax_K10D.jpg.json', json: pentax },
    { path: `${y19}/tanners_ridge.jpg`, corpus: 'duplicates/tanners_ridge.jpg' },
    { path: `${y19}/tanners_ridge.jpg.json`, json: sidecar({ title: 'tanners_ridge.jpg', taken: '2019-09-09T17:45:00Z' }) },
    { path: `${y19}/tanners_ridge-edited.jpg`, corpus: 'duplicates/tanners_ridge_edited.jpg' },
    { path: `${y19}/notes.txt`, bytes: Buffer.from('shopping list\n') },
    { path: `${y20}/bee.jpg`, corpus: 'duplicates/bee.jpg' },
    { path: `${y20}/bee.jpg.json`, json: sidecar({ title: 'bee.jpg', taken: '2020-05-05T05:05:05Z', favorited: false, archived: true, trashed: true }) },
    { path: `${y20}/no_exif.jpg`, corpus: 'exif/no_exif.jpg' },
    { path: `${y20}/IMG_7943.HEIC`, corpus: 'live/IMG_7943.HEIC' },
    { path: `${y20}/IMG_7943.HEIC.json`, json: sidecar({ title: 'IMG_7943.HEIC', taken: '2020-10-10T10:10:10Z' }) },
    { path: `${y20}/IMG_7943.MOV`, corpus: 'live/IMG_7943_HEVC.MOV' },
    { path: `${y20}/sample.3gp`, corpus: 'video/sample.3gp' },
    { path: `${y20}/sample.3gp.json`, json: sidecar({ title: 'sample.3gp', taken: '2020-12-31T23:59:59Z' }) },
    { path: "Kids' drawings/door-knocker.jpg", corpus: 'exif/door-knocker.jpg' },
    { path: "Kids' drawings/door-knocker.jpg.json", json: sidecar({ title: 'door-knocker.jpg', taken: '2020-02-02T02:02:02Z' }) },
    { path: 'Fotos von 2021/jolla.jpg', corpus: 'exif/jolla.jpg' },
    { path: 'Fotos von 2021/jolla.jpg.json', json: sidecar({ title: 'jolla.jpg', taken: '2021-02-03T04:05:06Z' }) },
    { path: 'print-subscriptions.json', json: [] },
    { path: 'user-generated-memory-titles.json', json: { title: [] } },
    { path: 'Takeout/archive_browser.html', bytes: Buffer.from('<html></html>'), atTop: true },
  ];
}

/** Item id → corpus file, for every item of `familyTakeout()`. */
export const FAMILY_ITEMS: Record<string, string> = {
  'Photos from 2019/Canon_40D.jpg': 'exif/Canon_40D.jpg',
  'Photos from 2019/Nikon_D70.jpg': 'exif/Nikon_D70.jpg',
  'Photos from 2019/Pentax_K10D.jpg': 'exif/Pentax_K10D.jpg',
  'Photos from 2019/tanners_ridge.jpg': 'duplicates/tanners_ridge.jpg',
  'Photos from 2019/tanners_ridge-edited.jpg': 'duplicates/tanners_ridge_edited.jpg',
  'Photos from 2020/bee.jpg': 'duplicates/bee.jpg',
  'Photos from 2020/no_exif.jpg': 'exif/no_exif.jpg',
  'Photos from 2020/IMG_7943.HEIC': 'live/IMG_7943.HEIC',
  'Photos from 2020/IMG_7943.MOV': 'live/IMG_7943_HEVC.MOV',
  'Photos from 2020/sample.3gp': 'video/sample.3gp',
  "Kids' drawings/door-knocker.jpg": 'exif/door-knocker.jpg',
  'Fotos von 2021/jolla.jpg': 'exif/jolla.jpg',
};

export interface Listing {
  items: RemoteItem[];
  problems: ListingProblem[];
}

/** Everything a library lists, items and problems apart. */
export async function collectListing(lib: RemoteLibrary): Promise<Listing> {
  const out: Listing = { items: [], problems: [] };
  for await (const x of lib.list(new AbortController().signal)) {
    if ('problem' in x) out.problems.push(x);
    else out.items.push(x);
  }
  return out;
}

/** A tgz written header by header, for names GNU tar would refuse or rewrite (`../evil.jpg`, `/abs.jpg`). */
export async function writeRawTgz(file: string, entries: { name: string; bytes: Buffer }[]): Promise<void> {
  const { gzipSync } = await import('node:zlib');
  const blocks: Buffer[] = [];
  for (const e of entries) {
    blocks.push(tarHeader(e.name, e.bytes.length), e.bytes, Buffer.alloc((512 - (e.bytes.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  fs.writeFileSync(file, gzipSync(Buffer.concat(blocks)));
}
