/** MobileFaceNet's 128-d embedding of an aligned face: the crop's and the mirrored crop's outputs summed, L2-normalised. */
import { alignedInputs } from './align.ts';
import type { FaceInfer, FaceTensor, Point, RgbImage } from './types.ts';

export function l2normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export async function embedFace(img: RgbImage, landmarks: readonly Point[], infer: FaceInfer): Promise<Float32Array> {
  const { crop, flipped } = alignedInputs(img, landmarks);
  const [a, b] = await Promise.all([infer('embedding', crop), infer('embedding', flipped)]);
  return combineEmbeddings(a, b);
}

/** The crop's and the mirrored crop's outputs summed, L2-normalised. */
export function combineEmbeddings(a: Record<string, FaceTensor>, b: Record<string, FaceTensor>): Float32Array {
  const va = Object.values(a)[0]!.data;
  const vb = Object.values(b)[0]!.data;
  const out = new Float32Array(va.length);
  for (let i = 0; i < out.length; i++) out[i] = va[i]! + vb[i]!;
  return l2normalise(out);
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
