/**
 * Where the grid's keys move the focus (renderer/src/features/library/use-grid-keys.ts, `targetOf`),
 * on layouts made by the timeline's own layout code: by photo, by row in the same column (day
 * headers passed over, a shorter row's last photo), by a screenful, to the ends, and never outside.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutTimeline, type TimelineEntry } from '../../renderer/src/features/library/timeline-layout.ts';
import { targetOf } from '../../renderer/src/features/library/grid-moves.ts';

/** Day 1: 7 photos, day 2: 2 photos, day 3: 5 photos (newest first), laid out 3 to a row with day headers. */
function grid(groupByDay: boolean) {
  const items: TimelineEntry[] = [];
  let n = 0;
  for (const [day, count] of [[3, 7], [2, 2], [1, 5]] as const) {
    for (let i = 0; i < count; i++) items.push({ id: `p${n++}`, ts: Date.UTC(2024, 5, day, 12, 59 - i) });
  }
  // 3 tiles of 100 px and 2 gaps of 4 px fit in 308 px.
  const layout = layoutTimeline(items, { width: 308, minTile: 100, gap: 4, headerHeight: 44, groupByDay });
  return { layout, count: items.length };
}

test('by day: rows are [0 1 2] [3 4 5] [6] | [7 8] | [9 10 11] [12 13]', () => {
  const { layout } = grid(true);
  const rows = layout.rows.filter((r) => r.kind === 'tiles').map((r) => [r.firstIndex, r.count]);
  assert.deepEqual(rows, [[0, 3], [3, 3], [6, 1], [7, 2], [9, 3], [12, 2]]);
});

test('left and right go by one photo and stop at the ends', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('ArrowRight', 2, count, layout, 2), 3);
  assert.equal(targetOf('ArrowLeft', 3, count, layout, 2), 2);
  assert.equal(targetOf('ArrowLeft', 0, count, layout, 2), 0);
  assert.equal(targetOf('ArrowRight', count - 1, count, layout, 2), count - 1);
});

test('down and up keep the column, pass over day headers, and take a shorter row’s last photo', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('ArrowDown', 1, count, layout, 2), 4);
  assert.equal(targetOf('ArrowDown', 5, count, layout, 2), 6); // the next row holds one photo
  assert.equal(targetOf('ArrowDown', 6, count, layout, 2), 7); // over the header of day 2
  assert.equal(targetOf('ArrowDown', 8, count, layout, 2), 10); // over the header of day 1, column 1
  assert.equal(targetOf('ArrowUp', 11, count, layout, 2), 8); // column 2 up to a row of two
  assert.equal(targetOf('ArrowUp', 4, count, layout, 2), 1);
  assert.equal(targetOf('ArrowUp', 1, count, layout, 2), 1); // first row: stays
  assert.equal(targetOf('ArrowDown', 13, count, layout, 2), 13); // last row: stays
});

test('PageUp/PageDown go a screenful of rows (or to the ends), Home/End to the first and last photo', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('PageDown', 1, count, layout, 3), 7 + 1); // three tile rows down, column 1
  assert.equal(targetOf('PageDown', 12, count, layout, 3), count - 1);
  assert.equal(targetOf('PageUp', 10, count, layout, 3), 4);
  assert.equal(targetOf('PageUp', 1, count, layout, 3), 0);
  assert.equal(targetOf('Home', 9, count, layout, 3), 0);
  assert.equal(targetOf('End', 2, count, layout, 3), count - 1);
  assert.equal(targetOf('a', 2, count, layout, 3), null);
});

test('without day groups the rows are plain rows of three', () => {
  const { layout, count } = grid(false);
  assert.equal(targetOf('ArrowDown', 2, count, layout, 2), 5);
  assert.equal(targetOf('ArrowDown', 11, count, layout, 2), 13); // the last row holds 12 and 13: its last one
  assert.equal(targetOf('ArrowUp', 13, count, layout, 2), 10);
});
