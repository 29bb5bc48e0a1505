/**
 * The timeline's layout (renderer/src/features/library/timeline-layout.ts): days grouped by the
 * photos' own days (their wall clocks, read as UTC), and a layout continued page by page equal to one
 * made from scratch.
 */
process.env.TZ = 'Europe/Berlin'; // a viewer's zone with DST: it must not move anything

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstRowAt, layoutTimeline, type LayoutOptions, type TimelineEntry, type TimelineLayout } from '../../renderer/src/features/library/timeline-layout.ts';
import { seededRandom } from '../shared/seeded-random.ts';

/** Items newest first over the days around the 2024 DST changes, a few to many per day, some at midnight. */
function items(count: number, seed: number): (TimelineEntry & { ts: number })[] {
  const rand = seededRandom(seed);
  const out: (TimelineEntry & { ts: number })[] = [];
  let t = Date.UTC(2024, 10, 1);
  for (let i = 0; i < count; i++) {
    const r = rand();
    t -= r < 0.6 ? Math.floor(rand() * 600_000) : r < 0.9 ? Math.floor(rand() * 20 * 3_600_000) : Math.floor(rand() * 6 * 86_400_000);
    out.push({ id: `a${i}`, ts: t });
  }
  return out;
}

const shape = (l: TimelineLayout) => ({ rows: l.rows, columns: l.columns, tile: l.tile, height: l.height, count: l.count });
const OPTIONS: LayoutOptions = { width: 1000, minTile: 150, gap: 4, headerHeight: 44, groupByDay: true };
/** The photo's own calendar day: its wall clock read in UTC. */
const photoDay = (ts: number | null) => (ts === null ? 'none' : new Date(ts).toISOString().slice(0, 10));

test("each header holds exactly the items of one of the photos' days, whatever the viewer's zone", () => {
  const list = items(3000, 1);
  const layout = layoutTimeline(list, OPTIONS);
  const headers = layout.rows.filter((r) => r.kind === 'header');
  let covered = 0;
  for (const h of headers) {
    const day = photoDay(list[h.firstIndex]!.ts);
    for (let i = h.firstIndex; i < h.firstIndex + h.count; i++) assert.equal(photoDay(list[i]!.ts), day, `item ${i} under the header of ${day}`);
    if (h.firstIndex + h.count < list.length) assert.notEqual(photoDay(list[h.firstIndex + h.count]!.ts), day, 'the next day starts a header of its own');
    covered += h.count;
  }
  assert.equal(covered, list.length);
  // Rows of tiles fill up to the column count, each day starting a new row.
  for (const r of layout.rows) if (r.kind === 'tiles') assert.ok(r.count >= 1 && r.count <= layout.columns);
});

for (const groupByDay of [true, false]) {
  test(`a layout continued page by page equals one made from scratch (${groupByDay ? 'by day' : 'not grouped'})`, () => {
    const list = items(5000, groupByDay ? 2 : 3);
    const rand = seededRandom(4);
    const o = { ...OPTIONS, groupByDay };
    let layout: TimelineLayout | undefined;
    for (let n = 0; n < list.length; ) {
      n = Math.min(list.length, n + 1 + Math.floor(rand() * 250));
      layout = layoutTimeline(list.slice(0, n), o, layout);
      assert.deepEqual(shape(layout), shape(layoutTimeline(list.slice(0, n), o)), `after ${n} items`);
    }
  });
}

test('a list that is not the previous one plus more starts over', () => {
  const list = items(800, 5);
  const before = layoutTimeline(list.slice(0, 400), OPTIONS);
  // An item in the middle went to the trash; another width; fewer items.
  const changed = [...list.slice(0, 100), ...list.slice(101)];
  assert.deepEqual(shape(layoutTimeline(changed, OPTIONS, before)), shape(layoutTimeline(changed, OPTIONS)));
  assert.deepEqual(shape(layoutTimeline(list, { ...OPTIONS, width: 700 }, before)), shape(layoutTimeline(list, { ...OPTIONS, width: 700 })));
  assert.deepEqual(shape(layoutTimeline(list.slice(0, 300), OPTIONS, before)), shape(layoutTimeline(list.slice(0, 300), OPTIONS)));
  // The same ids with another time (a corrected capture date) change the days.
  const moved = list.map((e, i) => (i === 50 ? { ...e, ts: e.ts - 3 * 86_400_000 } : e)).sort((a, b) => b.ts - a.ts);
  assert.deepEqual(shape(layoutTimeline(moved, OPTIONS, before)), shape(layoutTimeline(moved, OPTIONS)));
});

test('firstRowAt finds the first row reaching below a position', () => {
  const layout = layoutTimeline(items(2000, 6), OPTIONS);
  for (const y of [-10, 0, 1, 500, 12_345, layout.height / 2, layout.height - 1, layout.height + 100]) {
    const i = firstRowAt(layout.rows, y);
    const expected = layout.rows.findIndex((r) => r.top + r.height > y);
    assert.equal(i, expected === -1 ? layout.rows.length : expected, `at ${y}`);
  }
});
