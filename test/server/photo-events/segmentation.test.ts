/**
 * events-v1 segmentation, reconciliation and titles as pure functions, on synthetic trips: each rule
 * of the reference (12 h gap, 3 h without GPS, 2 km / 6 h, 90 min, 300 km/h, the 36 h cap splitting
 * the weakest edge, must-link and cannot-link, stacks) shown by a trip that sits just either side of it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { segment, type Candidate } from '../../../server/src/features/photo-events/segmentation.ts';
import { reconcile, reconcileInSlices, type PreviousEvent } from '../../../server/src/features/photo-events/reconcile.ts';
import { dateRangeTitle, eventTitle } from '../../../server/src/features/photo-events/titles.ts';
import { geohash, sphericalMean } from '../../../server/src/features/photo-events/geo.ts';

const H = 3_600_000;
const MIN = 60_000;
const T0 = Date.parse('2024-06-03T09:00:00Z');
const LISBON = { lat: 38.7223, lon: -9.1393 };
const PORTO = { lat: 41.1579, lon: -8.6291 }; // ~274 km from Lisbon
/** A point `km` kilometres north of Lisbon. */
const north = (km: number) => ({ lat: LISBON.lat + km / 111.2, lon: LISBON.lon });

let n = 0;
const item = (time: number, at: { lat: number; lon: number } | null, extra: Partial<Candidate> = {}): Candidate => ({
  id: `i${String(n++).padStart(4, '0')}`,
  time,
  lat: at?.lat ?? null,
  lon: at?.lon ?? null,
  ...extra,
});
/** The segments as lists of ids. */
const groups = (items: Candidate[], links = {}) => {
  const { sorted, segments } = segment(items, links);
  return segments.map(([s, t]) => sorted.slice(s, t).map((c) => c.id));
};
const sizes = (items: Candidate[], links = {}) => groups(items, links).map((g) => g.length);

describe('events-v1 segmentation', () => {
  test('a gap of 12 h splits even at the same place; just under does not (when near, with GPS, under 6 h rule aside)', () => {
    // Same spot: only the 12 h rule and the 6 h near rule apply; use no-GPS-free pairs far under 6 h first.
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 5 * H, LISBON)]), [2]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 6 * H, LISBON)]), [1, 1], 'near: 6 h splits');
    assert.deepEqual(sizes([item(T0, null), item(T0 + 12 * H, null)]), [1, 1]);
  });

  test('without GPS on either side, 3 h splits and 2 h 59 min does not', () => {
    assert.deepEqual(sizes([item(T0, null), item(T0 + 3 * H - MIN, null)]), [2]);
    assert.deepEqual(sizes([item(T0, null), item(T0 + 3 * H, null)]), [1, 1]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 3 * H, null)]), [1, 1], 'one side without GPS is enough');
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 3 * H, LISBON)]), [2], 'both with GPS and near: the 6 h rule applies instead');
  });

  test('within 2 km the gap may reach 6 h; farther, 90 min splits', () => {
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 5 * H + 59 * MIN, north(1.9))]), [2]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 89 * MIN, north(10))]), [2]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 90 * MIN, north(10))]), [1, 1]);
  });

  test('more than 2 km apart at the same instant, or faster than 300 km/h, splits', () => {
    assert.deepEqual(sizes([item(T0, LISBON), item(T0, north(2.5))]), [1, 1]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0, north(1.5))]), [2]);
    // Lisbon → Porto (~274 km) in 30 min is ~548 km/h: two events; in 80 min (~205 km/h) one.
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 30 * MIN, PORTO)]), [1, 1]);
    assert.deepEqual(sizes([item(T0, LISBON), item(T0 + 80 * MIN, PORTO)]), [2]);
  });

  test('no event lasts more than 36 h: the weakest edge (largest gap) is split', () => {
    // Photos every 2 h for 3 days without GPS; one gap of 2 h 50 min on day 2 is the weakest.
    const trip: Candidate[] = [];
    let t = T0;
    for (let i = 0; i < 30; i++) {
      trip.push(item(t, null));
      t += i === 14 ? 2 * H + 50 * MIN : 2 * H;
    }
    const gs = groups(trip);
    assert.ok(gs.length >= 2);
    assert.equal(gs[0]!.length, 15, 'the first cut is at the largest gap');
    const { sorted, segments } = segment(trip);
    for (const [s, e] of segments) assert.ok(sorted[e - 1]!.time - sorted[s]!.time <= 36 * H);
  });

  test('the cap breaks ties by the larger distance, then the earlier edge', () => {
    const trip: Candidate[] = [];
    for (let i = 0; i < 20; i++) trip.push(item(T0 + i * 2 * H, i === 11 ? north(1.5) : LISBON));
    // Equal gaps everywhere; edges 10→11 and 11→12 are 1.5 km: the earlier of them (10→11) is cut.
    assert.deepEqual(sizes(trip), [11, 9]);
  });

  test('must-link and stacks lock their span; cannot-link splits just before its later item', () => {
    const a = item(T0, null);
    const b = item(T0 + 4 * H, null);
    const c = item(T0 + 5 * H, null);
    assert.deepEqual(sizes([a, b, c]), [1, 2]);
    assert.deepEqual(sizes([a, b, c], { mustLink: [[a.id, b.id]] }), [3]);
    const s1 = item(T0, null, { stackId: 'burst' });
    const s2 = item(T0 + 4 * H, null, { stackId: 'burst' });
    assert.deepEqual(sizes([s1, s2]), [2]);
    const x = item(T0, LISBON);
    const y = item(T0 + 10 * MIN, LISBON);
    const z = item(T0 + 20 * MIN, LISBON);
    assert.deepEqual(groups([x, y, z], { cannotLink: [[z.id, y.id]] }), [[x.id, y.id], [z.id]], 'order of the pair does not matter: the later one starts the new event');
    assert.deepEqual(groups([x, y, z], { cannotLink: [[x.id, y.id]], mustLink: [[x.id, z.id]] }), [[x.id], [y.id, z.id]], 'a split wins over a lock');
  });

  test('a synthetic trip: home, flight, three days in Lisbon, a day trip to Porto', () => {
    const trip = [
      item(T0 - 30 * H, north(2000)), item(T0 - 29 * H, north(2000)), // at home a day before
      item(T0, LISBON), item(T0 + 2 * H, LISBON), item(T0 + 4 * H, north(1)), // day 1
      item(T0 + 24 * H, LISBON), item(T0 + 26 * H, north(1.5)), // day 2: 20 h later ⇒ new event
      item(T0 + 29 * H, PORTO), item(T0 + 31 * H, PORTO), // 3 h and 274 km later: ~91 km/h, > 90 min ⇒ new event
    ];
    assert.deepEqual(sizes(trip), [2, 3, 2, 2]);
  });
});

describe('reconciliation', () => {
  const prev = (id: string, members: string[], extra: Partial<PreviousEvent> = {}): PreviousEvent => ({
    id, members: new Set(members), start: 0, end: 10, centroid: null, hasUserState: false, coverItem: null, createdAt: 0, ...extra,
  });
  test('the same members keep their id; a few new photos do not change it', () => {
    const r = reconcile([prev('E1', ['a', 'b', 'c'])], [{ members: ['a', 'b', 'c', 'd'], start: 0, end: 10, centroid: null }]);
    assert.deepEqual(r.assigned, ['E1']);
    assert.deepEqual(r.retired, []);
  });
  test('an isolated pair under 0.40 gets a new id and the old one redirects to it', () => {
    const many = Array.from({ length: 30 }, (_, i) => `n${i}`);
    const r = reconcile([prev('E1', ['a', 'b', 'c', 'd', 'e'], { start: 0, end: 10 })], [{ members: ['a', ...many], start: 100, end: 200, centroid: null }]);
    assert.deepEqual(r.assigned, [null]);
    assert.deepEqual(r.retired, [{ id: 'E1', successor: 0 }]);
  });
  test('a split keeps the id on the better part; a merge keeps the person’s event and redirects the other', () => {
    const split = reconcile([prev('E1', ['a', 'b', 'c', 'd'])], [
      { members: ['a'], start: 0, end: 1, centroid: null },
      { members: ['b', 'c', 'd'], start: 2, end: 10, centroid: null },
    ]);
    assert.deepEqual(split.assigned, [null, 'E1']);
    const merge = reconcile([prev('E1', ['a', 'b', 'c']), prev('E2', ['d'], { hasUserState: true })], [{ members: ['a', 'b', 'c', 'd'], start: 0, end: 10, centroid: null }]);
    assert.deepEqual(merge.assigned, ['E2']);
    assert.deepEqual(merge.retired, [{ id: 'E1', successor: 0 }]);
  });
  test('reconcileInSlices gives reconcile’s answer and yields after each previous event and each segment', () => {
    // A rebuild drives it, giving the event loop a turn whenever a slice is over (rebuild.ts Pace): at 100k
    // photos its member maps held the loop for tens of ms in one go.
    const previous = [prev('E1', ['a', 'b', 'c']), prev('E2', ['d', 'e']), prev('E3', ['f'])];
    const segments = [
      { members: ['a', 'b'], start: 0, end: 5, centroid: null },
      { members: ['c', 'd', 'e'], start: 6, end: 10, centroid: null },
    ];
    const steps = reconcileInSlices(previous, segments);
    let yields = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields++;
    assert.ok(yields >= previous.length + segments.length, `yielded ${yields} times`);
    assert.deepEqual(r.value, reconcile(previous, segments));
  });
  test('an event whose photos are all gone is retired without successor', () => {
    assert.deepEqual(reconcile([prev('E1', ['a'])], []).retired, [{ id: 'E1', successor: null }]);
  });
});

describe('titles and geometry', () => {
  test('place and month, else a date range', () => {
    const s = Date.parse('2024-06-03T10:00:00Z');
    const e = Date.parse('2024-06-09T18:00:00Z');
    assert.equal(eventTitle({ start: s, end: e, offsetMinutes: 60, place: 'Lisbon' }), 'Lisbon · June 2024');
    assert.equal(eventTitle({ start: s, end: e, offsetMinutes: 60, place: null }), '3–9 June 2024');
    assert.equal(dateRangeTitle(s, s), '3 June 2024');
    assert.equal(dateRangeTitle(Date.parse('2024-06-30T10:00:00Z'), Date.parse('2024-07-02T10:00:00Z')), '30 June – 2 July 2024');
    // 23:30 UTC on 2 June is 3 June in Lisbon's summer time (+01:00).
    assert.equal(dateRangeTitle(Date.parse('2024-06-02T23:30:00Z'), Date.parse('2024-06-02T23:40:00Z'), 60), '3 June 2024');
  });
  test('geohash 7 and the spherical mean across the antimeridian', () => {
    assert.equal(geohash(57.64911, 10.40744, 7), 'u4pruyd');
    const m = sphericalMean([{ lat: 0, lon: 179 }, { lat: 0, lon: -179 }])!;
    assert.ok(Math.abs(Math.abs(m.lon) - 180) < 1e-9);
  });
});
