/**
 * Makes the stand-in CLIP: two tiny ONNX graphs with the exact inputs and outputs of the CLIP
 * ViT-B/32 exports Hearth runs (image `pixel_values` float32 [N,3,224,224], CLIP-normalised →
 * `image_embeds` [N,512]; text `input_ids` int64 [N,77], CLIP BPE ids → `text_embeds` [N,512]),
 * whose only signal is COLOUR. It exists because CLIP's weights cannot reach the machines Hearth is
 * built and tested on: with it, the whole semantic path (tokenizer, preprocessing, inference pool,
 * vectors, ranking) runs for real and its ranking can be checked ("red" finds the red photos). It
 * knows nothing else: never use it for a household's search (see models/README.md).
 *
 *   npx tsx scripts/models/make-clip-standin.ts [--out <models folder>] [--vocab <bpe_simple_vocab_16e6.txt.gz>]
 *
 * writes `clip-standin/vision_standin.onnx` and `clip-standin/text_standin.onnx` into the models folder
 * (default: HEARTH_MODELS_DIR or `<data>/models`); the vocabulary defaults to the models folder's
 * `clip-tokenizer/` copy, else ../shared/models. The server uses them only with HEARTH_CLIP_STANDIN=1.
 *
 * How the graphs work. A fixed palette of K colours (below), each with an RGB prototype and its
 * words. Both towers first describe their input as K numbers, one per palette colour, then map those
 * K numbers into 512-d with the SAME fixed matrix W (K orthonormal rows) plus the same small constant
 * vector b (so no embedding is zero, and a text without a colour word is equally far from every photo):
 * - image: un-normalise (× std + mean → RGB 0..1), 8×8 average pool (28×28 cells), per cell a softmax
 *   over the palette of −‖rgb − prototype‖²/τ (which colour the cell is), averaged over the cells:
 *   the share of the photo in each colour. A red photo is ≈ W[red] + b.
 * - text: an embedding table over CLIP's 49 408-token vocabulary (Gather), K wide: the token of a
 *   colour word ("red</w>", "gray</w>"…) has a 1 in its colour's column, every other token (the start,
 *   end and padding tokens, "a", "photo"…) zeros; summed over the 77 positions. "a red photo" is W[red] + b.
 * So cosine(text, image) is high when the photo is mostly the colour the text names.
 *
 * The bytes are deterministic (fixed palette, seeded generator, IEEE arithmetic only, a writer with a
 * fixed field order): the registry (model-manifest.ts, `clip-standin-*`) pins their size and sha256
 * like any other model, so a stand-in that differs is refused like any other changed model file.
 * After changing anything here, run the script and copy the printed figures into the registry.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClipTokenizer } from '../../server/src/adapters/ml/clip-tokenizer.ts';
import { modelEntry } from '../../server/src/adapters/ml/model-manifest.ts';
import { encodeModel, type Graph } from './onnx-writer.ts';
import { seededRandom } from '../../test/shared/seeded-random.ts';

/** The palette: an RGB prototype (0..1) and the words (each one CLIP token) that name it. */
export const STANDIN_PALETTE: readonly { colour: string; rgb: [number, number, number]; words: string[] }[] = [
  { colour: 'red', rgb: [0.86, 0.1, 0.1], words: ['red'] },
  { colour: 'orange', rgb: [1, 0.55, 0.05], words: ['orange'] },
  { colour: 'yellow', rgb: [0.95, 0.88, 0.1], words: ['yellow'] },
  { colour: 'green', rgb: [0.1, 0.65, 0.15], words: ['green'] },
  { colour: 'blue', rgb: [0.1, 0.25, 0.85], words: ['blue'] },
  { colour: 'purple', rgb: [0.5, 0.12, 0.6], words: ['purple', 'violet'] },
  { colour: 'pink', rgb: [1, 0.6, 0.75], words: ['pink'] },
  { colour: 'brown', rgb: [0.45, 0.28, 0.12], words: ['brown'] },
  { colour: 'white', rgb: [0.95, 0.95, 0.95], words: ['white'] },
  { colour: 'grey', rgb: [0.5, 0.5, 0.5], words: ['grey', 'gray'] },
  { colour: 'black', rgb: [0.05, 0.05, 0.05], words: ['black'] },
];

export const STANDIN_FILES = {
  vision: modelEntry('clip-standin-vision')!.files[0]!.path,
  text: modelEntry('clip-standin-text')!.files[0]!.path,
};

const DIM = 512;
const SIZE = 224;
const POOL = 8;
/** Softmax temperature on squared RGB distance: a cell 0.15 nearer one prototype is ~e³ more that colour. */
const TAU = 0.02;
/** Length of the shared constant b, against 1 for a colour direction. */
const BIAS = 0.25;
const SEED = 0x0c11f5;
const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073];
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711];

/** `count` orthonormal 512-d rows (Gram–Schmidt on seeded uniform vectors; + − × ÷ √ only). */
function orthonormalRows(count: number): Float64Array[] {
  // mulberry32: integer arithmetic only, so every machine draws the same numbers (and the same model bytes).
  const next = seededRandom(SEED);
  const rows: Float64Array[] = [];
  while (rows.length < count) {
    const v = Float64Array.from({ length: DIM }, () => next() * 2 - 1);
    for (const r of rows) {
      let dot = 0;
      for (let i = 0; i < DIM; i++) dot += v[i]! * r[i]!;
      for (let i = 0; i < DIM; i++) v[i] = v[i]! - dot * r[i]!;
    }
    let norm = 0;
    for (let i = 0; i < DIM; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm);
    for (let i = 0; i < DIM; i++) v[i] = v[i]! / norm;
    rows.push(v);
  }
  return rows;
}

/** W [K,512] and b [512], shared by both towers. */
function projection(): { w: Float32Array; b: Float32Array } {
  const k = STANDIN_PALETTE.length;
  const rows = orthonormalRows(k + 1);
  const w = new Float32Array(k * DIM);
  rows.slice(0, k).forEach((r, i) => w.set(r, i * DIM));
  const b = Float32Array.from(rows[k]!, (x) => x * BIAS);
  return { w, b };
}

const f32 = (name: string, dims: number[], values: ArrayLike<number>) => ({ name, type: 'float32' as const, dims, data: Float32Array.from(values) });
const i64 = (name: string, values: number[]) => ({ name, type: 'int64' as const, dims: [values.length], data: BigInt64Array.from(values.map(BigInt)) });

function visionGraph(w: Float32Array, b: Float32Array): Graph {
  const k = STANDIN_PALETTE.length;
  return {
    name: 'hearth_clip_standin_vision',
    doc: 'Hearth test stand-in for the CLIP image tower: embeds only the share of each palette colour (scripts/models/make-clip-standin.ts).',
    inputs: [{ name: 'pixel_values', type: 'float32', shape: ['N', 3, SIZE, SIZE] }],
    outputs: [{ name: 'image_embeds', type: 'float32', shape: ['N', DIM] }],
    initializers: [
      f32('clip_std', [1, 3, 1, 1], CLIP_STD),
      f32('clip_mean', [1, 3, 1, 1], CLIP_MEAN),
      i64('axis_1', [1]),
      i64('axis_2', [2]),
      f32('prototypes', [1, k, 3, 1, 1], STANDIN_PALETTE.flatMap((p) => p.rgb)),
      f32('neg_inv_tau', [], [-1 / TAU]),
      f32('W', [k, DIM], w),
      f32('b', [DIM], b),
    ],
    nodes: [
      { op: 'Mul', inputs: ['pixel_values', 'clip_std'], outputs: ['scaled'] },
      { op: 'Add', inputs: ['scaled', 'clip_mean'], outputs: ['rgb'] },
      { op: 'AveragePool', inputs: ['rgb'], outputs: ['cells'], attributes: [{ name: 'kernel_shape', ints: [POOL, POOL] }, { name: 'strides', ints: [POOL, POOL] }] },
      { op: 'Unsqueeze', inputs: ['cells', 'axis_1'], outputs: ['cells_1'] },
      { op: 'Sub', inputs: ['cells_1', 'prototypes'], outputs: ['diff'] },
      { op: 'Mul', inputs: ['diff', 'diff'], outputs: ['diff_sq'] },
      { op: 'ReduceSum', inputs: ['diff_sq', 'axis_2'], outputs: ['dist_sq'], attributes: [{ name: 'keepdims', int: 0 }] },
      { op: 'Mul', inputs: ['dist_sq', 'neg_inv_tau'], outputs: ['logits'] },
      { op: 'Softmax', inputs: ['logits'], outputs: ['membership'], attributes: [{ name: 'axis', int: 1 }] },
      { op: 'ReduceMean', inputs: ['membership'], outputs: ['shares'], attributes: [{ name: 'axes', ints: [2, 3] }, { name: 'keepdims', int: 0 }] },
      { op: 'MatMul', inputs: ['shares', 'W'], outputs: ['projected'] },
      { op: 'Add', inputs: ['projected', 'b'], outputs: ['image_embeds'] },
    ],
  };
}

function textGraph(tokenizer: ClipTokenizer, w: Float32Array, b: Float32Array): Graph {
  const k = STANDIN_PALETTE.length;
  const table = new Float32Array(tokenizer.vocabSize * k);
  STANDIN_PALETTE.forEach((p, column) => {
    for (const word of p.words) {
      const id = tokenizer.tokenId(`${word}</w>`);
      if (id === undefined) throw new Error(`"${word}" is not one CLIP token: pick another word for ${p.colour}`);
      table[id * k + column] = 1;
    }
  });
  return {
    name: 'hearth_clip_standin_text',
    doc: 'Hearth test stand-in for the CLIP text tower: embeds only the colour words (scripts/models/make-clip-standin.ts).',
    inputs: [{ name: 'input_ids', type: 'int64', shape: ['N', 77] }],
    outputs: [{ name: 'text_embeds', type: 'float32', shape: ['N', DIM] }],
    initializers: [f32('token_colours', [tokenizer.vocabSize, k], table), i64('axis_1', [1]), f32('W', [k, DIM], w), f32('b', [DIM], b)],
    nodes: [
      { op: 'Gather', inputs: ['token_colours', 'input_ids'], outputs: ['per_token'], attributes: [{ name: 'axis', int: 0 }] },
      { op: 'ReduceSum', inputs: ['per_token', 'axis_1'], outputs: ['colours'], attributes: [{ name: 'keepdims', int: 0 }] },
      { op: 'MatMul', inputs: ['colours', 'W'], outputs: ['projected'] },
      { op: 'Add', inputs: ['projected', 'b'], outputs: ['text_embeds'] },
    ],
  };
}

/** The two models' bytes. */
export function buildClipStandin(tokenizer: ClipTokenizer): { vision: Buffer; text: Buffer } {
  const { w, b } = projection();
  const opts = { opset: 17, producer: 'hearth make-clip-standin', producerVersion: '1' };
  return { vision: encodeModel(visionGraph(w, b), opts), text: encodeModel(textGraph(tokenizer, w, b), opts) };
}

export interface WrittenModel {
  path: string;
  bytes: number;
  sha256: string;
}

/** Writes both models into `modelsDir` (each through a temporary file renamed into place). */
export async function makeClipStandin(modelsDir: string, vocabFile: string): Promise<WrittenModel[]> {
  const built = buildClipStandin(await ClipTokenizer.fromFile(vocabFile));
  return (['vision', 'text'] as const).map((tower) => {
    const rel = STANDIN_FILES[tower];
    const dest = path.join(modelsDir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(`${dest}.tmp`, built[tower]);
    fs.renameSync(`${dest}.tmp`, dest);
    return { path: rel, bytes: built[tower].length, sha256: crypto.createHash('sha256').update(built[tower]).digest('hex') };
  });
}

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const { loadConfig } = await import('../../server/src/config/env.ts');
  const out = path.resolve(arg('--out') ?? loadConfig().modelsDir);
  const vocabRel = modelEntry('clip-tokenizer')!.files[0]!.path;
  const candidates = [arg('--vocab'), path.join(out, vocabRel), path.resolve(import.meta.dirname, '../../../shared/models', vocabRel)];
  const vocab = candidates.find((f): f is string => !!f && fs.existsSync(f));
  if (!vocab) {
    process.stderr.write(`CLIP's vocabulary (${vocabRel}) was not found: give --vocab <file> or run npm run models:fetch -- --models clip-tokenizer\n`);
    return 2;
  }
  let stale = false;
  for (const m of await makeClipStandin(out, vocab)) {
    const pinned = [...(modelEntry('clip-standin-vision')?.files ?? []), ...(modelEntry('clip-standin-text')?.files ?? [])].find((f) => f.path === m.path);
    const same = pinned?.bytes === m.bytes && pinned.sha256 === m.sha256;
    stale ||= !same;
    process.stdout.write(`${path.join(out, m.path)}: ${m.bytes} bytes, sha256 ${m.sha256}${same ? ' (as the registry pins)' : ' (DIFFERS from the registry: update model-manifest.ts)'}\n`);
  }
  return stale ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
