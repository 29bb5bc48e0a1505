/**
 * Shapes shared by the OCR steps. The pipeline never touches onnxruntime itself: inference is injected as an
 * `OcrInfer` function (the ML runtime's worker pool in the server, onnxruntime-node directly in tests and the
 * bench), so every step here is plain computation that can be tested on hand-made tensors.
 */

/** A dense float tensor, row-major, as onnxruntime hands it over. */
export interface Tensor {
  data: Float32Array;
  dims: number[];
}

/** The three PP-OCR networks: text detection (DB), angle classification, recognition (CTC). */
export type OcrModel = 'det' | 'cls' | 'rec';

/** Runs one network on one input tensor and gives its (single) output tensor. */
export type OcrInfer = (model: OcrModel, input: Tensor) => Promise<Tensor>;

/** A point in image pixels (x to the right, y down). */
export interface Point {
  x: number;
  y: number;
}

/** Four corners in image pixels, clockwise from the text's top-left: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

/** Interleaved 8-bit RGB pixels (3 bytes a pixel, row-major). */
export type { RgbImage } from '../../adapters/media/rgb-pixels.ts';

/** One recognised line of text. */
export interface OcrLine {
  text: string;
  /** Where the line is, in pixels of the image as given (upright, after EXIF orientation). */
  box: Quad;
  /** Mean of the per-character probabilities of the recognised text, 0..1. */
  confidence: number;
}

export interface OcrResult {
  /** The (upright) size of the image the boxes refer to. */
  width: number;
  height: number;
  /** Lines in reading order: top to bottom, and left to right within a row. */
  lines: OcrLine[];
}
