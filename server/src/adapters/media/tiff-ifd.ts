/**
 * A small, defensive TIFF IFD reader (TIFF 6.0 structure, as used by EXIF, DNG and the TIFF-based RAWs).
 *
 * Used where exifr does not reach: walking every IFD and SubIFD of a RAW to find embedded JPEG previews and
 * the full-resolution image size, and reading the TIFF blocks Canon CR3 stores in its CMT boxes.
 * Every count and offset comes from an untrusted file, so entry counts, value sizes and the number of IFDs
 * visited are capped, and loops in the IFD chain are detected.
 */
import type { ByteSource } from './byte-source.ts';

/** Byte size of one value of each TIFF field type (index = type). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
const MAX_ENTRIES = 1024;
const MAX_VALUE_BYTES = 1024 * 1024;

export const TAG = {
  NewSubfileType: 0x00fe,
  ImageWidth: 0x0100,
  ImageLength: 0x0101,
  BitsPerSample: 0x0102,
  Compression: 0x0103,
  PhotometricInterpretation: 0x0106,
  Make: 0x010f,
  Model: 0x0110,
  StripOffsets: 0x0111,
  Orientation: 0x0112,
  StripByteCounts: 0x0117,
  SubIFDs: 0x014a,
  JPEGInterchangeFormat: 0x0201,
  JPEGInterchangeFormatLength: 0x0202,
  ExifIFD: 0x8769,
  GPSIFD: 0x8825,
  DefaultCropSize: 0xc620,
  /** Panasonic RW2: a complete JPEG (with its own EXIF) stored as a tag value in IFD0. */
  PanasonicJpgFromRaw: 0x002e,
  /** Panasonic RW2 sensor size (the standard ImageWidth/Length are absent). */
  PanasonicSensorWidth: 0x0002,
  PanasonicSensorHeight: 0x0003,
  /** Panasonic RW2 crop borders; the image is the area inside them (ExifTool's ImageWidth/Height). */
  PanasonicSensorTopBorder: 0x0004,
  PanasonicSensorLeftBorder: 0x0005,
  PanasonicSensorBottomBorder: 0x0006,
  PanasonicSensorRightBorder: 0x0007,
} as const;

export interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** Absolute position of the value bytes in the source (inline values point into the entry itself). */
  valueOffset: number;
  byteLength: number;
}

export interface Ifd {
  offset: number;
  entries: Map<number, IfdEntry>;
  /** Offset of the next IFD in the chain, 0 at the end. */
  next: number;
}

export class TiffReader {
  private constructor(
    readonly src: ByteSource,
    /** Where the TIFF header starts; IFD offsets are relative to it. */
    readonly base: number,
    readonly littleEndian: boolean,
    readonly firstIfd: number,
  ) {}

  /**
   * Read the TIFF header at `base`. Accepts the standard magic 42 and the RAW variants that only change it
   * (Olympus ORF "RO"/"RS", Panasonic RW2 0x55). Returns null when the bytes are not TIFF.
   */
  static async open(src: ByteSource, base = 0): Promise<TiffReader | null> {
    const h = await src.read(base, 8);
    if (h.length < 8) return null;
    const order = String.fromCharCode(h[0]!, h[1]!);
    if (order !== 'II' && order !== 'MM') return null;
    const le = order === 'II';
    const view = new DataView(h.buffer, h.byteOffset, h.byteLength);
    const magic = view.getUint16(2, le);
    if (![42, 0x4f52, 0x5352, 0x55].includes(magic)) return null;
    return new TiffReader(src, base, le, view.getUint32(4, le));
  }

  async readIfd(offset: number): Promise<Ifd | null> {
    if (offset <= 0 || offset >= this.src.size) return null;
    const countBytes = await this.src.read(this.base + offset, 2);
    if (countBytes.length < 2) return null;
    const count = new DataView(countBytes.buffer, countBytes.byteOffset, 2).getUint16(0, this.littleEndian);
    if (count === 0 || count > MAX_ENTRIES) return null;
    const raw = await this.src.read(this.base + offset + 2, count * 12 + 4);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const entries = new Map<number, IfdEntry>();
    const n = Math.min(count, Math.floor(raw.length / 12));
    for (let i = 0; i < n; i++) {
      const at = i * 12;
      const tag = view.getUint16(at, this.littleEndian);
      const type = view.getUint16(at + 2, this.littleEndian);
      const cnt = view.getUint32(at + 4, this.littleEndian);
      const size = (TYPE_SIZE[type] ?? 0) * cnt;
      if (!size) continue; // unknown type: skip the entry, keep the rest
      const valueOffset = size <= 4 ? this.base + offset + 2 + at + 8 : this.base + view.getUint32(at + 8, this.littleEndian);
      if (!entries.has(tag)) entries.set(tag, { tag, type, count: cnt, valueOffset, byteLength: size });
    }
    const next = raw.length >= n * 12 + 4 ? view.getUint32(n * 12, this.littleEndian) : 0;
    return { offset, entries, next };
  }

  /** Numeric values of an entry (integers, rationals as a/b, floats). Empty when unreadable. */
  async numbers(entry: IfdEntry | undefined, maxCount = 4096): Promise<number[]> {
    if (!entry || entry.byteLength > MAX_VALUE_BYTES) return [];
    const count = Math.min(entry.count, maxCount);
    const bytes = await this.src.read(entry.valueOffset, count * (TYPE_SIZE[entry.type] ?? 1));
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const le = this.littleEndian;
    const out: number[] = [];
    const sz = TYPE_SIZE[entry.type] ?? 1;
    for (let i = 0; i < count && (i + 1) * sz <= bytes.length; i++) {
      const at = i * sz;
      switch (entry.type) {
        case 1: case 7: out.push(v.getUint8(at)); break;
        case 6: out.push(v.getInt8(at)); break;
        case 3: out.push(v.getUint16(at, le)); break;
        case 8: out.push(v.getInt16(at, le)); break;
        case 4: case 13: out.push(v.getUint32(at, le)); break;
        case 9: out.push(v.getInt32(at, le)); break;
        case 5: { const d = v.getUint32(at + 4, le); out.push(d ? v.getUint32(at, le) / d : 0); break; }
        case 10: { const d = v.getInt32(at + 4, le); out.push(d ? v.getInt32(at, le) / d : 0); break; }
        case 11: out.push(v.getFloat32(at, le)); break;
        case 12: out.push(v.getFloat64(at, le)); break;
        default: return out;
      }
    }
    return out;
  }

  async number(ifd: Ifd, tag: number): Promise<number | undefined> {
    return (await this.numbers(ifd.entries.get(tag), 1))[0];
  }

  /** An ASCII value, trimmed at the first NUL and of surrounding blanks. */
  async string(entry: IfdEntry | undefined): Promise<string | undefined> {
    if (!entry || entry.byteLength > MAX_VALUE_BYTES) return undefined;
    const bytes = await this.src.read(entry.valueOffset, entry.byteLength);
    let s = '';
    for (const b of bytes) {
      if (b === 0) break;
      s += String.fromCharCode(b);
    }
    const t = s.trim();
    return t || undefined;
  }

  /** Raw bytes of an entry's value (UNDEFINED blobs such as a MakerNote or an embedded JPEG). */
  async bytes(entry: IfdEntry | undefined, max = MAX_VALUE_BYTES): Promise<Uint8Array | undefined> {
    if (!entry || entry.byteLength > max) return undefined;
    return this.src.read(entry.valueOffset, entry.byteLength);
  }

  /**
   * Every IFD reachable from IFD0: the IFD0 chain (IFD1, IFD2, ...) and, depth-first, their SubIFDs (0x014A).
   * `depth` 0 is a main-chain IFD. Visits at most `maxIfds` and never the same offset twice.
   */
  async allIfds(maxIfds = 64): Promise<Array<Ifd & { depth: number }>> {
    const out: Array<Ifd & { depth: number }> = [];
    const seen = new Set<number>();
    const visit = async (offset: number, depth: number): Promise<void> => {
      if (out.length >= maxIfds || seen.has(offset) || depth > 3) return;
      seen.add(offset);
      const ifd = await this.readIfd(offset);
      if (!ifd) return;
      out.push({ ...ifd, depth });
      for (const sub of await this.numbers(ifd.entries.get(TAG.SubIFDs), 32)) await visit(sub, depth + 1);
    };
    let offset = this.firstIfd;
    for (let i = 0; offset && i < maxIfds; i++) {
      if (seen.has(offset)) break;
      await visit(offset, 0);
      const ifd = out.find((x) => x.offset === offset);
      offset = ifd ? ifd.next : 0;
    }
    return out;
  }
}
