/**
 * The OCR pipeline of one image: decode → detect (DB) → crop each box → angle classifier → recogniser (CTC) →
 * lines in reading order. Inference is injected (`OcrInfer`): this module decides what to run and in which
 * batches, not where (the ML runtime's worker pool in the server; onnxruntime directly in tests and the bench).
 *
 * One detector run per image, on the image at 800 px (OCR_PARAMS.det.imageSide: the medium thumbnail's size, the
 * decode the indexers of a photo share, features/indexing/photo-pixels.ts). Where it finds no text region, that
 * is the answer: no larger decode, no classifier, no recogniser. Where it finds text, the lines are cut from the
 * 800-px pixels when every box is at least as high as the recogniser's input (48 px: the strip is shrunk or
 * kept, never enlarged); when one is thinner, small print would be read from enlarged pixels, so the image is
 * decoded again at up to 4096 px (OCR_PARAMS.source.maxSide), the boxes are scaled onto it, and every line is
 * cut there. The detector is not run again on the larger pixels: its input would be at most 960 px, hardly
 * more than 800, for a second inference that cost more than the first (measured: 1.45 detector runs a photo
 * before, with the same character error rates after, `npm run bench:ocr`).
 *
 * A file or encoded bytes (a query image, the bench) are read the same way as the indexer's pixels: decoded at
 * 800 px for the detector, and at up to 4096 px only when a thin box asks for it. So what a photo reads does not
 * depend on which path read it.
 */
import { performance } from 'node:perf_hooks';
import { cropLine, isVertical, rotate180 } from './crop.ts';
import { distance } from './geometry.ts';
import { ctcSteps, decodeSteps, spaceIndex, type Charset, type CtcSteps, type Decoded } from './ctc-decode.ts';
import { dbPostprocess } from './db-postprocess.ts';
import { detInput, detPixelInput, type DetPixels } from './det-input.ts';
import { loadRgb } from './image-input.ts';
import { OCR_PARAMS } from './params.ts';
import { readingOrder } from './reading-order.ts';
import { squeezeWidth, stripBatch, widthBatches } from './strip-input.ts';
import type { OcrInfer, OcrLine, OcrResult, Quad, RgbImage, Tensor } from './types.ts';
import { stackColumn } from './vertical.ts';
import { releaseBytes } from '../../platform/cache/release-bytes.ts';

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

/** Pixels decoded elsewhere: the image the detector reads (≤ 800 px), and a larger decode of it for small print. */
export interface OcrPixels {
  detection: RgbImage;
  /**
   * The same image at up to 4096 px, asked for only when a text box is thinner than the recogniser's input;
   * `detection` itself when it was not shrunk (the medium thumbnail, a photo no larger than 800 px). A decode of
   * its own otherwise: the engine frees its bytes once the lines are cut from it.
   */
  crops(): Promise<RgbImage>;
}

/** How many pixels high a box's line is: what the recogniser's 48-px strip is scaled from (crop.ts). */
export function lineHeight(box: Quad): number {
  const w = Math.max(distance(box[0], box[1]), distance(box[3], box[2]));
  const h = Math.max(distance(box[0], box[3]), distance(box[1], box[2]));
  return isVertical(box) ? w : h;
}

/** Whether the lines must be cut from a larger decode: a box is thinner than the recogniser's input height. */
export function needsLargerSource(boxes: readonly Quad[]): boolean {
  return boxes.some((b) => lineHeight(b) < OCR_PARAMS.rec.height);
}

/** The boxes moved from an image of `from`'s size onto the same image at `to`'s size. */
function scaleBoxes(boxes: readonly Quad[], from: RgbImage, to: RgbImage): Quad[] {
  const sx = to.width / from.width, sy = to.height / from.height;
  return boxes.map((q) => q.map((p) => ({ x: p.x * sx, y: p.y * sy })) as Quad);
}

/** A file or encoded bytes as the indexer's pixels: 800 px for the detector, the larger decode on demand. */
async function pixelsOf(source: string | Buffer): Promise<OcrPixels> {
  const detection = await loadRgb(source, OCR_PARAMS.det.imageSide);
  const shrunk = Math.max(detection.width, detection.height) >= OCR_PARAMS.det.imageSide;
  return { detection, crops: async () => (shrunk ? loadRgb(source, OCR_PARAMS.source.maxSide) : detection) };
}

export interface OcrEngine {
  /** Reads the text of an image file, encoded image bytes or decoded pixels. Throws OcrInputError when it is not an image. */
  recognise(source: string | Buffer | OcrPixels, options?: { timings?: OcrTimings; clock?: () => number }): Promise<OcrResult>;
}

export interface OcrEngineOptions {
  infer: OcrInfer;
  /** From ppocr_keys_v1.txt (ctc-decode.ts: loadCharset). */
  charset: Charset;
  /**
   * The recogniser run where its output is made and reduced there to what greedy decoding reads (ctc-decode.ts:
   * CtcSteps, given the charset's space index): the pool's workers do this, so the N × T × 6625 probabilities
   * never cross to the server (ocr-indexer.ts). Without it, `infer('rec')` answers the whole tensor and it is
   * reduced here; the text read is the same either way.
   */
  recogniseSteps?: (input: Tensor, space: number) => Promise<CtcSteps>;
  /**
   * The detector run on its input's 8-bit pixels (det-input.ts: detPixelInput), the tensor made where the model
   * runs: the pool's workers do this (a quarter of the bytes cross). It may answer null for a map with no pixel
   * above the binarisation threshold (OCR_PARAMS.db.threshold), where no text region can be found: most photos,
   * whose map then does not cross back at all. Without it, `infer('det')` gets the tensor.
   */
  detectPixels?: (input: DetPixels) => Promise<Tensor | null>;
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

export function createOcr({ infer, charset, recogniseSteps, detectPixels }: OcrEngineOptions): OcrEngine {
  const space = spaceIndex(charset);
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

      const pixels = typeof source === 'string' || Buffer.isBuffer(source) ? await pixelsOf(source) : source;
      lap('decode');
      let map: Tensor | null;
      let frame: { width: number; height: number };
      if (detectPixels) {
        const det = await detPixelInput(pixels.detection);
        frame = det.frame;
        lap('detPrepare');
        map = await detectPixels(det.input);
      } else {
        const det = await detInput(pixels.detection);
        frame = det.frame;
        lap('detPrepare');
        map = await infer('det', det.tensor);
      }
      lap('det');
      let boxes = map ? dbPostprocess(map, pixels.detection.width, pixels.detection.height, frame) : [];
      lap('dbPostprocess');
      if (boxes.length === 0) return { width: pixels.detection.width, height: pixels.detection.height, lines: [] };
      const image = needsLargerSource(boxes) ? await pixels.crops() : pixels.detection;
      if (image !== pixels.detection) boxes = scaleBoxes(boxes, pixels.detection, image);
      lap('decode');

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
      // The larger decode (up to 4096 px, tens of MB) is read no more: freed now, not at the next full collection.
      if (image !== pixels.detection) releaseBytes(image.data);
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
        const input = stripBatch(batch, width);
        const out = recogniseSteps ? await recogniseSteps(input, space) : await infer('rec', input);
        lap('rec');
        const steps = 'best' in out ? out : ctcSteps(out, space);
        members.forEach((m, n) => {
          const { text, confidence } = decodeSteps(steps, n, charset, OCR_PARAMS.rec.spaceFloor);
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
