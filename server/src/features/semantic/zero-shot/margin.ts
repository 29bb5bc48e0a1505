/**
 * The margin rule of zero-shot classification (reference, "Zero-shot tags"), on unit vectors:
 * - prototype = the L2-normalised mean of the L2-normalised text embeddings of a prompt ensemble;
 * - score = cos(image, positive prototype) − cos(image, negative prototype) (the background prototype when the
 *   classifier has no negatives);
 * - match when score ≥ threshold; confidence = logistic(12 · (score − threshold)), so 0.5 right at the threshold;
 * - a video: the best frame's score (the max over its frames).
 * Pure arithmetic: the indexer and previewClassifier (features/search) share it, so a preview shows exactly
 * what indexing would tag.
 */
import type { FrameVector } from '../semantic.store.ts';

export interface ClassifierPrototypes {
  positive: Float32Array;
  negative: Float32Array;
}

export interface ClassifierScore {
  /** The best frame's margin. */
  score: number;
  /** logistic(12 · (score − threshold)). */
  confidence: number;
  matched: boolean;
  /** The frame that scored best (-1 for a photo). */
  frameTsMs: number;
}

/** How steeply confidence rises around the threshold (reference). */
export const CONFIDENCE_SLOPE = 12;

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The L2-normalised mean of the L2-normalised `vectors`. */
export function prototypeOf(vectors: readonly Float32Array[]): Float32Array {
  if (!vectors.length) throw new RangeError('a prototype needs at least one vector');
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) {
    const n = Math.sqrt(dot(v, v)) || 1;
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + v[i]! / n;
  }
  const n = Math.sqrt(dot(out, out)) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}

export function confidenceOf(score: number, threshold: number): number {
  return 1 / (1 + Math.exp(-CONFIDENCE_SLOPE * (score - threshold)));
}

/** The margin of one unit image vector. */
export function marginOf(image: Float32Array, p: ClassifierPrototypes): number {
  return dot(image, p.positive) - dot(image, p.negative);
}

/**
 * An asset's score for one classifier: the margin of its best frame (its one vector for a photo), whether that
 * reaches `threshold`, and the confidence. Null for an asset without vectors.
 */
export function classifierScores(frames: readonly FrameVector[], p: ClassifierPrototypes, threshold: number): ClassifierScore | null {
  let best: FrameVector | null = null;
  let bestScore = -Infinity;
  for (const f of frames) {
    const s = marginOf(f.vector, p);
    if (s > bestScore) {
      bestScore = s;
      best = f;
    }
  }
  if (!best) return null;
  return { score: bestScore, confidence: confidenceOf(bestScore, threshold), matched: bestScore >= threshold, frameTsMs: best.frameTsMs };
}
