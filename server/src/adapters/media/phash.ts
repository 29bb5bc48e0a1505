/**
 * 64-bit perceptual hash (DCT pHash) for near-duplicate detection.
 *
 * Recipe (as measured in reference/dependencies.md §7, where it beat the npm packages on speed and on
 * EXIF-rotated copies): upright image fitted inside 400 px (PHASH_EDGE) → greyscale → 32×32 (aspect ignored)
 * → 2-D DCT-II → the top-left 8×8 block of coefficients (lowest frequencies) → each bit = coefficient > median.
 * Version 2 (PHASH_VERSION) makes the grey and the 32×32 in JavaScript (`phashesFromRaw`): one pass over the
 * pixels builds the grey's summed-area table, and each 32×32 is an area average read from it. Version 1 ran a
 * libvips pipeline per hash (greyscale, shrink + lanczos3 reduce): ten per photo at ~3.7 ms each, nearly all
 * per-call overhead, half the CPU of the base pipeline; version 2 takes ~2.5 ms for all ten on 400 × 300
 * (a loaded 2-core machine; scripts/bench/ingest.ts prints it). Being bit-exact with libvips' lanczos3 was not
 * worth keeping: a box average is what a pHash wants (it only reads the lowest frequencies), and on the
 * corpus the two recipes give the same hash for most photos (median 0 bits, at most 2 for a whole frame, 4 for
 * a window, over 40 labelled photos). But they differ, so each stored hash carries its version. The DC term (0,0) is only the
 * average brightness; it is left out of the median and its bit is always 0, so 63 bits carry information.
 * Bit order: coefficient (row v, column u) is bit 63 − (8v + u), written as 16 lower-case hex digits.
 *
 * Distances seen on the corpus and in the reference measurements: resized/re-encoded/brightened copies 0–4,
 * small crops ~10–16, different photos ≥ 22. A threshold of about 8–10 separates near-duplicates. Measured
 * again for version 2 on corpus/duplicates: members of one group 0–4 bits apart (version 1: 0–4), different
 * photos ≥ 26 (version 1: ≥ 26); `npm run bench:duplicates` quality on 40 sources: precision 1.000, recall
 * 0.996 (version 1: 1.000, 0.998; crops 438/440 against 439/440), so the thresholds of detect.ts stand.
 *
 * Window hashes (`phashWindowsFromRaw`): the pHash is blind to crops (scripts/bench/duplicates.ts: a 10 % crop
 * off one side is 14–20 bits from its original, as far as some different photos), because a crop shifts and
 * stretches everything the 32×32 sees. So each photo also keeps the pHashes of nine windows of itself, each
 * 93 % of a side: the four corners, the four sides (93 % of one dimension, all of the other) and the centre.
 * A copy cropped by up to ~10 % (from any sides) looks like one of those windows of its original: its whole
 * pHash is then within a few bits of that window's (median 2–4 bits on the benchmark's crops, different
 * photos ≥ 16). 93 % and not 90 %: a window then also covers the 5 % crops, which sit halfway between the
 * whole frame and a 90 % window. Detection compares windows with whole frames (features/duplicates/detect.ts).
 */
import type { Sharp } from 'sharp';
import { withOpenedImage, type OpenImageOptions } from './image-source.ts';

/**
 * The recipe's version, stored beside every pHash (assets.phash_version, migration 0029). Hashes of two
 * versions are never compared (features/duplicates/detect.ts); the duplicates feature's recompute job brings
 * hashes of an older version to this one (features/duplicates/phash.backfill.ts).
 * - 1: libvips (sharp): greyscale, then shrink + lanczos3 reduce of the frame and of each window to 32×32.
 * - 2: this file, in JavaScript: grey once, then an area average of the frame and of each window.
 */
export const PHASH_VERSION = 2;
/** The pHash is taken from the upright image fitted inside this edge: the small thumbnail's pixels (thumbnails.ts). */
export const PHASH_EDGE = 400;

const N = 32;
const K = 8;

/** cos((2x+1)uπ/2N) for u < 8, x < 32: the only DCT basis values a pHash needs. */
const BASIS: Float64Array[] = Array.from({ length: K }, (_, u) => {
  const row = new Float64Array(N);
  for (let x = 0; x < N; x++) row[x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * N));
  return row;
});

/** pHash of a 32×32 greyscale image given as 1024 bytes, row-major. */
export function phashFromGrey32(pixels: Uint8Array): string {
  if (pixels.length !== N * N) throw new RangeError(`expected ${N * N} greyscale pixels, got ${pixels.length}`);
  // Separable DCT-II, restricted to the 8 lowest frequencies in each direction.
  const rows = new Float64Array(N * K); // rows[y][u]
  for (let y = 0; y < N; y++) {
    for (let u = 0; u < K; u++) {
      let s = 0;
      const b = BASIS[u]!;
      for (let x = 0; x < N; x++) s += pixels[y * N + x]! * b[x]!;
      rows[y * K + u] = s;
    }
  }
  const coeffs = new Float64Array(K * K); // coeffs[v][u]
  for (let v = 0; v < K; v++) {
    const b = BASIS[v]!;
    for (let u = 0; u < K; u++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * K + u]! * b[y]!;
      // Round away floating-point noise (~1e-11): a flat image must give all-zero AC terms, so blank photos
      // (lens cap, blanked test files) hash to 0 and match each other instead of getting random bits.
      coeffs[v * K + u] = Math.round(s * 1e6) / 1e6;
    }
  }
  const ac = coeffs.slice(1).sort(); // a typed array sorts numerically
  const median = ac[(ac.length - 1) >> 1]!; // 63 values: the middle one
  // Bit 63 − i in two 32-bit halves (BigInt arithmetic cost more than the DCT).
  let hi = 0;
  let lo = 0;
  for (let i = 1; i < K * K; i++) {
    if (!(coeffs[i]! > median)) continue;
    const bit = 63 - i;
    if (bit >= 32) hi |= 1 << (bit - 32);
    else lo |= 1 << bit;
  }
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/**
 * The windows, as fractions of the upright frame: [left anchor, top anchor, width, height]. An anchor of 0
 * puts the window against the left (top) edge, 1 against the right (bottom), 0.5 in the middle. Order is
 * fixed: a stored `phash_windows` is these nine hashes, concatenated in this order (9 × 16 hex digits).
 */
const W = 0.93;
export const PHASH_WINDOWS: readonly (readonly [number, number, number, number])[] = [
  [0, 0, W, W], [1, 0, W, W], [0, 1, W, W], [1, 1, W, W],
  [0, 0.5, W, 1], [1, 0.5, W, 1], [0.5, 0, 1, W], [0.5, 1, 1, W],
  [0.5, 0.5, W, W],
];
/** The whole frame, as a window. */
const FRAME = [0, 0, 1, 1] as const;

/** Raw upright pixels as sharp's `raw` input wants them (the thumbnail step's smallest buffer). */
export interface RawPixels {
  data: Buffer | Uint8Array;
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/** A window (PHASH_WINDOWS) in a width × height frame, in pixels, fractional: [left, top, width, height]. */
export function windowRect(width: number, height: number, [ax, ay, fw, fh]: readonly [number, number, number, number]): [number, number, number, number] {
  const w = width * fw;
  const h = height * fh;
  return [(width - w) * ax, (height - h) * ay, w, h];
}

// sRGB ↔ linear light, as libvips' greyscale (b-w) works: luminance is a weighted sum of linear light,
// written back with the sRGB curve, so a grey of version 2 looks like version 1's. Tables: 256 entries in,
// 16 384 out (a step of at most ¼ of a grey level at the dark end, where the curve is steepest).
const TO_LINEAR = new Float64Array(256).map((_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const OUT_STEPS = 16_384;
const FROM_LINEAR = new Float64Array(OUT_STEPS + 1).map((_, i) => {
  const c = i / OUT_STEPS;
  return 255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
});
// Each channel's share of the luminance, in output steps (Rec. 709 weights, as libvips): the three add up
// to OUT_STEPS at white, so a pixel's luminance is three table reads and two integer additions.
const [LR, LG, LB] = [0.2126, 0.7152, 0.0722].map((weight) => Int32Array.from(TO_LINEAR, (l) => Math.round(weight * l * OUT_STEPS))) as [Int32Array, Int32Array, Int32Array];

/**
 * The summed-area table of the grey of an image: (width + 1) × (height + 1) entries, entry (x, y) = the sum
 * of the grey of every pixel left of x and above y. Grey: the first channel of one- and two-channel images;
 * the luminance of RGB (see above). An alpha channel is ignored, as version 1's removeAlpha did.
 */
export function greyIntegral(image: RawPixels): Float64Array {
  const { width, height, channels } = image.raw;
  const data = image.data;
  if (data.length < width * height * channels) throw new RangeError(`expected ${width * height * channels} bytes of pixels, got ${data.length}`);
  const stride = width + 1;
  const table = new Float64Array(stride * (height + 1));
  // One row of grey at a time, then added onto the row above: two tight loops the JIT keeps simple.
  const grey = new Float64Array(width);
  const [lr, lg, lb, out] = [LR, LG, LB, FROM_LINEAR];
  for (let y = 0, p = 0; y < height; y++) {
    if (channels >= 3) for (let x = 0; x < width; x++, p += channels) grey[x] = out[lr[data[p]!]! + lg[data[p + 1]!]! + lb[data[p + 2]!]!]!;
    else for (let x = 0; x < width; x++, p += channels) grey[x] = data[p]!;
    let run = 0;
    for (let x = 0, above = y * stride + 1, here = above + stride; x < width; x++) {
      run += grey[x]!;
      table[here + x] = table[above + x]! + run;
    }
  }
  return table;
}

/**
 * The 32×32 grey of a rectangle of the image (fractional pixels), each cell the average of the grey it
 * covers, pixels partly covered counted by the part covered (an area average, or box filter), rounded to
 * whole grey levels. Read from the summed-area table: the integral of the grey over [0, x) × [0, y) is, inside
 * a pixel, bilinear in x and y, so interpolating the table gives the exact coverage-weighted sums. 33 × 33
 * reads per rectangle, whatever its size: what made ten hashes cheap (version 1 paid a libvips pipeline each).
 */
export function areaAverage32(table: Float64Array, width: number, height: number, [left, top, w, h]: readonly [number, number, number, number]): Uint8Array {
  const stride = width + 1;
  const at = (x: number, y: number): number => {
    let x0 = Math.floor(x);
    let y0 = Math.floor(y);
    if (x0 >= width) x0 = width - 1;
    if (y0 >= height) y0 = height - 1;
    const fx = x - x0;
    const fy = y - y0;
    const i = y0 * stride + x0;
    const top0 = table[i]! + fx * (table[i + 1]! - table[i]!);
    const bottom = table[i + stride]! + fx * (table[i + stride + 1]! - table[i + stride]!);
    return top0 + fy * (bottom - top0);
  };
  const grid = new Float64Array((N + 1) * (N + 1));
  for (let j = 0; j <= N; j++) {
    const y = Math.min(height, top + (h * j) / N);
    for (let i = 0; i <= N; i++) grid[j * (N + 1) + i] = at(Math.min(width, left + (w * i) / N), y);
  }
  const cell = (w / N) * (h / N);
  const out = new Uint8Array(N * N);
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const g = j * (N + 1) + i;
      const sum = grid[g + N + 2]! - grid[g + 1]! - grid[g + N + 1]! + grid[g]!;
      out[j * N + i] = Math.min(255, Math.max(0, Math.round(sum / cell)));
    }
  }
  return out;
}

/**
 * The whole-frame pHash and the nine window pHashes (PHASH_WINDOWS, concatenated: 144 hex digits) of an
 * upright image, version PHASH_VERSION: one pass over the pixels (grey and its summed-area table), then ten
 * 32×32 area averages and ten DCTs, all in JavaScript, ~1–2 ms for a 400 × 300 image. Callers give it the
 * image fitted inside PHASH_EDGE (the small thumbnail's pixels), so every pHash is taken at the same scale.
 */
export function phashesFromRaw(image: RawPixels): { phash: string; windows: string } {
  const { width, height } = image.raw;
  const table = greyIntegral(image);
  const hash = (window: readonly [number, number, number, number]) => phashFromGrey32(areaAverage32(table, width, height, windowRect(width, height, window)));
  return { phash: hash(FRAME), windows: PHASH_WINDOWS.map(hash).join('') };
}

/** The nine window pHashes of an upright image (see phashesFromRaw). */
export function phashWindowsFromRaw(image: RawPixels): string {
  return phashesFromRaw(image).windows;
}

/**
 * The whole-frame and window pHashes of whatever an (upright) sharp pipeline produces, fitted inside
 * PHASH_EDGE first as ingest does. Consumes the pipeline.
 */
export async function phashesFromPipeline(pipeline: Sharp): Promise<{ phash: string; windows: string }> {
  const { data, info } = await pipeline
    .resize(PHASH_EDGE, PHASH_EDGE, { fit: 'inside', withoutEnlargement: true })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return phashesFromRaw({ data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } });
}

/** pHash of whatever an (upright) sharp pipeline produces. Consumes the pipeline. */
export async function phashFromPipeline(pipeline: Sharp): Promise<string> {
  return (await phashesFromPipeline(pipeline)).phash;
}

/** pHash of a photo file (any format openImage supports; EXIF/HEIF orientation applied first). */
export async function computePhash(filePath: string, options: OpenImageOptions = {}): Promise<string> {
  return withOpenedImage(filePath, options, ({ pipeline }) => phashFromPipeline(pipeline));
}

/** Number of differing bits between two 16-hex pHashes (0..64). */
export function hammingDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/i.test(a) || !/^[0-9a-f]{16}$/i.test(b)) throw new RangeError('pHash must be 16 hex digits');
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}
