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

/** Runs one network of the pipeline (the ML runtime's pool in the server; the bench may time it). */
export type FaceInfer = (model: 'detector' | 'embedding', input: FaceTensor) => Promise<Record<string, FaceTensor>>;
