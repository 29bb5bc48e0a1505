/**
 * getMapPoints over HTTP: real geotagged corpus photos and a video (positions from their metadata),
 * ownership, the Trash, viewports (including one across the antimeridian), (0, 0) as "no position",
 * one point per media item, paging and totals over a few thousand SQL rows (both ways of reading a
 * page, and the total counted by subtraction agreeing with a direct count), and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { insertAsset, linkItem, setup, utc, type World } from '../statistics/catalog.ts';
import { RECIPES } from '../../template/recipes.ts';

type Point = { asset_id: string; gps_latitude: number; gps_longitude: number; original_filename: string; taken_time: string | null; upload_time: string };
type Points = { limit: number; offset: number; points: Point[]; total: number };

describe('getMapPoints', { timeout: 300_000 }, () => {
  let w: World;
  const ids: Record<string, string> = {};

  const get = (c: Client, query: Record<string, string | number> = {}) =>
    c.get(`${V1}/assets/map-points?${new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))}`);
  const points = async (c: Client, query: Record<string, string | number> = {}): Promise<Points> => {
    const r = await get(c, query);
    assert.equal(r.status, 200, r.text);
    return data<Points>(c, r);
  };
  const names = (p: Points) => p.points.map((x) => x.original_filename).sort();

  before(async () => {
    // Geotagged photos and videos (alice's) and one of bob's, from the template: RECIPES.mapPoints.
    w = await setup({ template: RECIPES.mapPoints });
    Object.assign(ids, w.srv.template!.assets);
    await w.srv.container.jobRunner.whenIdle();
    assert.equal((await w.alice.req('DELETE', `${V1}/assets/${ids.trashed}`)).status, 200);
  });
  after(() => w.srv.stop({ removeData: true }));

  test('your geotagged photos and videos, newest capture first, with their metadata positions', async () => {
    const p = await points(w.alice);
    assert.equal(p.limit, 1000);
    assert.equal(p.offset, 0);
    assert.deepEqual(names(p), ['Canon_600D_gps.jpg', 'Kodak_CX7530_kenya.jpg', 'big_ben.jpg', 'sydney_opera_house.jpg', 'with-gps.mp4']);
    assert.equal(p.total, 5, 'no Trash, no photo without a position, no (0, 0), nothing of bob');
    const canon = p.points.find((x) => x.asset_id === ids.canon)!;
    assert.ok(Math.abs(canon.gps_latitude - 37.746765) < 1e-4 && Math.abs(canon.gps_longitude - -119.529883) < 1e-4, JSON.stringify(canon));
    assert.match(canon.taken_time ?? '', /^2015-06-12T13:40:32/);
    assert.ok(!Number.isNaN(Date.parse(canon.upload_time)));
    const sydney = p.points.find((x) => x.asset_id === ids.sydney)!;
    assert.ok(sydney.gps_latitude < -33 && sydney.gps_longitude > 151);
    const video = p.points.find((x) => x.asset_id === ids.video)!;
    assert.ok(Math.abs(video.gps_latitude - 51.4169) < 1e-3 && Math.abs(video.gps_longitude - -0.0806) < 1e-3, JSON.stringify(video));
    const times = p.points.map((x) => Date.parse(x.taken_time ?? x.upload_time));
    assert.deepEqual(times, [...times].sort((x, y) => y - x), 'newest capture first');
    assert.equal(p.points[0]!.asset_id, ids.bigben, '2023 is the newest capture');

    const bobs = await points(w.bob);
    assert.deepEqual(bobs.points.map((x) => x.asset_id), [ids.bob]);
    assert.equal(bobs.total, 1);
  });

  test('viewports: a box, a box across the antimeridian, an empty box', async () => {
    const london = await points(w.alice, { south: 51, north: 52, west: -1, east: 1 });
    assert.deepEqual(names(london), ['big_ben.jpg', 'with-gps.mp4']);
    assert.equal(london.total, 2);
    const south = await points(w.alice, { south: -90, north: 0, west: -180, east: 180 });
    assert.deepEqual(names(south), ['Kodak_CX7530_kenya.jpg', 'sydney_opera_house.jpg']);
    // West 150 to east -110 crosses the antimeridian: Sydney (151.2) and Yosemite (-119.5), not London or Kenya.
    const pacific = await points(w.alice, { south: -90, north: 90, west: 150, east: -110 });
    assert.deepEqual(names(pacific), ['Canon_600D_gps.jpg', 'sydney_opera_house.jpg']);
    assert.equal(pacific.total, 2);
    const none = await points(w.alice, { south: 10, north: 11, west: 10, east: 11 });
    assert.deepEqual(none.points, []);
    assert.equal(none.total, 0);
    const whole = await points(w.alice, { south: -90, north: 90, west: -180, east: 180 });
    assert.equal(whole.total, 5);
  });

  test('(0, 0) is no position; one point per media item', async () => {
    const s = w.synth.repository_id;
    const A = w.aliceId;
    const zero = insertAsset(w, { owner: A, repo: s, path: 'z/zero.jpg', lat: 0, lon: 0, taken: utc('2001-01-01T00:00:00') });
    const nearZero = insertAsset(w, { owner: A, repo: s, path: 'z/near-zero.jpg', lat: 0, lon: 0.0001, taken: utc('2001-01-02T00:00:00') });
    const onlyLat = insertAsset(w, { owner: A, repo: s, path: 'z/only-lat.jpg', lat: 10, lon: null });
    // A RAW+JPEG pair, both geotagged: one point, at the JPEG; while the JPEG is in the Trash, at the RAW.
    const jpeg = insertAsset(w, { owner: A, repo: s, path: 'z/pair.jpg', lat: 45, lon: 7, taken: utc('2002-01-01T00:00:00') });
    const raw = insertAsset(w, { owner: A, repo: s, path: 'z/pair.nef', lat: 45, lon: 7, taken: utc('2002-01-01T00:00:00') });
    linkItem(w, A, [jpeg, raw], ['jpeg_original', 'raw_original']);
    const box = { repository_id: s, south: -1, north: 50, west: -1, east: 10 };
    let p = await points(w.alice, box);
    assert.deepEqual(p.points.map((x) => x.asset_id).sort(), [nearZero, jpeg].sort());
    assert.ok(!p.points.some((x) => x.asset_id === zero || x.asset_id === raw || x.asset_id === onlyLat));
    assert.equal(p.total, 2);
    assert.equal((await points(w.alice)).total, 7, 'the library-wide total counts the pair once too');

    assert.equal((await w.alice.req('DELETE', `${V1}/assets/${jpeg}`)).status, 200);
    p = await points(w.alice, box);
    assert.deepEqual(p.points.map((x) => x.asset_id).sort(), [nearZero, raw].sort(), 'the RAW stands for the pair while the JPEG is in the Trash');
    assert.equal((await points(w.alice)).total, 7);
    // Its file never existed (an SQL row), so restore it in the catalog directly.
    w.srv.container.db.prepare('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id = ?').run(jpeg);
    assert.equal((await points(w.alice, box)).total, 2);
  });

  test('thousands of points: paging, limits, totals agree whichever way they are read', async () => {
    const db = w.srv.container.db;
    const s = w.synth.repository_id;
    const base = utc('2010-01-01T00:00:00');
    db.transaction(() => {
      for (let i = 0; i < 6000; i++) {
        insertAsset(w, {
          owner: w.aliceId,
          repo: s,
          path: `bulk/${Math.floor(i / 500)}/${i}.jpg`,
          // Spread over the globe, a few hundred of them across the antimeridian (|lon| > 175).
          lat: -80 + ((i * 37) % 160) + 0.5,
          lon: -180 + ((i * 101) % 360) + 0.25,
          taken: base + i * 3_600_000,
          deleted: i % 50 === 0,
        });
      }
      for (let i = 0; i < 40; i++) insertAsset(w, { owner: w.bobId, repo: s, path: `bulk/bob/${i}.jpg`, lat: 1, lon: 1 });
    })();
    const all = await points(w.alice, { limit: 5000 });
    const expectedSynth = 6000 - 120 + 2; // minus the trashed, plus near-zero and the pair
    assert.equal(all.total, 5 + expectedSynth);
    assert.equal(all.points.length, 5000);
    const rest = await points(w.alice, { limit: 5000, offset: 5000 });
    assert.equal(rest.points.length, all.total - 5000);
    const ids1 = [...all.points, ...rest.points].map((x) => x.asset_id);
    assert.equal(new Set(ids1).size, all.total, 'every point exactly once across pages');
    // Deep into the whole world, reading every point through the position index and sorting is cheaper
    // than walking: that page must continue the newest-first walk exactly.
    const deep = await points(w.alice, { south: -90, north: 90, west: -180, east: 180, limit: 5000, offset: 1000 });
    assert.deepEqual(deep.points.slice(0, 4000).map((x) => x.asset_id), all.points.slice(1000).map((x) => x.asset_id));
    assert.deepEqual(deep.points.slice(4000).map((x) => x.asset_id), rest.points.slice(0, deep.points.length - 4000).map((x) => x.asset_id));
    const perRepo = (await points(w.alice, { repository_id: w.primary.repository_id })).total + (await points(w.alice, { repository_id: s })).total;
    assert.equal(perRepo, all.total, 'the total by subtraction equals the direct per-repository counts');

    // A small box (read through the position index) and the whole world (read newest first) page alike.
    for (const box of [
      { south: 10, north: 30, west: 20, east: 60 },
      { south: -90, north: 90, west: 175, east: -175 },
      { south: -90, north: 90, west: -180, east: 180 },
    ]) {
      const full = await points(w.alice, { ...box, limit: 5000 });
      const inBox = (x: Point) =>
        x.gps_latitude >= box.south && x.gps_latitude <= box.north && (box.west <= box.east ? x.gps_longitude >= box.west && x.gps_longitude <= box.east : x.gps_longitude >= box.west || x.gps_longitude <= box.east);
      assert.ok(full.points.every(inBox), JSON.stringify(box));
      const paged: string[] = [];
      for (let offset = 0; offset < Math.min(full.total, 5000); offset += 700) paged.push(...(await points(w.alice, { ...box, limit: 700, offset })).points.map((x) => x.asset_id));
      assert.deepEqual(paged.slice(0, full.points.length), full.points.map((x) => x.asset_id), `pages concatenate to the full list: ${JSON.stringify(box)}`);
      const times = full.points.map((x) => Date.parse(x.taken_time ?? x.upload_time));
      assert.deepEqual(times, [...times].sort((x, y) => y - x));
      const repoTotal = (await points(w.alice, { ...box, repository_id: s, limit: 1 })).total + (await points(w.alice, { ...box, repository_id: w.primary.repository_id, limit: 1 })).total;
      assert.equal(repoTotal, full.total, JSON.stringify(box));
    }
    const anti = await points(w.alice, { south: -90, north: 90, west: 175, east: -175, limit: 5000 });
    assert.ok(anti.total > 50 && anti.points.every((x) => Math.abs(x.gps_longitude) >= 175), `antimeridian points: ${anti.total}`);
    const past = await points(w.alice, { offset: 100_000 });
    assert.deepEqual(past.points, []);
    assert.equal(past.total, all.total);
    assert.equal((await points(w.bob)).total, 41, 'bob: his corpus photo and his 40 rows');
  });

  test('bad input: 422 naming the field; unknown repository 404', async () => {
    for (const [query, fields] of [
      [{ north: 10 }, ['query.south', 'query.west', 'query.east']],
      [{ south: 1, north: 2, west: 3 }, ['query.east']],
      [{ south: 10, north: 5, west: 0, east: 1 }, ['query.south']],
      [{ south: -91, north: 0, west: 0, east: 1 }, ['query.south']],
      [{ south: 0, north: 90.5, west: 0, east: 1 }, ['query.north']],
      [{ south: 0, north: 1, west: -181, east: 1 }, ['query.west']],
      [{ south: 0, north: 1, west: 0, east: 'x' }, ['query.east']],
      [{ limit: 0 }, ['query.limit']],
      [{ limit: 5001 }, ['query.limit']],
      [{ offset: -1 }, ['query.offset']],
      [{ repository_id: 'nope' }, ['query.repository_id']],
    ] as const) {
      const r = await get(w.alice, query);
      assert.equal(r.status, 422, `${JSON.stringify(query)}: ${r.text}`);
      assert.deepEqual(problem(w.alice, r).errors?.map((e) => e.field), fields, JSON.stringify(query));
    }
    const nf = await get(w.alice, { repository_id: '00000000-0000-7000-8000-000000000000' });
    assert.equal(nf.status, 404);
    assert.equal((await new Client(w.srv.url).get(`${V1}/assets/map-points`)).status, 401);
  });
});
