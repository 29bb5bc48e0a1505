/**
 * 64-bit perceptual hash (DCT pHash) for near-duplicate detection.
 *
 * Recipe (as measured in reference/dependencies.md §7, where it beat the npm packages on speed and on
 * EXIF-rotated copies): upright image → greyscale → 32×32 (aspect ignored) → 2-D DCT-II → the top-left 8×8
 * block of coefficients (lowest frequencies) → each bit = coefficient > median. The DC term (0,0) is only the
 * average brightness; it is left out of the median and its bit is always 0, so 63 bits carry information.
 * Bit order: coefficient (row v, column u) is bit 63 − (8v + u), written as 16 lower-case hex digits.
 *
 * Distances seen on the corpus and in the reference measurements: resized/re-encoded/brightened copies 0–4,
 * small crops ~10–16, different photos ≥ 22. A threshold of about 8–10 separates near-duplicates.
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
import sharp, { type Sharp } from 'sharp';
import { openImage, type OpenImageOptions } from './image-source.ts';

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
  const ac = Array.from(coeffs.subarray(1)).sort((a, b) => a - b);
  const median = ac[(ac.length - 1) >> 1]!; // 63 values: the middle one
  let hash = 0n;
  for (let i = 1; i < K * K; i++) if (coeffs[i]! > median) hash |= 1n << BigInt(63 - i);
  return hash.toString(16).padStart(16, '0');
}

/** pHash of whatever an (upright) sharp pipeline produces. Consumes the pipeline. */
export async function phashFromPipeline(pipeline: Sharp): Promise<string> {
  const { data, info } = await pipeline
    .removeAlpha()
    .greyscale()
    .resize(N, N, { fit: 'fill' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const grey = new Uint8Array(N * N);
  for (let i = 0; i < N * N; i++) grey[i] = data[i * info.channels]!;
  return phashFromGrey32(grey);
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

/** Raw upright pixels as sharp's `raw` input wants them (the thumbnail step's smallest buffer). */
export interface RawPixels {
  data: Buffer;
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * The nine window pHashes of an upright image (see PHASH_WINDOWS), concatenated: 144 hex digits. Taken from
 * the same pixels as the whole-frame pHash (the small thumbnail's), so both are made the same way.
 */
export async function phashWindowsFromRaw(image: RawPixels): Promise<string> {
  const { width, height } = image.raw;
  const hashes = await Promise.all(PHASH_WINDOWS.map((window) => phashFromPipeline(sharp(image.data, { raw: image.raw }).extract(windowRegion(width, height, window)))));
  return hashes.join('');
}

/** Where a window (PHASH_WINDOWS) lies in a width × height frame, in whole pixels. */
function windowRegion(width: number, height: number, [ax, ay, fw, fh]: (typeof PHASH_WINDOWS)[number]) {
  const w = Math.max(1, Math.round(width * fw));
  const h = Math.max(1, Math.round(height * fh));
  return { left: Math.round((width - w) * ax), top: Math.round((height - h) * ay), width: w, height: h };
}

/** pHash of one-channel grey pixels: the resize to 32×32 of phashFromPipeline (greyscale() keeps sharp from writing the grey as sRGB). */
async function phashFromGrey(data: Buffer, width: number, height: number): Promise<string> {
  const pixels = await sharp(data, { raw: { width, height, channels: 1 } }).greyscale().resize(N, N, { fit: 'fill' }).raw({ depth: 'uchar' }).toBuffer();
  return phashFromGrey32(pixels);
}

/**
 * The whole-frame pHash and the nine window pHashes of an upright image, from one greyscale conversion:
 * what `phashFromPipeline` of the image and `phashWindowsFromRaw` give, for about a third of the CPU.
 * Converting sRGB to greyscale is the costly step of a pHash (libvips goes through linear light), and it
 * works pixel by pixel, before the resize (sharp converts, then shrinks), so converting once and cutting the
 * windows out of the grey image gives the same 32×32 pixels, hence the same hashes (phash.test.ts checks it
 * on real photos). The windows are cut out here (a copy of rows) rather than by sharp's extract, which costs
 * as much as the resize after it; the ten resizes then read one channel instead of three.
 */
export async function phashesFromRaw(image: RawPixels): Promise<{ phash: string; windows: string }> {
  // With an alpha channel (PNG, WebP, TIFF with transparency) a window's hash cut from the grey frame was
  // measured a few bits apart from the per-window pipeline's: those keep the per-window pipelines.
  if (image.raw.channels === 2 || image.raw.channels === 4) {
    const [phash, windows] = await Promise.all([phashFromPipeline(sharp(image.data, { raw: image.raw })), phashWindowsFromRaw(image)]);
    return { phash, windows };
  }
  const { data: grey, info } = await sharp(image.data, { raw: image.raw }).removeAlpha().greyscale().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  // A window is a copy of its rows out of the grey frame: the same pixels sharp's extract would hand on.
  const windows = PHASH_WINDOWS.map((window) => {
    const r = windowRegion(width, height, window);
    const crop = Buffer.allocUnsafe(r.width * r.height);
    for (let y = 0; y < r.height; y++) grey.copy(crop, y * r.width, (r.top + y) * width + r.left, (r.top + y) * width + r.left + r.width);
    return phashFromGrey(crop, r.width, r.height);
  });
  const [phash, ...hashes] = await Promise.all([phashFromGrey(grey, width, height), ...windows]);
  return { phash: phash!, windows: hashes.join('') };
}

/** pHash of a photo file (any format openImage supports; EXIF/HEIF orientation applied first). */
export async function computePhash(filePath: string, options: OpenImageOptions = {}): Promise<string> {
  const { pipeline } = await openImage(filePath, options);
  return phashFromPipeline(pipeline);
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
