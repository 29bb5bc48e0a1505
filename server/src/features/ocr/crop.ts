/**
 * Cutting a text line out of the image for the recogniser: the box's quadrilateral is warped (perspective) onto
 * an upright strip 48 px high, the recogniser's input height, keeping the line's aspect ratio. Doing the warp
 * and the scaling in one pass avoids a second resampling; each output pixel averages a grid of bilinear samples
 * as wide as the scale factor, so a line 200 px high in a 24 MP photo is shrunk without aliasing (plain
 * bilinear sampling at a factor of 4 skips most of each stroke and the recogniser reads noise).
 *
 * A crop at least 1.5 times taller than wide is a vertical line (a shop's sign, a spine of a book): it is
 * turned by 90° counter-clockwise, as PaddleOCR does, so the recogniser sees it lying down.
 */
import { OCR_PARAMS } from './params.ts';
import { distance } from './geometry.ts';
import type { Point, Quad, RgbImage } from './types.ts';

/** Projective map from the unit square (0,0),(1,0),(1,1),(0,1) onto the quad's corners (Heckbert). */
function squareToQuad(q: Quad): (u: number, v: number) => Point {
  const [p0, p1, p2, p3] = q;
  const dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dx3 = p0.x - p1.x + p2.x - p3.x;
  const dy1 = p1.y - p2.y, dy2 = p3.y - p2.y, dy3 = p0.y - p1.y + p2.y - p3.y;
  let g = 0, h = 0;
  const den = dx1 * dy2 - dx2 * dy1;
  if ((dx3 !== 0 || dy3 !== 0) && den !== 0) {
    g = (dx3 * dy2 - dx2 * dy3) / den;
    h = (dx1 * dy3 - dx3 * dy1) / den;
  }
  const a = p1.x - p0.x + g * p1.x, b = p3.x - p0.x + h * p3.x, c = p0.x;
  const d = p1.y - p0.y + g * p1.y, e = p3.y - p0.y + h * p3.y, f = p0.y;
  return (u, v) => {
    const w = g * u + h * v + 1;
    return { x: (a * u + b * v + c) / w, y: (d * u + e * v + f) / w };
  };
}

/** Bilinear sample of channel values at continuous pixel coordinates (pixel centres at +0.5), edges clamped. */
function sample(img: RgbImage, x: number, y: number, out: Float64Array): void {
  const fx = Math.min(img.width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(img.height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy);
  const x1 = Math.min(img.width - 1, x0 + 1), y1 = Math.min(img.height - 1, y0 + 1);
  const ax = fx - x0, ay = fy - y0;
  const d = img.data, w = img.width;
  for (let c = 0; c < 3; c++) {
    const top = d[(y0 * w + x0) * 3 + c]! * (1 - ax) + d[(y0 * w + x1) * 3 + c]! * ax;
    const bottom = d[(y1 * w + x0) * 3 + c]! * (1 - ax) + d[(y1 * w + x1) * 3 + c]! * ax;
    out[c] = top * (1 - ay) + bottom * ay;
  }
}

/** The quad warped onto a `width × height` RGB strip, each output pixel the mean of a k×k sample grid. */
export function warpQuad(img: RgbImage, quad: Quad, width: number, height: number): RgbImage {
  const map = squareToQuad(quad);
  const sourceW = Math.max(distance(quad[0], quad[1]), distance(quad[3], quad[2]));
  const sourceH = Math.max(distance(quad[0], quad[3]), distance(quad[1], quad[2]));
  const k = Math.min(8, Math.max(1, Math.ceil(Math.max(sourceW / width, sourceH / height))));
  const out = new Uint8Array(width * height * 3);
  const px = new Float64Array(3);
  const acc = new Float64Array(3);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      acc.fill(0);
      for (let sy = 0; sy < k; sy++) {
        for (let sx = 0; sx < k; sx++) {
          const p = map((u + (sx + 0.5) / k) / width, (v + (sy + 0.5) / k) / height);
          sample(img, p.x, p.y, px);
          acc[0]! += px[0]!;
          acc[1]! += px[1]!;
          acc[2]! += px[2]!;
        }
      }
      const o = (v * width + u) * 3;
      const n = k * k;
      out[o] = Math.round(acc[0]! / n);
      out[o + 1] = Math.round(acc[1]! / n);
      out[o + 2] = Math.round(acc[2]! / n);
    }
  }
  return { data: out, width, height };
}

/** Whether a box is a vertical line (read turned by 90°). */
export function isVertical(quad: Quad): boolean {
  const w = Math.max(distance(quad[0], quad[1]), distance(quad[3], quad[2]));
  const h = Math.max(distance(quad[0], quad[3]), distance(quad[1], quad[2]));
  return h >= OCR_PARAMS.crop.verticalRatio * w;
}

/**
 * The line in the box as a strip `height` px high (48 for the recogniser), as wide as its aspect ratio says
 * (at least 1 px, at most the recogniser's maximum). Vertical lines come out turned by 90° counter-clockwise.
 */
export function cropLine(img: RgbImage, quad: Quad, height: number = OCR_PARAMS.rec.height): RgbImage {
  // Turning the result 90° counter-clockwise is the same as starting the quad at its top-right corner.
  const q: Quad = isVertical(quad) ? [quad[1], quad[2], quad[3], quad[0]] : quad;
  const w = Math.max(distance(q[0], q[1]), distance(q[3], q[2]));
  const h = Math.max(distance(q[0], q[3]), distance(q[1], q[2]));
  const width = Math.min(OCR_PARAMS.rec.maxWidth, Math.max(1, Math.round((height * w) / Math.max(h, 1))));
  return warpQuad(img, q, width, height);
}

/** The strip turned by 180° (the angle classifier said it is upside down). */
export function rotate180(img: RgbImage): RgbImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const s = i * 3, d = (n - 1 - i) * 3;
    out[d] = img.data[s]!;
    out[d + 1] = img.data[s + 1]!;
    out[d + 2] = img.data[s + 2]!;
  }
  return { data: out, width: img.width, height: img.height };
}
