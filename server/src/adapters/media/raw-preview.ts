/**
 * Camera RAW: the embedded JPEG preview (used for every derivative) and the image's size and orientation.
 *
 * Why previews and not demosaicing: every RAW carries a camera-rendered JPEG (often full size) that matches
 * what the photographer saw on the camera; decoding the sensor data would need LibRaw (native or a 1.4 s wasm
 * build) and still not match the camera's rendering. See reference/dependencies.md §5.
 *
 * What works in-process (checked on the corpus in test/server/media/raw-preview.test.ts):
 *   - TIFF-based RAWs (NEF, NRW, ARW, SR2, PEF, DNG, CR2, SRW, 3FR, IIQ, ...): every IFD and SubIFD (0x014A) is
 *     walked; candidates are JPEGInterchangeFormat/Length (0x0201/0x0202) and single-strip images with
 *     Compression 6 (old JPEG) or 7 (JPEG). Each candidate's SOF marker is read: lossless JPEG (SOF3, the raw
 *     sensor data in CR2/DNG) is skipped, and the largest baseline/progressive preview wins.
 *   - Panasonic RW2: the JpgFromRaw tag (0x002E) in IFD0.
 *   - Fujifilm RAF: the JPEG whose offset/length the RAF header gives (bytes 84..91).
 *   - Canon CR3 (ISO-BMFF): the PRVW box (≈1620×1080) or the THMB box (160×120).
 *   - Last resort: an uncompressed 8-bit RGB thumbnail in IFD0 (early RAWs such as the Nikon D1 NEF carry no
 *     JPEG at all), decoded by sharp; small (160×120), but better than a broken tile.
 * Not in-process: Olympus ORF previews (they sit inside the Olympus MakerNote), Canon CRW (CIFF) and formats
 * whose previews live only in maker notes; these return null so the caller can fall back (exiftool-vendored's
 * extractPreview covers them, per the design) or show a placeholder.
 * A preview cut off by a truncated file is rejected rather than returned half-decodable.
 */
import sharp from 'sharp';
import { bufferSource, withFileSource, type ByteSource } from './byte-source.ts';
import { readCr3Parts } from './bmff.ts';
import { detectBytes } from './detect.ts';
import { isViewableJpeg, readJpegFrame } from './jpeg-header.ts';
import { TAG, TiffReader } from './tiff-ifd.ts';
import { stableInput } from './stable-input.ts';

export interface RawPreviewCandidate {
  offset: number;
  length: number;
  width: number;
  height: number;
  /** Where it was found, for diagnostics: "IFD0:0x0201", "SubIFD1:strip", "RAF header", "CR3 PRVW". */
  source: string;
}

export interface RawInspection {
  /** Container family that was parsed, or null when the file is not a supported RAW. */
  container: 'tiff' | 'raf' | 'cr3' | null;
  /** Usable JPEG previews, largest first. */
  previews: RawPreviewCandidate[];
  /** Size of the full-resolution image as the file declares it (before orientation). */
  width: number | null;
  height: number | null;
  /** EXIF orientation (1-8) of the RAW, which its previews usually do not carry themselves. */
  orientation: number | null;
  /**
   * IFD0 is a small uncompressed 8-bit RGB thumbnail (old RAWs such as the Nikon D1 NEF carry no JPEG at all).
   * sharp decodes that page directly; it is the preview of last resort.
   */
  rgbThumbnail: { width: number; height: number } | null;
}

export interface RawPreview {
  jpeg: Buffer;
  width: number;
  height: number;
  /** Apply this to the preview to display it upright. */
  orientation: number | null;
  source: string;
}

/** A preview bigger than this is not a preview (and not something to load into memory on a corrupt length). */
const MAX_PREVIEW_BYTES = 64 * 1024 * 1024;

async function candidate(src: ByteSource, offset: number, length: number, source: string): Promise<RawPreviewCandidate | null> {
  if (!(offset > 0) || !(length > 0) || length > MAX_PREVIEW_BYTES || offset + length > src.size) return null;
  const frame = await readJpegFrame(src, offset, length);
  return isViewableJpeg(frame) ? { offset, length, width: frame.width, height: frame.height, source } : null;
}

function byArea(a: RawPreviewCandidate, b: RawPreviewCandidate): number {
  return b.width * b.height - a.width * a.height || b.length - a.length;
}

async function inspectTiff(src: ByteSource, base = 0): Promise<RawInspection | null> {
  const tiff = await TiffReader.open(src, base);
  if (!tiff) return null;
  const ifds = await tiff.allIfds();
  const previews: RawPreviewCandidate[] = [];
  let width: number | null = null;
  let height: number | null = null;
  let subCount = 0;
  let mainCount = 0;
  for (const ifd of ifds) {
    const name = ifd.depth === 0 ? `IFD${mainCount++}` : `SubIFD${subCount++}`;
    const num = (tag: number) => tiff.number(ifd, tag);
    const jpegOffset = await num(TAG.JPEGInterchangeFormat);
    const jpegLength = await num(TAG.JPEGInterchangeFormatLength);
    if (jpegOffset !== undefined && jpegLength !== undefined) {
      const c = await candidate(src, base + jpegOffset, jpegLength, `${name}:0x0201`);
      if (c) previews.push(c);
    }
    const compression = await num(TAG.Compression);
    if (compression === 6 || compression === 7) {
      const offsets = await tiff.numbers(ifd.entries.get(TAG.StripOffsets), 2);
      const counts = await tiff.numbers(ifd.entries.get(TAG.StripByteCounts), 2);
      if (offsets.length === 1 && counts.length === 1) {
        const c = await candidate(src, base + offsets[0]!, counts[0]!, `${name}:strip`);
        if (c) previews.push(c);
      }
    }
    const jpgFromRaw = ifd.entries.get(TAG.PanasonicJpgFromRaw);
    if (jpgFromRaw && ifd.depth === 0 && jpgFromRaw.byteLength > 1024) {
      const c = await candidate(src, jpgFromRaw.valueOffset, jpgFromRaw.byteLength, `${name}:JpgFromRaw`);
      if (c) previews.push(c);
    }
    // Full-resolution size: the first IFD whose NewSubfileType says "full resolution" (0, also when absent),
    // the same rule ExifTool uses for ImageWidth/ImageHeight.
    if (width === null) {
      const nst = (await num(TAG.NewSubfileType)) ?? 0;
      const w = await num(TAG.ImageWidth);
      const h = await num(TAG.ImageLength);
      if (nst === 0 && w && h) [width, height] = [w, h];
    }
  }
  const ifd0 = ifds[0];
  if (width === null && ifd0) {
    // Panasonic RW2 has no ImageWidth; it declares the sensor and the crop borders inside it.
    const [top, left, bottom, right] = await Promise.all(
      [TAG.PanasonicSensorTopBorder, TAG.PanasonicSensorLeftBorder, TAG.PanasonicSensorBottomBorder, TAG.PanasonicSensorRightBorder].map((t) => tiff.number(ifd0, t)),
    );
    const w = right !== undefined && left !== undefined ? right - left : await tiff.number(ifd0, TAG.PanasonicSensorWidth);
    const h = bottom !== undefined && top !== undefined ? bottom - top : await tiff.number(ifd0, TAG.PanasonicSensorHeight);
    if (w && h && w > 0 && h > 0) [width, height] = [w, h];
  }
  let rgbThumbnail: RawInspection['rgbThumbnail'] = null;
  if (ifd0) {
    const [nst, comp, photometric, bits, w, h] = await Promise.all(
      [TAG.NewSubfileType, TAG.Compression, TAG.PhotometricInterpretation, TAG.BitsPerSample, TAG.ImageWidth, TAG.ImageLength].map((t) => tiff.number(ifd0, t)),
    );
    if (nst === 1 && comp === 1 && photometric === 2 && bits === 8 && w && h) rgbThumbnail = { width: w, height: h };
  }
  const orientation = ifd0 ? ((await tiff.number(ifd0, TAG.Orientation)) ?? null) : null;
  const unique = previews.filter((p, i) => previews.findIndex((q) => q.offset === p.offset) === i).sort(byArea);
  return {
    container: 'tiff',
    previews: unique,
    width,
    height,
    orientation: orientation && orientation >= 1 && orientation <= 8 ? orientation : null,
    rgbThumbnail,
  };
}

async function inspectRaf(src: ByteSource): Promise<RawInspection> {
  const h = await src.read(84, 8);
  const previews: RawPreviewCandidate[] = [];
  if (h.length === 8) {
    const v = new DataView(h.buffer, h.byteOffset, 8);
    const c = await candidate(src, v.getUint32(0), v.getUint32(4), 'RAF header');
    if (c) previews.push(c);
  }
  return { container: 'raf', previews, width: null, height: null, orientation: null, rgbThumbnail: null };
}

async function inspectCr3(src: ByteSource): Promise<RawInspection> {
  const parts = await readCr3Parts(src);
  const previews: RawPreviewCandidate[] = [];
  for (const p of parts.previews) {
    const c = await candidate(src, p.offset, p.length, `CR3 ${p.kind}`);
    if (c) previews.push(c);
  }
  let width: number | null = null;
  let height: number | null = null;
  let orientation: number | null = null;
  if (parts.cmt[1]) {
    const t = await TiffReader.open(bufferSource(parts.cmt[1]));
    const ifd0 = t && (await t.readIfd(t.firstIfd));
    if (t && ifd0) {
      width = (await t.number(ifd0, TAG.ImageWidth)) ?? null;
      height = (await t.number(ifd0, TAG.ImageLength)) ?? null;
      orientation = (await t.number(ifd0, TAG.Orientation)) ?? null;
    }
  }
  return { container: 'cr3', previews: previews.sort(byArea), width, height, orientation, rgbThumbnail: null };
}

/** Parse a RAW's container: previews, declared size and orientation. Never throws on malformed files. */
export async function inspectRawSource(src: ByteSource, fileName?: string): Promise<RawInspection> {
  const empty: RawInspection = { container: null, previews: [], width: null, height: null, orientation: null, rgbThumbnail: null };
  try {
    const type = detectBytes(await src.read(0, 4096), fileName);
    if (!type?.isRaw) return empty;
    if (type.ext === 'raf') return await inspectRaf(src);
    if (type.ext === 'cr3') return await inspectCr3(src);
    if (type.ext === 'crw') return empty; // CIFF, not TIFF: no in-process preview
    return (await inspectTiff(src)) ?? empty;
  } catch {
    return empty;
  }
}

export function inspectRaw(filePath: string): Promise<RawInspection> {
  return withFileSource(filePath, (src) => inspectRawSource(src, filePath));
}

/**
 * The largest embedded JPEG preview of a RAW file, or null when there is none we can use in-process.
 * The bytes are a complete JPEG that sharp can decode; apply `orientation` to show it upright.
 * When a RAW has no JPEG at all but an uncompressed RGB thumbnail in IFD0 (early Nikon NEFs), that page is
 * decoded by sharp and re-encoded as JPEG, so callers always get the same kind of result.
 */
export async function extractRawPreview(filePath: string): Promise<RawPreview | null> {
  const info = await inspectRaw(filePath);
  const best = info.previews[0];
  if (best) {
    const jpeg = await withFileSource(filePath, async (src) => Buffer.from(await src.read(best.offset, best.length)));
    if (jpeg.length !== best.length) return null;
    return { jpeg, width: best.width, height: best.height, orientation: info.orientation, source: best.source };
  }
  if (info.rgbThumbnail) {
    try {
      // Page 0 of the TIFF container is IFD0, the thumbnail; autoOrient stays off (orientation is returned).
      const { data, info: out } = await sharp(await stableInput(filePath), { page: 0, failOn: 'error', limitInputPixels: 50_000_000 })
        .jpeg({ quality: 92 })
        .toBuffer({ resolveWithObject: true });
      return { jpeg: data, width: out.width, height: out.height, orientation: info.orientation, source: 'IFD0:uncompressed RGB' };
    } catch {
      return null;
    }
  }
  return null;
}
