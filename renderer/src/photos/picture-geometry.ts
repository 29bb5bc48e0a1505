/**
 * Where the text OCR found sits on the photo as drawn. Boxes come normalised to the upright photo
 * (0..1, four corners clockwise from the text's top-left; server/src/features/ocr/ocr.view.ts). The
 * viewer draws the photo with `object-fit: contain` inside its element, so the picture may be
 * letterboxed: the overlay goes over the picture's own rectangle, found here from the element's
 * box and the image's natural size. Offsets (not client rectangles) are used, so the answer is in
 * the zoom's own coordinates and stays right under any zoom or pan (the overlay is transformed with
 * the photo).
 */

export type Point = readonly [number, number];
export type Quad = readonly Point[];

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The picture's rectangle inside an element box drawn with object-fit: contain (centred). */
export function containedRect(box: Rect, natural: { width: number; height: number }): Rect {
  if (box.width <= 0 || box.height <= 0 || natural.width <= 0 || natural.height <= 0) return { left: box.left, top: box.top, width: 0, height: 0 };
  const scale = Math.min(box.width / natural.width, box.height / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height };
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

/** SVG polygon points for a normalised quad in a 0..1 view box; corners outside the photo are kept on its edge. */
export function polygonPoints(quad: Quad): string {
  return quad.map(([x, y]) => `${clamp01(x).toFixed(4)},${clamp01(y).toFixed(4)}`).join(' ');
}
