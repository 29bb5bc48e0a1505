/**
 * The bytes of a photo that exifr reads, and only those: metadata extraction must not load a whole file.
 *
 * Why: exifr given a file's bytes only looks at its metadata blocks, but reading the whole file first costs
 * time and memory for nothing (a 24 MP JPEG is 10 MB of pixels around 20 KB of EXIF), and exifr's own chunked
 * file reader reads the whole file anyway as soon as multi-segment XMP is asked for (a 1 GB damaged file
 * once took the process to 1.25 GB). So each container is walked here with positioned reads, and exifr gets
 * a buffer holding exactly what it will look at:
 *
 *   - JPEG: everything before the first SOS (start of scan) marker, found with exifr's own scanning rules
 *     (jpeg.mjs findAppSegmentsInRange), since exifr stops there. Usually 10-70 KB.
 *   - TIFF and the TIFF-based RAWs: the header, IFD0, the Exif, GPS and Interop IFDs and every value they
 *     point to (XMP, IPTC, MakerNote included), which is what exifr parses with our options (no IFD1, no
 *     thumbnail). When all of that lies in the first 16 MiB (every camera writes it near the start), that
 *     head is read whole; a block far behind the image data (an XMP packet appended to a DNG by an editor)
 *     is read into its place in an otherwise untouched buffer of the file's length, which the kernel maps
 *     lazily, so the pixels in between are neither read nor resident.
 *   - PNG: the signature and the chunks exifr reads (IHDR, iCCP, tEXt, iTXt, eXIf) wherever they are,
 *     concatenated; exifr walks chunks by their lengths, so it sees the same chunks in the same order.
 *   - anything else: exifr reads no metadata from it (it answers "Unknown file format"); a small head is
 *     enough for it to say so.
 * Every read is bounded (MAX_METADATA_BYTES in total), so a damaged file costs at most that much.
 */
import type { ByteSource } from './byte-source.ts';

/** The most this module ever reads for one file's metadata. */
export const MAX_METADATA_BYTES = 16 * 1024 * 1024;
/** First read: the whole metadata of almost every JPEG and TIFF fits, so it is usually the only read. */
export const FIRST_READ_BYTES = 128 * 1024;
/** What exifr gets for formats it cannot parse anyway. */
const UNKNOWN_FORMAT_HEAD_BYTES = 64 * 1024;

export interface MetadataBytes {
  bytes: Uint8Array;
  /** Why the bytes may be incomplete (a metadata block beyond the bounds); null when they are complete. */
  limited: string | null;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const isAppMarker = (m: number) => m >= 0xe0 && m <= 0xef;
/** The structure markers exifr steps over by their length (SOF0, SOF2, DHT, DQT, DRI, SOS, COM). */
const isJpegMarker = (m: number) => m === 0xc0 || m === 0xc2 || m === 0xc4 || m === 0xdb || m === 0xdd || m === 0xda || m === 0xfe;

/**
 * The bytes of a JPEG (starting at `start`, at most `length` long) up to and including its first SOS marker
 * and length field, scanned exactly as exifr scans them: an APPn or structure marker is skipped by its
 * length, any other byte one at a time, and SOS ends the search. `initial`: bytes from `start` already read.
 */
export async function jpegMetadataBytes(src: ByteSource, start = 0, length = src.size - start, initial?: Uint8Array): Promise<MetadataBytes> {
  const available = Math.max(0, Math.min(length, src.size - start));
  const limit = Math.min(available, MAX_METADATA_BYTES);
  let buf = initial ? initial.subarray(0, limit) : await src.read(start, Math.min(limit, FIRST_READ_BYTES));
  let at = 0;
  for (;;) {
    if (at + 4 > buf.length) {
      if (buf.length >= limit) break;
      // Grow at least twofold: a long run of metadata segments costs a few reads, not one per segment.
      const want = Math.min(limit, Math.max(at + 4, buf.length * 2));
      const more = await src.read(start + buf.length, want - buf.length);
      if (!more.length) break;
      buf = concat(buf, more);
      continue;
    }
    if (buf[at] !== 0xff) {
      at++;
      continue;
    }
    const marker = buf[at + 1]!;
    if (marker === 0xda) return { bytes: buf.subarray(0, at + 4), limited: null };
    if (isAppMarker(marker) || isJpegMarker(marker)) at += ((buf[at + 2]! << 8) | buf[at + 3]!) + 2;
    else at++;
  }
  return { bytes: buf, limited: available > limit ? `JPEG: no image data within the first ${MAX_METADATA_BYTES >> 20} MiB; metadata after that not read` : null };
}

const TIFF_TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
const TAG_EXIF_IFD = 0x8769;
const TAG_GPS_IFD = 0x8825;
const TAG_INTEROP_IFD = 0xa005;
/** The IFDs exifr parses with our options and where it takes their pointers from (IFD0 = 0). */
const SUB_IFDS: Record<number, number[]> = { 0: [TAG_EXIF_IFD, TAG_GPS_IFD, TAG_INTEROP_IFD], [TAG_EXIF_IFD]: [TAG_INTEROP_IFD] };
/** A buffer with far-away blocks is never longer than this (it is address space, not memory, but still). */
const MAX_SPARSE_LENGTH = 1024 * 1024 * 1024;

interface Range {
  start: number;
  end: number;
}

/**
 * Where exifr's TIFF parse reads (tiff-exif.mjs): the 8-byte header, the entry table and next-IFD pointer of
 * IFD0, Exif, GPS and Interop, and every entry's out-of-line value in them. Offsets are file offsets.
 */
async function tiffRanges(src: ByteSource, head: Uint8Array): Promise<Range[]> {
  const le = head[0] === 0x49;
  const read = async (offset: number, n: number): Promise<DataView | null> => {
    if (offset < 0 || n <= 0 || offset + n > src.size) return null;
    const bytes = await src.read(offset, n);
    return bytes.length >= n ? new DataView(bytes.buffer, bytes.byteOffset, n) : null;
  };
  const ranges: Range[] = [{ start: 0, end: 8 }];
  const seen = new Set<number>();
  const visit = async (offset: number, kind: number): Promise<void> => {
    if (!offset || seen.has(offset) || seen.size >= 16) return;
    seen.add(offset);
    const countView = await read(offset, 2);
    if (!countView) return;
    const count = countView.getUint16(0, le);
    ranges.push({ start: offset, end: offset + 2 + count * 12 + 4 });
    const table = await read(offset + 2, Math.min(count * 12, src.size - offset - 2));
    if (!table) return;
    const pointers: Array<[number, number]> = [];
    for (let at = 0; at + 12 <= table.byteLength; at += 12) {
      const tag = table.getUint16(at, le);
      const type = table.getUint16(at + 2, le);
      const size = (TIFF_TYPE_SIZE[type] ?? 0) * table.getUint32(at + 4, le);
      if (size > 4) {
        const value = table.getUint32(at + 8, le);
        ranges.push({ start: value, end: value + size });
      } else if (SUB_IFDS[kind]?.includes(tag)) {
        pointers.push([tag, type === 3 ? table.getUint16(at + 8, le) : table.getUint32(at + 8, le)]);
      }
    }
    for (const [tag, pointer] of pointers) await visit(pointer, tag);
  };
  const first = await read(4, 4);
  if (first) await visit(first.getUint32(0, le), 0);
  return ranges;
}

/** TIFF (and TIFF-based RAWs): see the module comment. */
async function tiffMetadataBytes(src: ByteSource, head: Uint8Array): Promise<MetadataBytes> {
  const ranges = await tiffRanges(src, head);
  // A value that runs past the end of the file stays past the end: exifr reports it as it would have.
  const end = Math.min(src.size, ranges.reduce((m, r) => Math.max(m, r.end), 0));
  if (end <= head.length) return { bytes: head, limited: null };
  if (end <= MAX_METADATA_BYTES) return { bytes: concat(head, await src.read(head.length, end - head.length)), limited: null };
  // Blocks far behind the pixels: the head up to the bound, and each block beyond it in its place.
  const length = Math.min(end, MAX_SPARSE_LENGTH);
  const out = new Uint8Array(length); // zero-filled: pages never written are never made resident
  out.set(head, 0);
  out.set(await src.read(head.length, MAX_METADATA_BYTES - head.length), head.length);
  let budget = MAX_METADATA_BYTES;
  let skipped = 0;
  for (const r of ranges.filter((x) => x.end > MAX_METADATA_BYTES).sort((a, b) => a.start - b.start)) {
    const from = Math.max(r.start, MAX_METADATA_BYTES);
    const to = Math.min(r.end, length);
    if (to <= from) continue;
    if (to - from > budget || r.end > length) {
      skipped++;
      continue;
    }
    budget -= to - from;
    out.set(await src.read(from, to - from), from);
  }
  return { bytes: out, limited: skipped ? `TIFF: ${skipped} metadata block(s) beyond the read limits not read` : null };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The chunks exifr's PNG parser reads (png.mjs pngMetaChunks), lower case. */
const PNG_META_CHUNKS = new Set(['ihdr', 'iccp', 'text', 'itxt', 'exif']);
const MAX_PNG_CHUNKS = 100_000;
/** After a small chunk, the next headers are read through a window of this size (one read for a run of
 *  small IDAT chunks); after a large one, only the 8-byte header is read. */
const PNG_WINDOW_BYTES = 64 * 1024;
const PNG_SMALL_CHUNK_BYTES = 8 * 1024;

/** PNG: the signature and the metadata chunks, in file order. */
async function pngMetadataBytes(src: ByteSource): Promise<MetadataBytes> {
  const parts: Uint8Array[] = [new Uint8Array(PNG_SIGNATURE)];
  let total = PNG_SIGNATURE.length;
  let limited: string | null = null;
  let window: { start: number; bytes: Uint8Array } = { start: 0, bytes: new Uint8Array(0) };
  const header = async (offset: number, afterSmall: boolean): Promise<Uint8Array> => {
    if (offset < window.start || offset + 8 > window.start + window.bytes.length) window = { start: offset, bytes: await src.read(offset, afterSmall ? PNG_WINDOW_BYTES : 8) };
    return window.bytes.subarray(offset - window.start, offset - window.start + 8);
  };
  let offset = PNG_SIGNATURE.length;
  let previous = 0;
  for (let chunks = 0; offset < src.size; chunks++) {
    if (chunks === MAX_PNG_CHUNKS) {
      limited = `PNG: more than ${MAX_PNG_CHUNKS} chunks; metadata after them not read`;
      break;
    }
    const h = await header(offset, previous < PNG_SMALL_CHUNK_BYTES);
    if (h.length < 8) {
      parts.push(h.slice()); // a cut chunk header: exifr meets it at the end, as it would in the whole file
      total += h.length;
      break;
    }
    const size = new DataView(h.buffer, h.byteOffset, 8).getUint32(0);
    const type = String.fromCharCode(h[4]!, h[5]!, h[6]!, h[7]!).toLowerCase();
    const length = size + 12;
    if (PNG_META_CHUNKS.has(type)) {
      if (total + length > MAX_METADATA_BYTES) {
        limited = `PNG: metadata chunks beyond the ${MAX_METADATA_BYTES >> 20} MiB read limit not read`;
        break;
      }
      const chunk = await src.read(offset, length);
      parts.push(chunk);
      total += chunk.length;
    }
    offset += length;
    previous = length;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, limited };
}

/** `src`, with reads inside the already-read `head` served from memory. */
function withHead(src: ByteSource, head: Uint8Array): ByteSource {
  return {
    size: src.size,
    read: (offset, length) => (offset >= 0 && offset + length <= head.length ? Promise.resolve(head.subarray(offset, offset + length)) : src.read(offset, length)),
  };
}

/** The bytes of `src` that exifr needs, by content (see the module comment). */
export async function metadataBytes(file: ByteSource): Promise<MetadataBytes> {
  const head = await file.read(0, FIRST_READ_BYTES);
  const src = withHead(file, head);
  if (head[0] === 0xff && head[1] === 0xd8) return jpegMetadataBytes(src, 0, src.size, head);
  if (head.length >= 8 && ((head[0] === 0x49 && head[1] === 0x49) || (head[0] === 0x4d && head[1] === 0x4d))) return tiffMetadataBytes(src, head);
  if (PNG_SIGNATURE.every((b, i) => head[i] === b)) return pngMetadataBytes(src);
  return { bytes: head.subarray(0, UNKNOWN_FORMAT_HEAD_BYTES), limited: null };
}
