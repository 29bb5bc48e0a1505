/**
 * Export: re-encode a photo's original as JPEG, PNG, WebP or AVIF, optionally bounded in size, for a download.
 *
 * - Decoding goes through the same path as the thumbnails (adapters/media/image-source.ts `openImage`):
 *   sharp for JPEG/PNG/WebP/GIF/TIFF/AVIF with EXIF orientation applied (autoOrient, the same as `.rotate()`),
 *   the heic-decode wasm worker for HEIC/HEIF (pixels come out upright), and the embedded preview for camera
 *   RAW files (so a RAW exports the camera-rendered preview: full sensor demosaicing is not available).
 *   `limitInputPixels` stays bounded (200 MP) so a decompression bomb is refused from its header.
 * - `max_width` / `max_height` bound the upright result, keeping the aspect ratio; never enlarged.
 * - Quality 1..100 applies to the lossy formats (JPEG, WebP, AVIF); defaults JPEG 90, WebP 90, AVIF 60
 *   (AVIF's scale is lower for the same look). PNG is lossless: a `quality` with PNG is refused (422 naming
 *   `query.quality`) rather than silently ignored. JPEG has no transparency: transparent areas become white.
 * - Metadata (EXIF, GPS, camera) is not copied into the export: an export is for sharing, and location should
 *   not leak by accident. Colours are converted to sRGB (sharp's default), which every viewer shows right.
 * - The encoded file is written to a temporary file first and then streamed, so a decode failure is a clean
 *   problem answer (never half a download) and memory stays flat whatever the size; the temporary file is
 *   removed when the download ends or is aborted (stale ones from a crash are removed on the next export,
 *   and the whole temporary folder at the next start). That folder is in the data folder (container.ts
 *   `tmp`), never the system's shared temp folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Sharp } from 'sharp';
import { DEFAULT_MAX_INPUT_PIXELS, withOpenedImage } from '../../../adapters/media/image-source.ts';
import { displayFileName } from '../../../platform/http/display-names.ts';

export const EXPORT_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const LOSSY_FORMATS: readonly ExportFormat[] = ['jpeg', 'webp', 'avif'];

export const EXPORT_MIME: Record<ExportFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif' };
export const EXPORT_EXT: Record<ExportFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };
export const DEFAULT_QUALITY: Record<'jpeg' | 'webp' | 'avif', number> = { jpeg: 90, webp: 90, avif: 60 };

export interface ExportOptions {
  format: ExportFormat;
  quality?: number | undefined;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
}

export interface ExportResult {
  file: string;
  width: number;
  height: number;
  size: number;
}

const STALE_MS = 6 * 60 * 60 * 1000;

function removeStale(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    try {
      if (now - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    } catch {
      /* raced with another cleanup */
    }
  }
}

function encode(pipeline: Sharp, o: ExportOptions): Sharp {
  switch (o.format) {
    case 'jpeg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: o.quality ?? DEFAULT_QUALITY.jpeg });
    case 'png':
      return pipeline.png({ compressionLevel: 6 });
    case 'webp':
      return pipeline.webp({ quality: o.quality ?? DEFAULT_QUALITY.webp, effort: 4 });
    case 'avif':
      // Effort 2 of 9: a 24 MP photo in a few seconds on two cores instead of a minute, for a few % more bytes.
      return pipeline.avif({ quality: o.quality ?? DEFAULT_QUALITY.avif, effort: 2 });
  }
}

/**
 * Decode `input`, resize and encode it into a new temporary file in `dir`. Throws MediaDecodeError when the
 * photo cannot be decoded, and sharp's own Error when it cannot be encoded (for example too large for WebP).
 */
export async function renderExport(input: string, o: ExportOptions, dir: string): Promise<ExportResult> {
  fs.mkdirSync(dir, { recursive: true });
  removeStale(dir);
  const file = path.join(dir, `${randomBytes(12).toString('hex')}.${EXPORT_EXT[o.format]}`);
  try {
    const info = await withOpenedImage(input, { maxInputPixels: DEFAULT_MAX_INPUT_PIXELS }, ({ pipeline }) => {
      const sized = o.maxWidth !== undefined || o.maxHeight !== undefined ? pipeline.resize({ width: o.maxWidth, height: o.maxHeight, fit: 'inside', withoutEnlargement: true }) : pipeline;
      return encode(sized, o).toFile(file);
    });
    return { file, width: info.width, height: info.height, size: info.size };
  } catch (e) {
    fs.rmSync(file, { force: true });
    throw e;
  }
}

/** A web stream of a temporary file that removes the file once it is read, failed or abandoned. */
export function streamAndRemove(file: string): ReadableStream<Uint8Array> {
  const rs = fs.createReadStream(file);
  rs.once('close', () => fs.rm(file, { force: true }, () => undefined));
  return Readable.toWeb(rs) as ReadableStream<Uint8Array>;
}

/**
 * The download's file name: the requested base name (or the original's name without its extension),
 * made safe (no path separators, control or reserved characters, no leading dots), plus the format's
 * extension. A requested name that already ends in an image extension loses it (`photo.jpg` → `photo.png`).
 */
export function exportFileName(requested: string | undefined, originalFilename: string, format: ExportFormat): string {
  const fallbackStem = displayFileName(originalFilename).replace(/\.[^./\\]{1,8}$/, '');
  const clean = (s: string) =>
    displayFileName(s)
      // eslint-disable-next-line no-control-regex -- control characters are replaced in exported file names
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
      .replace(/\.(jpe?g|png|webp|avif|heic|heif|tiff?|gif)$/i, '')
      .replace(/^[.\s]+|[.\s]+$/g, '')
      .slice(0, 150);
  const stem = clean(requested ?? '') || clean(fallbackStem) || 'export';
  return `${stem}.${EXPORT_EXT[format]}`;
}
