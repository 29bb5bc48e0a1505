/**
 * Detector input: the image scaled so its longest side is at most 960 px, each side then rounded to a multiple
 * of 32 (the DB network halves the resolution five times), and normalised with ImageNet statistics into planes
 * in B, G, R order. PaddleOCR feeds cv2's BGR images, and the weights were trained that way: feeding RGB costs
 * recall on coloured signs. Small images are not enlarged (PaddleOCR's limit_type "max").
 */
import sharp from 'sharp';
import '../../adapters/media/sharp-setup.ts';
import { OCR_PARAMS } from './params.ts';
import type { RgbImage, Tensor } from './types.ts';

/** The detector's input size for an image: longest side ≤ limit, sides multiples of 32 (never below 32). */
export function detInputSize(width: number, height: number, limit: number = OCR_PARAMS.det.limitSide): { width: number; height: number } {
  const m = OCR_PARAMS.det.multiple;
  const ratio = Math.max(width, height) > limit ? limit / Math.max(width, height) : 1;
  return {
    width: Math.max(m, Math.round((width * ratio) / m) * m),
    height: Math.max(m, Math.round((height * ratio) / m) * m),
  };
}

/** Interleaved RGB bytes → NCHW float planes in B, G, R order, `(v/255 − mean) / std` per plane. */
export function normaliseBgr(rgb: RgbImage, mean: readonly number[], std: readonly number[]): Tensor {
  const { width, height, data } = rgb;
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const src = 2 - c; // plane 0 is blue (RGB byte 2), plane 2 is red (byte 0)
    const scale = 1 / (255 * std[c]!);
    const shift = mean[c]! / std[c]!;
    const base = c * plane;
    for (let i = 0; i < plane; i++) out[base + i] = data[i * 3 + src]! * scale - shift;
  }
  return { data: out, dims: [1, 3, height, width] };
}

/** The detector tensor for an image. Sharp resizes (Lanczos), so text edges stay crisp at the smaller size. */
export async function detInput(image: RgbImage): Promise<Tensor> {
  const size = detInputSize(image.width, image.height);
  const resized =
    size.width === image.width && size.height === image.height
      ? image.data
      : await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
          .resize(size.width, size.height, { fit: 'fill' })
          .raw()
          .toBuffer();
  return normaliseBgr({ data: resized, ...size }, OCR_PARAMS.det.mean, OCR_PARAMS.det.std);
}
