/**
 * DB (Differentiable Binarization) post-processing: the detector's text-probability map → rotated text boxes in
 * image pixels. The network is trained to predict a *shrunk* text kernel, so each region found in the map is
 * grown back by the unclip distance before it becomes a box. Steps, as PaddleOCR's db_postprocess.py:
 *   1. binarise the map at `threshold`;
 *   2. connected regions (8-neighbour, like OpenCV's contours of the bitmap);
 *   3. minimum-area rotated rectangle of each region; drop it when its short side is under `minSize`;
 *   4. box score = mean probability inside the rectangle; drop it at or under `boxThreshold` (faint blobs,
 *      textures that look a little like text);
 *   5. unclip: grow by d = area·ratio / perimeter on every side (for a rectangle, offsetting the polygon and
 *      fitting the minimum rectangle again is exactly that), drop it when the short side is under minSize + 2;
 *   6. scale from map to image pixels, clip to the image, drop boxes 3 px or less across.
 * Steps 1–5 run in map pixels (the detector input, ≤ 960 px), so the thresholds mean the same for every image
 * size. The image may cover only part of the map (its frame; the rest is the padding to multiples of 32,
 * det-input.ts): map pixels scale to image pixels by the frame, and what lies in the padding is clipped off.
 */
import { OCR_PARAMS } from './params.ts';
import { distance, growRect, insideConvex, minAreaRect, orderCorners, rectCorners, type RotatedRect } from './geometry.ts';
import type { Point, Quad, Tensor } from './types.ts';

export interface DbOptions {
  threshold: number;
  boxThreshold: number;
  unclipRatio: number;
  minSize: number;
  maxCandidates: number;
}

/**
 * Connected regions of `prob > threshold`, each as the leftmost and rightmost pixel of every row it covers
 * (enough for its convex hull, hence for its rectangle), in the order a raster scan first meets them.
 */
export function textRegions(prob: Float32Array, width: number, height: number, threshold: number, maxRegions: number): Point[][] {
  const label = new Int32Array(width * height);
  const regions: Point[][] = [];
  const stack: number[] = [];
  for (let start = 0; start < width * height && regions.length < maxRegions; start++) {
    if (label[start] !== 0 || !(prob[start]! > threshold)) continue;
    const id = regions.length + 1;
    const rowMin = new Map<number, number>();
    const rowMax = new Map<number, number>();
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      if (!(x >= (rowMin.get(y) ?? Infinity))) rowMin.set(y, x);
      if (!(x <= (rowMax.get(y) ?? -Infinity))) rowMax.set(y, x);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const j = ny * width + nx;
          if (label[j] === 0 && prob[j]! > threshold) {
            label[j] = id;
            stack.push(j);
          }
        }
      }
    }
    const points: Point[] = [];
    for (const [y, x] of rowMin) points.push({ x, y }, { x: rowMax.get(y)!, y });
    regions.push(points);
  }
  return regions;
}

/** Mean probability of the map pixels inside the rectangle (PaddleOCR's box_score_fast). */
export function boxScore(prob: Float32Array, width: number, height: number, corners: readonly Point[]): number {
  const xs = corners.map((p) => p.x), ys = corners.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  let sum = 0, n = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!insideConvex(corners, { x, y })) continue;
      sum += prob[y * width + x]!;
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

/** The unclip distance of a rectangle: area · ratio / perimeter (pyclipper offset as in the DB paper). */
export function unclipDistance(r: RotatedRect, ratio: number): number {
  const perimeter = 2 * (r.width + r.height);
  return perimeter === 0 ? 0 : (r.width * r.height * ratio) / perimeter;
}

/**
 * Text boxes from a probability map `[1, 1, H, W]`, in pixels of an image of `imageWidth × imageHeight` that
 * covers the map's top-left `frame` (default: the whole map, the image stretched to H × W). Corners are ordered
 * top-left, top-right, bottom-right, bottom-left.
 */
export function dbPostprocess(
  map: Tensor,
  imageWidth: number,
  imageHeight: number,
  frame?: { width: number; height: number },
  options: DbOptions = OCR_PARAMS.db,
): Quad[] {
  const height = map.dims[map.dims.length - 2]!;
  const width = map.dims[map.dims.length - 1]!;
  if (map.data.length < width * height) throw new RangeError(`probability map holds ${map.data.length} values, dims say ${width}×${height}`);
  const sx = imageWidth / (frame?.width ?? width), sy = imageHeight / (frame?.height ?? height);
  const boxes: Quad[] = [];
  for (const region of textRegions(map.data, width, height, options.threshold, options.maxCandidates)) {
    const rect = minAreaRect(region);
    if (Math.min(rect.width, rect.height) < options.minSize) continue;
    if (!(boxScore(map.data, width, height, rectCorners(rect)) > options.boxThreshold)) continue;
    const grown = growRect(rect, unclipDistance(rect, options.unclipRatio));
    if (Math.min(grown.width, grown.height) < options.minSize + 2) continue;
    const quad = orderCorners(
      rectCorners(grown).map((p) => ({
        x: Math.min(imageWidth, Math.max(0, Math.round(p.x * sx))),
        y: Math.min(imageHeight, Math.max(0, Math.round(p.y * sy))),
      })),
    );
    if (distance(quad[0], quad[1]) <= 3 || distance(quad[0], quad[3]) <= 3) continue;
    boxes.push(quad);
  }
  return boxes;
}
