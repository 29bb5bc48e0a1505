/**
 * The OCR pipeline of one image: decode → detect (DB) → crop each box → angle classifier → recogniser (CTC) →
 * lines in reading order. Inference is injected (`OcrInfer`): this module decides what to run and in which
 * batches, not where (the ML runtime's worker pool in the server; onnxruntime directly in tests and the bench).
 */
import { performance } from 'node:perf_hooks';
import { cropLine, rotate180 } from './crop.ts';
import { ctcGreedyDecode, type Charset } from './ctc-decode.ts';
import { dbPostprocess } from './db-postprocess.ts';
import { detInput } from './det-input.ts';
import { loadRgb } from './image-input.ts';
import { OCR_PARAMS } from './params.ts';
import { readingOrder } from './reading-order.ts';
import { squeezeWidth, stripBatch } from './strip-input.ts';
import type { OcrInfer, OcrLine, OcrResult, RgbImage } from './types.ts';

/** Milliseconds spent per stage, summed over the calls that were given this object. */
export interface OcrTimings {
  decode: number;
  detPrepare: number;
  det: number;
  dbPostprocess: number;
  crop: number;
  cls: number;
  rec: number;
  ctcDecode: number;
}

export function emptyTimings(): OcrTimings {
  return { decode: 0, detPrepare: 0, det: 0, dbPostprocess: 0, crop: 0, cls: 0, rec: 0, ctcDecode: 0 };
}

export interface OcrEngine {
  /** Reads the text of an image file or of encoded image bytes. Throws OcrInputError when it is not an image. */
  recognise(source: string | Buffer, options?: { timings?: OcrTimings }): Promise<OcrResult>;
}

export interface OcrEngineOptions {
  infer: OcrInfer;
  /** From ppocr_keys_v1.txt (ctc-decode.ts: loadCharset). */
  charset: Charset;
}

/** Which strips the classifier finds upside down (p(180°) above the threshold). */
async function upsideDown(infer: OcrInfer, strips: readonly RgbImage[]): Promise<boolean[]> {
  const { width, flipThreshold } = OCR_PARAMS.cls;
  const flags: boolean[] = [];
  for (let i = 0; i < strips.length; i += OCR_PARAMS.rec.batchSize) {
    const batch = strips.slice(i, i + OCR_PARAMS.rec.batchSize).map((s) => squeezeWidth(s, width));
    const out = await infer('cls', stripBatch(batch, width));
    for (let n = 0; n < batch.length; n++) flags.push(out.data[n * 2 + 1]! > flipThreshold);
  }
  return flags;
}

export function createOcr({ infer, charset }: OcrEngineOptions): OcrEngine {
  return {
    async recognise(source, options = {}) {
      const timings = options.timings ?? emptyTimings();
      let t = performance.now();
      const lap = (stage: keyof OcrTimings): void => {
        const now = performance.now();
        timings[stage] += now - t;
        t = now;
      };

      const image = await loadRgb(source);
      lap('decode');
      const detTensor = await detInput(image);
      lap('detPrepare');
      const map = await infer('det', detTensor);
      lap('det');
      const boxes = dbPostprocess(map, image.width, image.height);
      lap('dbPostprocess');
      if (boxes.length === 0) return { width: image.width, height: image.height, lines: [] };

      let strips = boxes.map((box) => cropLine(image, box));
      lap('crop');
      const flips = await upsideDown(infer, strips);
      strips = strips.map((s, i) => (flips[i] ? rotate180(s) : s));
      lap('cls');

      // Similar widths share a batch, so a short word is not padded to the width of the longest line.
      const order = strips.map((_, i) => i).sort((a, b) => strips[a]!.width - strips[b]!.width);
      const lines: (OcrLine | null)[] = new Array(boxes.length).fill(null);
      for (let i = 0; i < order.length; i += OCR_PARAMS.rec.batchSize) {
        const members = order.slice(i, i + OCR_PARAMS.rec.batchSize);
        const batch = members.map((m) => strips[m]!);
        const width = Math.max(OCR_PARAMS.rec.minWidth, ...batch.map((s) => s.width));
        const out = await infer('rec', stripBatch(batch, width));
        lap('rec');
        members.forEach((m, n) => {
          const { text, confidence } = ctcGreedyDecode(out, n, charset, OCR_PARAMS.rec.spaceFloor);
          // NFKC: the dictionary holds full-width forms ("！", "０") beside ASCII; one form per character means a
          // search for "NO LITTER!" finds the sign whichever form the recogniser picked.
          const trimmed = text.normalize('NFKC').trim();
          if (trimmed && confidence >= OCR_PARAMS.rec.dropScore) lines[m] = { text: trimmed, box: boxes[m]!, confidence };
        });
        lap('ctcDecode');
      }
      return { width: image.width, height: image.height, lines: readingOrder(lines.filter((l): l is OcrLine => l !== null)) };
    },
  };
}
