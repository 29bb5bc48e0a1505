/**
 * Photo thumbnails: WebP at three sizes from a single decode, written atomically, plus the pHash for free.
 *
 * One decode: the source is decoded once, already reduced to the largest size needed (sharp shrinks JPEGs
 * while decoding, 1/2 to 1/8, so a 24 MP photo is never fully expanded), into an 8-bit buffer. Every size is
 * then encoded from that buffer, and the pHash is computed from it too. Decoding is by far the expensive part
 * (HEIC: ~1 s in wasm), so this is what keeps ingest fast.
 *
 * Sizes are the long edge: small 400, medium 800, large 1920; never upscaled, so a 600 px photo yields a
 * 600 px "large". Orientation is applied before resizing (image-source.ts), so a portrait photo stored
 * sideways with EXIF Orientation 6 gives portrait thumbnails. Limits and failOn: see image-source.ts.
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { writeAtomically } from './atomic-write.ts';
import type { DetectedType } from './detect.ts';
import { MediaDecodeError } from './errors.ts';
import { openImage, type OpenedImage } from './image-source.ts';
import { phashFromPipeline } from './phash.ts';

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
  /** Also compute the pHash from the same decode. */
  phash?: boolean;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

/** Long-edge fit that never enlarges. */
function fit(width: number, height: number, edge: number): { width: number; height: number } {
  const scale = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Generate the requested thumbnails of a photo. `targets` maps a size to its output path; sizes not listed are
 * skipped. Throws MediaDecodeError when the photo cannot be decoded (damaged, unsupported, too large).
 */
export async function generateThumbnails(
  input: string,
  targets: Partial<Record<ThumbnailSize, string>>,
  options: ThumbnailOptions = {},
): Promise<ThumbnailResult> {
  const sizes = (Object.keys(targets) as ThumbnailSize[]).filter((s) => targets[s]);
  const opened = await openImage(input, { type: options.type, maxInputPixels: options.maxInputPixels });
  const maxEdge = Math.max(...sizes.map((s) => THUMBNAIL_EDGES[s]), options.phash ? 32 : 0);

  // The single decode, reduced to the largest requested edge, normalised to 8 bits per channel.
  let base: { data: Buffer; info: OutputInfo };
  let source: { width: number; height: number };
  try {
    const meta = await opened.pipeline.clone().metadata().catch(() => null);
    base = await opened.pipeline
      .resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    source = sourceSize(meta, base.info, opened.decoder);
  } catch (e) {
    throw new MediaDecodeError(input, describe(e), { cause: e });
  }
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels as 1 | 2 | 3 | 4 };
  const quality = options.quality ?? 80;

  const outputs: ThumbnailResult['outputs'] = {};
  for (const size of sizes) {
    const target = targets[size]!;
    const dims = fit(raw.width, raw.height, THUMBNAIL_EDGES[size]);
    let bytes = 0;
    await writeAtomically(target, async (tmp) => {
      const info = await sharp(base.data, { raw })
        .resize(dims.width, dims.height, { fit: 'fill' })
        .webp({ quality, effort: 2 })
        .toFile(tmp);
      bytes = info.size;
    });
    outputs[size] = { path: target, ...dims, bytes };
  }
  const result: ThumbnailResult = { source, decoder: opened.decoder, outputs };
  if (options.phash) result.phash = await phashFromPipeline(sharp(base.data, { raw }));
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
