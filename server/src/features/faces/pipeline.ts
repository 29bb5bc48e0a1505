/**
 * A photo's faces: decode (≤ 800 px, as the medium thumbnail), YuNet, then each face aligned and embedded.
 * Boxes and landmarks are returned normalised to the upright image (0..1), so any size of it can draw them.
 * The indexer hands in pixels it already has (features/indexing/photo-pixels.ts: one decode shared with text
 * detection); a path is decoded here.
 */
import { performance } from 'node:perf_hooks';
import { modelEntry, type MlRuntime } from '../../adapters/ml/index.ts';
import { decodeYunet, detectorInput, facesInImage } from './detect.ts';
import { alignedInputs } from './align.ts';
import { combineEmbeddings } from './embed.ts';
import { loadRgb } from './image-input.ts';
import { FACE_MODELS, FACE_PARAMS } from './params.ts';
import type { FaceInfer, Point, RgbImage } from './types.ts';

/** Time spent per stage, summed over the calls given this object (in the unit of `clock`, default wall ms). */
export interface FaceTimings {
  decode: number;
  detPrepare: number;
  det: number;
  detPostprocess: number;
  embedPrepare: number;
  embed: number;
  embedPostprocess: number;
}

export function emptyFaceTimings(): FaceTimings {
  return { decode: 0, detPrepare: 0, det: 0, detPostprocess: 0, embedPrepare: 0, embed: 0, embedPostprocess: 0 };
}

export interface AnalysedFace {
  box: { x: number; y: number; w: number; h: number };
  landmarks: Point[];
  score: number;
  embedding: Float32Array;
}

export interface FaceAnalysis {
  width: number;
  height: number;
  faces: AnalysedFace[];
}

/** The pipeline's `infer` on the ML runtime's worker pool (never the HTTP thread). */
export function poolInfer(ml: Pick<MlRuntime, 'run'>): FaceInfer {
  return async (model, input) => {
    const entry = modelEntry(FACE_MODELS[model])!;
    const out = await ml.run(entry.id, { [entry.inputs[0]!.name]: { type: 'float32', dims: input.dims, data: input.data, ...('pixels' in input ? { pixels: input.pixels } : {}) } });
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, { data: t.data as Float32Array, dims: t.dims }]));
  };
}

export async function analyseFaces(
  source: string | RgbImage,
  infer: FaceInfer,
  options: { timings?: FaceTimings; clock?: () => number } = {},
): Promise<FaceAnalysis> {
  const timings = options.timings ?? emptyFaceTimings();
  const clock = options.clock ?? (() => performance.now());
  let t = clock();
  const lap = (stage: keyof FaceTimings): void => {
    const now = clock();
    timings[stage] += now - t;
    t = now;
  };
  const img = typeof source === 'string' ? await loadRgb(source, FACE_PARAMS.source.maxSide) : source;
  lap('decode');
  const { tensor, scale } = detectorInput(img);
  lap('detPrepare');
  const outputs = await infer('detector', tensor);
  lap('det');
  const [, , H, W] = tensor.dims as [number, number, number, number];
  const detected = facesInImage(decodeYunet(outputs, W, H), img, scale);
  lap('detPostprocess');
  const faces: AnalysedFace[] = [];
  // One face at a time: the pool's threads serve every indexer, a photo of 50 faces must not take them all.
  for (const f of detected) {
    const { crop, flipped } = alignedInputs(img, f.landmarks);
    lap('embedPrepare');
    const [a, b] = await Promise.all([infer('embedding', crop), infer('embedding', flipped)]);
    lap('embed');
    faces.push({
      box: { x: f.x / img.width, y: f.y / img.height, w: f.w / img.width, h: f.h / img.height },
      landmarks: f.landmarks.map(([x, y]) => [x / img.width, y / img.height] as Point),
      score: f.score,
      embedding: combineEmbeddings(a, b),
    });
    lap('embedPostprocess');
  }
  return { width: img.width, height: img.height, faces };
}
