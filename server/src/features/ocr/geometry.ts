/**
 * Plane geometry for text boxes: convex hull, minimum-area rotated rectangle (OpenCV's minAreaRect), corner
 * ordering. Text in photos is often tilted (a sign shot from the side, a page at an angle), so boxes are rotated
 * rectangles rather than axis-aligned ones; an axis-aligned box around a tilted line would take in the lines
 * above and below it and the recogniser would read a mix of both.
 */
import type { Point, Quad } from './types.ts';

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in y-up terms, without collinear points. */
export function convexHull(points: readonly Point[]): Point[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length <= 2) return pts;
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/** A rotated rectangle: centre, unit direction of its "width" side, and the two side lengths. */
export interface RotatedRect {
  cx: number;
  cy: number;
  /** Unit vector along the width side. */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

/**
 * The smallest-area rectangle around the points (rotating calipers over the hull: the optimal rectangle has a
 * side on a hull edge). Degenerate input (one point, a straight run of pixels) gives a zero-height rectangle,
 * as OpenCV's does; callers drop those by size.
 */
export function minAreaRect(points: readonly Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, ux: 1, uy: 0, width: 0, height: 0 };
  if (hull.length === 1) return { cx: hull[0]!.x, cy: hull[0]!.y, ux: 1, uy: 0, width: 0, height: 0 };
  let best: RotatedRect | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len === 0) continue;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea - 1e-9) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { cx: cu * ux - cv * uy, cy: cu * uy + cv * ux, ux, uy, width: maxU - minU, height: maxV - minV };
    }
  }
  // All hull points coincide (a one-pixel region given as its row's leftmost and rightmost pixel).
  return best ?? { cx: hull[0]!.x, cy: hull[0]!.y, ux: 1, uy: 0, width: 0, height: 0 };
}

/** The rectangle grown by `d` on every side (how a polygon offset by d, then re-fitted, comes out for a rectangle). */
export function growRect(r: RotatedRect, d: number): RotatedRect {
  return { ...r, width: r.width + 2 * d, height: r.height + 2 * d };
}

/** The four corners of a rotated rectangle, in any order. */
export function rectCorners(r: RotatedRect): Point[] {
  const hx = (r.ux * r.width) / 2, hy = (r.uy * r.width) / 2;
  const vx = (-r.uy * r.height) / 2, vy = (r.ux * r.height) / 2;
  return [
    { x: r.cx - hx - vx, y: r.cy - hy - vy },
    { x: r.cx + hx - vx, y: r.cy + hy - vy },
    { x: r.cx + hx + vx, y: r.cy + hy + vy },
    { x: r.cx - hx + vx, y: r.cy - hy + vy },
  ];
}

/**
 * Corners as top-left, top-right, bottom-right, bottom-left (PaddleOCR's get_mini_boxes): of the two leftmost
 * corners the upper one starts, of the two rightmost the upper one is second. For a box tilted by less than 45°
 * that is the reading order of the text's corners.
 */
export function orderCorners(corners: readonly Point[]): Quad {
  const byX = [...corners].sort((a, b) => a.x - b.x || a.y - b.y);
  const [l1, l2, r1, r2] = byX as [Point, Point, Point, Point];
  const [tl, bl] = l1.y <= l2.y ? [l1, l2] : [l2, l1];
  const [tr, br] = r1.y <= r2.y ? [r1, r2] : [r2, r1];
  return [tl, tr, br, bl];
}

/** Whether p lies inside (or on) a convex polygon given in either winding. */
export function insideConvex(poly: readonly Point[], p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const c = cross(poly[i]!, poly[(i + 1) % poly.length]!, p);
    if (c === 0) continue;
    const s = c > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
