/**
 * Where the grid's keys move the focus (renderer/src/photos/use-grid-keys.ts, `targetOf`),
 * on layouts made by the timeline's own layout code (justified rows, days flowing inside rows, a
 * month header): by photo, by row to the photo nearest the same place across (the month header
 * passed over, a shorter row's nearest photo), by a screenful, to the ends, and never outside.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutTimeline, type TimelineEntry } from '../../renderer/src/photos/timeline-layout.ts';
import { targetOf } from '../../renderer/src/photos/grid-moves.ts';

/** Day 1: 7 square photos, day 2: 2, day 3: 5 (newest first), in a 320 px grid aiming at 100 px rows. */
function grid(groupByDay: boolean) {
  const items: TimelineEntry[] = [];
  let n = 0;
  for (const [day, count] of [[3, 7], [2, 2], [1, 5]] as const) {
    for (let i = 0; i < count; i++) items.push({ id: `p${n++}`, ts: Date.UTC(2024, 5, day, 12, 59 - i), ratio: 1 });
  }
  const layout = layoutTimeline(items, { width: 320, rowHeight: 100, gap: 4, dayGap: 8, dayHeader: 28, monthHeader: 52, groupByDay });
  return { layout, count: items.length };
}

test('the layout the tests walk: a month header, then rows [0-3] [4-7] [8-11] [12 13] (days flow inside rows)', () => {
  const { layout } = grid(true);
  assert.deepEqual(
    layout.rows.map((r) => (r.kind === 'tiles' ? [r.firstIndex, r.count] : r.kind)),
    ['month', [0, 4], [4, 4], [8, 4], [12, 2]],
  );
});

test('left and right go by one photo and stop at the ends', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('ArrowRight', 3, count, layout, 2), 4);
  assert.equal(targetOf('ArrowLeft', 4, count, layout, 2), 3);
  assert.equal(targetOf('ArrowLeft', 0, count, layout, 2), 0);
  assert.equal(targetOf('ArrowRight', count - 1, count, layout, 2), count - 1);
});

test('down and up go to the photo nearest the same place across; the edges stay', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('ArrowDown', 1, count, layout, 2), 5);
  assert.equal(targetOf('ArrowDown', 7, count, layout, 2), 11);
  assert.equal(targetOf('ArrowDown', 10, count, layout, 2), 13); // the last row is short: its nearest photo
  assert.equal(targetOf('ArrowDown', 8, count, layout, 2), 12);
  assert.equal(targetOf('ArrowUp', 13, count, layout, 2), 9); // 104–204 is nearest 87–162
  assert.equal(targetOf('ArrowUp', 4, count, layout, 2), 0); // the month header above is passed over
  assert.equal(targetOf('ArrowUp', 1, count, layout, 2), 1); // first row: stays
  assert.equal(targetOf('ArrowDown', 13, count, layout, 2), 13); // last row: stays
});

test('PageUp/PageDown go a screenful of rows (or to the ends), Home/End to the first and last photo', () => {
  const { layout, count } = grid(true);
  assert.equal(targetOf('PageDown', 1, count, layout, 2), 9);
  assert.equal(targetOf('PageDown', 9, count, layout, 3), 13);
  assert.equal(targetOf('PageUp', 13, count, layout, 2), 5);
  assert.equal(targetOf('PageUp', 5, count, layout, 3), 1);
  assert.equal(targetOf('Home', 9, count, layout, 3), 0);
  assert.equal(targetOf('End', 2, count, layout, 3), count - 1);
  assert.equal(targetOf('a', 2, count, layout, 3), null);
});

test('without day groups the rows are plain justified rows', () => {
  const { layout, count } = grid(false);
  assert.equal(layout.rows[0]!.kind, 'tiles');
  assert.equal(targetOf('ArrowDown', 2, count, layout, 2), 6);
  assert.equal(targetOf('ArrowUp', 13, count, layout, 2), 9);
  assert.equal(targetOf('ArrowUp', 0, count, layout, 2), 0);
});
