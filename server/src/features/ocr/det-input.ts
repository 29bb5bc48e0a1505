/**
 * Detector input: the image scaled so its longest side is at most 960 px (never enlarged: PaddleOCR's
 * limit_type "max"), then padded right and bottom to multiples of 32 (the DB network halves the resolution five
 * times), and normalised with ImageNet statistics into planes in B, G, R order. PaddleOCR feeds cv2's BGR images,
 * and the weights were trained that way: feeding RGB costs recall on coloured signs.
 *
 * Padded, not stretched: PaddleOCR stretches each side to its multiple of 32, a change of aspect of up to 4 %
 * that needs a resample of every pixel (a sharp call for an 800 × 600 photo to become 800 × 608). Padding keeps
 * the pixels as they are, so the indexers' 800-px decode (features/indexing/photo-pixels.ts) becomes the
 * tensor in one pass over its bytes; the padding holds the mean colour (0 after normalisation), which the
 * detector reads as background. Boxes found in the padding are clipped away (db-postprocess.ts: the frame).
 */
import sharp from 'sharp';
import '../../adapters/media/sharp-setup.ts';
import { OCR_PARAMS } from './params.ts';
import type { RgbImage, Tensor } from './types.ts';

/** The detector's input for an image: the image's size inside it (`frame`), and the padded tensor size. */
export interface DetSize {
  /** The image scaled to the limit (longest side ≤ limit, never enlarged). */
  frame: { width: number; height: number };
  /** `frame` padded right and bottom to multiples of 32. */
  width: number;
  height: number;
}

/** The detector's input size for an image: longest side ≤ limit, padded to multiples of 32 (never below 32). */
export function detInputSize(width: number, height: number, limit: number = OCR_PARAMS.det.limitSide): DetSize {
  const m = OCR_PARAMS.det.multiple;
  const ratio = Math.max(width, height) > limit ? limit / Math.max(width, height) : 1;
  const frame = { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
  return { frame, width: Math.ceil(frame.width / m) * m, height: Math.ceil(frame.height / m) * m };
}

/**
 * Interleaved RGB bytes → NCHW float planes in B, G, R order, `(v/255 − mean) / std` per plane, in a tensor of
 * `width × height` (at least the image's size; the rest is 0, the mean colour). One pass over the pixels.
 */
export function normaliseBgr(rgb: RgbImage, mean: readonly number[], std: readonly number[], width: number = rgb.width, height: number = rgb.height): Tensor {
  const { width: w, height: h, data } = rgb;
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  // Plane 0 is blue (RGB byte 2), plane 2 is red (byte 0).
  const sB = 1 / (255 * std[0]!), oB = mean[0]! / std[0]!;
  const sG = 1 / (255 * std[1]!), oG = mean[1]! / std[1]!;
  const sR = 1 / (255 * std[2]!), oR = mean[2]! / std[2]!;
  for (let y = 0; y < h; y++) {
    let s = y * w * 3;
    let o = y * width;
    const end = o + w;
    for (; o < end; o++, s += 3) {
      out[o] = data[s + 2]! * sB - oB;
      out[plane + o] = data[s + 1]! * sG - oG;
      out[2 * plane + o] = data[s]! * sR - oR;
    }
  }
  return { data: out, dims: [1, 3, height, width] };
}

/** The detector's input as 8-bit pixels, and what makes the tensor of them (normaliseBgr's arithmetic, elsewhere). */
export interface DetPixels {
  /** The image's pixels scaled to the frame (the image itself when within the limit: no copy). */
  data: Uint8Array;
  /** [1, 3, H, W]: the padded tensor. */
  dims: number[];
  pixels: { width: number; height: number; order: number[]; scale: number[]; offset: number[] };
}

/** The image scaled into the detector's frame, and the padded size: what both forms of its input are made of. */
async function framed(image: RgbImage): Promise<{ scaled: RgbImage; size: DetSize }> {
  const size = detInputSize(image.width, image.height);
  const { frame } = size;
  const scaled =
    frame.width === image.width && frame.height === image.height
      ? image
      : {
          data: await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
            .resize(frame.width, frame.height, { fit: 'fill' })
            .raw()
            .toBuffer(),
          ...frame,
        };
  return { scaled, size };
}

/**
 * The detector tensor for an image, and the image's frame inside it. An image within the limit (the indexers'
 * 800-px pixels) is only normalised; a larger one is first shrunk by sharp (Lanczos: text edges stay crisp).
 */
export async function detInput(image: RgbImage): Promise<{ tensor: Tensor; frame: DetSize['frame'] }> {
  const { scaled, size } = await framed(image);
  return { tensor: normaliseBgr(scaled, OCR_PARAMS.det.mean, OCR_PARAMS.det.std, size.width, size.height), frame: size.frame };
}

/**
 * The same input as detInput's tensor, as the pixels it is made of and normaliseBgr's factors (plane c = byte
 * order[c] · scale[c] − offset[c], the padding 0): what the pool's workers expand where the model runs
 * (adapters/ml: PixelExpansion), so 1 byte a value crosses to them instead of 4. The same float32 values to the bit.
 */
export async function detPixelInput(image: RgbImage): Promise<{ input: DetPixels; frame: DetSize['frame'] }> {
  const { scaled, size } = await framed(image);
  const { mean, std } = OCR_PARAMS.det;
  // Plane 0 is blue (RGB byte 2), plane 2 is red (byte 0), as in normaliseBgr.
  const scale = [0, 1, 2].map((c) => 1 / (255 * std[c]!));
  const offset = [0, 1, 2].map((c) => mean[c]! / std[c]!);
  return {
    input: { data: scaled.data, dims: [1, 3, size.height, size.width], pixels: { width: scaled.width, height: scaled.height, order: [2, 1, 0], scale, offset } },
    frame: size.frame,
  };
}
