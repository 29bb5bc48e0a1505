/**
 * Line boxes as the catalog keeps them: the recogniser's four corners (pixels of the image it read) divided by
 * that image's size, so the viewer can draw them over any thumbnail size or the original without knowing which
 * image OCR read. Rounded to 1/10,000 (a tenth of a pixel of a 1920-px photo): shorter JSON, nothing visible lost.
 */
import type { Quad } from './types.ts';

/** [[x, y] × 4], 0..1, clockwise from the text's top-left (top-left, top-right, bottom-right, bottom-left). */
export type NormalisedQuad = [[number, number], [number, number], [number, number], [number, number]];

const round4 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;

export function normaliseBox(box: Quad, width: number, height: number): NormalisedQuad {
  return box.map((p) => [round4(p.x / width), round4(p.y / height)]) as NormalisedQuad;
}

/** Area of a quadrilateral (shoelace formula), in the units of its corners squared. */
export function quadArea(q: NormalisedQuad): number {
  let twice = 0;
  for (let i = 0; i < 4; i++) {
    const [x1, y1] = q[i]!;
    const [x2, y2] = q[(i + 1) % 4]!;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

/** The axis-aligned rectangle around a box, normalised like it (what a simple overlay draws). */
export function boundsOf(q: NormalisedQuad): { x: number; y: number; width: number; height: number } {
  const xs = q.map((p) => p[0]);
  const ys = q.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: round4(Math.max(...xs) - x), height: round4(Math.max(...ys) - y) };
}
