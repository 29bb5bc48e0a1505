/**
 * The place of an iCloud photo: `locationEnc` is a base64 binary property list (an archived location:
 * lat, lon, alt, timestamp, accuracies). Only the top-level dictionary of numbers is read; anything else
 * (another shape, a truncated list, out-of-range values) counts as "no decodable location".
 */

interface Trailer {
  offsetSize: number;
  refSize: number;
  count: number;
  top: number;
  tableAt: number;
}

function readUInt(b: Buffer, at: number, size: number): number {
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + b[at + i]!;
  return n;
}

function trailerOf(b: Buffer): Trailer | null {
  if (b.length < 40 || b.subarray(0, 8).toString('latin1') !== 'bplist00') return null;
  const t = b.length - 32;
  const offsetSize = b[t + 6]!;
  const refSize = b[t + 7]!;
  const count = readUInt(b, t + 8, 8);
  const top = readUInt(b, t + 16, 8);
  const tableAt = readUInt(b, t + 24, 8);
  if (!offsetSize || !refSize || top >= count || tableAt + count * offsetSize > t) return null;
  return { offsetSize, refSize, count, top, tableAt };
}

type Value = number | string | Map<string, Value> | null;

function objectAt(b: Buffer, tr: Trailer, ref: number, depth: number): Value {
  if (ref >= tr.count || depth > 2) return null;
  const at = readUInt(b, tr.tableAt + ref * tr.offsetSize, tr.offsetSize);
  if (at >= b.length) return null;
  const marker = b[at]!;
  const kind = marker >> 4;
  const low = marker & 0x0f;
  if (kind === 0x1) return readUInt(b, at + 1, 1 << low);
  if (kind === 0x2) {
    if (low === 2) return b.readFloatBE(at + 1);
    if (low === 3) return b.readDoubleBE(at + 1);
    return null;
  }
  if (kind === 0x5 && low < 0x0f) return b.subarray(at + 1, at + 1 + low).toString('latin1');
  if (kind === 0xd && low < 0x0f) {
    const map = new Map<string, Value>();
    for (let i = 0; i < low; i++) {
      const key = objectAt(b, tr, readUInt(b, at + 1 + i * tr.refSize, tr.refSize), depth + 1);
      const val = objectAt(b, tr, readUInt(b, at + 1 + (low + i) * tr.refSize, tr.refSize), depth + 1);
      if (typeof key === 'string') map.set(key, val);
    }
    return map;
  }
  return null;
}

/** Latitude and longitude from a `locationEnc` value, or null when it holds none that is usable. */
export function decodeLocation(base64: string): { latitude: number; longitude: number } | null {
  try {
    const b = Buffer.from(base64, 'base64');
    const tr = trailerOf(b);
    if (!tr) return null;
    const top = objectAt(b, tr, tr.top, 0);
    if (!(top instanceof Map)) return null;
    const latitude = top.get('lat');
    const longitude = top.get('lon');
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    return { latitude, longitude };
  } catch {
    return null;
  }
}
