/**
 * Filter options, supported types and the library statistics over HTTP: cameras and lenses read
 * from real corpus files, SQL rows with known capture times and UTC offsets (local years, days and
 * hours across New Year in both directions), media items counted once, the Trash and other members
 * left out, the index-only and the direct year counts agreeing, and 422s naming the field.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { detect } from '../../../server/src/adapters/media/detect.ts';
import { indexCorpus, insertAsset, linkItem, setup, utc, type World } from './catalog.ts';

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('statistics and filter options', { timeout: 300_000 }, () => {
  let w: World;
  const ids: Record<string, string> = {};
  let recent = 0;

  const get = (c: Client, p: string, query: Record<string, string | number> = {}) =>
    c.get(`${V1}${p}?${new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))}`);
  const ok = async <T = any>(c: Client, p: string, query: Record<string, string | number> = {}): Promise<T> => {
    const r = await get(c, p, query);
    assert.equal(r.status, 200, `${p} ${JSON.stringify(query)}: ${r.text}`);
    return data<T>(c, r);
  };

  before(async () => {
    w = await setup();
    const a = w.aliceId;
    ids.canon600d = await indexCorpus(w, 'gps/Canon_600D_gps.jpg', 'cams/Canon_600D_gps.jpg', a);
    ids.img5910 = await indexCorpus(w, 'exif/IMG_5910.jpg', 'cams/IMG_5910.jpg', a);
    ids.ep3 = await indexCorpus(w, 'exif/Olympus_E-P3.jpg', 'cams/Olympus_E-P3.jpg', a);
    ids.d70 = await indexCorpus(w, 'exif/Nikon_D70.jpg', 'cams/Nikon_D70.jpg', a);
    ids.d70s = await indexCorpus(w, 'gps/Nikon_D70s_gps.jpg', 'cams/Nikon_D70s_gps.jpg', a);
    ids.iphone = await indexCorpus(w, 'video/with-gps.mov', 'cams/with-gps.mov', a);
    ids.trashed = await indexCorpus(w, 'exif/Canon_40D.jpg', 'cams/Canon_40D.jpg', a);
    ids.bob = await indexCorpus(w, 'exif/Pentax_K10D.jpg', 'cams/Pentax_K10D.jpg', w.bobId);
    await w.srv.container.jobRunner.whenIdle();
    assert.equal((await w.alice.req('DELETE', `${V1}/assets/${ids.trashed}`)).status, 200);

    // SQL rows in the second repository, with known local times.
    const s = w.synth.repository_id;
    const row = (p: string, extra: Partial<Parameters<typeof insertAsset>[1]>) => insertAsset(w, { owner: a, repo: s, path: `t/${p}`, ...extra });
    ids.r1 = row('r1.jpg', { taken: utc('2019-12-31T14:30:00'), offset: 540 }); // local 2019-12-31 23:30 (+09:00)
    ids.r2 = row('r2.jpg', { taken: utc('2019-12-31T16:00:00'), offset: 540 }); // local 2020-01-01 01:00 (+09:00)
    ids.r3 = row('r3.jpg', { taken: utc('2019-01-01T01:00:00'), offset: -300 }); // local 2018-12-31 20:00 (-05:00)
    ids.r4 = row('r4.jpg', { taken: utc('2019-07-14T10:00:00') }); // no offset: wall clock as recorded
    ids.r5 = row('r5.mp4', { type: 'VIDEO', taken: utc('2019-07-14T18:00:00') });
    ids.r6 = row('r6.jpg', { taken: null, upload: utc('2021-03-03T12:00:00') }); // no capture time
    ids.r7 = row('r7.jpg', { taken: utc('2019-07-14T12:00:00'), deleted: true });
    ids.r8jpg = row('r8.jpg', { taken: utc('2019-07-14T11:00:00') });
    ids.r8raw = row('r8.nef', { taken: utc('2019-07-14T11:00:00') });
    linkItem(w, a, [ids.r8jpg, ids.r8raw], ['jpeg_original', 'raw_original']);
    recent = Date.now() - 2 * DAY;
    ids.r9 = row('r9.jpg', { taken: recent });
    const cam = (p: string, camera: string, lens: string | null, focal: number | null, extra: Partial<Parameters<typeof insertAsset>[1]> = {}) =>
      row(p, { taken: utc('2017-05-05T12:00:00'), meta: { camera_model: camera, lens_model: lens, focal_length: focal }, ...extra });
    cam('c1.jpg', 'Pixel 7', null, 6.8);
    cam('c2.jpg', 'Pixel 7', null, 6.8);
    cam('c3.jpg', 'Pixel 7', null, 6.8);
    cam('c4.jpg', 'ILCE-7M3', 'FE 24-105mm F4', 24);
    cam('c5.jpg', 'ILCE-7M3', 'FE 24-105mm F4', 105);
    cam('c6.jpg', 'ILCE-7M3', '', null);
    cam('c7.mp4', 'ILCE-7M3', null, null, { type: 'VIDEO' });
    cam('c8.jpg', 'Pixel 7', null, 50, { deleted: true });
    cam('c9.jpg', 'Trash Cam 3000', 'Trash Lens', 35, { deleted: true });
    insertAsset(w, { owner: w.bobId, repo: s, path: 't/bob.jpg', taken: utc('2019-07-14T09:00:00'), meta: { camera_model: 'Bob Cam', lens_model: 'Bob Lens', focal_length: 35 } });
  });
  after(() => w.srv.stop({ removeData: true }));

  test('filter options: your cameras and lenses, sorted, without the Trash', async () => {
    const f = await ok<{ camera_models: string[]; lenses: string[] }>(w.alice, '/assets/filter-options');
    assert.deepEqual(f.camera_models, ['Canon EOS 600D', 'E-P3', 'ILCE-7M3', 'iPhone 6', 'NIKON D70', 'NIKON D70s', 'Pixel 7']);
    // As extracted from the corpus files (the E-P3's lens is not read by the metadata extractor) and
    // the SQL rows; natural order puts 18 before 100.
    assert.deepEqual(f.lenses, ['18.0-70.0 mm f/3.5-4.5', '100.0 mm f/2.8', 'EF-S15-85mm f/3.5-5.6 IS USM', 'FE 24-105mm F4']);
    assert.ok(!f.camera_models.includes('Canon EOS 40D') && !f.camera_models.includes('Trash Cam 3000'), 'cameras only in the Trash are not options');
    const b = await ok(w.bob, '/assets/filter-options');
    assert.deepEqual(b, {
      camera_makes: ['PENTAX Corporation'],
      camera_models: ['Bob Cam', 'PENTAX K10D'],
      // Each model with its make (none recorded for the SQL row) and the name to show.
      cameras: [
        { make: null, model: 'Bob Cam', name: 'Bob Cam' },
        { make: 'PENTAX Corporation', model: 'PENTAX K10D', name: 'Pentax K10D' },
      ],
      lenses: ['Bob Lens'],
    });
  });

  test('asset types: the filter values and the formats detection recognises', async () => {
    const t = await ok<{ types: string[]; formats: { type: string; name: string; extensions: string[]; mime_types: string[]; raw: boolean }[] }>(w.alice, '/assets/types');
    assert.deepEqual(t.types, ['PHOTO', 'VIDEO', 'AUDIO']);
    for (const type of t.types) assert.ok(t.formats.some((f) => f.type === type), type);
    const kinds: Record<string, string> = { photo: 'PHOTO', video: 'VIDEO', audio: 'AUDIO' };
    for (const file of ['exif/Canon_40D.jpg', 'heic/IMG_0307.HEIC', 'raw/RAW_NIKON_D1.NEF', 'raw/Canon_EOS_R6_pruned.CR3', 'raw/exiftool_DNG.dng', 'raw/exiftool_FujiFilm.raf', 'video/with-gps.mp4', 'video/with-gps.mov', 'video/100_0306.AVI', 'video/Sony_ILCE-7M3.mts', 'video/sample.3gp', 'ocr/ocr_01.png']) {
      const d = (await detect(path.join(CORPUS, file)))!;
      assert.ok(d, file);
      const f = t.formats.find((x) => x.type === kinds[d.kind] && x.mime_types.includes(d.mime));
      assert.ok(f, `${file}: ${d.mime} is listed under ${kinds[d.kind]}`);
      assert.ok(f.extensions.includes(d.ext), `${file}: .${d.ext} is listed for ${f.name}`);
      assert.equal(f.raw, d.isRaw, file);
    }
    assert.ok(t.formats.some((f) => f.type === 'AUDIO' && f.mime_types.includes('audio/mpeg') && f.extensions.includes('mp3')));
  });

  test('available years: local capture year, New Year offsets both ways, items once', async () => {
    const synth = await ok<{ years: { year: number; count: number }[]; total: number }>(w.alice, '/stats/available-years', { repository_id: w.synth.repository_id });
    const recentYear = new Date(recent).getUTCFullYear();
    const expected = new Map<number, number>([
      [2021, 1], // r6, by its upload time
      [2020, 1], // r2: UTC 2019, local 2020
      [2019, 4], // r1, r4, r5 (video), r8 (the pair once)
      [2018, 1], // r3: UTC 2019, local 2018
      [2017, 7], // six camera photos and the camera video
    ]);
    expected.set(recentYear, (expected.get(recentYear) ?? 0) + 1);
    assert.deepEqual(synth.years, [...expected].sort((x, y) => y[0] - x[0]).map(([year, count]) => ({ year, count })));
    assert.equal(synth.total, 15);

    // Without a repository the years are counted from an index with New Year corrections: they must
    // equal the direct counts of the two repositories added up.
    const primary = await ok<{ years: { year: number; count: number }[]; total: number }>(w.alice, '/stats/available-years', { repository_id: w.primary.repository_id });
    assert.deepEqual(primary.years.map((y) => y.year), [2019, 2015, 2014, 2008, 2005]);
    assert.equal(primary.total, 6);
    const all = await ok<{ years: { year: number; count: number }[]; total: number }>(w.alice, '/stats/available-years');
    const merged = new Map<number, number>();
    for (const y of [...synth.years, ...primary.years]) merged.set(y.year, (merged.get(y.year) ?? 0) + y.count);
    assert.deepEqual(all.years, [...merged].sort((x, y) => y[0] - x[0]).map(([year, count]) => ({ year, count })));
    assert.equal(all.total, 21);
    const bob = await ok(w.bob, '/stats/available-years');
    assert.deepEqual(bob, { years: [{ year: 2019, count: 1 }, { year: 2008, count: 1 }], total: 2 });
  });

  test('camera and lens combinations: photos only, most used first, limit', async () => {
    const s = await ok(w.alice, '/stats/camera-lens', { repository_id: w.synth.repository_id });
    assert.deepEqual(s, {
      items: [
        { camera_model: 'Pixel 7', lens_model: null, count: 3 },
        { camera_model: 'ILCE-7M3', lens_model: 'FE 24-105mm F4', count: 2 },
        { camera_model: 'ILCE-7M3', lens_model: null, count: 1 },
      ],
      limit: 20,
      total_combinations: 3,
      total_photos: 6,
    });
    const two = await ok(w.alice, '/stats/camera-lens', { repository_id: w.synth.repository_id, limit: 2 });
    assert.equal(two.items.length, 2);
    assert.equal(two.total_combinations, 3);
    assert.equal(two.limit, 2);
    const all = await ok<{ items: { camera_model: string; lens_model: string | null; count: number }[]; total_photos: number }>(w.alice, '/stats/camera-lens');
    assert.deepEqual(all.items[0], { camera_model: 'Pixel 7', lens_model: null, count: 3 });
    const canon = all.items.find((i) => i.camera_model === 'Canon EOS 600D')!;
    assert.equal(canon.count, 2, 'two corpus photos share the Canon EOS 600D with its EF-S 15-85 mm');
    assert.match(canon.lens_model ?? '', /^EF-S15-85mm/);
    assert.ok(!all.items.some((i) => i.camera_model === 'iPhone 6'), 'videos are not counted');
    assert.ok(!all.items.some((i) => i.camera_model === 'Canon EOS 40D' || i.camera_model === 'Trash Cam 3000'), 'nor the Trash');
    assert.equal(all.total_photos, 6 + 5);
    assert.deepEqual((await ok(w.bob, '/stats/camera-lens')).items.map((i: { camera_model: string }) => i.camera_model).sort(), ['Bob Cam', 'PENTAX K10D']);
  });

  test('daily heatmap: local days, dense, year / date range / days', async () => {
    const repo = { repository_id: w.synth.repository_id };
    type Heat = { start_date: string; end_date: string; days: { date: string; count: number }[]; total: number; max_count: number };
    const y2019 = await ok<Heat>(w.alice, '/stats/daily-activity', { ...repo, year: 2019 });
    assert.equal(y2019.start_date, '2019-01-01');
    assert.equal(y2019.end_date, '2019-12-31');
    assert.equal(y2019.days.length, 365);
    assert.equal(y2019.days[0]!.date, '2019-01-01');
    const nonzero = y2019.days.filter((d) => d.count > 0);
    assert.deepEqual(nonzero, [
      { date: '2019-07-14', count: 3 }, // r4, r5, the r8 pair once (not the trashed r7)
      { date: '2019-12-31', count: 1 }, // r1 (r2 is already 1 January locally)
    ]);
    assert.equal(y2019.total, 4);
    assert.equal(y2019.max_count, 3);
    const y2020 = await ok<Heat>(w.alice, '/stats/daily-activity', { ...repo, year: 2020 });
    assert.equal(y2020.days.length, 366);
    assert.deepEqual(y2020.days.filter((d) => d.count > 0), [{ date: '2020-01-01', count: 1 }]);

    const range = await ok<Heat>(w.alice, '/stats/daily-activity', { ...repo, start_date: '2018-12-30', end_date: '2019-01-02' });
    assert.deepEqual(range.days, [
      { date: '2018-12-30', count: 0 },
      { date: '2018-12-31', count: 1 }, // r3: UTC 1 January, local New Year's Eve
      { date: '2019-01-01', count: 0 },
      { date: '2019-01-02', count: 0 },
    ]);
    const today = dayOf(Date.now());
    const def = await ok<Heat>(w.alice, '/stats/daily-activity', repo);
    assert.equal(def.days.length, 365);
    assert.equal(def.end_date, today);
    assert.equal(def.days.find((d) => d.date === dayOf(recent))?.count, 1);
    const week = await ok<Heat>(w.alice, '/stats/daily-activity', { ...repo, days: 7 });
    assert.deepEqual([week.days.length, week.end_date, week.total], [7, today, 1]);
    const bob = await ok<Heat>(w.bob, '/stats/daily-activity', { year: 2019 });
    assert.deepEqual(bob.days.filter((d) => d.count > 0), [{ date: '2019-07-14', count: 1 }]);
  });

  test('focal lengths: buckets, top values, unknown', async () => {
    const f = await ok(w.alice, '/stats/focal-length', { repository_id: w.synth.repository_id });
    const counts = Object.fromEntries(f.buckets.map((b: { label: string; count: number }) => [b.label, b.count]));
    assert.deepEqual(counts, { '<10 mm': 3, '10–16 mm': 0, '16–24 mm': 0, '24–35 mm': 1, '35–50 mm': 0, '50–85 mm': 0, '85–135 mm': 1, '135–200 mm': 0, '200–400 mm': 0, '400+ mm': 0 });
    assert.deepEqual(f.buckets[3], { label: '24–35 mm', min_mm: 24, max_mm: 35, count: 1 });
    assert.deepEqual(f.buckets.at(-1), { label: '400+ mm', min_mm: 400, max_mm: null, count: 0 });
    assert.deepEqual(f.top_values, [
      { focal_length: 6.8, count: 3 },
      { focal_length: 24, count: 1 },
      { focal_length: 105, count: 1 },
    ]);
    assert.equal(f.total, 5);
    assert.equal(f.unknown_count, 8, 'r1 r2 r3 r4 r6 r8 r9 and the camera photo without one (photos only, the pair once)');
  });

  test('time distribution: local hours and months of capture', async () => {
    const repo = { repository_id: w.synth.repository_id };
    const hourly = await ok<{ type: string; buckets: { bucket: number; count: number }[]; total: number }>(w.alice, '/stats/time-distribution', repo);
    assert.equal(hourly.type, 'hourly');
    assert.deepEqual(hourly.buckets.map((b) => b.bucket), Array.from({ length: 24 }, (_, i) => i));
    const hours = new Map<number, number>();
    for (const h of [23, 1, 20, 10, 18, 11, new Date(recent).getUTCHours(), 12, 12, 12, 12, 12, 12, 12]) hours.set(h, (hours.get(h) ?? 0) + 1);
    assert.deepEqual(hourly.buckets.filter((b) => b.count > 0), [...hours].sort((x, y) => x[0] - y[0]).map(([bucket, count]) => ({ bucket, count })));
    assert.equal(hourly.total, 14, 'everything with a capture time (not r6), the pair once');
    const monthly = await ok<{ type: string; buckets: { bucket: number; count: number }[]; total: number }>(w.alice, '/stats/time-distribution', { ...repo, type: 'monthly' });
    assert.deepEqual(monthly.buckets.map((b) => b.bucket), Array.from({ length: 12 }, (_, i) => i + 1));
    const months = new Map<number, number>();
    for (const m of [12, 1, 12, 7, 7, 7, new Date(recent).getUTCMonth() + 1, 5, 5, 5, 5, 5, 5, 5]) months.set(m, (months.get(m) ?? 0) + 1);
    assert.deepEqual(monthly.buckets.filter((b) => b.count > 0), [...months].sort((x, y) => x[0] - y[0]).map(([bucket, count]) => ({ bucket, count })));
    const bob = await ok<{ total: number }>(w.bob, '/stats/time-distribution');
    assert.equal(bob.total, 2);
  });

  test('bad input: 422 naming the field; unknown repository 404; sign-in required', async () => {
    for (const [p, query, fields] of [
      ['/stats/camera-lens', { limit: 0 }, ['query.limit']],
      ['/stats/camera-lens', { limit: 101 }, ['query.limit']],
      ['/stats/time-distribution', { type: 'daily' }, ['query.type']],
      ['/stats/daily-activity', { year: 2019, start_date: '2019-01-01', end_date: '2019-02-01' }, ['query.year', 'query.start_date', 'query.end_date']],
      ['/stats/daily-activity', { year: 2019, days: 5 }, ['query.year', 'query.days']],
      ['/stats/daily-activity', { start_date: '2019-01-01' }, ['query.end_date']],
      ['/stats/daily-activity', { end_date: '2019-01-01' }, ['query.start_date']],
      ['/stats/daily-activity', { start_date: '2019-02-01', end_date: '2019-01-01' }, ['query.end_date']],
      ['/stats/daily-activity', { start_date: '2000-01-01', end_date: '2010-12-31' }, ['query.end_date']],
      ['/stats/daily-activity', { start_date: '2019-02-30', end_date: '2019-03-01' }, ['query.start_date']],
      ['/stats/daily-activity', { start_date: '20190101', end_date: '2019-03-01' }, ['query.start_date']],
      ['/stats/daily-activity', { year: 1800 }, ['query.year']],
      ['/stats/daily-activity', { days: 0 }, ['query.days']],
      ['/stats/focal-length', { repository_id: 'nope' }, ['query.repository_id']],
    ] as const) {
      const r = await get(w.alice, p, query);
      assert.equal(r.status, 422, `${p} ${JSON.stringify(query)}: ${r.text}`);
      assert.deepEqual(problem(w.alice, r).errors?.map((e) => e.field), fields, `${p} ${JSON.stringify(query)}`);
    }
    const unknown = { repository_id: '00000000-0000-7000-8000-000000000000' };
    for (const p of ['/stats/available-years', '/stats/camera-lens', '/stats/daily-activity', '/stats/focal-length', '/stats/time-distribution']) {
      const r = await get(w.alice, p, unknown);
      assert.equal(r.status, 404, p);
      assert.equal(problem(w.alice, r).code, 'repository_not_found');
    }
    const anon = new Client(w.srv.url);
    for (const p of ['/assets/filter-options', '/assets/types', '/stats/available-years']) assert.equal((await anon.get(`${V1}${p}`)).status, 401, p);
  });

  test('answers follow the catalog', async () => {
    const before1 = await ok<{ total: number }>(w.alice, '/stats/available-years');
    const before2 = await ok<{ camera_models: string[] }>(w.alice, '/assets/filter-options');
    assert.equal((await w.alice.req('DELETE', `${V1}/assets/${ids.ep3}`)).status, 200);
    assert.equal((await ok<{ total: number }>(w.alice, '/stats/available-years')).total, before1.total - 1);
    assert.ok(!(await ok<{ camera_models: string[] }>(w.alice, '/assets/filter-options')).camera_models.includes('E-P3'));
    assert.equal((await w.alice.post(`${V1}/assets/${ids.ep3}/restore`)).status, 200);
    assert.deepEqual(await ok(w.alice, '/assets/filter-options'), before2);
  });
});
