/**
 * Decodes the image OCR reads into upright RGB pixels. A path goes through the media adapters' openImage
 * (content sniffing, HEIC, RAW previews, EXIF orientation, the decompression-bomb limit), so OCR sees exactly
 * what the thumbnails show; a buffer (the medium thumbnail, an uploaded query image) is decoded by sharp with
 * the same limits. Anything that cannot be decoded becomes an OcrInputError, never an exception from inside
 * libvips that a caller would have to recognise.
 */
import sharp from 'sharp';
import '../../adapters/media/sharp-setup.ts';
import { DEFAULT_MAX_INPUT_PIXELS, withOpenedImage } from '../../adapters/media/image-source.ts';
import { rgbInside } from '../../adapters/media/rgb-pixels.ts';
import { OCR_PARAMS } from './params.ts';
import type { RgbImage } from './types.ts';

/** The input is not an image OCR can read (not an image, damaged, empty, or over the pixel limit). */
export class OcrInputError extends Error {
  override readonly name = 'OcrInputError';
  /** Stable, for problem+json answers and job errors. */
  readonly code = 'ocr_unreadable_image';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`cannot read the image for OCR: ${detail}`, options);
  }
}

/** Upright RGB pixels of a file or of encoded bytes, shrunk to at most `maxSide` on the longest side. */
export async function loadRgb(source: string | Buffer, maxSide: number = OCR_PARAMS.source.maxSide): Promise<RgbImage> {
  if (Buffer.isBuffer(source) && source.length === 0) throw new OcrInputError('the input is empty (0 bytes)');
  try {
    if (typeof source === 'string') return await withOpenedImage(source, {}, (o) => rgbInside(o.pipeline, maxSide));
    return await rgbInside(sharp(source, { limitInputPixels: DEFAULT_MAX_INPUT_PIXELS, failOn: 'truncated', autoOrient: true }), maxSide);
  } catch (e) {
    if (e instanceof OcrInputError) throw e;
    throw new OcrInputError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}
