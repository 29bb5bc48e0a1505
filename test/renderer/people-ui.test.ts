/**
 * The People screens' own logic (renderer/src/features/people/people-facts.ts), without a browser: a
 * person's name and photo count as shown, listPeople's pages flattened with a person shown once when a
 * rename moved them onto another page, which person a merge keeps unless told (the one dropped on, else
 * the first named, else the one with the most photos), a face box's name, the people of a photo (each
 * once, faces with no one left out), and a photo's place in words (nothing without one).
 * The browser side is test/e2e/people.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultSurvivor, faceName, flattenPeople, peopleIn, personLabel, photoCount, placeLine, type Face, type Person } from '../../renderer/src/features/people/people-facts.ts';

const person = (person_id: number, name: string | null, asset_count: number): Person => ({
  person_id,
  name,
  asset_count,
  member_count: asset_count,
  cover_face_id: null,
  cover_face_image_path: `/api/v1/people/${person_id}/cover`,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  hidden_at: null,
  is_confirmed: name !== null,
  is_hidden: false,
  representative_asset_id: null,
});

const face = (face_id: number, person_id: number | null, person_name: string | null): Face => ({
  face_id,
  person_id,
  person_name,
  confidence: 0.9,
  is_primary: face_id === 1,
  bounding_box: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 },
});

describe('people facts', () => {
  test('names and counts as the page shows them', () => {
    assert.equal(personLabel({ name: 'Anna' }), 'Anna');
    assert.equal(personLabel({ name: null }), 'Unnamed person');
    assert.equal(photoCount(1), '1 photo');
    assert.equal(photoCount(0), '0 photos');
    assert.equal(photoCount(12), '12 photos');
  });

  test("listPeople's pages flattened: a person moved onto the next page meanwhile shows once", () => {
    const page = (offset: number, people: Person[]) => ({ offset, limit: 2, total: 3, people });
    const [a, b, c] = [person(1, 'Anna', 3), person(2, null, 5), person(3, null, 2)];
    assert.deepEqual(
      flattenPeople([page(0, [a, b]), page(2, [b, c])]).map((p) => p.person_id),
      [1, 2, 3],
    );
    assert.deepEqual(flattenPeople(undefined), []);
  });

  test('a merge keeps the one dropped on, else the first named, else the one with the most photos', () => {
    const [anna, unnamedBig, unnamedSmall, ben] = [person(1, 'Anna', 2), person(2, null, 9), person(3, null, 4), person(4, 'Ben', 1)];
    assert.equal(defaultSurvivor([unnamedBig, anna], 2), 2, 'the one dropped on');
    assert.equal(defaultSurvivor([unnamedBig, anna], 99), 1, 'a preferred id not among them is ignored');
    assert.equal(defaultSurvivor([unnamedBig, ben, anna]), 4, 'the first named, in the order given');
    assert.equal(defaultSurvivor([unnamedSmall, unnamedBig]), 2, 'no names: the most photos');
  });

  test("a face box's name, and the people of a photo each once without the faces of no one", () => {
    assert.equal(faceName(face(1, 7, 'Anna')), 'Anna');
    assert.equal(faceName(face(2, 8, null)), 'Unnamed person');
    assert.equal(faceName(face(3, null, null)), 'Not recognised');
    assert.deepEqual(peopleIn([face(1, 7, 'Anna'), face(2, null, null), face(3, 8, null), face(4, 7, 'Anna')]), [
      { person_id: 7, name: 'Anna' },
      { person_id: 8, name: null },
    ]);
    assert.deepEqual(peopleIn([]), []);
  });

  test("a photo's place in words, town first; nothing without a place", () => {
    assert.equal(placeLine({ city: 'Lisbon', region: 'Lisbon', country: 'Portugal' }), 'Lisbon, Lisbon, Portugal');
    assert.equal(placeLine({ city: null, region: 'Alentejo', country: 'Portugal' }), 'Alentejo, Portugal');
    assert.equal(placeLine({ city: null, region: null, country: 'Portugal' }), 'Portugal');
    assert.equal(placeLine(null), null);
    assert.equal(placeLine(undefined), null);
  });
});
