/**
 * The plain-language parser knows the caller's named people: "Anna" and "with Anna" are a person filter (a
 * removable chip whose words, "with" included, leave the searched text), "Anna and Ben" is photos with both;
 * a removed chip puts the name back into the text; a name that is not a person stays text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AssetFilterSchema } from '../../../server/src/features/browse/browse.routes.ts';
import { QueryParser } from '../../../server/src/features/search/query-language/index.ts';

const parser = new QueryParser({ now: Date.parse('2025-07-16T10:00:00Z'), timeZone: 'UTC', people: [{ id: 7, name: 'Anna' }, { id: 9, name: 'Ben Okafor' }] });

describe('people in the query language', () => {
  test('"with Anna": a person chip covering "with Anna"; the rest is searched', () => {
    const q = parser.parse('beach with Anna');
    assert.deepEqual(q.filter, { person_ids: [7] });
    assert.equal(q.rest, 'beach');
    assert.deepEqual(q.parsed.map((p) => [p.kind, p.text]), [['person', 'with Anna']]);
    assert.ok(AssetFilterSchema.safeParse(q.filter).success, 'a filter queryAssets accepts');
  });

  test('"Anna and Ben Okafor" (any case): photos with both, names of several words', () => {
    const q = parser.parse('anna and BEN OKAFOR in 2024');
    assert.deepEqual(q.filter.person_ids, [7, 9]);
    assert.deepEqual(q.filter.date, { from: '2024-01-01', to: '2024-12-31' });
    assert.equal(q.rest, '');
  });

  test('a removed chip puts the name back into the text; an unknown name stays text', () => {
    const { query, ids } = parser.parseIgnoring('with Anna', new Set());
    assert.equal(query.parsed[0]!.kind, 'person');
    const undone = parser.parseIgnoring('with Anna', new Set([ids[0]!])).query;
    assert.deepEqual(undone.filter, {});
    assert.match(undone.rest, /Anna/);
    assert.deepEqual(parser.parse('with Carla').filter, {});
  });
});
