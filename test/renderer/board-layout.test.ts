/**
 * The Board's moves (renderer/src/features/assistant-board/board-layout.ts): a dragged or resized pin takes its
 * place and the pins it would cover go down below it, nothing overlaps, only the pins that moved are reported;
 * the phone's Move up/down swap two neighbours in the reading order and keep that order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changes, place, readingOrder, step, type Layout, type Placed } from '../../renderer/src/features/assistant-board/board-layout.ts';

const pin = (id: string, x: number, y: number, w = 4, h = 4): Placed => ({ id, layout: { x, y, w, h } });
/** Three 4×4 pins side by side on the first row, a fourth below the first. */
const board = () => [pin('a', 0, 0), pin('b', 4, 0), pin('c', 8, 0), pin('d', 0, 4)];
const at = (pins: Placed[], id: string): Layout => pins.find((p) => p.id === id)!.layout;
const order = (pins: Placed[]) => readingOrder(pins).map((p) => p.id).join('');

function assertNoOverlap(pins: Placed[]) {
  for (const p of pins) {
    assert.ok(p.layout.x >= 0 && p.layout.x + p.layout.w <= 12, `${p.id} inside the 12 columns`);
    for (const q of pins) {
      if (p === q) continue;
      const [a, b] = [p.layout, q.layout];
      assert.ok(!(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h), `${p.id} and ${q.id} overlap`);
    }
  }
}

test('a pin dragged onto another takes its place; the covered one goes below it; the others stay', () => {
  const after = place(board(), 'c', { x: 0, y: 0 });
  assertNoOverlap(after);
  assert.deepEqual(at(after, 'c'), { x: 0, y: 0, w: 4, h: 4 });
  assert.deepEqual(at(after, 'a'), { x: 0, y: 4, w: 4, h: 4 });
  assert.deepEqual(at(after, 'd'), { x: 0, y: 8, w: 4, h: 4 });
  assert.deepEqual(at(after, 'b'), { x: 4, y: 0, w: 4, h: 4 });
  assert.deepEqual(changes(board(), after).map((m) => m.pin_id).sort(), ['a', 'c', 'd']);
});

test('a drag into free space moves only that pin; a place past the right edge is brought inside', () => {
  const after = place(board(), 'd', { x: 10, y: 6 });
  assert.deepEqual(at(after, 'd'), { x: 8, y: 6, w: 4, h: 4 });
  assert.deepEqual(changes(board(), after), [{ pin_id: 'd', layout: { x: 8, y: 6, w: 4, h: 4 } }]);
  assert.deepEqual(changes(board(), place(board(), 'd', { x: 0, y: 4 })), [], 'dropped where it was: nothing to save');
});

test('a pin made wider pushes the one beside it down, never out of the grid', () => {
  const after = place(board(), 'a', { w: 6, h: 4 });
  assertNoOverlap(after);
  assert.deepEqual(at(after, 'a'), { x: 0, y: 0, w: 6, h: 4 });
  assert.equal(at(after, 'b').y, 4);
  const full = place(board(), 'b', { w: 12 });
  assertNoOverlap(full);
  assert.deepEqual(at(full, 'b'), { x: 0, y: 0, w: 12, h: 4 }, 'a full-width pin starts at the first column');
});

test("the phone's moves swap neighbours in the reading order and keep it, at both ends null", () => {
  assert.equal(order(board()), 'abcd');
  const down = step(board(), 'a', 1)!;
  assertNoOverlap(down);
  assert.equal(order(down), 'bacd');
  assert.deepEqual(at(down, 'b'), { x: 0, y: 0, w: 4, h: 4 }, 'the desktop sees the same swap');
  const up = step(board(), 'd', -1)!;
  assertNoOverlap(up);
  assert.equal(order(up), 'abdc');
  assert.equal(step(board(), 'a', -1), null);
  assert.equal(step(board(), 'd', 1), null);
  // Neighbours of different sizes: the order still holds, and nothing overlaps.
  const mixed = [pin('a', 0, 0, 4, 4), pin('b', 4, 0, 8, 2), pin('c', 4, 2, 8, 2)];
  const moved = step(mixed, 'a', 1)!;
  assertNoOverlap(moved);
  assert.equal(order(moved), 'bac');
});
