/**
 * A photo's faces: decode (≤ 800 px, as the medium thumbnail), YuNet, then each face aligned and embedded.
 * Boxes and landmarks are returned normalised to the upright image (0..1), so any size of it can draw them.
 */
import { modelEntry, type MlRuntime } from '../../adapters/ml/index.ts';
import { detectFaces } from './detect.ts';
import { embedFace } from './embed.ts';
import { loadRgb } from './image-input.ts';
import { FACE_MODELS, FACE_PARAMS } from './params.ts';
import type { FaceInfer, Point } from './types.ts';

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
    const out = await ml.run(entry.id, { [entry.inputs[0]!.name]: { type: 'float32', dims: input.dims, data: input.data } });
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, { data: t.data as Float32Array, dims: t.dims }]));
  };
}

export async function analyseFaces(file: string, infer: FaceInfer): Promise<FaceAnalysis> {
  const img = await loadRgb(file, FACE_PARAMS.source.maxSide);
  const detected = await detectFaces(img, infer);
  const faces: AnalysedFace[] = [];
  // One face at a time: the pool's threads serve every indexer, a photo of 50 faces must not take them all.
  for (const f of detected) {
    faces.push({
      box: { x: f.x / img.width, y: f.y / img.height, w: f.w / img.width, h: f.h / img.height },
      landmarks: f.landmarks.map(([x, y]) => [x / img.width, y / img.height] as Point),
      score: f.score,
      embedding: await embedFace(img, f.landmarks, infer),
    });
  }
  return { width: img.width, height: img.height, faces };
}
