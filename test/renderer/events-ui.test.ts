/**
 * The Events screens' own logic (renderer/src/features/photo-events), without a browser:
 * - dates in words (event-dates.ts), read in the event's own time zone: one day, a few days, across
 *   months and years, and a trip whose last evening is already the next day in UTC;
 * - what a card says about people (event-facts.ts): names first by how many photos they are in,
 *   unnamed people counted, albums of the relations;
 * - the event map's geometry (map-frame.ts): one town is one dot with the four photos, two towns
 *   two dots, and the frame holds every dot at the world's 2:1.
 * The browser side is test/e2e/events.spec.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dateRange, offsetMinutes, photoCount } from '../../renderer/src/features/photo-events/event-dates.ts';
import { albumIdsOf, peopleLine, peopleOf } from '../../renderer/src/features/photo-events/event-facts.ts';
import { frameOf, groupDots } from '../../renderer/src/features/photo-events/map-frame.ts';

const at = (iso: string) => Date.parse(iso);

test('dates in words, read in the event’s own time zone', () => {
  assert.equal(offsetMinutes('+01:00'), 60);
  assert.equal(offsetMinutes('-03:30'), -210);
  assert.equal(offsetMinutes(null), 0);
  assert.equal(offsetMinutes('Europe/Lisbon'), 0);
  // Written like every date on screen (lib/dates.ts): the locale's medium date and Intl's own range.
  // (Intl puts thin spaces around a range's dash: compared as plain spaces.)
  const range = (a: string, b: string, tz: string | null, locale = 'en-US') => dateRange(at(a), at(b), tz, locale).replace(/\s/g, ' ');
  assert.equal(range('2024-06-03T09:00:00Z', '2024-06-03T11:00:00Z', '+01:00'), 'Jun 3, 2024');
  assert.equal(range('2024-06-03T09:00:00Z', '2024-06-09T18:00:00Z', '+01:00'), 'Jun 3 – 9, 2024');
  assert.equal(range('2024-06-30T09:00:00Z', '2024-07-02T09:00:00Z', null), 'Jun 30 – Jul 2, 2024');
  assert.equal(range('2023-12-30T09:00:00Z', '2024-01-02T09:00:00Z', null), 'Dec 30, 2023 – Jan 2, 2024');
  assert.equal(range('2024-06-30T09:00:00Z', '2024-07-02T09:00:00Z', null, 'en-GB'), '30 Jun – 2 Jul 2024');
  // 23:30 in UTC is already the 4th in Lisbon's summer (+01:00): the photo's own day counts.
  assert.equal(range('2024-06-03T09:00:00Z', '2024-06-03T23:30:00Z', '+01:00'), 'Jun 3 – 4, 2024');
  assert.equal(range('2024-06-03T09:00:00Z', '2024-06-03T23:30:00Z', null), 'Jun 3, 2024');
  assert.equal(photoCount(1), '1 photo');
  assert.equal(photoCount(12), '12 photos');
});

const relation = (kind: 'person' | 'album' | 'location_cell', id: string, n: number) => ({
  confidence: n / 10,
  facts: { distinct_media_items: n },
  from: { id: 'e', kind: 'event' },
  origin: kind === 'person' ? 'face_assignment' : kind === 'album' ? 'album_membership' : 'gps',
  relation: kind === 'person' ? 'contains_person' : kind === 'album' ? 'represented_in' : 'occurred_at',
  to: { id, kind },
});

test('a card’s people: named ones by how often they appear, unnamed ones counted; albums from the relations', () => {
  const relations = {
    complete: true,
    source_version: 'events-v1',
    relations: [relation('person', '1', 2), relation('person', '2', 7), relation('person', '3', 4), relation('person', '4', 1), relation('album', '9', 3), relation('location_cell', 'r:eyckr1', 10)],
  };
  const names = new Map([
    ['1', 'Ben'],
    ['2', 'Anna'],
    ['3', null],
    ['4', 'Carla'],
  ]);
  const people = peopleOf(relations, names);
  assert.deepEqual(
    people.map((p) => [p.id, p.name, p.photos]),
    [
      ['2', 'Anna', 7],
      ['3', null, 4],
      ['1', 'Ben', 2],
      ['4', 'Carla', 1],
    ],
  );
  assert.equal(peopleLine(people), 'Anna, Ben, Carla and 1 other');
  assert.equal(peopleLine(people.slice(0, 1)), 'Anna');
  assert.equal(peopleLine([people[0]!, people[2]!]), 'Anna and Ben');
  assert.equal(peopleLine([people[1]!]), '1 person');
  assert.equal(peopleLine([]), null);
  // Before the names arrive, people are counted rather than left out.
  assert.equal(peopleLine(peopleOf(relations, undefined)), '4 people');
  assert.deepEqual(albumIdsOf(relations), ['9']);
  assert.deepEqual(albumIdsOf(undefined), []);
});

test('the event map: one town one dot, two towns two; the frame holds them at 2:1', () => {
  const dot = (name: string, lon: number, lat: number) => ({ assetId: name, name, x: lon + 180, y: 90 - lat });
  const lisbon = [dot('l1', -9.1393, 38.7223), dot('l2', -9.1394, 38.7224), dot('l3', -9.1391, 38.7221), dot('l4', -9.1399, 38.7229)];
  const porto = dot('p1', -8.6291, 41.1579);
  const world = { width: 360, height: 180 };

  const town = frameOf(lisbon, world);
  assert.equal(town.w, 2 * town.h);
  assert.ok(town.w >= 1.2, 'one spot still shows the land around it');
  const one = groupDots(lisbon, town.w / 30);
  assert.equal(one.length, 1);
  assert.deepEqual(one[0]!.dots.map((d) => d.name), ['l1', 'l2', 'l3', 'l4']);

  const trip = [...lisbon, porto];
  const f = frameOf(trip, world);
  assert.equal(f.w, 2 * f.h);
  for (const d of trip) assert.ok(d.x > f.x && d.x < f.x + f.w && d.y > f.y && d.y < f.y + f.h, `${d.name} is inside the frame`);
  assert.deepEqual(
    groupDots(trip, f.w / 30).map((g) => g.dots.length),
    [4, 1],
  );
});
