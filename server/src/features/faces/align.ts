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
  for (let v = 0; v < S; v++) {
    for (let u = 0; u < S; u++) {
      const du = u - tx, dv = v - ty;
      const x = (a * du + b * dv) / det;
      const y = (-b * du + a * dv) / det;
      const x0 = Math.floor(x), y0 = Math.floor(y);
      const wx = x - x0, wy = y - y0;
      for (let c = 0; c < 3; c++) {
        const px = (xx: number, yy: number) =>
          xx < 0 || yy < 0 || xx >= img.width || yy >= img.height ? 0 : img.data[(yy * img.width + xx) * 3 + c]!;
        const val = (px(x0, y0) * (1 - wx) + px(x0 + 1, y0) * wx) * (1 - wy) + (px(x0, y0 + 1) * (1 - wx) + px(x0 + 1, y0 + 1) * wx) * wy;
        const norm = (val / 255 - mean[c]!) / std[c]!;
        crop[c * plane + v * S + u] = norm;
        flipped[c * plane + v * S + (S - 1 - u)] = norm;
      }
    }
  }
  return { crop: { data: crop, dims: [1, 3, S, S] }, flipped: { data: flipped, dims: [1, 3, S, S] } };
}
