/**
 * OCR (PP-OCRv4 detection, angle classification and recognition): the text lines of an image with their boxes
 * and confidence, the `ocr` indexer that keeps them in the catalog, and the text search over them.
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
 *   ocr-indexer.ts      the `ocr` index task: a photo's text into the catalog, on the ML runtime's pool
 *   ocr.store.ts        lines, the per-photo marker, the trigram full-text index; searchOcrText
 *   ocr-search.ts       query terms and the ranking of assets
 *   ocr-boxes.ts        boxes normalised to the image
 *   ocr.view.ts         the asset detail's `ocr_result`
 */
export { createOcr, emptyTimings, type OcrEngine, type OcrEngineOptions, type OcrPixels, type OcrTimings } from './recognise.ts';
export { charsetFromKeys, ctcSteps, decodeSteps, loadCharset, spaceIndex, type Charset, type CtcSteps } from './ctc-decode.ts';
export { OcrInputError } from './image-input.ts';
export { OCR_PARAMS } from './params.ts';
export type { OcrInfer, OcrLine, OcrModel, OcrResult, Point, Quad, Tensor } from './types.ts';
export { OCR_MODEL_ID, OcrIndexer, createOcrIndexer, poolDetectPixels, poolInfer, poolRecogniseSteps } from './ocr-indexer.ts';
export { OcrStore } from './ocr.store.ts';
export type { OcrSearchHit } from './ocr-search.ts';
export { OcrResultSchema, toOcrResult, type OcrResultView } from './ocr.view.ts';
