/**
 * Canon CRW (CIFF: "HEAPCCDR"), the one camera RAW that is not TIFF-based: camera, capture time and size from
 * its records, so that a CRW is found by camera and date like every other photo (its preview is not read
 * in-process: raw-preview.ts).
 *
 * The layout, as ExifTool's CanonRaw.pm documents it: a header ("II" or "MM", its length, "HEAPCCDR"), then
 * one heap up to the end of the file. A heap's last 4 bytes give the position of its directory inside it; the
 * directory is a count and 10-byte entries (tag, size, offset from the heap's start). Tag bits: 0x4000 value
 * kept in the entry itself, 0x3800 data type (0x2800 and 0x3000: a sub-heap), 0x3fff the record id. Records
 * read here:
 *   0x080a MakeModel  make and model, each NUL-terminated
 *   0x180e TimeStamp  u32 seconds (the camera's wall clock counted as if UTC), s32 zone in seconds, u32 flag
 *                     0x80000000 when that zone is valid
 *   0x1810 ImageInfo  u32 width, u32 height, float pixel aspect, s32 rotation (0, 90, 180, 270)
 * Every read is bounded; a damaged file gives what could be read.
 */
import type { ByteSource } from './byte-source.ts';

export interface CiffMetadata {
  make?: string;
  model?: string;
  /** "YYYY:MM:DD HH:MM:SS", as EXIF writes it. */
  dateTimeOriginal?: string;
  /** "+hh:mm" when the camera marked its zone valid. */
  offsetTime?: string;
  width?: number;
  height?: number;
  /** EXIF orientation for the record's rotation. */
  orientation?: number;
}

const MAX_DEPTH = 8;
const MAX_ENTRIES = 1024;
const MAX_RECORD_BYTES = 4096;
const ZONE_VALID = 0x80000000;
const ORIENTATION_BY_ROTATION: Record<number, number> = { 0: 1, 90: 6, 180: 3, 270: 8, [-90]: 8 };

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const pad = (n: number) => String(n).padStart(2, '0');

export async function readCiff(src: ByteSource): Promise<CiffMetadata | null> {
  const head = Buffer.from(await src.read(0, 14));
  const order = head.length === 14 ? latin1(head.subarray(0, 2)) : '';
  if ((order !== 'II' && order !== 'MM') || latin1(head.subarray(6, 14)) !== 'HEAPCCDR') return null;
  const le = order === 'II';
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const s32 = (b: Buffer, at: number) => (le ? b.readInt32LE(at) : b.readInt32BE(at));
  const out: CiffMetadata = {};
  const seen = new Set<number>();

  const record = (id: number, value: Buffer) => {
    if (id === 0x080a) {
      const [make, model] = latin1(value).split('\0');
      if (make?.trim()) out.make = make.trim();
      if (model?.trim()) out.model = model.trim();
    } else if (id === 0x180e && value.length >= 12) {
      const wall = new Date(u32(value, 0) * 1000);
      out.dateTimeOriginal = `${wall.getUTCFullYear()}:${pad(wall.getUTCMonth() + 1)}:${pad(wall.getUTCDate())} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
      const zone = s32(value, 4);
      if (u32(value, 8) === ZONE_VALID && Math.abs(zone) <= 14 * 3600 && zone % 900 === 0) {
        const m = Math.abs(zone) / 60;
        out.offsetTime = `${zone < 0 ? '-' : '+'}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
      }
    } else if (id === 0x1810 && value.length >= 16) {
      out.width = u32(value, 0);
      out.height = u32(value, 4);
      out.orientation = ORIENTATION_BY_ROTATION[s32(value, 12)];
    }
  };

  const heap = async (start: number, size: number, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || size < 6 || start + size > src.size) return;
    const tail = Buffer.from(await src.read(start + size - 4, 4));
    const dir = start + u32(tail, 0);
    if (tail.length < 4 || seen.has(dir) || dir + 2 > start + size) return;
    seen.add(dir);
    const count = u16(Buffer.from(await src.read(dir, 2)), 0);
    if (count > MAX_ENTRIES) return;
    const table = Buffer.from(await src.read(dir + 2, count * 10));
    for (let at = 0; at + 10 <= table.length; at += 10) {
      const tag = u16(table, at);
      if (tag & 0x8000) return; // not a CIFF entry: damaged
      const length = u32(table, at + 2);
      const offset = u32(table, at + 6);
      const type = tag & 0x3800;
      if (tag & 0x4000) continue; // the records read here all live in the heap
      if (type === 0x2800 || type === 0x3000) await heap(start + offset, length, depth + 1);
      else if ([0x080a, 0x180e, 0x1810].includes(tag & 0x3fff) && length <= MAX_RECORD_BYTES && start + offset + length <= start + size) {
        record(tag & 0x3fff, Buffer.from(await src.read(start + offset, length)));
      }
    }
  };

  await heap(u32(head, 2), src.size - u32(head, 2), 0);
  return out;
}
