/**
 * Open any supported photo as an upright sharp pipeline, choosing the decoder by content:
 *   - JPEG, PNG, WebP, GIF (first frame), TIFF, AVIF: sharp itself, with autoOrient (EXIF Orientation).
 *   - HEIC/HEIF: heic-decode in a worker (heic.ts); libheif already applies the container's rotation/mirror.
 *   - RAW: the embedded preview (raw-preview.ts), oriented with the RAW's own Orientation tag.
 *
 * Safety settings, applied to every decode:
 *   - limitInputPixels (default 200 MP): sharp refuses larger images from their header, before allocating,
 *     which stops decompression bombs (a 50 KB PNG that claims 100 000 × 100 000). Real cameras top out near
 *     200 MP (medium format, phone "200 MP" modes); panoramas above that are refused with a clear error.
 *   - failOn 'truncated': libjpeg reports harmless warnings on many real camera files ("extraneous bytes
 *     before marker"), which sharp's default 'warning' would turn into failures, so warnings are tolerated;
 *     but a truncated or corrupt scan is an error rather than a thumbnail with a grey lower half that would be
 *     cached as if it were the photo. The asset keeps its metadata and the job reports the damage.
 *
 * Colour: sharp converts an image with an embedded ICC profile into sRGB. A profile that is sRGB already is
 * ignored instead (icc-profile.ts): same pixels, without an identity conversion that costs as much as
 * encoding a thumbnail. The header read for that decision is handed on (`metadata`), so callers that need
 * the source size do not read it again.
 */
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import './sharp-setup.ts';
import { bufferSource } from './byte-source.ts';
import { DETECT_HEAD_BYTES, detect, detectBytes, type DetectedType } from './detect.ts';
import { MediaDecodeError } from './errors.ts';
import { decodeHeic, decodeHeicBytes } from './heic.ts';
import { isSrgbProfile } from './icc-profile.ts';
import { applyOrientation } from './orientation.ts';
import { extractRawPreview, inspectRawSource } from './raw-preview.ts';
import { stableInput } from './stable-input.ts';
import { releaseBytes } from '../../platform/cache/release-bytes.ts';

export const DEFAULT_MAX_INPUT_PIXELS = 200_000_000;

export interface OpenImageOptions {
  type?: DetectedType | null;
  maxInputPixels?: number;
}

export interface OpenedImage {
  /** Upright pipeline; add operations and an output. Single use (sharp pipelines are one-shot). */
  pipeline: Sharp;
  decoder: 'sharp' | 'heic-decode' | 'raw-preview';
  /**
   * The encoded input's header as sharp reads it (stored size, EXIF orientation, profile), when sharp decodes
   * an encoded file or preview; null for raw pixels (HEIC) or a header sharp could not read (the decode then
   * fails with the reason).
   */
  metadata: Metadata | null;
  /**
   * Frees the bytes the pipeline reads (the file read whole, a RAW's preview, a HEIC's pixels) now instead of at
   * the next full garbage collection (platform/cache/release-bytes.ts): a photo's worth per job otherwise piles
   * up while an import runs beside. Call it once the pipeline's output has been made (or failed), never before:
   * libvips reads those bytes until then.
   */
  release(): void;
}

/** A sharp pipeline over encoded bytes, skipping the conversion of an sRGB profile into sRGB. */
async function encodedPipeline(bytes: Buffer, options: SharpOptions): Promise<{ pipeline: Sharp; metadata: Metadata | null; release(): void }> {
  const metadata = await sharp(bytes, options).metadata().catch(() => null);
  return { pipeline: sharp(bytes, { ...options, ignoreIcc: isSrgbProfile(metadata?.icc) }), metadata, release: () => releaseBytes(bytes) };
}

/** The release of bytes the caller handed in: theirs to free, not ours. */
const keepBytes = (): void => undefined;

const SHARP_FORMATS = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff', 'image/avif']);

export async function openImage(filePath: string, options: OpenImageOptions = {}): Promise<OpenedImage> {
  const maxPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  const type = options.type === undefined ? await detect(filePath) : options.type;
  if (!type || type.kind !== 'photo') throw new MediaDecodeError(filePath, `not a supported photo (${type?.mime ?? 'unknown type'})`);
  const base = { limitInputPixels: maxPixels, failOn: 'truncated' as const };

  if (type.isRaw) {
    const preview = await extractRawPreview(filePath);
    if (!preview) throw new MediaDecodeError(filePath, `no usable embedded preview in this ${type.ext.toUpperCase()} file`);
    const { pipeline, metadata, release } = await encodedPipeline(preview.jpeg, { ...base, autoOrient: false });
    return { pipeline: applyOrientation(pipeline, preview.orientation), decoder: 'raw-preview', metadata, release };
  }
  if (type.mime === 'image/heic' || type.mime === 'image/heif') {
    try {
      const img = await decodeHeic(filePath, { maxPixels });
      return { pipeline: sharp(img.data, { ...base, raw: { width: img.width, height: img.height, channels: img.channels } }), decoder: 'heic-decode', metadata: null, release: () => releaseBytes(img.data) };
    } catch (e) {
      // A generic "mif1" HEIF may hold AV1 instead of HEVC, which sharp's libheif does decode.
      if (type.mime !== 'image/heif') throw e;
      return { ...(await encodedPipeline(await stableInput(filePath), { ...base, autoOrient: true })), decoder: 'sharp' };
    }
  }
  // The bytes, never the path: a file cut short while libvips maps it would kill the process (stable-input.ts).
  if (SHARP_FORMATS.has(type.mime)) return { ...(await encodedPipeline(await stableInput(filePath), { ...base, autoOrient: true })), decoder: 'sharp' };
  throw new MediaDecodeError(filePath, `no decoder for ${type.mime}`);
}

/**
 * Opens `filePath` (as `openImage`), makes the pipeline's one output with `use`, then frees the input bytes: for
 * callers that need nothing of the opened photo after that output.
 */
export async function withOpenedImage<T>(filePath: string, options: OpenImageOptions, use: (opened: OpenedImage) => Promise<T>): Promise<T> {
  const opened = await openImage(filePath, options);
  try {
    return await use(opened);
  } finally {
    opened.release();
  }
}

/**
 * As `openImage`, for encoded bytes in memory (a photo to search by, which must never reach the disk):
 * the same decoders and safety settings. `name` (the file name it came with) is read for its
 * extension as a path is, and names the image in errors.
 */
export async function openImageBytes(bytes: Buffer, options: { maxInputPixels?: number; name?: string } = {}): Promise<OpenedImage> {
  const name = options.name ?? 'image';
  const maxPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  // The name's extension tells TIFF-based RAWs (NEF, DNG…) from a plain TIFF, as a file's path does.
  const type = detectBytes(bytes.subarray(0, DETECT_HEAD_BYTES), options.name);
  if (!type || type.kind !== 'photo') throw new MediaDecodeError(name, `not a supported photo (${type?.mime ?? 'unknown type'})`);
  const base = { limitInputPixels: maxPixels, failOn: 'truncated' as const };

  if (type.isRaw) {
    const info = await inspectRawSource(bufferSource(bytes), options.name);
    const best = info.previews[0];
    let preview: Buffer | null = best && best.offset + best.length <= bytes.length ? bytes.subarray(best.offset, best.offset + best.length) : null;
    // No JPEG but an uncompressed RGB thumbnail in IFD0 (early Nikon NEFs): page 0, as extractRawPreview does.
    if (!best && info.rgbThumbnail) preview = await sharp(bytes, { page: 0, failOn: 'error', limitInputPixels: 50_000_000 }).jpeg({ quality: 92 }).toBuffer().catch(() => null);
    if (!preview) throw new MediaDecodeError(name, `no usable embedded preview in this ${type.ext.toUpperCase()} file`);
    const { pipeline, metadata } = await encodedPipeline(preview, { ...base, autoOrient: false });
    return { pipeline: applyOrientation(pipeline, info.orientation), decoder: 'raw-preview', metadata, release: keepBytes };
  }
  if (type.mime === 'image/heic' || type.mime === 'image/heif') {
    try {
      const img = await decodeHeicBytes(bytes, name, { maxPixels });
      return { pipeline: sharp(img.data, { ...base, raw: { width: img.width, height: img.height, channels: img.channels } }), decoder: 'heic-decode', metadata: null, release: () => releaseBytes(img.data) };
    } catch (e) {
      if (type.mime !== 'image/heif') throw e;
      return { ...(await encodedPipeline(bytes, { ...base, autoOrient: true })), decoder: 'sharp', release: keepBytes };
    }
  }
  if (SHARP_FORMATS.has(type.mime)) return { ...(await encodedPipeline(bytes, { ...base, autoOrient: true })), decoder: 'sharp', release: keepBytes };
  throw new MediaDecodeError(name, `no decoder for ${type.mime}`);
}
