/**
 * Placeholder thumbnails for a photo whose pixels cannot be shown (a RAW without a usable embedded preview:
 * the metadata-only samples of camera test suites, a preview cut off or damaged).
 *
 * Decision: a flat neutral grey (#808080) WebP in the photo's own proportions (3:2 when they are unknown),
 * one per size, so the grid keeps the photo's shape and nothing looks like a broken image; the asset says
 * why through `specific_metadata.preview_missing` and status code 31 (status-codes.ts). No perceptual hash is
 * taken: every placeholder would look like a near-duplicate of every other one.
 */
import fs from 'node:fs/promises';
import sharp from 'sharp';
import './sharp-setup.ts';
import { writeAtomically } from './atomic-write.ts';
import { THUMBNAIL_EDGES, type ThumbnailSize } from './thumbnails.ts';

const GREY = { r: 128, g: 128, b: 128 };

export async function writePlaceholderThumbnails(
  targets: Partial<Record<ThumbnailSize, string>>,
  size: { width: number | null; height: number | null },
): Promise<void> {
  const [w, h] = size.width && size.height && size.width > 0 && size.height > 0 ? [size.width, size.height] : [3, 2];
  for (const [name, target] of Object.entries(targets) as [ThumbnailSize, string | undefined][]) {
    if (!target) continue;
    const edge = THUMBNAIL_EDGES[name];
    const scale = edge / Math.max(w, h);
    const dims = { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
    const webp = await sharp({ create: { ...dims, channels: 3, background: GREY } }).webp({ quality: 80, effort: 2 }).toBuffer();
    await writeAtomically(target, (tmp) => fs.writeFile(tmp, webp));
  }
}
