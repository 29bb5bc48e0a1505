import type { PixelExpansion } from '../../adapters/ml/index.ts';

/** Upright RGB pixels, 3 bytes per pixel, rows top to bottom. */
export type { RgbImage } from '../../adapters/media/rgb-pixels.ts';

export type Point = [number, number];

/** A face in the pixels of the image it was found in. */
export interface DetectedFace {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** Eye (image-left), eye (image-right), nose tip, mouth corner (image-left), mouth corner (image-right). */
  landmarks: Point[];
}

export interface FaceTensor {
  data: Float32Array;
  dims: number[];
}

/**
 * The detector's input as the 8-bit pixels it is made of (adapters/ml PixelExpansion: plane c = byte order[c] ·
 * scale − offset, zero padding): a quarter of the bytes cross to the inference worker, which makes the tensor.
 * `expandPixels` (adapters/ml) makes the same tensor where a network runs in-process.
 */
export interface FacePixels {
  data: Uint8Array;
  dims: number[];
  pixels: PixelExpansion;
}

/** Runs one network of the pipeline (the ML runtime's pool in the server; the bench may time it). */
export type FaceInfer = (model: 'detector' | 'embedding', input: FaceTensor | FacePixels) => Promise<Record<string, FaceTensor>>;
