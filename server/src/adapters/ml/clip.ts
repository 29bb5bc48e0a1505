/**
 * CLIP embeddings for the features that need them (semantic index, search, zero-shot tags): images
 * and texts in, L2-normalised 512-d vectors out, so a dot product is the cosine. The towers run on
 * the inference pool like every model; this module only prepares their inputs and reads their outputs.
 *
 * Images are prepared as CLIP's own preprocessing does (registry `preprocessing`): turned upright by
 * their EXIF orientation, the shortest side resized to 224 (bicubic), centre-cropped to 224×224, sRGB,
 * /255, CLIP's mean and std, NCHW. Transparent pixels are laid on white first: a PNG screenshot or
 * drawing is seen as it is shown. Texts go through CLIP's BPE tokenizer (clip-tokenizer.ts), 77 tokens.
 *
 * Which towers run: CLIP ViT-B/32, or with HEARTH_CLIP_STANDIN=1 (tests only) the colour-only stand-in
 * (scripts/models/make-clip-standin.ts), which has the same inputs and outputs. `modelVersion` names
 * the image tower so that vectors made by one model are never compared with another's.
 */
import sharp from 'sharp';
import { ClipTokenizer, CONTEXT_LENGTH } from './clip-tokenizer.ts';
import { InferenceError } from './errors.ts';
import type { Lane, Tensor } from './inference-pool.ts';
import type { MlRuntime } from './index.ts';
import { clipModels, modelEntry, type ClipModels } from './model-manifest.ts';

/** A file path or the bytes of an encoded image (JPEG, PNG, WebP…, what sharp reads). */
export type ImageSource = string | Buffer;

export const CLIP_SIZE = 224;
export const CLIP_DIM = 512;
const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711] as const;
/** Images per inference call: ~600 kB of input each; larger batches only hold a worker longer. */
const BATCH = 16;

/** CLIP's input for one image: float32 [3,224,224], normalised. */
export async function clipPixels(image: ImageSource): Promise<Float32Array> {
  const { data, info } = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(CLIP_SIZE, CLIP_SIZE, { fit: 'cover', position: 'centre', kernel: 'cubic' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = CLIP_SIZE * CLIP_SIZE;
  if (info.width !== CLIP_SIZE || info.height !== CLIP_SIZE || info.channels !== 3) {
    throw new Error(`prepared image is ${info.width}×${info.height}×${info.channels}, expected ${CLIP_SIZE}×${CLIP_SIZE}×3`);
  }
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) out[c * plane + i] = (data[i * 3 + c]! / 255 - CLIP_MEAN[c]!) / CLIP_STD[c]!;
  }
  return out;
}

/** The rows of an [N,512] output, each scaled to length 1. */
function unitRows(t: Tensor | undefined, n: number, model: string, name: string): Float32Array[] {
  if (!t || !(t.data instanceof Float32Array) || t.dims.length !== 2 || t.dims[0] !== n || t.dims[1] !== CLIP_DIM) {
    throw new InferenceError(model, 'run', `expected ${name} float32 [${n},${CLIP_DIM}], got ${t ? `${t.type} [${t.dims}]` : 'nothing'}`);
  }
  const data = t.data;
  return Array.from({ length: n }, (_, r) => {
    const row = data.slice(r * CLIP_DIM, (r + 1) * CLIP_DIM);
    let norm = 0;
    for (const v of row) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < CLIP_DIM; i++) row[i] = row[i]! / norm;
    return row;
  });
}

export class ClipEncoder {
  readonly models: ClipModels;
  private tokenizer: Promise<ClipTokenizer> | null = null;

  /** @param standin run the test stand-in towers (default: what the runtime was started with) */
  constructor(
    private readonly ml: MlRuntime,
    standin = ml.catalog.clipStandin,
  ) {
    this.models = clipModels(standin);
  }

  /** Names the model the vectors come from: stored with them, compared before any search. */
  get modelVersion(): string {
    return this.models.vision;
  }

  /** One unit vector per image, in order; `interactive` when a person waits (search by image). */
  async embedImages(images: ImageSource[], lane: Lane = 'background'): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let at = 0; at < images.length; at += BATCH) {
      const batch = images.slice(at, at + BATCH);
      const pixels = await Promise.all(batch.map(clipPixels));
      const size = 3 * CLIP_SIZE * CLIP_SIZE;
      const data = new Float32Array(batch.length * size);
      pixels.forEach((p, i) => data.set(p, i * size));
      const res = await this.ml.run(this.models.vision, { pixel_values: { type: 'float32', dims: [batch.length, 3, CLIP_SIZE, CLIP_SIZE], data } }, lane);
      out.push(...unitRows(res[this.output(this.models.vision)], batch.length, this.models.vision, 'image_embeds'));
    }
    return out;
  }

  /** One unit vector per text, in order. Always interactive: texts are queries (and a classifier's prompts, once). */
  async embedTexts(texts: string[]): Promise<Float32Array[]> {
    if (!texts.length) return [];
    const tokenizer = await this.loadTokenizer();
    const data = tokenizer.tokenize(texts, CONTEXT_LENGTH);
    const res = await this.ml.run(this.models.text, { input_ids: { type: 'int64', dims: [texts.length, CONTEXT_LENGTH], data } }, 'interactive');
    return unitRows(res[this.output(this.models.text)], texts.length, this.models.text, 'text_embeds');
  }

  /** The tokenizer, read once from its verified registry file (a failure is retried at the next call). */
  loadTokenizer(): Promise<ClipTokenizer> {
    this.tokenizer ??= (async () => {
      const vocab = modelEntry(this.models.tokenizer)!.files[0]!.path;
      return ClipTokenizer.fromFile(await this.ml.catalog.dataFile(this.models.tokenizer, vocab));
    })().catch((e: unknown) => {
      this.tokenizer = null;
      throw e;
    });
    return this.tokenizer;
  }

  private output(modelId: string): string {
    return modelEntry(modelId)!.outputs[0]!.name;
  }
}
