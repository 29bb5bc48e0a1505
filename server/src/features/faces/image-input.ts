/**
 * Decodes the image faces are looked for in into upright RGB pixels: a path through the media adapters'
 * openImage (content sniffing, HEIC, RAW previews, EXIF orientation, the decompression-bomb limit), so faces
 * are found in exactly what the thumbnails show. Anything that cannot be decoded is a FaceInputError.
 */
import { withOpenedImage } from '../../adapters/media/image-source.ts';
import { rgbInside } from '../../adapters/media/rgb-pixels.ts';
import '../../adapters/media/sharp-setup.ts';
import type { RgbImage } from './types.ts';

export class FaceInputError extends Error {
  override readonly name = 'FaceInputError';
  /** Stable, for job errors. */
  readonly code = 'face_unreadable_image';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`cannot read the image for faces: ${detail}`, options);
  }
}

export async function loadRgb(file: string, maxSide: number): Promise<RgbImage> {
  try {
    return await withOpenedImage(file, {}, (o) => rgbInside(o.pipeline, maxSide));
  } catch (e) {
    throw new FaceInputError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}
