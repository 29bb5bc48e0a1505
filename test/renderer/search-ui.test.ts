/**
 * The search UI's own logic (renderer/src/features/search), without a browser:
 * - the address holds the search (search-url.ts): text with removed chips, similar-to, image key;
 *   reading what was written gives it back, and junk in the address gives no search, not a crash;
 * - recent searches (recent-searches.ts): newest first, once each (case and spaces ignored), at most
 *   MAX_RECENT, per member, and a damaged store starts afresh;
 * - suggestions (suggestions.ts): the typed text with its parsed chips, then tags, then recent
 *   searches containing the words, each once;
 * - OCR boxes (ocr-geometry.ts): the picture's rectangle inside an object-fit: contain box (portrait
 *   and landscape letterboxing), and polygon points in the 0..1 view box;
 * - the indexing note (indexing-progress.ts): the least advanced of OCR and semantic while work is queued.
 * The browser side (the field, the page, the viewer) is test/e2e/search.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSearchState, searchHref } from '../../renderer/src/features/search/search-url.ts';
import { MAX_RECENT, forgetRecent, readRecent, rememberSearch } from '../../renderer/src/features/search/recent-searches.ts';
import { buildSuggestions, MAX_SUGGESTIONS } from '../../renderer/src/features/search/suggestions.ts';
import { containedRect, polygonPoints } from '../../renderer/src/photos/picture-geometry.ts';
import { pendingOf } from '../../renderer/src/features/search/indexing-progress.ts';

class MemoryStore {
  readonly map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

describe('the search in the address', () => {
  test('each kind of search is written and read back the same', () => {
    const cases = [
      { kind: 'text', query: 'beach at sunset 2023', ignore: [] },
      { kind: 'text', query: 'red videos & more/?#', ignore: ['media_type:0', 'date:1'] },
      { kind: 'text', query: 'DJI_FLIR', ignore: [], reading: 'filters' },
      { kind: 'text', query: 'mp4', ignore: [], reading: 'words' },
      { kind: 'similar', assetId: '0b6c8a52-3f4e-4c1e-9c55-0f1f2e3d4c5b' },
      { kind: 'image', key: 'lq3k2x1' },
    ] as const;
    for (const c of cases) {
      const href = searchHref(c as never);
      assert.ok(href.startsWith('/search?'), href);
      assert.deepEqual(readSearchState(href.slice('/search'.length)), c, href);
    }
  });

  test('no query, blank words or junk give no search; repeated ignored chips count once', () => {
    assert.deepEqual(readSearchState(''), { kind: 'none' });
    assert.deepEqual(readSearchState('?q=%20%20'), { kind: 'none' });
    // A broken escape is read leniently (a replacement character), never thrown.
    assert.equal(readSearchState('?q=%E0%A4%A').kind, 'text');
    assert.deepEqual(readSearchState('?q=cats&ignore=a,,a,%20b'), { kind: 'text', query: 'cats', ignore: ['a', 'b'] });
    assert.deepEqual(readSearchState('?q=cats&reading=sideways'), { kind: 'text', query: 'cats', ignore: [] }, 'an unknown reading: the server decides');
    assert.equal(searchHref({ kind: 'none' }), '/search');
  });
});

describe('recent searches', () => {
  test('newest first, once each whatever the case and spaces, at most MAX_RECENT, per member', () => {
    const store = new MemoryStore();
    rememberSearch(store, 1, 'beach');
    rememberSearch(store, 1, '  receipt   plumber ');
    rememberSearch(store, 1, 'BEACH');
    assert.deepEqual(readRecent(store, 1), ['BEACH', 'receipt plumber']);
    assert.deepEqual(readRecent(store, 2), [], "another member's searches are not offered");
    for (let i = 0; i < MAX_RECENT + 3; i++) rememberSearch(store, 1, `q${i}`);
    const recent = readRecent(store, 1);
    assert.equal(recent.length, MAX_RECENT);
    assert.equal(recent[0], `q${MAX_RECENT + 2}`);
    rememberSearch(store, 1, '   ');
    assert.equal(readRecent(store, 1).length, MAX_RECENT, 'blank text is not remembered');
    forgetRecent(store, 1);
    assert.deepEqual(readRecent(store, 1), []);
  });

  test('a damaged or foreign value in storage starts afresh', () => {
    const store = new MemoryStore();
    store.setItem('hearth.search.recent.1', '{not json');
    assert.deepEqual(readRecent(store, 1), []);
    store.setItem('hearth.search.recent.1', JSON.stringify(['ok', 3, null, '', 'fine']));
    assert.deepEqual(readRecent(store, 1), ['ok', 'fine']);
    assert.deepEqual(rememberSearch(store, 1, 'new'), ['new', 'ok', 'fine']);
  });
});

describe('suggestions', () => {
  test('the text with its chips first, then tags, then recent searches holding the words; each once', () => {
    const s = buildSuggestions('beach', ['beach', 'beach 2023', 'receipt', 'Beach party'], ['Beach', 'beach huts'], ['Videos']);
    assert.deepEqual(
      s.map((x) => [x.kind, x.query]),
      [
        ['query', 'beach'],
        ['tag', 'beach huts'],
        ['recent', 'beach 2023'],
        ['recent', 'Beach party'],
      ],
    );
    assert.deepEqual(s[0]!.kind === 'query' && s[0]!.chips, ['Videos']);
  });

  test('an empty field offers the recent searches; never more than MAX_SUGGESTIONS', () => {
    const recent = Array.from({ length: 20 }, (_, i) => `search ${i}`);
    const s = buildSuggestions('  ', recent, [], []);
    assert.equal(s.length, MAX_SUGGESTIONS);
    assert.ok(s.every((x) => x.kind === 'recent'));
    assert.deepEqual(new Set(s.map((x) => x.id)).size, s.length, 'ids are unique (they are the options\' keys)');
  });
});

describe('OCR boxes over the photo', () => {
  test('the picture inside an object-fit: contain box: letterboxed above and below, or at the sides', () => {
    // A 640×339 sign in a 390×600 phone stage: full width, centred vertically.
    const wide = containedRect({ left: 0, top: 10, width: 390, height: 600 }, { width: 640, height: 339 });
    assert.equal(wide.width, 390);
    assert.ok(Math.abs(wide.height - (339 * 390) / 640) < 1e-9);
    assert.ok(Math.abs(wide.top - (10 + (600 - wide.height) / 2)) < 1e-9);
    assert.equal(wide.left, 0);
    // A portrait photo in a landscape box: full height, centred horizontally.
    const tall = containedRect({ left: 5, top: 0, width: 1000, height: 500 }, { width: 692, height: 1024 });
    assert.equal(tall.height, 500);
    assert.ok(Math.abs(tall.left - (5 + (1000 - tall.width) / 2)) < 1e-9);
    // The box already the picture's shape (a desktop's img): the box itself.
    assert.deepEqual(containedRect({ left: 3, top: 4, width: 320, height: 240 }, { width: 1600, height: 1200 }), { left: 3, top: 4, width: 320, height: 240 });
    // Not loaded yet: an empty rectangle, never NaN.
    assert.deepEqual(containedRect({ left: 1, top: 2, width: 300, height: 200 }, { width: 0, height: 0 }), { left: 1, top: 2, width: 0, height: 0 });
  });

  test('polygon points in the 0..1 view box; a corner outside the photo stays on its edge', () => {
    assert.equal(
      polygonPoints([
        [0.25, 0.5],
        [0.75, 0.5],
        [0.75, 0.625],
        [0.25, 0.625],
      ]),
      '0.2500,0.5000 0.7500,0.5000 0.7500,0.6250 0.2500,0.6250',
    );
    assert.equal(
      polygonPoints([
        [-0.1, 1.2],
        [Number.NaN, 0.5],
      ]),
      '0.0000,1.0000 0.0000,0.5000',
    );
  });
});

describe('the indexing note', () => {
  const task = (indexed: number, total: number, queued: number) => ({ indexed_count: indexed, total_count: total, queued_jobs: queued });
  test('the least advanced of OCR and semantic while work is queued; nothing when done or idle', () => {
    assert.deepEqual(pendingOf({ tasks: { ocr: task(90, 100, 10), semantic: task(20, 100, 80), face: task(0, 100, 100) } }), { done: 20, total: 100 });
    assert.equal(pendingOf({ tasks: { ocr: task(100, 100, 0), semantic: task(100, 100, 0), face: task(0, 100, 100) } }), null);
    // Not read and nothing queued (no model installed): the degraded notice speaks for that, not this note.
    assert.equal(pendingOf({ tasks: { ocr: task(0, 100, 0), semantic: task(0, 100, 0) } }), null);
  });
});
