/**
 * Packed 8-bit RGB pixels of an upright image: what the in-process models' preprocessing reads (OCR, faces).
 * One way to get them, so every model sees photos alike: within `maxSide` × `maxSide` (never enlarged),
 * transparent pixels on white (dark text or a face on a transparent background stays visible), sRGB.
 */
import type { Sharp } from 'sharp';
import './sharp-setup.ts';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function rgbInside(pipeline: Sharp, maxSide: number): Promise<RgbImage> {
  const { data, info } = await pipeline
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after conversion, got ${info.channels}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
