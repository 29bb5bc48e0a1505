/**
 * ISO base media file format (ISO/IEC 14496-12) boxes: just enough to pull metadata out of HEIF/HEIC and
 * Canon CR3 files.
 *
 * Why our own parser: exifr 7.1.3 rejects some real HEICs outright ("Unknown file format" on an iPhone 16 Pro
 * Max file whose ftyp lists many brands) and misreads others (items addressed through iloc base offsets or the
 * 'idat' box), and it cannot read CR3 at all. Locating the Exif and XMP items is a few dozen lines; the TIFF
 * inside is then handed to exifr, which parses EXIF well.
 */
import type { ByteSource } from './byte-source.ts';

export interface Box {
  type: string;
  /** Offset of the box header. */
  start: number;
  /** Offset where the payload starts (after size, type, largesize and uuid). */
  payload: number;
  /** Offset just past the box. */
  end: number;
  /** Lower-case hex of the 16-byte extended type, for 'uuid' boxes. */
  uuid?: string;
  /** The box claims more bytes than there are: the file was cut short. */
  truncated?: boolean;
}

const MAX_BOXES = 4096;
/** The 'meta' box of a photo is a few KB to a few hundred KB; anything larger is not trusted. */
const MAX_META_BYTES = 16 * 1024 * 1024;
/** Exif/XMP payloads we are willing to load. */
const MAX_ITEM_BYTES = 8 * 1024 * 1024;

function ascii(b: Uint8Array, at: number, n: number): string {
  let s = '';
  for (let i = at; i < at + n && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The boxes between `start` and `end` (one level; recurse by calling again on a box's payload). */
export async function readBoxes(src: ByteSource, start: number, end: number): Promise<Box[]> {
  const boxes: Box[] = [];
  let at = start;
  const limit = Math.min(end, src.size);
  while (at + 8 <= limit && boxes.length < MAX_BOXES) {
    const h = await src.read(at, 32);
    if (h.length < 8) break;
    const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
    let size = v.getUint32(0);
    const type = ascii(h, 4, 4);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) break;
      size = Number(v.getBigUint64(8));
      header = 16;
    } else if (size === 0) {
      size = limit - at; // box extends to the end of the enclosing space
    }
    if (size < header) break; // corrupt: keep what we have (a box running past the end is clipped below)
    const box: Box = { type, start: at, payload: at + header, end: Math.min(at + size, limit) };
    if (at + size > limit) box.truncated = true;
    if (type === 'uuid' && h.length >= header + 16) {
      box.uuid = hex(h.subarray(header, header + 16));
      box.payload += 16;
    }
    boxes.push(box);
    at += size;
  }
  return boxes;
}

/**
 * Is an ISO-BMFF file cut short? True when a top-level box claims bytes beyond the end of the file, as
 * happens to an interrupted copy or upload. Decoders (libheif) may still "succeed" on such a file and return
 * a picture with missing tiles, so callers check first.
 */
export async function isTruncatedBmff(src: ByteSource): Promise<boolean> {
  const top = await readBoxes(src, 0, src.size);
  return top[0]?.type === 'ftyp' && top.some((b) => b.truncated);
}

/** Read an unsigned big-endian integer of 0, 4 or 8 bytes (iloc field sizes). */
function uint(v: DataView, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return v.getUint32(at);
  if (size === 8) return Number(v.getBigUint64(at));
  if (size === 2) return v.getUint16(at);
  throw new RangeError(`unsupported field size ${size}`);
}

interface ItemInfo {
  id: number;
  type: string;
  contentType?: string;
}

interface ItemLocation {
  id: number;
  constructionMethod: number;
  baseOffset: number;
  extents: Array<{ offset: number; length: number }>;
}

function parseInfe(b: Uint8Array): ItemInfo | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0];
  if (version === undefined || version < 2 || b.length < 12) return null; // v0/v1 entries carry no item type
  let at = 4;
  const id = version === 2 ? v.getUint16(at) : v.getUint32(at);
  at += version === 2 ? 2 : 4;
  at += 2; // protection index
  const type = ascii(b, at, 4);
  at += 4;
  const nameEnd = b.indexOf(0, at);
  at = nameEnd < 0 ? b.length : nameEnd + 1;
  let contentType: string | undefined;
  if (type === 'mime') {
    const ctEnd = b.indexOf(0, at);
    contentType = ascii(b, at, (ctEnd < 0 ? b.length : ctEnd) - at);
  }
  return { id, type, ...(contentType ? { contentType } : {}) };
}

function parseIloc(b: Uint8Array): ItemLocation[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0]!;
  const offsetSize = b[4]! >> 4;
  const lengthSize = b[4]! & 0xf;
  const baseOffsetSize = b[5]! >> 4;
  const indexSize = version === 1 || version === 2 ? b[5]! & 0xf : 0;
  let at = 6;
  const count = version < 2 ? v.getUint16(at) : v.getUint32(at);
  at += version < 2 ? 2 : 4;
  const items: ItemLocation[] = [];
  for (let i = 0; i < count && at < b.length; i++) {
    const id = version < 2 ? v.getUint16(at) : v.getUint32(at);
    at += version < 2 ? 2 : 4;
    let constructionMethod = 0;
    if (version === 1 || version === 2) {
      constructionMethod = v.getUint16(at) & 0xf;
      at += 2;
    }
    at += 2; // data reference index
    const baseOffset = uint(v, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = v.getUint16(at);
    at += 2;
    const extents: ItemLocation['extents'] = [];
    for (let e = 0; e < extentCount; e++) {
      at += indexSize;
      const offset = uint(v, at, offsetSize);
      at += offsetSize;
      const length = uint(v, at, lengthSize);
      at += lengthSize;
      extents.push({ offset, length });
    }
    items.push({ id, constructionMethod, baseOffset, extents });
  }
  return items;
}

/** The primary item (pitm). */
function parsePitm(b: Uint8Array): number | null {
  if (b.length < 6) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return b[0] === 0 ? v.getUint16(4) : b.length >= 8 ? v.getUint32(4) : null;
}

/** `cdsc` references of an iref box: metadata item → the items it describes. */
async function contentDescriptions(src: ByteSource, iref: Box | undefined): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!iref) return out;
  const wide = (await src.read(iref.payload, 1))[0] === 1;
  for (const ref of await readBoxes(src, iref.payload + 4, iref.end)) {
    if (ref.type !== 'cdsc') continue;
    const b = await src.read(ref.payload, ref.end - ref.payload);
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const id = (at: number) => (wide ? v.getUint32(at) : v.getUint16(at));
    const size = wide ? 4 : 2;
    if (b.length < size + 2) continue;
    const count = v.getUint16(size);
    const to: number[] = [];
    for (let i = 0, at = size + 2; i < count && at + size <= b.length; i++, at += size) to.push(id(at));
    out.set(id(0), [...(out.get(id(0)) ?? []), ...to]);
  }
  return out;
}

/**
 * Of several metadata items of one kind, the photo's own: the one that describes the primary item (`cdsc`
 * to pitm), else one that describes no item in particular, else the first. An iPhone HEIC carries an XMP
 * item for its HDR gain map (an auxiliary image) and none for the photo; a HEIC can carry both, and the
 * photo's XMP (a motion photo's Container:Directory, its dates) must not be hidden behind the gain map's.
 */
function photosOwn(items: ItemInfo[], primary: number | null, describes: Map<number, number[]>): ItemInfo | undefined {
  return items.find((i) => primary !== null && describes.get(i.id)?.includes(primary)) ?? items.find((i) => !describes.has(i.id)) ?? items[0];
}

export interface HeifMetadataItems {
  /** The TIFF structure (starting "II*\0" or "MM\0*") from the Exif item. */
  exif?: Uint8Array;
  /** The XMP packet (application/rdf+xml item). */
  xmp?: Uint8Array;
}

/** Locate the TIFF header inside an Exif item (4-byte offset field, usually followed by "Exif\0\0"). */
function tiffFromExifItem(data: Uint8Array): Uint8Array | undefined {
  const isTiff = (at: number) =>
    at + 4 <= data.length &&
    ((data[at] === 0x49 && data[at + 1] === 0x49 && data[at + 2] === 0x2a && data[at + 3] === 0) ||
      (data[at] === 0x4d && data[at + 1] === 0x4d && data[at + 2] === 0 && data[at + 3] === 0x2a));
  if (data.length >= 4) {
    const declared = 4 + new DataView(data.buffer, data.byteOffset, 4).getUint32(0);
    if (isTiff(declared)) return data.subarray(declared);
  }
  // Writers disagree about that offset field; look for the header near the start instead.
  for (let at = 0; at < Math.min(64, data.length); at++) if (isTiff(at)) return data.subarray(at);
  return undefined;
}

/**
 * Find the Exif and XMP items of a HEIF/HEIC/AVIF file via meta → iinf/iloc (honouring base offsets, multiple
 * extents and idat construction). Returns what it finds; never throws on malformed boxes.
 */
export async function readHeifMetadataItems(src: ByteSource): Promise<HeifMetadataItems> {
  try {
    const top = await readBoxes(src, 0, src.size);
    const meta = top.find((b) => b.type === 'meta');
    if (!meta || meta.end - meta.start > MAX_META_BYTES) return {};
    const children = await readBoxes(src, meta.payload + 4, meta.end); // meta is a FullBox
    const load = async (box: Box | undefined) => (box ? src.read(box.payload, box.end - box.payload) : undefined);
    const iinfBox = children.find((b) => b.type === 'iinf');
    const ilocBytes = await load(children.find((b) => b.type === 'iloc'));
    const idat = children.find((b) => b.type === 'idat');
    if (!iinfBox || !ilocBytes) return {};

    const iinfHead = await src.read(iinfBox.payload, 8);
    const entriesStart = iinfBox.payload + 4 + (iinfHead[0] === 0 ? 2 : 4);
    const infos: ItemInfo[] = [];
    for (const infe of await readBoxes(src, entriesStart, iinfBox.end)) {
      if (infe.type !== 'infe') continue;
      const info = parseInfe(await src.read(infe.payload, infe.end - infe.payload));
      if (info) infos.push(info);
    }
    const locations = parseIloc(ilocBytes);

    const readItem = async (id: number): Promise<Uint8Array | undefined> => {
      const loc = locations.find((l) => l.id === id);
      if (!loc || loc.constructionMethod > 1) return undefined;
      const origin = loc.constructionMethod === 1 ? (idat?.payload ?? -1) : 0;
      if (origin < 0) return undefined;
      const parts: Uint8Array[] = [];
      let total = 0;
      for (const e of loc.extents) {
        // A zero extent length means "to the end of the file" (only meaningful for a single extent).
        const length = e.length || src.size - (origin + loc.baseOffset + e.offset);
        total += length;
        if (total > MAX_ITEM_BYTES) return undefined;
        parts.push(await src.read(origin + loc.baseOffset + e.offset, length));
      }
      return parts.length === 1 ? parts[0] : Buffer.concat(parts);
    };

    const out: HeifMetadataItems = {};
    const primary = parsePitm((await load(children.find((b) => b.type === 'pitm'))) ?? new Uint8Array(0));
    const describes = await contentDescriptions(src, children.find((b) => b.type === 'iref'));
    const exifInfo = photosOwn(infos.filter((i) => i.type === 'Exif'), primary, describes);
    if (exifInfo) {
      const data = await readItem(exifInfo.id);
      const tiff = data && tiffFromExifItem(data);
      if (tiff) out.exif = tiff;
    }
    // "application/rdf+xml", sometimes with parameters ("; charset=utf-8") or in other letter case.
    const xmpInfo = photosOwn(infos.filter((i) => i.type === 'mime' && /^application\/rdf\+xml\s*(;|$)/i.test(i.contentType ?? '')), primary, describes);
    if (xmpInfo) {
      const data = await readItem(xmpInfo.id);
      if (data?.length) out.xmp = data;
    }
    return out;
  } catch {
    return {};
  }
}

/** Canon CR3 uuid boxes (from the format's public reverse engineering, used by ExifTool and LibRaw). */
const CR3_UUID_METADATA = '85c0b687820f11e08111f4ce462b6a48';
const CR3_UUID_XMP = 'be7acfcb97a942e89c71999491e3afac';
const CR3_UUID_PREVIEW = 'eaf42b5e1c984b88b9fbb7dc406e4d16';

export interface Cr3Parts {
  /** CMT1 = IFD0 (make, model), CMT2 = Exif IFD, CMT3 = Canon MakerNote, CMT4 = GPS IFD; each a TIFF. */
  cmt: Partial<Record<1 | 2 | 3 | 4, Uint8Array>>;
  xmp?: Uint8Array;
  /** Where the embedded JPEG previews are (PRVW ~1620×1080, THMB 160×120). */
  previews: Array<{ kind: 'PRVW' | 'THMB'; offset: number; length: number }>;
}

/** Offset of the first JPEG SOI (FF D8 FF) within a box payload's first bytes. */
async function findSoi(src: ByteSource, box: Box): Promise<number | null> {
  const head = await src.read(box.payload, 64);
  for (let i = 0; i + 2 < head.length; i++) if (head[i] === 0xff && head[i + 1] === 0xd8 && head[i + 2] === 0xff) return box.payload + i;
  return null;
}

export async function readCr3Parts(src: ByteSource): Promise<Cr3Parts> {
  const parts: Cr3Parts = { cmt: {}, previews: [] };
  try {
    const top = await readBoxes(src, 0, src.size);
    const moov = top.find((b) => b.type === 'moov');
    if (moov) {
      const canon = (await readBoxes(src, moov.payload, moov.end)).find((b) => b.uuid === CR3_UUID_METADATA);
      if (canon) {
        for (const box of await readBoxes(src, canon.payload, canon.end)) {
          const n = /^CMT([1-4])$/.exec(box.type)?.[1];
          if (n && box.end - box.payload <= MAX_ITEM_BYTES) {
            parts.cmt[Number(n) as 1 | 2 | 3 | 4] = await src.read(box.payload, box.end - box.payload);
          } else if (box.type === 'THMB') {
            const soi = await findSoi(src, box);
            if (soi !== null) parts.previews.push({ kind: 'THMB', offset: soi, length: box.end - soi });
          }
        }
      }
    }
    for (const box of top) {
      if (box.uuid === CR3_UUID_XMP && box.end - box.payload <= MAX_ITEM_BYTES) {
        parts.xmp = await src.read(box.payload, box.end - box.payload);
      } else if (box.uuid === CR3_UUID_PREVIEW) {
        // uuid payload: 8 bytes of header, then a PRVW box holding a small header and the JPEG.
        const prvw = (await readBoxes(src, box.payload + 8, box.end)).find((b) => b.type === 'PRVW');
        const soi = prvw ? await findSoi(src, prvw) : null;
        if (prvw && soi !== null) parts.previews.push({ kind: 'PRVW', offset: soi, length: prvw.end - soi });
      }
    }
  } catch {
    // malformed boxes: return what was found so far
  }
  return parts;
}
