/**
 * The zero-shot margin of the reference (§ Zero-shot tags), pure: a class is the L2-normalised mean
 * of its prompts' L2-normalised text vectors (a prompt ensemble); an image scores
 * cos(image, positive) − cos(image, negative), the negative being the background prototype ("a photo",
 * "an image", "a picture", "a random photograph") when no negative prompt is given; a video scores its
 * best frame. The semantic-index engineer's features/semantic/zero-shot holds the same math for the
 * tagging; the lead keeps one at merge.
 */
export const BACKGROUND_PROMPTS = ['a photo', 'an image', 'a picture', 'a random photograph'] as const;

export function prototypeOf(vectors: readonly Float32Array[]): Float32Array {
  const dim = vectors[0]?.length ?? 0;
  const out = new Float32Array(dim);
  for (const v of vectors) {
    const n = norm(v) || 1;
    for (let i = 0; i < dim; i++) out[i]! += v[i]! / n;
  }
  const n = norm(out) || 1;
  for (let i = 0; i < dim; i++) out[i] = out[i]! / n;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}

/** The margin of one image vector: cos(image, positive) − cos(image, negative). */
export function marginOf(image: Float32Array, positive: Float32Array, negative: Float32Array): number {
  return dot(image, positive) - dot(image, negative);
}
