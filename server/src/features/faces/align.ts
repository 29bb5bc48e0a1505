/**
 * Alignment for MobileFaceNet (MANIFEST §4): the least-squares similarity transform (Umeyama, 4 degrees of
 * freedom: scale, rotation, translation) taking the five detected landmarks onto ArcFace's 112×112 template,
 * then a bilinear warp of the image through its inverse into a 112×112 crop (outside the image: black).
 */
import { ARCFACE_TEMPLATE, FACE_PARAMS } from './params.ts';
import type { FaceTensor, Point, RgbImage } from './types.ts';

/** [a, b, tx, ty]: dst = [a·x − b·y + tx, b·x + a·y + ty]. */
export type Similarity = [number, number, number, number];

export function estimateSimilarity(src: readonly Point[], dst: readonly (readonly [number, number])[]): Similarity {
  const n = src.length;
  let mx = 0, my = 0, ux = 0, uy = 0;
  for (let i = 0; i < n; i++) {
    mx += src[i]![0]; my += src[i]![1]; ux += dst[i]![0]; uy += dst[i]![1];
  }
  mx /= n; my /= n; ux /= n; uy /= n;
  // Closed form of the least-squares similarity (complex-number form of Umeyama for 2-D).
  let num_a = 0, num_b = 0, den = 0;
  for (let i = 0; i < n; i++) {
    const x = src[i]![0] - mx, y = src[i]![1] - my;
    const u = dst[i]![0] - ux, v = dst[i]![1] - uy;
    num_a += x * u + y * v;
    num_b += x * v - y * u;
    den += x * x + y * y;
  }
  const a = den > 0 ? num_a / den : 1;
  const b = den > 0 ? num_b / den : 0;
  return [a, b, ux - (a * mx - b * my), uy - (b * mx + a * my)];
}

/**
 * The aligned 112×112 crop as MobileFaceNet's input (RGB, /255, ImageNet mean and std, NCHW), and the same crop
 * mirrored (the source's LFW evaluation averages both).
 */
export function alignedInputs(img: RgbImage, landmarks: readonly Point[]): { crop: FaceTensor; flipped: FaceTensor } {
  const S = FACE_PARAMS.embedding.size;
  const { mean, std } = FACE_PARAMS.embedding;
  const [a, b, tx, ty] = estimateSimilarity(landmarks, ARCFACE_TEMPLATE);
  // Inverse of [[a,-b],[b,a]]: [[a,b],[-b,a]] / (a²+b²).
  const det = a * a + b * b || 1;
  const crop = new Float32Array(3 * S * S);
  const flipped = new Float32Array(3 * S * S);
  const plane = S * S;
  const { width, height, data } = img;
  // Outside the image a sample is black. The arithmetic is the per-channel expression of the straightforward
  // version, in the same order, so the crops are the same to the bit; only the lookups are hoisted.
  const at = (xx: number, yy: number, c: number): number => (xx < 0 || yy < 0 || xx >= width || yy >= height ? 0 : data[(yy * width + xx) * 3 + c]!);
  for (let v = 0; v < S; v++) {
    for (let u = 0; u < S; u++) {
      const du = u - tx, dv = v - ty;
      const x = (a * du + b * dv) / det;
      const y = (-b * du + a * dv) / det;
      const x0 = Math.floor(x), y0 = Math.floor(y);
      const wx = x - x0, wy = y - y0;
      const inside = x0 >= 0 && y0 >= 0 && x0 + 1 < width && y0 + 1 < height;
      const i00 = (y0 * width + x0) * 3;
      const i10 = i00 + 3;
      const i01 = i00 + width * 3;
      const i11 = i01 + 3;
      const o = v * S + u;
      const of = v * S + (S - 1 - u);
      for (let c = 0; c < 3; c++) {
        const p00 = inside ? data[i00 + c]! : at(x0, y0, c);
        const p10 = inside ? data[i10 + c]! : at(x0 + 1, y0, c);
        const p01 = inside ? data[i01 + c]! : at(x0, y0 + 1, c);
        const p11 = inside ? data[i11 + c]! : at(x0 + 1, y0 + 1, c);
        const val = (p00 * (1 - wx) + p10 * wx) * (1 - wy) + (p01 * (1 - wx) + p11 * wx) * wy;
        const norm = (val / 255 - mean[c]!) / std[c]!;
        crop[c * plane + o] = norm;
        flipped[c * plane + of] = norm;
      }
    }
  }
  return { crop: { data: crop, dims: [1, 3, S, S] }, flipped: { data: flipped, dims: [1, 3, S, S] } };
}
