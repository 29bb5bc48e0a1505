/**
 * OCR (PP-OCRv4 detection, angle classification and recognition) as a module: the text lines of an image with
 * their boxes and confidence. No database and no routes yet: the `ocr` indexer and the search channel build on
 * `createOcr`, handing it the ML runtime's inference as `infer`.
 *
 *   params.ts           the pipeline's numbers (MANIFEST §5, PaddleOCR defaults)
 *   image-input.ts      file or bytes → upright RGB (OcrInputError when it is not an image)
 *   det-input.ts        detector input: ≤ 960 px, multiples of 32, BGR ImageNet normalisation
 *   db-postprocess.ts   probability map → rotated boxes (threshold, regions, score, unclip, min size)
 *   geometry.ts         hull, minimum-area rectangle, corner order
 *   crop.ts             perspective crop of a box to a 48-px strip, vertical lines turned
 *   vertical.ts         a vertical CJK column cut into upright character cells, set side by side
 *   strip-input.ts      strips → classifier/recogniser batches
 *   ctc-decode.ts       dictionary and CTC greedy decoding
 *   reading-order.ts    top to bottom, left to right
 *   recognise.ts        the whole pipeline
 */
export { createOcr, emptyTimings, type OcrEngine, type OcrEngineOptions, type OcrTimings } from './recognise.ts';
export { charsetFromKeys, loadCharset, type Charset } from './ctc-decode.ts';
export { OcrInputError } from './image-input.ts';
export { OCR_PARAMS } from './params.ts';
export type { OcrInfer, OcrLine, OcrModel, OcrResult, Point, Quad, Tensor } from './types.ts';
