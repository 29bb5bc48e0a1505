/**
 * The plain-language query parser (issue 13 point 5): a table of queries with the filter and rest
 * each must give, on a fixed day (Wednesday 16 July 2025 in Amsterdam) and a small catalog; the
 * chips' words and offsets; hemisphere, week start and time zone; the edge cases (empty, only stop
 * words, 10,000 characters, unicode, mixed case, punctuation); and a seeded fuzz over the grammar's
 * own words that no input throws and every answer is a filter queryAssets accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AssetFilterSchema } from '../../../server/src/features/browse/browse.routes.ts';
import { seededRandom } from '../../shared/seeded-random.ts';
import { en, parseQuery, QueryParser, type ParsedQuery, type QueryContext } from '../../../server/src/features/search/query-language/index.ts';

const CATALOG = {
  cameraMakes: ['Canon', { value: 'NIKON CORPORATION', say: ['Nikon'] }, 'Apple', 'SONY'],
  cameraModels: ['Canon EOS 40D', 'Canon EOS 40D Mark II', { value: 'NIKON D70', say: ['Nikon D70'] }, 'iPhone 12 Pro', 'ILCE-7M3'],
  lenses: ['EF-S15-85mm f/3.5-5.6 IS USM', 'FE 24-70mm F2.8 GM'],
};
/** Wednesday 16 July 2025, noon in Amsterdam. */
const NOW = Date.parse('2025-07-16T10:00:00Z');
const CTX: QueryContext = { now: NOW, timeZone: 'Europe/Amsterdam', ...CATALOG };

const days = (from: string, to: string = from) => ({ date: { from, to } });

/** [query, filter, rest] */
const TABLE: [string, object, string][] = [
  // years, months, days
  ['2023', days('2023-01-01', '2023-12-31'), ''],
  ['1900', days('1900-01-01', '1900-12-31'), ''],
  ['1850', {}, '1850'],
  ['2101', {}, '2101'],
  ['route 66', {}, 'route 66'],
  ['in may', days('2025-05-01', '2025-05-31'), ''],
  ['may 2021', days('2021-05-01', '2021-05-31'), ''],
  ['2021 may', days('2021-05-01', '2021-05-31'), ''],
  ['may', {}, 'may'],
  ['you may like these', {}, 'you may like these'],
  ['pictures of may', { type: 'PHOTO' }, 'of may'],
  ['from may', days('2025-05-01', '2025-05-31'), ''],
  ['since march', { date: { from: '2025-03-01' } }, ''],
  ['in august', days('2024-08-01', '2024-08-31'), ''],
  ['august', days('2024-08-01', '2024-08-31'), ''],
  ['march 5 2021', days('2021-03-05'), ''],
  ['5th of march 2021', days('2021-03-05'), ''],
  ['march 5', days('2025-03-05'), ''],
  ['2021-03-05', days('2021-03-05'), ''],
  ['2021-02-30', {}, '2021-02-30'],
  ['february 30', {}, 'february 30'],
  ['in may 5 stars', { ...days('2025-05-01', '2025-05-31'), rating: 5 }, ''],
  ['the 1990s', days('1990-01-01', '1999-12-31'), ''],
  // ranges
  ['2019 to 2021', days('2019-01-01', '2021-12-31'), ''],
  ['from 2019 to 2021', days('2019-01-01', '2021-12-31'), ''],
  ['2021 to 2019', days('2019-01-01', '2021-12-31'), ''],
  ['2019-2021', days('2019-01-01', '2021-12-31'), ''],
  ['between march and june 2020', days('2020-03-01', '2020-06-30'), ''],
  ['between november and february', days('2024-11-01', '2025-02-28'), ''],
  ['december 2020 to january', days('2020-12-01', '2021-01-31'), ''],
  ['may to june 2018', days('2018-05-01', '2018-06-30'), ''],
  ['since 2020', { date: { from: '2020-01-01' } }, ''],
  ['before 2000', { date: { to: '1999-12-31' } }, ''],
  ['after christmas 2022', { date: { from: '2022-12-27' } }, ''],
  // relative
  ['yesterday', days('2025-07-15'), ''],
  ['today', days('2025-07-16'), ''],
  ['last week', days('2025-07-07', '2025-07-13'), ''],
  ['this week', days('2025-07-14', '2025-07-20'), ''],
  ['last month', days('2025-06-01', '2025-06-30'), ''],
  ['last year', days('2024-01-01', '2024-12-31'), ''],
  ['this year', days('2025-01-01', '2025-12-31'), ''],
  ['last weekend', days('2025-07-12', '2025-07-13'), ''],
  ['this weekend', days('2025-07-19', '2025-07-20'), ''],
  ['3 days ago', days('2025-07-13'), ''],
  ['a week ago', days('2025-07-07', '2025-07-13'), ''],
  ['last 3 days', days('2025-07-14', '2025-07-16'), ''],
  ['past two weeks', days('2025-07-03', '2025-07-16'), ''],
  // seasons (northern)
  ['this summer', days('2025-06-01', '2025-08-31'), ''],
  ['last summer', days('2024-06-01', '2024-08-31'), ''],
  ['last winter', days('2024-12-01', '2025-02-28'), ''],
  ['winter 2022', days('2022-12-01', '2023-02-28'), ''],
  ['summer of 2019', days('2019-06-01', '2019-08-31'), ''],
  ['summer', {}, 'summer'],
  // holidays
  ['christmas 2022', days('2022-12-24', '2022-12-26'), ''],
  ['christmas', days('2024-12-24', '2024-12-26'), ''],
  ['last christmas', days('2024-12-24', '2024-12-26'), ''],
  ['new year 2023', days('2022-12-31', '2023-01-01'), ''],
  ['new year', days('2024-12-31', '2025-01-01'), ''],
  ["new year's eve 2022", days('2022-12-31'), ''],
  ['easter 2023', days('2023-04-07', '2023-04-10'), ''],
  ['easter 2024', days('2024-03-29', '2024-04-01'), ''],
  ['easter sunday 2019', days('2019-04-21'), ''],
  ['easter', days('2025-04-18', '2025-04-21'), ''],
  ['halloween', days('2024-10-31'), ''],
  ['halloween 2021', days('2021-10-31'), ''],
  ['thanksgiving 2023', days('2023-11-23'), ''],
  // media type, favourites
  ['videos', { type: 'VIDEO' }, ''],
  ['photos', { type: 'PHOTO' }, ''],
  ['screenshots', { tag_names: ['screenshot'] }, ''],
  ['live photos', { media_item: { composition: 'live_photo' } }, ''],
  ['photos and videos', { types: ['PHOTO', 'VIDEO'] }, ''],
  ['favourites', { liked: true }, ''],
  ['my favorites', { liked: true }, ''],
  ['liked', { liked: true }, ''],
  // ratings
  ['5 stars', { rating: 5 }, ''],
  ['five stars', { rating: 5 }, ''],
  ['4+ stars', { rating_min: 4 }, ''],
  ['at least 3 stars', { rating_min: 3 }, ''],
  ['3 stars or more', { rating_min: 3 }, ''],
  ['at least 5 stars', { rating: 5 }, ''],
  ['rated 4', { rating: 4 }, ''],
  ['unrated', { rating: 0 }, ''],
  ['6 stars', {}, '6 stars'],
  ['photos of a star', { type: 'PHOTO' }, 'of a star'],
  ['5 stars unrated', { rating: 5 }, 'unrated'],
  // file types
  ['raw', { media_item: { composition: 'contains_raw' } }, ''],
  ['heic', { filename: { operator: 'matches', value: '*.hei?' } }, ''],
  ['JPG', { filename: { operator: 'matches', value: '*.jp*g' } }, ''],
  ['png', { filename: { operator: 'matches', value: '*.png' } }, ''],
  ['gifs', { filename: { operator: 'matches', value: '*.gif' } }, ''],
  ['raw live photos', { media_item: { composition: 'contains_raw' } }, 'live photos'],
  // cameras and lenses of the catalog
  ['canon', { camera_make: 'Canon' }, ''],
  ['canon eos 40d', { camera_model: 'Canon EOS 40D' }, ''],
  ['canon eos 40d mark ii', { camera_model: 'Canon EOS 40D Mark II' }, ''],
  ['shot on nikon d70', { camera_model: 'NIKON D70' }, ''],
  ['nikon', { camera_make: 'NIKON CORPORATION' }, ''],
  ['sony ilce-7m3', { camera_make: 'SONY', camera_model: 'ILCE-7M3' }, ''],
  ['eos', {}, 'eos'],
  ['apple pie', {}, 'apple pie'],
  ['taken with my apple', { camera_make: 'Apple' }, ''],
  ['iphone 12 pro photos', { camera_model: 'iPhone 12 Pro', type: 'PHOTO' }, ''],
  ['fe 24-70mm f2.8 gm bokeh', { lens: 'FE 24-70mm F2.8 GM' }, 'bokeh'],
  ['canon nikon', { camera_make: 'Canon' }, 'nikon'],
  // together, and what is left
  ['2023 beach', days('2023-01-01', '2023-12-31'), 'beach'],
  ['beach sunset', {}, 'beach sunset'],
  ['beach videos from last summer', { type: 'VIDEO', ...days('2024-06-01', '2024-08-31') }, 'beach'],
  ['dog in the snow 2023', days('2023-01-01', '2023-12-31'), 'dog in the snow'],
  ['videos from', { type: 'VIDEO' }, ''],
  ['beach, 2023, sunset', days('2023-01-01', '2023-12-31'), 'beach sunset'],
  ['2023 2024', days('2023-01-01', '2023-12-31'), '2024'],
  ['favourites from christmas 2022 in heic', { liked: true, ...days('2022-12-24', '2022-12-26'), filename: { operator: 'matches', value: '*.hei?' } }, ''],
  ['sunset 5 stars 2023 videos', { rating: 5, ...days('2023-01-01', '2023-12-31'), type: 'VIDEO' }, 'sunset'],
  ['Sunset IN MAY 2021 With NIKON D70', { ...days('2021-05-01', '2021-05-31'), camera_model: 'NIKON D70' }, 'Sunset'],
  ['receipt from the plumber', {}, 'receipt from the plumber'],
  // unicode and punctuation
  ['new year’s eve 2022', days('2022-12-31'), ''],
  ['ＶＩＤＥＯＳ ２０２３', { type: 'VIDEO', ...days('2023-01-01', '2023-12-31') }, ''],
  ['plage été 2023', days('2023-01-01', '2023-12-31'), 'plage été'],
  ['海滩 2023', days('2023-01-01', '2023-12-31'), '海滩'],
  ['🌅 2023', days('2023-01-01', '2023-12-31'), '🌅'],
  ['videos!!!', { type: 'VIDEO' }, ''],
  ['(2023)', days('2023-01-01', '2023-12-31'), ''],
  ['"EXIT" sign 2019', days('2019-01-01', '2019-12-31'), '"EXIT" sign'],
  ['sunset!', {}, 'sunset!'],
];

describe('parseQuery: the table', () => {
  test(`${TABLE.length} queries give their filter and rest, and every filter is one queryAssets accepts`, () => {
    assert.ok(TABLE.length >= 60);
    const parser = new QueryParser(CTX);
    for (const [q, filter, rest] of TABLE) {
      const r = parser.parse(q);
      assert.deepEqual({ filter: r.filter, rest: r.rest }, { filter, rest }, q);
      assert.deepEqual(AssetFilterSchema.parse(r.filter), r.filter, `${q}: a valid asset filter, as it is`);
      assert.deepEqual(parseQuery(q, CTX), r, `${q}: parseQuery and a reused parser agree`);
    }
  });
});

describe('parseQuery: the parts, for chips', () => {
  test('each part has its kind, its words as typed (with the stop words it took), offsets and filter part', () => {
    const q = 'Beach VIDEOS from last summer, 4+ stars';
    const r = parseQuery(q, CTX);
    assert.deepEqual(r.parsed, [
      { kind: 'media_type', text: 'VIDEOS', start: 6, end: 12, filter: { type: 'VIDEO' } },
      { kind: 'date', text: 'from last summer', start: 13, end: 29, filter: days('2024-06-01', '2024-08-31') },
      { kind: 'rating', text: '4+ stars', start: 31, end: 39, filter: { rating_min: 4 } },
    ]);
    for (const p of r.parsed) assert.equal(q.slice(p.start, p.end), p.text);
    assert.equal(r.rest, 'Beach');
    assert.equal(r.viewer_timezone, 'Europe/Amsterdam');
  });

  test('stop words go with the part they lead or trail at the end, and stay between other words', () => {
    const kinds = (q: string) => parseQuery(q, CTX).parsed.map((p) => p.text);
    assert.deepEqual(kinds('with my canon'), ['with my canon']);
    assert.deepEqual(kinds('photos taken in may 2021'), ['photos', 'taken in may 2021']);
    assert.deepEqual(kinds('videos of'), ['videos of']);
    assert.deepEqual(kinds('photos and videos'), ['photos', 'and videos']);
    assert.equal(parseQuery('photos of the beach', CTX).rest, 'of the beach');
    assert.equal(parseQuery('from in of my', CTX).rest, 'from in of my', 'only stop words: nothing understood, all kept');
  });

  test('a part that contradicts an earlier one is not understood: its words stay in the rest', () => {
    const r = parseQuery('canon 2020 nikon 2021 5 stars 3 stars', CTX);
    assert.deepEqual(r.filter, { camera_make: 'Canon', ...days('2020-01-01', '2020-12-31'), rating: 5 });
    assert.equal(r.rest, 'nikon 2021 3 stars');
    assert.deepEqual(
      r.parsed.map((p) => p.kind),
      ['camera_make', 'date', 'rating'],
    );
  });

  test('answers are fresh objects: changing one does not change the next', () => {
    const a = parseQuery('live photos heic', CTX);
    (a.filter.media_item as { composition: string }).composition = 'no_raw';
    (a.filter.filename as { value: string }).value = 'x';
    const b = parseQuery('live photos heic', CTX);
    assert.deepEqual(b.filter, { media_item: { composition: 'live_photo' }, filename: { operator: 'matches', value: '*.hei?' } });
  });
});

describe('parseQuery: the context', () => {
  test('southern hemisphere: summer is December to February', () => {
    const south = { ...CTX, hemisphere: 'southern' as const };
    assert.deepEqual(parseQuery('this summer', south).filter, days('2025-12-01', '2026-02-28'));
    assert.deepEqual(parseQuery('last summer', south).filter, days('2024-12-01', '2025-02-28'));
    assert.deepEqual(parseQuery('this winter', south).filter, days('2025-06-01', '2025-08-31'));
    assert.deepEqual(parseQuery('summer 2022', south).filter, days('2022-12-01', '2023-02-28'));
  });

  test('weeks starting on Sunday', () => {
    const sunday = { ...CTX, weekStartsOn: 'sunday' as const };
    assert.deepEqual(parseQuery('last week', sunday).filter, days('2025-07-06', '2025-07-12'));
    assert.deepEqual(parseQuery('this week', sunday).filter, days('2025-07-13', '2025-07-19'));
  });

  test('today is the viewer’s day: the same instant is another date in Auckland and Los Angeles', () => {
    const now = Date.parse('2024-03-15T23:30:00Z');
    assert.deepEqual(parseQuery('today', { now, timeZone: 'Pacific/Auckland' }).filter, days('2024-03-16'));
    assert.deepEqual(parseQuery('today', { now, timeZone: 'America/Los_Angeles' }).filter, days('2024-03-15'));
    assert.deepEqual(parseQuery('yesterday', { now: new Date(now), timeZone: 'UTC' }).filter, days('2024-03-14'));
    assert.equal(parseQuery('today', { now, timeZone: 'Pacific/Auckland' }).viewer_timezone, 'Pacific/Auckland');
  });

  test('a month without a year is the latest that has begun; a leap day without a year too', () => {
    const march = { now: Date.parse('2026-03-10T12:00:00Z'), timeZone: 'UTC' };
    assert.deepEqual(parseQuery('in may', march).filter, days('2025-05-01', '2025-05-31'));
    assert.deepEqual(parseQuery('in march', march).filter, days('2026-03-01', '2026-03-31'));
    assert.deepEqual(parseQuery('february 29', march).filter, days('2026-02-28'));
    assert.deepEqual(parseQuery('february 29 2024', march).filter, days('2024-02-29'));
    const noSuchDay = parseQuery('february 29 2023', march);
    assert.deepEqual([noSuchDay.filter, noSuchDay.rest], [days('2023-01-01', '2023-12-31'), 'february 29'], 'no such day: the words are no date, the year still is');
  });

  test('no catalog: camera words are the rest; a context the runtime cannot read is refused', () => {
    assert.deepEqual(parseQuery('canon', { now: NOW, timeZone: 'UTC' }), { filter: {}, rest: 'canon', parsed: [], viewer_timezone: 'UTC' });
    assert.throws(() => parseQuery('today', { now: NOW, timeZone: 'Mars/Olympus_Mons' }), RangeError);
    assert.throws(() => parseQuery('today', { now: Number.NaN, timeZone: 'UTC' }), RangeError);
  });

  test('a translated grammar is a copy of the English table with other words', () => {
    const nl = {
      ...en,
      language: 'nl',
      stopWords: ['van', 'in', 'met', 'mijn'],
      monthIntroducers: ['in'],
      media: en.media.map((m) => (m.kind === 'media_type' && m.filter.type === 'VIDEO' ? { ...m, words: ['video’s', 'filmpjes'] } : m)),
      months: en.months.map((names, i) => (i === 4 ? ['mei'] : names)),
      ambiguousMonthWords: [],
    };
    const r = parseQuery('filmpjes van mei 2021 strand', { ...CTX, grammar: nl });
    assert.deepEqual(r.filter, { type: 'VIDEO', ...days('2021-05-01', '2021-05-31') });
    assert.equal(r.rest, 'strand');
  });
});

// ------------------------------------------------------------------ edge cases and fuzz

/** Checks that hold for every answer. */
function wellFormed(q: string, r: ParsedQuery): void {
  assert.deepEqual(AssetFilterSchema.parse(r.filter), r.filter, `${JSON.stringify(q).slice(0, 200)}: a valid asset filter`);
  assert.equal(typeof r.rest, 'string');
  let at = 0;
  for (const p of r.parsed) {
    assert.ok(p.start >= at && p.end > p.start && p.end <= q.length, 'parts in order, inside the text, not overlapping');
    assert.equal(q.slice(p.start, p.end), p.text);
    AssetFilterSchema.parse(p.filter);
    at = p.end;
  }
  if (r.filter.date?.from && r.filter.date.to) assert.ok(r.filter.date.from <= r.filter.date.to, `${q}: from ≤ to`);
}

describe('parseQuery: edge cases', () => {
  test('empty and blank queries', () => {
    for (const q of ['', ' ', '\n\t  ']) assert.deepEqual(parseQuery(q, CTX), { filter: {}, rest: '', parsed: [], viewer_timezone: 'Europe/Amsterdam' });
  });

  test('what is not a string is an empty query, not an exception', () => {
    for (const q of [null, undefined, 42, {}, ['2023']]) assert.deepEqual(parseQuery(q as never, CTX).filter, {});
  });

  test('10,000 characters: answered, with the first date and the words kept', { timeout: 20_000 }, () => {
    const words = 'beach videos from last summer 2019 to 2021 christmas 2022 4+ stars canon eos 40d in may sunset ';
    const q = words.repeat(Math.ceil(10_000 / words.length)).slice(0, 10_000);
    assert.equal(q.length, 10_000);
    const r = parseQuery(q, CTX);
    wellFormed(q, r);
    assert.deepEqual(r.filter.date, { from: '2024-06-01', to: '2024-08-31' }, 'the first date wins');
    assert.equal(r.filter.type, 'VIDEO');
    assert.equal(r.filter.rating_min, 4);
    assert.equal(r.filter.camera_model, 'Canon EOS 40D');
    assert.ok(r.rest.startsWith('beach 2019 to 2021 christmas 2022'), r.rest.slice(0, 80));
    // Long runs of one character (separators, joiners, digits, apostrophes) are no trouble either.
    for (const ch of ['-', "'", '1', 'a-', '. ', 'may ', '🌅', 'ä']) {
      const long = ch.repeat(Math.ceil(10_000 / ch.length)).slice(0, 10_000);
      wellFormed(long, parseQuery(long, CTX));
    }
  });

  test('broken and invisible characters: lone surrogates, NUL, zero-width space, right-to-left text', () => {
    const q = '\uD800 2023\u0000beach\u200Bsunset \uDFFF חוף';
    const r = parseQuery(q, CTX);
    wellFormed(q, r);
    assert.deepEqual(r.filter, days('2023-01-01', '2023-12-31'));
    assert.equal(r.rest, '\uD800 beach\u200Bsunset \uDFFF חוף'.replace('\u0000', ''));
  });

  test('mixed case, width and apostrophes are the same words', () => {
    const base = parseQuery("christmas 2022 videos new year's eve", CTX).filter;
    for (const q of ['CHRISTMAS 2022 Videos New Year’s Eve', 'Christmas ２０２２ VIDEOS NEW YEAR‘S EVE']) assert.deepEqual(parseQuery(q, CTX).filter, base, q);
  });
});

describe('parseQuery: fuzz', () => {
  test('random word sequences from the grammar (fixed seed): no exception, valid filters, the same answer twice', () => {
    const vocabulary = [
      ...en.stopWords,
      ...en.monthIntroducers,
      ...en.months.flat(),
      ...Object.values(en.seasons).flat(),
      ...en.holidays.flatMap((h) => h.names),
      ...en.thisWords,
      ...en.lastWords,
      ...en.today,
      ...en.yesterday,
      ...en.weekend,
      ...Object.values(en.units).flat(),
      ...en.agoWords,
      ...en.betweenWords,
      ...en.andWords,
      ...en.toWords,
      ...en.sinceWords,
      ...en.untilWords,
      ...en.afterWords,
      ...en.beforeWords,
      ...en.media.flatMap((m) => m.words),
      ...en.favourites,
      ...en.starWords,
      ...en.atLeastWords,
      ...en.orMoreWords,
      ...en.ratedWords,
      ...en.unratedWords,
      ...Object.keys(en.numberWords),
      ...en.articles,
      ...en.fileTypes.flatMap((t) => t.words),
      ...en.cameraIntroducers,
      ...CATALOG.cameraMakes.map((m) => (typeof m === 'string' ? m : m.value)),
      ...CATALOG.cameraModels.map((m) => (typeof m === 'string' ? m : m.value)),
      ...CATALOG.lenses,
      '0', '1', '3', '4+', '5', '29', '31', '32', '1899', '1900', '2019', '2024', '2100', '2101', '99999999999', '2019-2021', '2021-02-29', '2024-02-29', '2020-13', '1990s', '5th',
      'beach', 'sunset', '"EXIT"', ',', '!', '—', '海滩', 'été', '🌅', '&', '-',
    ];
    const next = seededRandom(20251125);
    const pick = () => vocabulary[Math.floor(next() * vocabulary.length)]!;
    const seps = [' ', ' ', ' ', ', ', '  ', '-', '\n'];
    const parser = new QueryParser(CTX);
    const south = new QueryParser({ ...CTX, hemisphere: 'southern', weekStartsOn: 'sunday', timeZone: 'Pacific/Kiritimati' });
    let understood = 0;
    for (let n = 0; n < 3000; n++) {
      const len = 1 + Math.floor(next() * 10);
      let q = '';
      for (let k = 0; k < len; k++) q += (k ? seps[Math.floor(next() * seps.length)] : '') + pick();
      for (const p of [parser, south]) {
        const r = p.parse(q);
        wellFormed(q, r);
        assert.deepEqual(p.parse(q), r, `${q}: deterministic`);
        if (r.parsed.length) understood++;
      }
    }
    assert.ok(understood > 3000, `most random queries hold something understood (${understood} of 6000)`);
  });
});

describe('the lexicon kept between queries', () => {
  // Lexicons are kept per catalog so each search need not rebuild one. The key once named only cameras and
  // lenses: two members with the same cameras shared one lexicon, so one member's people and places were
  // understood in the other's query, and a person renamed kept their old name until the server restarted.
  const people = (query: string, ctx: QueryContext) => parseQuery(query, ctx).parsed.filter((p) => p.kind === 'person').map((p) => p.filter);
  const places = (query: string, ctx: QueryContext) => parseQuery(query, ctx).parsed.filter((p) => p.kind === 'place').map((p) => p.text.trim());
  const box = { north: 38.8, south: 38.6, east: -9.0, west: -9.3 };

  test("a member's people and places are theirs alone, and a rename counts at the next query", () => {
    const anna: QueryContext = { ...CTX, people: [{ id: 1, name: 'Anna' }], places: [{ name: 'Lisbon', location: box }] };
    const other: QueryContext = { ...CTX, people: [{ id: 2, name: 'Ben' }], places: [] };
    assert.equal(people('with Anna', anna).length, 1);
    assert.equal(places('in Lisbon', anna).length, 1);
    assert.deepEqual(people('with Anna', other), [], 'another member with the same cameras does not know Anna');
    assert.deepEqual(places('in Lisbon', other), [], 'nor her places');
    const renamed: QueryContext = { ...anna, people: [{ id: 1, name: 'Annie' }] };
    assert.deepEqual(people('with Anna', renamed), [], 'the old name is gone');
    assert.equal(people('with Annie', renamed).length, 1, 'the new name is understood');
  });
});
