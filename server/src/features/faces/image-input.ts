/**
 * Decodes the image faces are looked for in into upright RGB pixels: a path through the media adapters'
 * openImage (content sniffing, HEIC, RAW previews, EXIF orientation, the decompression-bomb limit), so faces
 * are found in exactly what the thumbnails show. Anything that cannot be decoded is a FaceInputError.
 */
import { openImage } from '../../adapters/media/image-source.ts';
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
    const { data, info } = await (await openImage(file)).pipeline
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels after conversion, got ${info.channels}`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (e) {
    throw new FaceInputError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}
