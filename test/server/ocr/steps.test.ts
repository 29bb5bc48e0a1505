/**
 * The pure steps between detection and recognition on small hand-made images: perspective crop, turning,
 * vertical columns cut into cells, detector input size and channel order, reading order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cropLine, rotate180, warpQuad } from '../../../server/src/features/ocr/crop.ts';
import { dbPostprocess } from '../../../server/src/features/ocr/db-postprocess.ts';
import { detInput, detInputSize, normaliseBgr } from '../../../server/src/features/ocr/det-input.ts';
import { lineHeight, needsLargerSource } from '../../../server/src/features/ocr/recognise.ts';
import { readingOrder } from '../../../server/src/features/ocr/reading-order.ts';
import { stripBatch, widthBatches } from '../../../server/src/features/ocr/strip-input.ts';
import type { Quad, RgbImage } from '../../../server/src/features/ocr/types.ts';
import { cellCuts } from '../../../server/src/features/ocr/vertical.ts';

const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 },
];

/** An image whose pixel (x, y) is (x, y, 100) in R, G, B. */
function gradient(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 100], (y * width + x) * 3);
  return { data, width, height };
}
const px = (img: RgbImage, x: number, y: number) => Array.from(img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3));

describe('OCR steps', () => {
  test('an axis-aligned box at scale 1 crops exactly those pixels', () => {
    const img = gradient(64, 64);
    const crop = warpQuad(img, quad(10, 20, 40, 30), 30, 10);
    assert.deepEqual(px(crop, 0, 0), [10, 20, 100]);
    assert.deepEqual(px(crop, 29, 9), [39, 29, 100]);
  });

  test('cropLine keeps the aspect ratio at height 48; a tall box is turned 90° counter-clockwise', () => {
    const img = gradient(200, 200);
    const wide = cropLine(img, quad(0, 0, 100, 24));
    assert.deepEqual([wide.width, wide.height], [200, 48]);
    const tall = cropLine(img, quad(50, 0, 74, 192)); // 24 × 192: vertical
    assert.deepEqual([tall.width, tall.height], [384, 48]);
    // Counter-clockwise: the box's top-right corner comes to the strip's top-left, its top-left to bottom-left.
    const [r0, g0] = px(tall, 0, 0);
    assert.ok(r0! >= 72 && g0! <= 2, `top-left of the strip is the box's top-right: ${px(tall, 0, 0)}`);
    const [r1, g1] = px(tall, 0, 47);
    assert.ok(r1! <= 51 && g1! <= 2, `bottom-left of the strip is the box's top-left: ${px(tall, 0, 47)}`);
  });

  test('rotate180 reverses the pixels; strips batch as BGR planes in [-1, 1], right-padded with 0', () => {
    const img = gradient(3, 2);
    assert.deepEqual(px(rotate180(img), 0, 0), px(img, 2, 1));
    const t = stripBatch([{ data: new Uint8Array([255, 0, 0, 0, 0, 255]), width: 2, height: 1 }], 4);
    assert.deepEqual(t.dims, [1, 3, 1, 4]);
    // Plane 0 is blue: pixel 0 (red) has none, pixel 1 (blue) is full; columns 2–3 are padding.
    assert.deepEqual(Array.from(t.data), [-1, 1, 0, 0, -1, -1, 0, 0, 1, -1, 0, 0]);
  });

  test('recognition batches: by width, at most 6, a new batch when a strip is over twice the first (both ≥ 320)', () => {
    const widths = [900, 100, 330, 2000, 640, 50, 700, 400, 320, 310, 641];
    assert.deepEqual(widthBatches(widths, 6, 320), [[5, 1, 9, 8, 2, 7], [4, 10, 6, 0], [3]]);
    assert.deepEqual(widthBatches([], 6, 320), []);
  });

  test('detector input: longest side ≤ 960, padded to multiples of 32, small images not enlarged; planes in B, G, R order', () => {
    assert.deepEqual(detInputSize(6000, 4000), { frame: { width: 960, height: 640 }, width: 960, height: 640 });
    assert.deepEqual(detInputSize(555, 418), { frame: { width: 555, height: 418 }, width: 576, height: 448 });
    assert.deepEqual(detInputSize(1, 1), { frame: { width: 1, height: 1 }, width: 32, height: 32 });
    const t = normaliseBgr({ data: new Uint8Array([255, 0, 0]), width: 1, height: 1 }, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
    // A red pixel: blue plane (mean 0.485) at 0, red plane (mean 0.406, std 0.225) at 1.
    assert.ok(Math.abs(t.data[0]! - -0.485 / 0.229) < 1e-5);
    assert.ok(Math.abs(t.data[2]! - (1 - 0.406) / 0.225) < 1e-5);
  });

  test('an 800 × 600 image is padded to 800 × 608, not stretched: its pixels pass as they are, the padding is the mean', async () => {
    const img = gradient(800, 600);
    const { tensor, frame } = await detInput(img);
    assert.deepEqual(tensor.dims, [1, 3, 608, 800]);
    assert.deepEqual(frame, { width: 800, height: 600 });
    const plane = 608 * 800;
    // Pixel (x, y) is (R x, G y, B 100) wherever y < 256 (the gradient's bytes wrap above 255).
    const expect = (v: number, c: 0 | 1 | 2) => (v / 255 - [0.485, 0.456, 0.406][c]!) / [0.229, 0.224, 0.225][c]!;
    for (const [x, y] of [[0, 0], [255, 17], [3, 250], [799, 599]] as const) {
      const [r, g, b] = px(img, x, y);
      assert.ok(Math.abs(tensor.data[y * 800 + x]! - expect(b!, 0)) < 1e-5, `blue at ${x},${y}`);
      assert.ok(Math.abs(tensor.data[plane + y * 800 + x]! - expect(g!, 1)) < 1e-5, `green at ${x},${y}`);
      assert.ok(Math.abs(tensor.data[2 * plane + y * 800 + x]! - expect(r!, 2)) < 1e-5, `red at ${x},${y}`);
    }
    for (const c of [0, 1, 2]) for (const y of [600, 607]) assert.equal(tensor.data[c * plane + y * 800 + 5], 0, `padding row ${y}`);
  });

  test('boxes from a padded map are in image pixels: the frame scales them, what lies in the padding is clipped off', () => {
    // A 64 × 64 map over a 32 × 48 frame of a 320 × 480 image (×10): a line at rows 10–19, and a blob in the padding.
    const data = new Float32Array(64 * 64);
    for (let y = 10; y < 20; y++) for (let x = 4; x < 28; x++) data[y * 64 + x] = 0.9;
    for (let y = 50; y < 60; y++) for (let x = 40; x < 60; x++) data[y * 64 + x] = 0.9;
    const boxes = dbPostprocess({ data, dims: [1, 1, 64, 64] }, 320, 480, { width: 32, height: 48 });
    assert.equal(boxes.length, 1, JSON.stringify(boxes));
    const xs = boxes[0]!.map((p) => p.x), ys = boxes[0]!.map((p) => p.y);
    assert.ok(Math.min(...xs) < 40 && Math.max(...xs) > 270 && Math.min(...ys) < 100 && Math.max(...ys) > 190, JSON.stringify(boxes[0]));
  });

  test('the larger decode is asked for only when a line is thinner than the recogniser input (48 px)', () => {
    assert.equal(lineHeight(quad(0, 0, 300, 40)), 40);
    assert.equal(lineHeight(quad(0, 0, 30, 200)), 30, 'a vertical line: its width');
    assert.equal(needsLargerSource([quad(0, 0, 300, 48), quad(0, 100, 50, 160)]), false);
    assert.equal(needsLargerSource([quad(0, 0, 300, 48), quad(0, 100, 300, 140)]), true);
    assert.equal(needsLargerSource([quad(0, 0, 40, 300)]), true);
  });

  test('a column is cut in its blank rows at about the pitch; a short character does not merge with its neighbour', () => {
    // Three 40-row characters with 8 blank rows between them, then a 10-row bar ("一") and 20 blank rows.
    const rows = [...Array(40).fill(0.4), ...Array(8).fill(0), ...Array(40).fill(0.5), ...Array(8).fill(0), ...Array(40).fill(0.3), ...Array(15).fill(0), ...Array(10).fill(0.6), ...Array(20).fill(0)];
    const cuts = cellCuts(Float32Array.from(rows), 48);
    assert.equal(cuts[0], 0);
    assert.equal(cuts.at(-1), rows.length);
    assert.equal(cuts.length - 1, 4, `cells at ${cuts}`);
    for (const c of cuts.slice(1, -1)) assert.equal(rows[c], 0, `cut at ${c} goes through ink`);
  });

  test('reading order: rows top to bottom, left to right inside a row, whatever order the boxes came in', () => {
    const items = [
      { id: 'E', box: quad(530, 177, 565, 211) },
      { id: '愚园路', box: quad(194, 85, 456, 152) },
      { id: 'W', box: quad(81, 176, 126, 212) },
      { id: '西', box: quad(89, 81, 133, 125) },
      { id: 'Yuyuan', box: quad(233, 176, 412, 208) },
    ];
    assert.deepEqual(readingOrder(items).map((i) => i.id), ['西', '愚园路', 'W', 'Yuyuan', 'E']);
  });
});
