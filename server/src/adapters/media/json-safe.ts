/**
 * Turn a metadata object from exifr into plain JSON for the raw-EXIF endpoint and the catalog.
 *
 * exifr hands back Uint8Arrays (ExifVersion, MakerNote, GPSVersionID), Dates when revived, NaN for empty GPS
 * rationals and strings with embedded NULs. JSON.stringify would turn a 40 KB MakerNote into an object with
 * 40,000 numbered keys and NaN into null silently; this makes each case explicit:
 *   - byte arrays that are printable ASCII (ExifVersion "0232") become strings;
 *   - short byte arrays (≤ 16 bytes: GPSVersionID, GPSAltitudeRef) become number arrays;
 *   - longer binary blobs become "(binary, N bytes)" — the bytes stay in the file, not in the catalog;
 *   - Dates become ISO strings; NaN/Infinity become null; bigint becomes a number (or string if unsafe);
 *   - strings lose NULs and surrounding blanks.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const MAX_DEPTH = 8;
const MAX_ARRAY = 1000;
const MAX_STRING = 16 * 1024;

function bytesToJson(b: Uint8Array): JsonValue {
  let end = b.length;
  while (end > 0 && b[end - 1] === 0) end--;
  let printable = end > 0;
  for (let i = 0; i < end && printable; i++) printable = b[i]! >= 0x20 && b[i]! < 0x7f;
  if (printable) return String.fromCharCode(...b.subarray(0, Math.min(end, MAX_STRING)));
  if (b.length <= 16) return Array.from(b);
  return `(binary, ${b.length} bytes)`;
}

export function toJsonSafe(value: unknown, depth = 0): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const s = value.replace(/\0/g, '').trim();
    return s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}…` : s;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return bytesToJson(value);
  if (ArrayBuffer.isView(value)) return `(binary, ${value.byteLength} bytes)`;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.slice(0, MAX_ARRAY).map((v) => toJsonSafe(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'function' || v === undefined) continue;
      out[k] = toJsonSafe(v, depth + 1);
    }
    return out;
  }
  return null;
}
