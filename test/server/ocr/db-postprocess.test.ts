/**
 * DB post-processing on small hand-made probability maps, where the right boxes can be worked out by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dbPostprocess, textRegions, unclipDistance } from '../../../server/src/features/ocr/db-postprocess.ts';
import { minAreaRect } from '../../../server/src/features/ocr/geometry.ts';
import { OCR_PARAMS } from '../../../server/src/features/ocr/params.ts';
import type { Quad, Tensor } from '../../../server/src/features/ocr/types.ts';

function map(width: number, height: number, paint: (x: number, y: number) => number): Tensor {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = paint(x, y);
  return { data, dims: [1, 1, height, width] };
}

const inRect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 && x <= x1 && y >= y0 && y <= y1;

function assertQuad(actual: Quad, expected: [number, number][], tolerance = 1): void {
  actual.forEach((p, i) => {
    const [x, y] = expected[i]!;
    assert.ok(Math.abs(p.x - x) <= tolerance && Math.abs(p.y - y) <= tolerance, `corner ${i}: got ${p.x},${p.y}, expected ${x},${y}`);
  });
}

describe('DB post-processing', () => {
  test('one confident rectangle: grown by area·1.5/perimeter, scaled to the image, corners clockwise from top-left', () => {
    // Pixels x 20..59, y 10..19 of a 64×64 map: the rectangle through the pixel centres is 39 × 9.
    const prob = map(64, 64, (x, y) => (inRect(x, y, 20, 10, 59, 19) ? 0.9 : 0.05));
    const boxes = dbPostprocess(prob, 128, 128);
    assert.equal(boxes.length, 1);
    // d = 39·9·1.5 / (2·(39+9)) = 5.484 → x 14.52..64.48, y 4.52..24.48 in the map; ×2 in the image, rounded.
    assertQuad(boxes[0]!, [[29, 9], [129, 9], [129, 49], [29, 49]].map(([x, y]) => [Math.min(128, x!), y!] as [number, number]), 0);
  });

  test('the map may be stretched differently in x and y (the detector input is rounded to multiples of 32)', () => {
    const prob = map(64, 32, (x, y) => (inRect(x, y, 20, 10, 59, 19) ? 0.9 : 0.05));
    const [box] = dbPostprocess(prob, 640, 160); // x ×10, y ×5
    assert.ok(box);
    assertQuad(box, [[145, 23], [640, 23], [640, 122], [145, 122]], 1);
  });

  test('a region above the pixel threshold but with a low mean probability is dropped (box score ≤ 0.6)', () => {
    const prob = map(64, 64, (x, y) => (inRect(x, y, 10, 10, 50, 20) ? 0.45 : 0));
    assert.equal(textRegions(prob.data, 64, 64, OCR_PARAMS.db.threshold, 100).length, 1);
    assert.deepEqual(dbPostprocess(prob, 64, 64), []);
  });

  test('specks thinner than the minimum size are dropped; nothing above the threshold gives no boxes', () => {
    const specks = map(64, 64, (x, y) => (inRect(x, y, 5, 5, 6, 6) || inRect(x, y, 20, 30, 60, 31) ? 0.99 : 0));
    assert.deepEqual(dbPostprocess(specks, 64, 64), []);
    assert.deepEqual(dbPostprocess(map(64, 64, () => 0.29), 64, 64), []);
  });

  test('separate regions give separate boxes; touching diagonally is one region (8-neighbour)', () => {
    const two = map(96, 64, (x, y) => (inRect(x, y, 5, 5, 40, 15) || inRect(x, y, 50, 40, 90, 55) ? 0.95 : 0));
    assert.equal(dbPostprocess(two, 96, 64).length, 2);
    const diagonal = map(16, 16, (x, y) => (inRect(x, y, 2, 2, 5, 5) || inRect(x, y, 6, 6, 9, 9) ? 0.95 : 0));
    assert.equal(textRegions(diagonal.data, 16, 16, 0.3, 100).length, 1);
  });

  test('a tilted line gives a rotated box along the line, not an axis-aligned one', () => {
    // A band 8 px thick along a 20° line through (64, 64).
    const angle = (20 * Math.PI) / 180;
    const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
    const prob = map(128, 128, (x, y) => {
      const u = (x - 64) * ux + (y - 64) * uy;
      const v = -(x - 64) * uy + (y - 64) * ux;
      return Math.abs(u) <= 40 && Math.abs(v) <= 4 ? 0.9 : 0;
    });
    const [box] = dbPostprocess(prob, 128, 128);
    assert.ok(box);
    const [tl, tr, br, bl] = box;
    const topAngle = (Math.atan2(tr.y - tl.y, tr.x - tl.x) * 180) / Math.PI;
    assert.ok(Math.abs(topAngle - 20) < 3, `top edge at ${topAngle.toFixed(1)}°`);
    // Long side ≈ 80 + 2d, short side ≈ 8 + 2d with d = 80·8·1.5/176 ≈ 5.5 (pixel grid: ±2).
    const long = Math.hypot(tr.x - tl.x, tr.y - tl.y), short = Math.hypot(bl.x - tl.x, bl.y - tl.y);
    assert.ok(Math.abs(long - 91) < 3 && Math.abs(short - 19) < 3, `sides ${long.toFixed(1)} × ${short.toFixed(1)}`);
    assert.ok(Math.abs(Math.hypot(br.x - bl.x, br.y - bl.y) - long) < 1.5);
  });

  test('unclip distance and minimum-area rectangle of a plain rectangle', () => {
    const r = minAreaRect([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 4 }, { x: 0, y: 4 }, { x: 5, y: 2 }]);
    assert.deepEqual([r.width, r.height].sort((a, b) => a - b), [4, 10]);
    assert.equal(unclipDistance(r, 1.5), (40 * 1.5) / 28);
    // One pixel: a degenerate rectangle, not a crash.
    assert.equal(minAreaRect([{ x: 3, y: 3 }, { x: 3, y: 3 }]).width, 0);
  });
});
