/**
 * The OCR pipeline of one image: decode → detect (DB) → crop each box → angle classifier → recogniser (CTC) →
 * lines in reading order. Given a file or bytes, one decode (≤ 4096 px) serves detection and crops. Given
 * `OcrPixels` (the indexer), the detector first reads the small pixels it is handed (800 px, shared with the
 * face indexer): where it finds no text region, the photo has no text for OCR (no large decode, no classifier,
 * no recogniser); where it finds one, the larger source is decoded and read exactly as a file is (detection
 * again at up to 960 px, crops from up to 4096 px), so the text read is the same as from the file. Inference is injected (`OcrInfer`): this module decides what to run and in which
 * batches, not where (the ML runtime's worker pool in the server; onnxruntime directly in tests and the bench).
 */
import { performance } from 'node:perf_hooks';
import { cropLine, isVertical, rotate180 } from './crop.ts';
import { ctcGreedyDecode, type Charset, type Decoded } from './ctc-decode.ts';
import { dbPostprocess } from './db-postprocess.ts';
import { detInput } from './det-input.ts';
import { loadRgb } from './image-input.ts';
import { OCR_PARAMS } from './params.ts';
import { readingOrder } from './reading-order.ts';
import { squeezeWidth, stripBatch, widthBatches } from './strip-input.ts';
import type { OcrInfer, OcrLine, OcrResult, RgbImage } from './types.ts';
import { stackColumn } from './vertical.ts';

/** Time spent per stage, summed over the calls that were given this object (in the unit of `clock`, default wall ms). */
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

/** Pixels decoded elsewhere: a small image the detector checks for text first, and the source text is read from. */
export interface OcrPixels {
  detection: RgbImage;
  /** The pixels text is read from; `detection` itself when it was not shrunk (then nothing is detected twice). */
  crops(): Promise<RgbImage>;
}

export interface OcrEngine {
  /** Reads the text of an image file, encoded image bytes or decoded pixels. Throws OcrInputError when it is not an image. */
  recognise(source: string | Buffer | OcrPixels, options?: { timings?: OcrTimings; clock?: () => number }): Promise<OcrResult>;
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

/** How much of a line a reading explains: characters read, weighted by how sure the recogniser is of them. */
function readingScore(r: Decoded): number {
  return r.confidence * [...r.text].length;
}

export function createOcr({ infer, charset }: OcrEngineOptions): OcrEngine {
  return {
    async recognise(source, options = {}) {
      const timings = options.timings ?? emptyTimings();
      const clock = options.clock ?? (() => performance.now());
      let t = clock();
      const lap = (stage: keyof OcrTimings): void => {
        const now = clock();
        timings[stage] += now - t;
        t = now;
      };

      const pixels: OcrPixels =
        typeof source === 'string' || Buffer.isBuffer(source)
          ? await loadRgb(source).then((image) => ({ detection: image, crops: async () => image }))
          : source;
      lap('decode');
      const detTensor = await detInput(pixels.detection);
      lap('detPrepare');
      const map = await infer('det', detTensor);
      lap('det');
      let boxes = dbPostprocess(map, pixels.detection.width, pixels.detection.height);
      lap('dbPostprocess');
      if (boxes.length === 0) return { width: pixels.detection.width, height: pixels.detection.height, lines: [] };
      const image = await pixels.crops();
      lap('decode');
      if (image !== pixels.detection) {
        // Text was found at the small size: the photo is read as a file is, detection included, so what is read
        // from it is exactly what reading the file gives (the small pass only tells photos without text apart).
        const detTensor = await detInput(image);
        lap('detPrepare');
        const fullMap = await infer('det', detTensor);
        lap('det');
        boxes = dbPostprocess(fullMap, image.width, image.height);
        lap('dbPostprocess');
        if (boxes.length === 0) return { width: image.width, height: image.height, lines: [] };
      }

      // One strip per box, plus, for a vertical box, its column of upright characters set side by side at two
      // character pitches (vertical.ts); the reading the recogniser is surest of over more characters wins.
      const strips: RgbImage[] = [];
      const owner: number[] = [];
      const stacked: boolean[] = [];
      boxes.forEach((box, i) => {
        strips.push(cropLine(image, box));
        owner.push(i);
        stacked.push(false);
        if (!isVertical(box)) return;
        for (const pitch of OCR_PARAMS.vertical.stackPitches) {
          strips.push(stackColumn(image, box, OCR_PARAMS.rec.height, pitch * OCR_PARAMS.rec.height));
          owner.push(i);
          stacked.push(true);
        }
      });
      lap('crop');
      // Stacked cells are upright by construction; only the turned crops may be upside down.
      const turned = strips.map((_, i) => i).filter((i) => !stacked[i]);
      const flips = await upsideDown(infer, turned.map((i) => strips[i]!));
      turned.forEach((i, k) => {
        if (flips[k]) strips[i] = rotate180(strips[i]!);
      });
      lap('cls');

      const readings: Decoded[] = new Array(strips.length);
      const batches = widthBatches(strips.map((s) => s.width), OCR_PARAMS.rec.batchSize, OCR_PARAMS.rec.minWidth);
      for (const members of batches) {
        const batch = members.map((m) => strips[m]!);
        const width = Math.max(OCR_PARAMS.rec.minWidth, ...batch.map((s) => s.width));
        const out = await infer('rec', stripBatch(batch, width));
        lap('rec');
        members.forEach((m, n) => {
          const { text, confidence } = ctcGreedyDecode(out, n, charset, OCR_PARAMS.rec.spaceFloor);
          // NFKC: the dictionary holds full-width forms ("！", "０") beside ASCII; one form per character means a
          // search for "NO LITTER!" finds the sign whichever form the recogniser picked.
          readings[m] = { text: text.normalize('NFKC').trim(), confidence };
        });
        lap('ctcDecode');
      }
      // Per box the reading that explains most of it, among those sure enough to keep.
      const best: (Decoded | undefined)[] = new Array(boxes.length);
      readings.forEach((r, i) => {
        const floor = stacked[i] ? OCR_PARAMS.vertical.minConfidence : OCR_PARAMS.rec.dropScore;
        if (!r.text || r.confidence < floor) return;
        const current = best[owner[i]!];
        if (!current || readingScore(r) > readingScore(current)) best[owner[i]!] = r;
      });
      const lines: OcrLine[] = [];
      best.forEach((r, i) => {
        if (r) lines.push({ text: r.text, box: boxes[i]!, confidence: r.confidence });
      });
      return { width: image.width, height: image.height, lines: readingOrder(lines) };
    },
  };
}
