/**
 * The `ocr` indexer (features/indexing: an `indexing.index-asset` job for task `ocr` calls `index`): reads a
 * photo's text with the PP-OCRv4 pipeline on the ML runtime's worker pool and keeps its lines (ocr.store.ts).
 *
 * What it reads: the medium (800 px) thumbnail, as the reference system does for every ML task, when the photo
 * has one; the medium size is made on a photo's first view (assets/api/lazy-thumbnails.ts), so most photos have
 * none when they are indexed, and then the original is read (decoded like the thumbnails: HEIC, RAW previews,
 * EXIF orientation, the decompression-bomb limit). Boxes are kept normalised, so which one was read does not
 * matter to whoever draws them.
 *
 * Decoding: the detector reads the photo at 800 px, the medium thumbnail's size — the pixels the `face` indexer
 * of the same photo reads too (features/indexing/photo-pixels.ts: one decode for both) — once. Most photos of a
 * household hold no text: where it finds no text region, that is the answer. Where it finds text, the lines
 * are cut from those pixels, or, when a box is thinner than the recogniser's 48-px input, from the original
 * decoded again up to 4096 px (recognise.ts has the rule), with the boxes scaled onto it; the detector does
 * not run again. With the medium thumbnail, or a photo no larger than 800 px, those pixels are all there is.
 *
 * On the pool (poolDetectPixels, poolRecogniseSteps): the detector's input crosses to the inference worker as its
 * 8-bit pixels, its probability map comes back only when a pixel of it is above the binarisation threshold, and the
 * recogniser's [N, T, 6625] probabilities are reduced there to the greedy-CTC steps; the text read is the same to
 * the bit as with whole tensors (test/server/ml/pool-reduction.test.ts).
 *
 * Failures: an image OCR cannot decode (damaged or replaced by something that is not an image since ingest) fails
 * that asset's job at once (PermanentError with the `ocr_unreadable_image` code: trying again reads the same
 * bytes); a model that throws fails that job's attempt and the pool goes on (adapters/ml); models that went
 * missing make the job wait as the indexing service's jobs without a model do.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ModelUnavailableError, modelEntry, type MlRuntime } from '../../adapters/ml/index.ts';
import { PermanentError, SnoozeError } from '../../platform/jobs/registry.ts';
import { INDEX_PIXELS_MAX_SIDE, PhotoPixels, type Indexer, type IndexTarget } from '../indexing/index.ts';
import { loadCharset, type CtcSteps } from './ctc-decode.ts';
import type { DetPixels } from './det-input.ts';
import { OcrInputError } from './image-input.ts';
import { OCR_PARAMS } from './params.ts';
import type { OcrStore } from './ocr.store.ts';
import { createOcr, type OcrEngine } from './recognise.ts';
import type { OcrInfer, OcrModel, OcrResult, Tensor } from './types.ts';

/** The registry models of each network (adapters/ml/model-manifest.ts). */
export const OCR_MODELS: Record<OcrModel, string> = { det: 'ppocrv4-det', cls: 'ppocr-cls', rec: 'ppocrv4-rec' };
const DICTIONARY = { model: 'ppocrv4-rec', path: 'ocr-ppocrv4/ppocr_keys_v1.txt' };

/**
 * Stored with every line and in the index entry: the three networks, and the pipeline's version (bumped when
 * the pre- or post-processing changes what is read, so a rebuild can find what is stale).
 */
export const OCR_MODEL_ID = 'ppocrv4-det+ppocr-cls+ppocrv4-rec/1';

/** Whether the shared decode was shrunk (a photo exactly 800 px long counts as shrunk: it cannot be told apart). */
const shrunk = (img: { width: number; height: number }): boolean => Math.max(img.width, img.height) >= INDEX_PIXELS_MAX_SIDE;

/** How long an OCR job waits when the models went missing after the start (the indexing service's own wait). */
const MODELS_GONE_WAIT_MS = 3_600_000;

/** OCR's `infer` on the ML runtime: each network's single input and output, by the registry's tensor names. */
export function poolInfer(ml: Pick<MlRuntime, 'run'>): OcrInfer {
  return async (model, input) => {
    const entry = modelEntry(OCR_MODELS[model])!;
    const out = await ml.run(entry.id, { [entry.inputs[0]!.name]: { type: 'float32', dims: input.dims, data: input.data } });
    const tensor = out[entry.outputs[0]!.name] ?? Object.values(out)[0]!;
    return { data: tensor.data as Float32Array, dims: tensor.dims };
  };
}

/**
 * The recogniser on the ML runtime, reduced in the worker to what greedy CTC decoding reads (ctc-decode.ts:
 * CtcSteps): 12 bytes a time step cross back instead of the 6625 probabilities (≈ 1 MB a line of text).
 */
export function poolRecogniseSteps(ml: Pick<MlRuntime, 'run'>): (input: Tensor, space: number) => Promise<CtcSteps> {
  return async (input, space) => {
    const entry = modelEntry(OCR_MODELS.rec)!;
    const feeds = { [entry.inputs[0]!.name]: { type: 'float32' as const, dims: input.dims, data: input.data } };
    const out = await ml.run(entry.id, feeds, 'background', { kind: 'ctc-greedy', space });
    const [n, steps] = out.best!.dims as [number, number];
    return {
      dims: [n, steps, out.classes!.data[0] as number],
      best: out.best!.data as Int32Array,
      bestP: out.best_p!.data as Float32Array,
      spaceP: out.space_p!.data as Float32Array,
    };
  };
}

/**
 * The text detector on the ML runtime, fed its input's 8-bit pixels (det-input.ts: detPixelInput); its map comes
 * back only when some pixel of it is above the binarisation threshold (else null: no text region can be found).
 */
export function poolDetectPixels(ml: Pick<MlRuntime, 'run'>): (input: DetPixels) => Promise<Tensor | null> {
  return async (input) => {
    const entry = modelEntry(OCR_MODELS.det)!;
    const feeds = { [entry.inputs[0]!.name]: { type: 'float32' as const, dims: input.dims, data: input.data, pixels: input.pixels } };
    const out = await ml.run(entry.id, feeds, 'background', { kind: 'if-above', threshold: OCR_PARAMS.db.threshold });
    if (out.none_above) return null;
    const tensor = out[entry.outputs[0]!.name] ?? Object.values(out)[0]!;
    return { data: tensor.data as Float32Array, dims: tensor.dims };
  };
}

export class OcrIndexer implements Indexer {
  readonly modelId = OCR_MODEL_ID;

  constructor(
    private readonly engine: OcrEngine,
    private readonly store: OcrStore,
    /** Where the asset's medium thumbnail is (it may not exist). */
    private readonly mediumThumbnail: (assetId: string) => string,
    private readonly pixels: PhotoPixels = new PhotoPixels(),
  ) {}

  async index(target: IndexTarget, signal: AbortSignal): Promise<void> {
    if (target.type !== 'PHOTO') return; // the task applies to photos (index-tasks.ts)
    const medium = this.mediumThumbnail(target.asset_id);
    const source = fs.existsSync(medium) ? 'medium' : 'original';
    const started = performance.now();
    let result: OcrResult;
    try {
      const file = source === 'medium' ? medium : target.file;
      const unreadable = (e: unknown): never => {
        throw new OcrInputError(e instanceof Error ? e.message : String(e), { cause: e });
      };
      const detection = await this.pixels.get(file, INDEX_PIXELS_MAX_SIDE).catch(unreadable);
      result = await this.engine.recognise({
        detection,
        // A photo no larger than the shared decode already is its crops' source (the same pixels a larger decode
        // would give, since images are never enlarged); so is the medium thumbnail.
        crops: async () => (source === 'medium' || !shrunk(detection) ? detection : this.pixels.once(file, OCR_PARAMS.source.maxSide).catch(unreadable)),
      });
    } catch (e) {
      if (e instanceof OcrInputError) throw new PermanentError(`${e.code}: ${e.message}`, { cause: e });
      if (e instanceof ModelUnavailableError) throw new SnoozeError(MODELS_GONE_WAIT_MS, `Waiting: ${e.message}.`);
      throw e;
    }
    signal.throwIfAborted();
    this.store.replace(target.asset_id, result, { modelId: this.modelId, source, processingMs: Math.round(performance.now() - started) });
  }
}

/**
 * Builds the indexer when every OCR model is installed and verified (sizes and sha256, adapters/ml); null
 * otherwise (the task's jobs then wait, and getCapabilities says why).
 */
export async function createOcrIndexer(
  ml: MlRuntime,
  store: OcrStore,
  mediumThumbnail: (assetId: string) => string,
  pixels?: PhotoPixels,
): Promise<OcrIndexer | null> {
  // Only OCR's own models are checked, not the whole registry.
  if (!(await ml.capabilityReady('ocr'))) return null;
  const charset = loadCharset(await ml.catalog.dataFile(DICTIONARY.model, DICTIONARY.path));
  return new OcrIndexer(createOcr({ infer: poolInfer(ml), recogniseSteps: poolRecogniseSteps(ml), detectPixels: poolDetectPixels(ml), charset }), store, mediumThumbnail, pixels);
}
