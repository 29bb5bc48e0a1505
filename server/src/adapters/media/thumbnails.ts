/**
 * Photo thumbnails: WebP at the sizes asked for from a single decode, written atomically, plus the pHash for
 * free. Ingest asks for the small size only; medium and large are made on first request
 * (features/assets/api/lazy-thumbnails.ts).
 *
 * One decode: the source is decoded once, already reduced to the largest size needed (sharp shrinks JPEGs
 * while decoding, 1/2 to 1/8, so a 24 MP photo is never fully expanded), into an 8-bit buffer: that buffer is
 * the large size. Medium is resized from large and small from medium, and the pHash is computed from small.
 * Decoding is by far the expensive part (HEIC: ~1 s in wasm), so this is what keeps ingest fast; after it the
 * WebP encoding dominates, so sizes that come out identical (medium = large for a photo of 800 px or less)
 * are encoded once.
 *
 * Sizes are the long edge: small 400, medium 800, large 1920; never upscaled, so a 600 px photo yields a
 * 600 px "large". Orientation is applied before resizing (image-source.ts), so a portrait photo stored
 * sideways with EXIF Orientation 6 gives portrait thumbnails. Limits and failOn: see image-source.ts.
 */
import fs from 'node:fs/promises';
import { releaseBytes } from '../../platform/cache/release-bytes.ts';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { writeAtomically } from './atomic-write.ts';
import type { DetectedType } from './detect.ts';
import { MediaDecodeError } from './errors.ts';
import { openImage, type OpenedImage } from './image-source.ts';
import { PHASH_EDGE, phashesFromRaw } from './phash.ts';
import './sharp-setup.ts';

export type ThumbnailSize = 'small' | 'medium' | 'large';

/** Long-edge pixels per size. */
export const THUMBNAIL_EDGES: Record<ThumbnailSize, number> = { small: 400, medium: 800, large: 1920 };

export const THUMBNAIL_MIME = 'image/webp';

export interface ThumbnailOutput {
  path: string;
  width: number;
  height: number;
  bytes: number;
}

export interface ThumbnailResult {
  /** Size of the upright source as decoded (for RAW: the preview's size). */
  source: { width: number; height: number };
  decoder: OpenedImage['decoder'];
  outputs: Partial<Record<ThumbnailSize, ThumbnailOutput>>;
  /** Present when `phash: true` was asked for. */
  phash?: string;
  /** The nine window pHashes (phash.ts `phashWindowsFromRaw`), present when `phash: true` was asked for. */
  phashWindows?: string;
}

export interface ThumbnailOptions {
  type?: DetectedType | null;
  /** Decompression-bomb limit, see image-source.ts (default 200 MP). */
  maxInputPixels?: number;
  /**
   * WebP quality 1-100 (default 80: visually clean at thumbnail sizes). Encoder effort is fixed at 2: measured
   * here it halves the time of the default 4 for a 1920 px image (~150 ms instead of ~310 ms) for 2-4 % more
   * bytes.
   */
  quality?: number;
  /** Also compute the pHash (and its window hashes) from the same decode. */
  phash?: boolean;
  /**
   * The photo already opened by the caller (`openImage(input, { type, maxInputPixels })`), whose header the
   * caller reads as well (ingest hands it to extractPhotoMetadata): one header read per photo instead of two.
   * Its failure is this call's failure, as if opened here.
   */
  opened?: Promise<OpenedImage>;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

/** Long-edge fit that never enlarges. */
function fit(width: number, height: number, edge: number): { width: number; height: number } {
  const scale = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Raw 8-bit pixels with their layout, as sharp's `raw` input option wants it. */
interface RawImage {
  data: Buffer;
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

async function rawResize(from: RawImage, dims: { width: number; height: number }): Promise<RawImage> {
  if (dims.width === from.raw.width && dims.height === from.raw.height) return from;
  const { data, info } = await sharp(from.data, { raw: from.raw }).resize(dims.width, dims.height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: info.channels as RawImage['raw']['channels'] } };
}

/**
 * Generate the requested thumbnails of a photo. `targets` maps a size to its output path; sizes not listed are
 * skipped. Throws MediaDecodeError when the photo cannot be decoded (damaged, unsupported, too large).
 *
 * After the single decode (already reduced to the largest size), the sizes are made largest first, each one
 * resized from the previous one (1920 → 800 → 400: every step is a small reduction of an already small image
 * instead of a reduction of the large one), and the pHash is taken from the smallest (or from those pixels fitted
 * inside phash.ts PHASH_EDGE when no size that small is asked for): a 32×32 greyscale from
 * 400 px or from 1920 px is the same picture (on the 325 corpus JPEGs: the same hash for 300, 2 bits apart for
 * 25, where near-duplicates are 8-10 bits apart). Sizes that come out identical (a photo of 800 px or less has
 * medium = large; of 400 px or less, all three) are encoded once and the same WebP bytes written to each
 * target.
 */
export async function generateThumbnails(
  input: string,
  targets: Partial<Record<ThumbnailSize, string>>,
  options: ThumbnailOptions = {},
): Promise<ThumbnailResult> {
  const sizes = (Object.keys(targets) as ThumbnailSize[]).filter((s) => targets[s]).sort((a, b) => THUMBNAIL_EDGES[b] - THUMBNAIL_EDGES[a]);
  const opened = await (options.opened ?? openImage(input, { type: options.type, maxInputPixels: options.maxInputPixels }));
  const maxEdge = Math.max(...sizes.map((s) => THUMBNAIL_EDGES[s]), options.phash ? PHASH_EDGE : 0);

  // The single decode, reduced to the largest requested edge, normalised to 8 bits per channel.
  let base: RawImage;
  let source: { width: number; height: number };
  try {
    // The header openImage read, else the pipeline's own (not a clone's: sharp's clone() deep-copies the
    // input bytes, a copy of the whole file per photo for nothing).
    const meta = opened.metadata ?? (await opened.pipeline.metadata().catch(() => null));
    const { data, info } = await opened.pipeline
      .resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    base = { data, raw: { width: info.width, height: info.height, channels: info.channels as RawImage['raw']['channels'] } };
    source = sourceSize(meta, info, opened.decoder);
  } catch (e) {
    throw new MediaDecodeError(input, describe(e), { cause: e });
  } finally {
    opened.release(); // the file's bytes: decoded, no longer read (the sizes below come from `base`)
  }
  const quality = options.quality ?? 80;

  // Each distinct size is resized from the one before and its WebP encoded while the next size is resized and
  // encoded: the encodes (most of the work) run side by side, on libvips threads, instead of one after the other.
  const plan = sizes.map((size) => ({ size, dims: fit(base.raw.width, base.raw.height, THUMBNAIL_EDGES[size]) }));
  const encodes = new Map<string, Promise<Buffer>>();
  const pending: Array<Promise<unknown>> = [];
  let current = base;
  // Every pixel buffer made here, freed as soon as the encodes and the hash are done with them (a 1920 px decode
  // is 7 MB; platform/cache/release-bytes.ts says why not to wait for the collector).
  const pixels = [base.data];
  let phash: Promise<string> | undefined;
  let phashWindows: Promise<string> | undefined;
  try {
    for (const { dims } of plan) {
      const key = `${dims.width}x${dims.height}`;
      if (encodes.has(key)) continue; // same pixels as a size before: same bytes
      current = await rawResize(current, dims);
      pixels.push(current.data);
      const encode = sharp(current.data, { raw: current.raw }).webp({ quality, effort: 2 }).toBuffer();
      encode.catch(() => {}); // handled below (Promise.all); not "unhandled" while the next size is resized
      encodes.set(key, encode);
      pending.push(encode);
    }
    if (options.phash) {
      // Taken from the pixels fitted inside PHASH_EDGE (the small size's, when asked for: no extra resize), in
      // JavaScript on this thread (~2 ms) while libvips encodes the WebP on its own threads.
      const hashes = rawResize(current, fit(current.raw.width, current.raw.height, PHASH_EDGE)).then(phashesFromRaw);
      pending.push(hashes);
      phash = hashes.then((h) => h.phash);
      phashWindows = hashes.then((h) => h.windows);
    }
    await Promise.all(pending);
  } catch (e) {
    await Promise.allSettled(pending); // nothing left running on a buffer or a path after we return
    releaseBytes(...pixels, ...(await Promise.all([...encodes.values()].map((p) => p.catch(() => null)))));
    throw e;
  }
  releaseBytes(...new Set(pixels));
  const outputs: ThumbnailResult['outputs'] = {};
  try {
    for (const { size, dims } of plan) {
      const webp = await encodes.get(`${dims.width}x${dims.height}`)!;
      await writeAtomically(targets[size]!, (tmp) => fs.writeFile(tmp, webp));
      outputs[size] = { path: targets[size]!, ...dims, bytes: webp.length };
    }
  } finally {
    releaseBytes(...(await Promise.all(encodes.values())));
  }
  const result: ThumbnailResult = { source, decoder: opened.decoder, outputs };
  if (phash) result.phash = await phash;
  if (phashWindows) result.phashWindows = await phashWindows;
  return result;
}

/**
 * The upright source size. sharp's metadata describes the input before the pipeline's own orientation step
 * (width/height as stored; autoOrient.* after EXIF rotation), which is what we want for files sharp decodes.
 * RAW previews are rotated by an explicit operation, so swap by the decoded buffer's aspect instead; HEIC
 * pixels arrive upright already.
 */
function sourceSize(meta: Metadata | null, decoded: OutputInfo, decoder: OpenedImage['decoder']): { width: number; height: number } {
  if (!meta?.width || !meta.height) return { width: decoded.width, height: decoded.height };
  if (decoder === 'sharp' && meta.autoOrient?.width && meta.autoOrient.height) {
    return { width: meta.autoOrient.width, height: meta.autoOrient.height };
  }
  const decodedPortrait = decoded.height > decoded.width;
  const metaPortrait = meta.height > meta.width;
  return decodedPortrait === metaPortrait || decoded.width === decoded.height
    ? { width: meta.width, height: meta.height }
    : { width: meta.height, height: meta.width };
}
