/**
 * A streaming reader of tar archives inside gzip (Takeout's `.tgz` parts): ustar and GNU headers, pax extended
 * headers (long paths, sizes past 8 GB) and GNU long names. Each entry's body is offered as a stream and skipped
 * when the caller does not read it, so one pass over a part holds about one chunk in memory.
 *
 * Written here rather than taken from npm: the format subset Takeout writes is small, and the bomb guard (the whole
 * stream's inflation ratio) needs the compressed byte count, which a generic reader hides.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { BytePull } from './byte-pull.ts';

export type TarEntryType = 'file' | 'directory' | 'link' | 'other';

export interface TarEntry {
  name: string;
  size: number;
  type: TarEntryType;
  /** The body; read it at most once, before asking for the next entry (what is left unread is skipped). */
  body(): AsyncGenerator<Buffer>;
}

export interface TarGuard {
  /** Inflated ÷ compressed bytes above this (past `ratioFloorBytes` inflated) stops the part: a gzip bomb. */
  maxCompressionRatio: number;
  ratioFloorBytes: number;
}

const BLOCK = 512;

function cString(buf: Buffer, start: number, length: number): string {
  const field = buf.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function numberField(buf: Buffer, start: number, length: number): number {
  const field = buf.subarray(start, start + length);
  // GNU base-256: the high bit of the first byte marks a big-endian binary number (sizes of 8 GB and more).
  if (field[0]! & 0x80) {
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = cString(buf, start, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new Error('tar header holds a malformed number');
  return parseInt(text, 8);
}

function checksumMatches(header: Buffer): boolean {
  const stored = numberField(header, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === stored;
}

function typeOf(flag: string): TarEntryType {
  if (flag === '0' || flag === '\0' || flag === '' || flag === '7') return 'file';
  if (flag === '5') return 'directory';
  if (flag === '1' || flag === '2') return 'link';
  return 'other';
}

/** Pax records: "<length> <key>=<value>\n", repeated. */
function parsePax(text: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const space = text.indexOf(0x20, at);
    if (space === -1) break;
    const length = parseInt(text.subarray(at, space).toString('ascii'), 10);
    if (!Number.isFinite(length) || length <= 0 || at + length > text.length) throw new Error('malformed pax header');
    const record = text.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

const MAX_META_BYTES = 1024 * 1024;

export async function* readTgz(file: string, guard: TarGuard, signal?: AbortSignal): AsyncGenerator<TarEntry> {
  const compressed = fs.createReadStream(file, { signal });
  const gunzip = zlib.createGunzip();
  compressed.on('error', (e) => gunzip.destroy(e));
  compressed.pipe(gunzip);
  let inflated = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > guard.ratioFloorBytes && inflated > guard.maxCompressionRatio * Math.max(compressed.bytesRead, 1)) {
        throw new Error(`inflates more than ${guard.maxCompressionRatio}:1 (a compression bomb)`);
      }
      yield chunk;
    }
  }
  const pull = new BytePull(counted());
  let pax = new Map<string, string>();
  let longName: string | null = null;
  try {
    for (;;) {
      const header = await pull.take(BLOCK);
      if (header === null || header.every((b) => b === 0)) return;
      if (!checksumMatches(header)) throw new Error('tar header checksum mismatch');
      const flag = String.fromCharCode(header[156]!);
      let size = numberField(header, 124, 12);
      const padded = (n: number) => Math.ceil(n / BLOCK) * BLOCK;
      if (flag === 'x' || flag === 'g' || flag === 'L' || flag === 'K') {
        if (size > MAX_META_BYTES) throw new Error('tar extended header too large');
        const meta = await pull.take(padded(size));
        if (meta === null) throw new Error('archive ends inside a header');
        // Global pax headers and long link targets do not name the next file.
        if (flag === 'x') pax = parsePax(meta.subarray(0, size));
        if (flag === 'L') longName = cString(meta, 0, size);
        continue;
      }
      const magicUstar = header.subarray(257, 262).toString('ascii') === 'ustar';
      const prefix = magicUstar ? cString(header, 345, 155) : '';
      let name = pax.get('path') ?? longName ?? (prefix ? `${prefix}/${cString(header, 0, 100)}` : cString(header, 0, 100));
      const paxSize = pax.get('size');
      if (paxSize !== undefined) {
        if (!/^\d+$/.test(paxSize)) throw new Error('malformed pax size');
        size = Number(paxSize);
      }
      pax = new Map();
      longName = null;
      // Archives made with `tar -C dir .` name entries `./…`: the same path without it.
      while (name.startsWith('./')) name = name.slice(2);
      const type = typeOf(flag);
      const bodySize = type === 'file' ? size : type === 'directory' || type === 'link' ? 0 : size;
      let read = 0;
      let opened = false;
      const entry: TarEntry = {
        name,
        size: bodySize,
        type,
        body: async function* () {
          if (opened) throw new Error('tar entry body read twice');
          opened = true;
          for await (const piece of pull.chunks(bodySize)) {
            read += piece.length;
            yield piece;
          }
        },
      };
      yield entry;
      // Whatever the caller left unread (nothing, or the rest after it stopped) is skipped to reach the next header.
      if (read < bodySize) await pull.skip(bodySize - read);
      const padding = padded(bodySize) - bodySize;
      if (padding && (await pull.take(padding)) === null) throw new Error('archive ends inside an entry');
    }
  } finally {
    compressed.destroy();
    gunzip.destroy();
  }
}
