/**
 * Batches of 48-px strips as input tensors for the angle classifier and the recogniser. Both were trained on
 * cv2's BGR images scaled to [-1, 1] ((v/255 − 0.5) / 0.5), with each strip left-aligned and the rest of the
 * batch width zero (mid grey after normalisation), which is what they see here too.
 */
import type { RgbImage, Tensor } from './types.ts';

/** The strip squeezed horizontally to `width` (linear interpolation; height unchanged). */
export function squeezeWidth(img: RgbImage, width: number): RgbImage {
  if (img.width <= width) return img;
  const out = new Uint8Array(width * img.height * 3);
  const scale = img.width / width;
  for (let x = 0; x < width; x++) {
    // Average the source columns this output column covers, so a long line squeezed 5× keeps its ink.
    const from = x * scale, to = (x + 1) * scale;
    for (let y = 0; y < img.height; y++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let sx = Math.floor(from); sx < Math.ceil(to); sx++) {
          const cover = Math.min(to, sx + 1) - Math.max(from, sx);
          sum += img.data[(y * img.width + Math.min(img.width - 1, sx)) * 3 + c]! * cover;
        }
        out[(y * width + x) * 3 + c] = Math.round(sum / scale);
      }
    }
  }
  return { data: out, width, height: img.height };
}

/** NCHW tensor `[N, 3, H, width]` of strips all `H` high, BGR planes in [-1, 1], right-padded with 0. */
export function stripBatch(strips: readonly RgbImage[], width: number): Tensor {
  const height = strips[0]?.height ?? 0;
  const plane = height * width;
  const out = new Float32Array(strips.length * 3 * plane);
  strips.forEach((s, n) => {
    if (s.height !== height) throw new RangeError(`strips must share one height (${s.height} ≠ ${height})`);
    const w = Math.min(s.width, width);
    for (let c = 0; c < 3; c++) {
      const src = 2 - c; // B, G, R planes from R, G, B bytes
      const base = (n * 3 + c) * plane;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < w; x++) out[base + y * width + x] = s.data[(y * s.width + x) * 3 + src]! / 127.5 - 1;
      }
    }
  });
  return { data: out, dims: [strips.length, 3, height, width] };
}

/**
 * Recognition batches: strip indices sorted by width, at most `size` to a batch, and a new batch begun when a
 * strip is more than twice as wide as the batch's first (counting both at least `minWidth`, the width every strip
 * is padded to anyway). The recogniser's cost grows with batch × width, so a word batched with a line four
 * times as long would cost four times its own run; one call per strip instead would lose what batching saves
 * (per-call overhead, better use of the cores).
 */
export function widthBatches(widths: readonly number[], size: number, minWidth: number): number[][] {
  const order = widths.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const batches: number[][] = [];
  let first = 0;
  for (const i of order) {
    const batch = batches.at(-1);
    if (batch && batch.length < size && Math.max(minWidth, widths[i]!) <= 2 * first) batch.push(i);
    else {
      batches.push([i]);
      first = Math.max(minWidth, widths[i]!);
    }
  }
  return batches;
}
