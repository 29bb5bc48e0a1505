/**
 * The asset detail's `ocr_result` (contract: OCR result): the run and its text items in reading order.
 *
 * Decisions where the contract is silent:
 * - `bounding_box` (inner fields "not shown"): `points`, the four corners [x, y] clockwise from the text's
 *   top-left, normalised 0..1 to the upright photo (tilted text has a tilted box), and `x`, `y`, `width`,
 *   `height`, the axis-aligned rectangle around them, normalised too. Any thumbnail size or the original can
 *   draw them by multiplying with its own size.
 * - `area_pixels`: the box's area in pixels of the original photo (its width × height; a rotation does not
 *   change the product), or of the image OCR read when the photo's size is unknown.
 * - `text_length`: characters (Unicode code points), not bytes or UTF-16 units.
 * - `id`: the line's id (stable until the photo is read again); `processing_time_ms`: decode, detection,
 *   classification and recognition of the photo, as measured when it was read.
 * - `ocr_result` is null when OCR has not read the photo (no model, queued, turned off, a video, or the read
 *   failed); a photo read without any text has `total_count` 0 and no items.
 */
import { z } from '@hono/zod-openapi';
import { boundsOf } from './ocr-boxes.ts';
import { OcrStore, type OcrLineRow, type OcrResultRow } from './ocr.store.ts';

const PointSchema = z.array(z.number()).length(2).openapi({ description: '[x, y], 0..1.' });

export const OcrTextItemSchema = z
  .object({
    id: z.number().int(),
    text_content: z.string(),
    text_length: z.number().int(),
    confidence: z.number().openapi({ description: 'Mean probability of the recognised characters, 0..1.' }),
    area_pixels: z.number().int().openapi({ description: 'Area of the box in pixels of the original photo.' }),
    bounding_box: z
      .object({
        points: z.array(PointSchema).length(4).openapi({ description: 'Corners [x, y], 0..1, clockwise from the text\'s top-left.' }),
        x: z.number(),
        y: z.number(),
        width: z.number(),
        height: z.number(),
      })
      .openapi({ description: 'Normalised to the upright photo (0..1): multiply by any rendering\'s width and height.' }),
  })
  .openapi('OcrTextItem');

export const OcrResultSchema = z
  .object({
    created_at: z.string(),
    updated_at: z.string(),
    model_id: z.string(),
    processing_time_ms: z.number(),
    total_count: z.number().int(),
    text_items: z.array(OcrTextItemSchema).openapi({ description: 'In reading order: top to bottom, left to right within a row.' }),
  })
  .openapi('OcrResult');

export type OcrResultView = z.infer<typeof OcrResultSchema>;

/** `photo` is the original's size when known (for `area_pixels`). */
export function toOcrResult(
  stored: { run: OcrResultRow; lines: OcrLineRow[] },
  photo: { width: number | null; height: number | null },
): OcrResultView {
  const w = photo.width && photo.height ? photo.width : stored.run.image_width;
  const h = photo.width && photo.height ? photo.height : stored.run.image_height;
  return {
    created_at: new Date(stored.run.created_at).toISOString(),
    updated_at: new Date(stored.run.updated_at).toISOString(),
    model_id: stored.run.model_id,
    processing_time_ms: stored.run.processing_time_ms,
    total_count: stored.lines.length,
    text_items: stored.lines.map((l) => ({
      id: l.line_id,
      text_content: l.text,
      text_length: [...l.text].length,
      confidence: l.confidence,
      area_pixels: OcrStore.areaPixels(l.box, w, h),
      bounding_box: { points: l.box, ...boundsOf(l.box) },
    })),
  };
}
