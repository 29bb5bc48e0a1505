/**
 * The timeline's layout (renderer/src/photos/timeline-layout.ts): justified rows with each
 * photo's aspect ratio, days flowing inside rows with a label over their first tile, a month header
 * where a month that fills a row begins, small months flowing on in the rows before them (issue 24),
 * the last row before a header not stretched; days grouped by the photos' own
 * days (their wall clocks, read as UTC); and a layout continued page by page equal to one made from
 * scratch.
 */
process.env.TZ = 'Europe/Berlin'; // a viewer's zone with DST: it must not move anything

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  firstRowAt,
  layoutTimeline,
  MAX_RATIO,
  rowOfItem,
  type LayoutOptions,
  type TimelineEntry,
  type TimelineLayout,
  type TimelineRow,
} from '../../renderer/src/photos/timeline-layout.ts';
import { seededRandom } from '../shared/seeded-random.ts';

type Tiles = Extract<TimelineRow, { kind: 'tiles' }>;

/** Items newest first over the days around the 2024 DST changes, a few to many per day, some at midnight, mixed shapes. */
function items(count: number, seed: number): (TimelineEntry & { ts: number })[] {
  const rand = seededRandom(seed);
  const shapes = [4 / 3, 3 / 4, 16 / 9, 9 / 16, 1, 3.5, 0.2, null];
  const out: (TimelineEntry & { ts: number })[] = [];
  let t = Date.UTC(2024, 10, 1);
  for (let i = 0; i < count; i++) {
    const r = rand();
    t -= r < 0.6 ? Math.floor(rand() * 600_000) : r < 0.9 ? Math.floor(rand() * 20 * 3_600_000) : Math.floor(rand() * 6 * 86_400_000);
    out.push({ id: `a${i}`, ts: t, ratio: shapes[Math.floor(rand() * shapes.length)]! });
  }
  return out;
}

const shape = (l: TimelineLayout) => ({ rows: l.rows, height: l.height, count: l.count });
const OPTIONS: LayoutOptions = { width: 1000, rowHeight: 160, gap: 4, dayGap: 8, dayHeader: 28, monthHeader: 48, groupByDay: true };
/** The photo's own calendar day: its wall clock read in UTC. */
const photoDay = (ts: number | null) => (ts === null ? 'none' : new Date(ts).toISOString().slice(0, 10));
const tileRows = (l: TimelineLayout) => l.rows.filter((r): r is Tiles => r.kind === 'tiles');
/** Each day label with the items up to the next label. */
function dayGroups(l: TimelineLayout) {
  const labels = tileRows(l).flatMap((r) => r.days);
  return labels.map((d, n) => ({ ...d, count: (n + 1 < labels.length ? labels[n + 1]!.firstIndex : l.count) - d.firstIndex }));
}
const day = (d: number, h = 12) => Date.UTC(2024, 2, d, h);
const near = (a: number, b: number, msg: string) => assert.ok(Math.abs(a - b) < 1e-6, `${msg}: ${a} ≠ ${b}`);

test('full rows are justified to the width with each tile at its aspect ratio; rows never grow above the target height', () => {
  const list = items(3000, 11);
  const layout = layoutTimeline(list, OPTIONS);
  const rows = tileRows(layout);
  let full = 0;
  for (const [n, r] of rows.entries()) {
    assert.ok(r.tileHeight <= OPTIONS.rowHeight + 1e-9, 'no row above the target height');
    for (let c = 0; c < r.count; c++) {
      const ratio = list[r.firstIndex + c]!.ratio ?? 1;
      near(r.widths[c]! / r.tileHeight, Math.min(MAX_RATIO, Math.max(0.4, ratio)), `tile ${r.firstIndex + c}'s shape`);
      if (c > 0) assert.ok(r.lefts[c]! >= r.lefts[c - 1]! + r.widths[c - 1]! + OPTIONS.gap - 1e-9, 'tiles do not overlap');
    }
    const right = r.lefts[r.count - 1]! + r.widths[r.count - 1]!;
    assert.ok(right <= OPTIONS.width + 1e-6, 'no tile past the width');
    // A row that is followed by another row of the same month is full to the pixel.
    const next = rows[n + 1];
    const lastOfMonth = !next || layout.rows[layout.rows.indexOf(r) + 1]!.kind === 'month';
    if (!lastOfMonth) {
      near(right, OPTIONS.width, `row ${n} is justified`);
      full++;
    }
  }
  assert.ok(full > rows.length / 2, 'most rows are full');
});

test('mixed aspect ratios: a portrait and landscapes in one row share one height and fill the width', () => {
  const list: TimelineEntry[] = [
    { id: 'land', ts: day(10), ratio: 4 / 3 },
    { id: 'portrait', ts: day(10, 11), ratio: 3 / 4 },
    { id: 'wide', ts: day(10, 10), ratio: 16 / 9 },
    { id: 'square', ts: day(10, 9), ratio: null },
    { id: 'pano', ts: day(10, 8), ratio: 10 }, // clamped to 3:1
    { id: 'last', ts: day(10, 7), ratio: 1 },
  ];
  const o = { ...OPTIONS, width: 600, rowHeight: 150 };
  const layout = layoutTimeline(list, o);
  const [first, second] = tileRows(layout);
  // 4/3 + 3/4 + 16/9 at 150 px is 579 px with gaps; adding the square reaches 600: the row is those four.
  assert.equal(first!.count, 4);
  const sum = 4 / 3 + 3 / 4 + 16 / 9 + 1;
  near(first!.tileHeight, (600 - 3 * o.gap) / sum, 'the height that makes the four fill the width');
  near(first!.widths[1]!, (3 / 4) * first!.tileHeight, 'the portrait is narrower');
  near(first!.widths[2]!, (16 / 9) * first!.tileHeight, 'the wide one is wider');
  // The panorama (3:1 at 150 = 450 px) and the last square: 604 px ≥ 600, a full row.
  assert.equal(second!.count, 2);
  near(second!.widths[0]! / second!.tileHeight, MAX_RATIO, 'a panorama counts as 3:1');
  near(second!.lefts[1]! + second!.widths[1]!, 600, 'justified');
});

test('the last row before a month header is not stretched: it keeps the target height and leaves the rest empty', () => {
  const march = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ id: `mar${n}`, ts: day(20, 20 - n), ratio: 4 / 3 }));
  const january = [1, 2, 3, 4, 5, 6].map((n) => ({ id: `jan${n}`, ts: Date.UTC(2024, 0, 10, 20 - n), ratio: 4 / 3 }));
  const list: TimelineEntry[] = [...march, ...january];
  const layout = layoutTimeline(list, { ...OPTIONS, width: 860 });
  const rows = tileRows(layout);
  // 860 px at 160 px high takes four 4:3 tiles (4 × 213 + 12 ≥ 860); three are left for a second row.
  assert.deepEqual(rows.map((r) => r.count), [4, 3, 4, 2]);
  assert.deepEqual(layout.rows.filter((r) => r.kind === 'month').map((m) => m.firstIndex), [0, 7], 'both months fill a row: a header each');
  assert.ok(rows[0]!.tileHeight < OPTIONS.rowHeight);
  assert.equal(rows[1]!.tileHeight, OPTIONS.rowHeight, "March's last row at the target height");
  near(rows[1]!.widths[2]!, (4 / 3) * OPTIONS.rowHeight, 'its tiles at their own size');
  assert.ok(rows[1]!.lefts[2]! + rows[1]!.widths[2]! < 860 - 100, 'the rest of the width left empty');
  assert.equal(rows[3]!.tileHeight, OPTIONS.rowHeight, "January's last row, the list's last, not stretched either");
  // Ungrouped lists: only the very last row.
  const flat = tileRows(layoutTimeline(list, { ...OPTIONS, width: 860, groupByDay: false }));
  assert.deepEqual(flat.map((r) => r.count), [4, 4, 4, 1], 'the months flow together');
  const short = tileRows(layoutTimeline(list.slice(0, 6), { ...OPTIONS, width: 860, groupByDay: false }));
  assert.deepEqual(short.map((r) => r.count), [4, 2]);
  assert.equal(short[1]!.tileHeight, OPTIONS.rowHeight, 'the last row at the target height');
});

test('a small month flows on in the row before it, without a header; its day label says so (headed false)', () => {
  const march = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ id: `mar${n}`, ts: day(20, 20 - n), ratio: 4 / 3 }));
  const february = { id: 'feb', ts: Date.UTC(2024, 1, 10, 12), ratio: 4 / 3 };
  const january = [1, 2, 3, 4, 5, 6].map((n) => ({ id: `jan${n}`, ts: Date.UTC(2024, 0, 10, 20 - n), ratio: 4 / 3 }));
  const layout = layoutTimeline([...march, february, ...january], { ...OPTIONS, width: 860 });
  const rows = tileRows(layout);
  assert.deepEqual(rows.map((r) => r.count), [4, 4, 4, 2], "February's one photo ends March's last row");
  assert.deepEqual(layout.rows.filter((r) => r.kind === 'month').map((m) => m.firstIndex), [0, 8], 'no header for February');
  assert.ok(rows[1]!.tileHeight < OPTIONS.rowHeight, 'that row is full now, and justified');
  assert.deepEqual(rows[1]!.days.map((d) => [d.firstIndex, d.headed]), [[7, false]], "February's day: labelled, under no header of its own");
  assert.deepEqual(rows[0]!.days.map((d) => [d.firstIndex, d.headed]), [[0, true]]);
  assert.deepEqual(rows[2]!.days.map((d) => [d.firstIndex, d.headed]), [[8, true]]);
});

test('a sparse library on a phone: one photo a month shares rows, not a header and a row per photo', () => {
  // Twelve photos, each in a month (and most in a year) of its own, as an old scanned album is.
  const list: TimelineEntry[] = Array.from({ length: 12 }, (_, n) => ({ id: `p${n}`, ts: Date.UTC(2020 - n, 11 - n, 10, 12), ratio: n % 3 === 0 ? 3 / 4 : 4 / 3 }));
  const o = { ...OPTIONS, width: 382, rowHeight: 110 };
  const layout = layoutTimeline(list, o);
  const rows = tileRows(layout);
  assert.equal(layout.rows.filter((r) => r.kind === 'month').length, 0, 'no month fills a row: no headers');
  assert.ok(rows.length <= 6, `${list.length} photos on ${rows.length} rows, not one row each`);
  assert.ok(rows.slice(0, -1).every((r) => r.count >= 2), 'every row but the last holds two photos or more');
  const groups = dayGroups(layout);
  assert.deepEqual(groups.map((g) => [g.firstIndex, g.count]), list.map((_, n) => [n, 1]), 'a label for each day');
  assert.ok(groups.every((g) => !g.headed), 'each label under no header: it carries its year');
  // A busy month in the middle still starts a row of its own under its header.
  const busy = Array.from({ length: 8 }, (_, n) => ({ id: `b${n}`, ts: Date.UTC(2015, 0, 20, 20 - n), ratio: 4 / 3 }));
  const mixed = [...list.slice(0, 5), ...busy, ...list.slice(5)];
  const withBusy = layoutTimeline(mixed, o);
  assert.deepEqual(withBusy.rows.filter((r) => r.kind === 'month').map((m) => m.firstIndex), [5]);
  const after = withBusy.rows[withBusy.rows.findIndex((r) => r.kind === 'month') + 1]!;
  assert.equal(after.firstIndex, 5, 'the busy month starts its row');
});

test('a day with one photo shares its row with the next days; each day has a label over its first tile', () => {
  // One photo a day for ten days of March, then three on the 5th.
  const list: TimelineEntry[] = [
    ...[20, 19, 18, 17, 16, 15, 14, 13, 12, 11].map((d) => ({ id: `d${d}`, ts: day(d), ratio: 1 })),
    ...[0, 1, 2].map((n) => ({ id: `five${n}`, ts: day(5, 15 - n), ratio: 1 })),
  ];
  const o = { ...OPTIONS, width: 1000, rowHeight: 150 };
  const layout = layoutTimeline(list, o);
  const rows = tileRows(layout);
  assert.equal(layout.rows[0]!.kind, 'month', 'a month header first');
  assert.equal(layout.rows.filter((r) => r.kind === 'month').length, 1, 'one month, one header');
  assert.ok(rows[0]!.count > 1, 'the first row holds more than one day');
  assert.ok(rows.length < list.length / 2, `${list.length} photos on ${rows.length} rows, not one row per day`);
  // Every day has exactly one label, over its first tile, in the band of that tile's row.
  const groups = dayGroups(layout);
  assert.deepEqual(
    groups.map((g) => [photoDay(g.ts), g.count]),
    [...[20, 19, 18, 17, 16, 15, 14, 13, 12, 11].map((d) => [photoDay(day(d)), 1]), [photoDay(day(5)), 3]],
  );
  for (const r of rows) {
    assert.equal(r.band, r.days.length ? o.dayHeader : 0, 'a band exactly where a day starts');
    assert.equal(r.height, r.band + r.tileHeight);
    for (const d of r.days) {
      assert.equal(d.left, r.lefts[d.firstIndex - r.firstIndex], 'label at its first tile');
      assert.ok(d.width > 0 && d.left + d.width <= o.width + 1e-6);
    }
    // Labels of one row do not overlap.
    for (let n = 1; n < r.days.length; n++) assert.ok(r.days[n - 1]!.left + r.days[n - 1]!.width <= r.days[n]!.left);
  }
  // Days in a row are set apart by the extra day gap; tiles of one day by the gap.
  const r0 = rows[0]!;
  near(r0.lefts[1]! - (r0.lefts[0]! + r0.widths[0]!), o.gap + o.dayGap, 'between two days');
});

test("month headers where the month changes; each label holds exactly one of the photos' days, whatever the viewer's zone", () => {
  const list = items(3000, 1);
  const layout = layoutTimeline(list, OPTIONS);
  const groups = dayGroups(layout);
  let covered = 0;
  for (const g of groups) {
    const d = photoDay(list[g.firstIndex]!.ts);
    assert.equal(photoDay(g.ts), d);
    for (let i = g.firstIndex; i < g.firstIndex + g.count; i++) assert.equal(photoDay(list[i]!.ts), d, `item ${i} under the label of ${d}`);
    if (g.firstIndex + g.count < list.length) assert.notEqual(photoDay(list[g.firstIndex + g.count]!.ts), d, 'the next day has a label of its own');
    covered += g.count;
  }
  assert.equal(covered, list.length);
  // A month header exactly before the first item of each month that fills a row at the target
  // height; a row spans two months only where the later one is small (no header of its own).
  const monthOf = (i: number) => photoDay(list[i]!.ts).slice(0, 7);
  const firsts = list.flatMap((e, i) => (i === 0 || monthOf(i - 1) !== monthOf(i) ? [i] : []));
  const fills = (start: number) => {
    let sum = 0;
    for (let j = start; j < list.length && monthOf(j) === monthOf(start); j++) {
      sum += Math.min(MAX_RATIO, Math.max(0.4, list[j]!.ratio ?? 1));
      if (sum * OPTIONS.rowHeight + (j - start) * OPTIONS.gap >= OPTIONS.width) return true;
    }
    return false;
  };
  const months = layout.rows.filter((r) => r.kind === 'month');
  assert.deepEqual(months.map((m) => m.firstIndex), firsts.filter(fills));
  for (const r of tileRows(layout)) for (let i = r.firstIndex + 1; i < r.firstIndex + r.count; i++) if (monthOf(i) !== monthOf(i - 1)) assert.ok(!fills(firsts.find((f) => monthOf(f) === monthOf(i))!), `row at ${r.firstIndex} runs into a month that has a header`);
  // Rows follow each other without overlapping.
  for (let n = 1; n < layout.rows.length; n++) assert.ok(layout.rows[n]!.top >= layout.rows[n - 1]!.top + layout.rows[n - 1]!.height);
});

test('undated runs get a "No date" label and no month header', () => {
  const list: TimelineEntry[] = [
    { id: 'u1', ts: null },
    { id: 'u2', ts: null },
    { id: 'm', ts: day(3) },
  ];
  const layout = layoutTimeline(list, OPTIONS);
  // Both are small: they share one row.
  assert.deepEqual(
    layout.rows.map((r) => [r.kind, r.firstIndex]),
    [['tiles', 0]],
  );
  // A month that fills a row after an undated run that fills one: a row each, the month with its header.
  const many: TimelineEntry[] = [...Array.from({ length: 8 }, (_, n) => ({ id: `u${n}`, ts: null })), ...Array.from({ length: 8 }, (_, n) => ({ id: `m${n}`, ts: day(3, 20 - n) }))];
  assert.deepEqual(
    layoutTimeline(many, OPTIONS).rows.map((r) => [r.kind, r.firstIndex]),
    [
      ['tiles', 0],
      ['tiles', 7],
      ['month', 8],
      ['tiles', 8],
      ['tiles', 15],
    ],
  );
  assert.deepEqual(dayGroups(layout).map((g) => [g.ts, g.count]), [
    [null, 2],
    [day(3), 1],
  ]);
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

test('a sparse list (small months flowing together, now and then a busy one) continued page by page equals one made from scratch', () => {
  const rand = seededRandom(6);
  const list: TimelineEntry[] = [];
  let t = Date.UTC(2024, 10, 1);
  for (let i = 0; i < 1500; i++) {
    // Mostly weeks to months apart; now and then a burst of a busy month.
    t -= rand() < 0.2 ? Math.floor(rand() * 3_600_000) : Math.floor(rand() * 60 * 86_400_000);
    list.push({ id: `s${i}`, ts: t, ratio: rand() < 0.5 ? 4 / 3 : 3 / 4 });
  }
  const full = layoutTimeline(list, OPTIONS);
  assert.ok(full.rows.some((r) => r.kind === 'month'), 'some months have headers');
  assert.ok(tileRows(full).some((r) => r.days.some((d) => !d.headed)), 'some days flowed on without one');
  let layout: TimelineLayout | undefined;
  for (let n = 0; n < list.length; ) {
    n = Math.min(list.length, n + 1 + Math.floor(rand() * 120));
    layout = layoutTimeline(list.slice(0, n), OPTIONS, layout);
    assert.deepEqual(shape(layout), shape(layoutTimeline(list.slice(0, n), OPTIONS)), `after ${n} items`);
  }
});

test('a list that is not the previous one plus more starts over', () => {
  const list = items(800, 5);
  const before = layoutTimeline(list.slice(0, 400), OPTIONS);
  // An item in the middle went to the trash; another width; another row height; fewer items.
  const changed = [...list.slice(0, 100), ...list.slice(101)];
  assert.deepEqual(shape(layoutTimeline(changed, OPTIONS, before)), shape(layoutTimeline(changed, OPTIONS)));
  assert.deepEqual(shape(layoutTimeline(list, { ...OPTIONS, width: 700 }, before)), shape(layoutTimeline(list, { ...OPTIONS, width: 700 })));
  assert.deepEqual(shape(layoutTimeline(list, { ...OPTIONS, rowHeight: 220 }, before)), shape(layoutTimeline(list, { ...OPTIONS, rowHeight: 220 })));
  assert.deepEqual(shape(layoutTimeline(list.slice(0, 300), OPTIONS, before)), shape(layoutTimeline(list.slice(0, 300), OPTIONS)));
  // The same ids with another time (a corrected capture date) change the days.
  const moved = list.map((e, i) => (i === 50 ? { ...e, ts: e.ts - 3 * 86_400_000 } : e)).sort((a, b) => b.ts - a.ts);
  assert.deepEqual(shape(layoutTimeline(moved, OPTIONS, before)), shape(layoutTimeline(moved, OPTIONS)));
  // A photo processed meanwhile: its size is known now.
  const sized = list.map((e, i) => (i === 10 ? { ...e, ratio: 2 } : e));
  assert.deepEqual(shape(layoutTimeline(sized, OPTIONS, before)), shape(layoutTimeline(sized, OPTIONS)));
});

test('firstRowAt finds the first row reaching below a position; rowOfItem the row of tiles holding an item', () => {
  const list = items(2000, 6);
  const layout = layoutTimeline(list, OPTIONS);
  for (const y of [-10, 0, 1, 500, 12_345, layout.height / 2, layout.height - 1, layout.height + 100]) {
    const i = firstRowAt(layout.rows, y);
    const expected = layout.rows.findIndex((r) => r.top + r.height > y);
    assert.equal(i, expected === -1 ? layout.rows.length : expected, `at ${y}`);
  }
  for (let index = 0; index < list.length; index += 37) {
    const r = layout.rows[rowOfItem(layout.rows, index)]!;
    assert.equal(r.kind, 'tiles');
    assert.ok(index >= r.firstIndex && index < r.firstIndex + r.count, `item ${index}`);
  }
});

test('a day label in pieces joins to the label; the weekday and year are pieces of their own', async () => {
  const { dayLabel, dayLabelParts } = await import('../../renderer/src/photos/timeline-layout.ts');
  const now = new Date(2025, 5, 1, 12);
  for (const ts of [Date.UTC(2024, 11, 31, 10), Date.UTC(2025, 2, 3, 10), null, Date.UTC(2025, 5, 1, 8)]) {
    const parts = dayLabelParts(ts, now, 'en-US');
    assert.equal(parts.map((p) => p.text).join(''), dayLabel(ts, now, 'en-US'));
  }
  assert.deepEqual(dayLabelParts(Date.UTC(2024, 11, 31, 10), now, 'en-US'), [
    { text: 'Tue, ', kind: 'weekday' },
    { text: 'December 31', kind: 'date' },
    { text: ', 2024', kind: 'year' },
  ]);
});
