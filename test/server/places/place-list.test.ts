/**
 * The places list (listPlaces, listPlaceCells) and queryAssets' `filter.place_id` over HTTP on real
 * media: corpus GPS files (copied at test time) ingested through the real pipeline and named by the
 * offline gazetteer; counts, covers, levels, paging, the Trash, ownership between two members, and
 * bad input. Both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants, indexCorpus, listedKeys } from '../helpers/corpus-assets.ts';

type Place = {
  place_id: string;
  level: string;
  name: string;
  city: string | null;
  region: string | null;
  country: string;
  country_code: string;
  photo_count: number;
  cover_asset_id: string;
  latitude: number;
  longitude: number;
  bounds: { south: number; north: number; west: number; east: number };
  first_taken: string;
  last_taken: string;
};
type PlaceList = { places: Place[]; level: string; total: number; limit: number; offset: number };
type Cell = { geohash: string; label: string; city_place_id: string; photo_count: number };

const ALICE = {
  london1: ['gps/big_ben.jpg', 'alice/london/big_ben.jpg'],
  london2: ['gps/big_ben_no_tsoffset_but_gps_utc.jpg', 'alice/london/big_ben_utc.jpg'],
  florence: ['gps/Nikon_D70s_gps.jpg', 'alice/italy/florence.jpg'],
  arezzo1: ['gps/DSCN0010.jpg', 'alice/italy/DSCN0010.jpg'],
  arezzo2: ['gps/DSCN0012.jpg', 'alice/italy/DSCN0012.jpg'],
  helsinki: ['gps/HMD_Nokia_8.3_5G.jpg', 'alice/helsinki.jpg'],
  nogps: ['gps/empty_gps.jpg', 'alice/empty_gps.jpg'],
  // An Apple live photo in Brno: the still and its motion both carry the position; one photo.
  live: ['live/IMG_7943.HEIC', 'alice/brno/IMG_7943.HEIC'],
  liveMotion: ['live/IMG_7943_HEVC.MOV', 'alice/brno/IMG_7943_HEVC.MOV'],
} as const;

describe('places list: cities, regions, countries and their photos', { timeout: 900_000 }, () => {
  let srv: TestServer;
  let alice: Record<'A' | 'B', Client>;
  let bob: Record<'A' | 'B', Client>;
  let ids: Record<keyof typeof ALICE, string>;
  let bobIds: Record<'helsinki' | 'sydney', string>;

  before(async () => {
    srv = await startServer();
    const a = new Client(srv.url);
    const aliceId = (await registerAdmin(a)).session.user.user_id;
    const b = new Client(srv.url);
    const bobId = (await addMember(a, b, 'bob')).session.user.user_id;
    alice = inBothVariants(a);
    bob = inBothVariants(b);
    ids = await indexCorpus(srv, aliceId, ALICE);
    bobIds = await indexCorpus(srv, bobId, { helsinki: ['gps/HMD_Nokia_8.3_5G.jpg', 'bob/helsinki.jpg'], sydney: ['gps/sydney_opera_house.jpg', 'bob/sydney.jpg'] });
  });
  after(() => srv.stop({ removeData: true }));

  const places = async (c: Client, query = ''): Promise<PlaceList> => {
    const r = await c.get(`${V1}/places${query}`);
    assert.equal(r.status, 200, r.text);
    return data(c, r) as PlaceList;
  };

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: cities with counts, covers, centre and box, most photos first; named without any rebuild`, async () => {
      const c = alice[variant];
      const list = await places(c);
      assert.equal(list.level, 'city');
      assert.equal(list.limit, 100);
      assert.equal(list.offset, 0);
      assert.equal(list.total, list.places.length);
      assert.equal(list.places.reduce((n, p) => n + p.photo_count, 0), 7, 'seven geotagged photos (empty_gps has none; the live photo is one)');
      const brno = list.places.find((p) => p.country_code === 'CZ');
      assert.equal(brno?.photo_count, 1, 'a live photo counts once');
      assert.equal(brno?.cover_asset_id, ids.live, 'its still is the cover, not the motion');
      for (let i = 1; i < list.places.length; i++) assert.ok(list.places[i - 1]!.photo_count >= list.places[i]!.photo_count);
      const london = list.places.find((p) => p.name === 'London');
      assert.ok(london, JSON.stringify(list.places.map((p) => p.name)));
      // London and Arezzo (two Tuscany shots) both have two: equal counts go by name.
      assert.deepEqual(list.places.slice(0, 2).map((p) => [p.name, p.photo_count]), [['Arezzo', 2], ['London', 2]]);
      assert.deepEqual([london.level, london.city, london.region, london.country, london.country_code, london.photo_count], ['city', 'London', 'England', 'United Kingdom', 'GB', 2]);
      assert.ok([ids.london1, ids.london2].includes(london.cover_asset_id));
      assert.ok(london.bounds.south <= london.latitude && london.latitude <= london.bounds.north);
      assert.ok(london.bounds.west <= london.longitude && london.longitude <= london.bounds.east);
      assert.ok(Math.abs(london.latitude - 51.5) < 0.1 && Math.abs(london.longitude + 0.12) < 0.1, `${london.latitude},${london.longitude}`);
      assert.ok(Date.parse(london.first_taken) <= Date.parse(london.last_taken));
      const florence = list.places.find((p) => p.city === 'Florence');
      assert.equal(florence?.photo_count, 1);
      assert.equal(florence?.cover_asset_id, ids.florence);
      assert.equal(list.places.find((p) => p.city === 'Helsinki')?.photo_count, 1, 'alice’s own Helsinki photo, not bob’s');
      assert.ok(list.places.every((p) => p.name === (p.city ?? p.region ?? p.country)));
      // getPlace answers the same place by its id.
      const one = await c.get(`${V1}/places/${london.place_id}`);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(data(c, one), london);
      // Paging keeps the order and the total.
      const page = await places(c, '?limit=1&offset=1');
      assert.equal(page.total, list.total);
      assert.deepEqual(page.places.map((p) => p.place_id), [list.places[1]!.place_id]);
    });

    test(`variant ${variant}: regions and countries add up the cities`, async () => {
      const c = alice[variant];
      const countries = await places(c, '?level=country');
      assert.equal(countries.level, 'country');
      const byName = Object.fromEntries(countries.places.map((p) => [p.name, p.photo_count]));
      const czech = countries.places.find((p) => p.country_code === 'CZ')!.name;
      assert.deepEqual(byName, { Italy: 3, 'United Kingdom': 2, Finland: 1, [czech]: 1 });
      assert.deepEqual(countries.places.map((p) => p.name), ['Italy', 'United Kingdom', ...[czech, 'Finland'].sort()]);
      assert.ok(countries.places.every((p) => p.city === null && p.region === null && p.level === 'country'));
      const regions = await places(c, '?level=region');
      const tuscany = regions.places.find((p) => p.region === 'Tuscany');
      assert.equal(tuscany?.photo_count, 3);
      assert.equal(tuscany?.country, 'Italy');
      assert.equal(tuscany?.city, null);
    });

    test(`variant ${variant}: filter.place_id lists a place's photos at every level`, async () => {
      const c = alice[variant];
      const city = await places(c);
      const londonId = city.places.find((p) => p.city === 'London')!.place_id;
      assert.deepEqual(await listedKeys(c, ids, { filter: { place_id: londonId } }), ['london1', 'london2']);
      const italy = (await places(c, '?level=country')).places.find((p) => p.country_code === 'IT')!;
      assert.deepEqual(await listedKeys(c, ids, { filter: { place_id: italy.place_id } }), ['arezzo1', 'arezzo2', 'florence']);
      const tuscany = (await places(c, '?level=region')).places.find((p) => p.region === 'Tuscany')!;
      assert.deepEqual(await listedKeys(c, ids, { filter: { place_id: tuscany.place_id, type: 'PHOTO' } }), ['arezzo1', 'arezzo2', 'florence']);
      // Every city's photos add up to the library's geotagged photos, each listed under exactly one city.
      const seen: string[] = [];
      for (const p of city.places) {
        const keys = await listedKeys(c, ids, { filter: { place_id: p.place_id } });
        assert.equal(keys.length, p.photo_count, p.name);
        seen.push(...keys);
      }
      assert.deepEqual(seen.sort(), ['arezzo1', 'arezzo2', 'florence', 'helsinki', 'live', 'london1', 'london2']);
    });

    test(`variant ${variant}: listPlaceCells names every cell of the caller's photos with its city's place id`, async () => {
      const c = alice[variant];
      const r = await c.get(`${V1}/places/cells`);
      assert.equal(r.status, 200, r.text);
      const body = data(c, r) as { cells: Cell[]; total: number; limit: number; offset: number };
      assert.equal(body.limit, 5000);
      assert.equal(body.total, body.cells.length);
      assert.equal(body.cells.reduce((n, k) => n + k.photo_count, 0), 7);
      const city = await places(c);
      const london = body.cells.filter((k) => k.label === 'London, United Kingdom');
      assert.equal(london.reduce((n, k) => n + k.photo_count, 0), 2);
      assert.ok(london.every((k) => k.city_place_id === city.places.find((p) => p.city === 'London')!.place_id && /^[0-9b-hjkmnp-z]{7}$/.test(k.geohash)));
      assert.ok(body.cells.some((k) => k.label === 'Helsinki, Finland'));
      assert.ok(!body.cells.some((k) => k.label.startsWith('Sydney')), 'bob’s Sydney is not alice’s');
    });
  }

  test('another member never sees your places or their photos; theirs are their own', async () => {
    for (const variant of ['A', 'B'] as const) {
      const mine = await places(bob[variant]);
      assert.deepEqual(mine.places.map((p) => [p.name, p.photo_count]).sort(), [['Helsinki', 1], ['Sydney', 1]]);
      assert.ok(mine.places.every((p) => Object.values(bobIds).includes(p.cover_asset_id)));
      // Alice's London place id in bob's hands lists nothing; the shared city Helsinki lists his photo alone.
      const londonId = (await places(alice[variant])).places.find((p) => p.city === 'London')!.place_id;
      assert.deepEqual(await listedKeys(bob[variant], bobIds, { filter: { place_id: londonId } }), []);
      const hers = await bob[variant].get(`${V1}/places/${londonId}`);
      assert.equal(hers.status, 404, hers.text);
      assert.equal(problem(bob[variant], hers).code, 'place_not_found');
      const helsinki = mine.places.find((p) => p.name === 'Helsinki')!.place_id;
      assert.deepEqual(await listedKeys(bob[variant], bobIds, { filter: { place_id: helsinki } }), ['helsinki']);
      const cells = data(bob[variant], await bob[variant].get(`${V1}/places/cells`)) as { cells: Cell[] };
      assert.deepEqual(cells.cells.map((k) => k.label).sort(), ['Helsinki, Finland', 'Sydney, Australia']);
    }
  });

  test('the cover is the best-rated photo; the Trash leaves the counts, the cover and the list', async () => {
    const c = alice.A;
    assert.equal((await c.put(`${V1}/assets/${ids.london2}/rating`, { rating: 5 })).status, 200);
    let london = (await places(c)).places.find((p) => p.city === 'London')!;
    assert.equal(london.cover_asset_id, ids.london2, 'five stars make the cover');
    assert.equal((await c.req('DELETE', `${V1}/assets/${ids.london2}`)).status, 200);
    london = (await places(alice.B)).places.find((p) => p.city === 'London')!;
    assert.equal(london.photo_count, 1);
    assert.equal(london.cover_asset_id, ids.london1);
    assert.deepEqual(await listedKeys(c, ids, { filter: { place_id: london.place_id } }), ['london1']);
    assert.equal((await c.req('DELETE', `${V1}/assets/${ids.helsinki}`)).status, 200);
    assert.equal((await places(c)).places.find((p) => p.city === 'Helsinki'), undefined, 'a place with only trashed photos is gone');
  });

  test('bad input: problem+json naming the field, with a stable code', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const c of [alice.A, alice.B]) {
      const cases: [string, Promise<import('../helpers/server.ts').HttpResult>, string, string?][] = [
        ['unknown level', c.get(`${V1}/places?level=town`), 'level'],
        ['limit 0', c.get(`${V1}/places?limit=0`), 'limit'],
        ['limit too big', c.get(`${V1}/places?limit=501`), 'limit'],
        ['negative offset', c.get(`${V1}/places?offset=-1`), 'offset'],
        ['cells limit too big', c.get(`${V1}/places/cells?limit=10001`), 'limit'],
        ['place_id not base64', c.post(`${V1}/assets/query`, { filter: { place_id: 'Lisbon, Portugal' } }), 'place_id', 'invalid_place_id'],
        ['place_id of no shape', c.post(`${V1}/assets/query`, { filter: { place_id: b64({ city: 'Lisbon' }) } }), 'place_id', 'invalid_place_id'],
        ['place_id unknown level', c.post(`${V1}/assets/query`, { filter: { place_id: b64(['town', 'PT', 'Lisbon', 'Lisbon']) } }), 'place_id', 'invalid_place_id'],
        ['place_id bad country code', c.post(`${V1}/assets/query`, { filter: { place_id: b64(['country', "PT' OR 1=1"]) } }), 'place_id', 'invalid_place_id'],
        ['place_id too few parts', c.post(`${V1}/assets/query`, { filter: { place_id: b64(['city', 'PT', 'Lisbon']) } }), 'place_id', 'invalid_place_id'],
        ['getPlace malformed id', c.get(`${V1}/places/${b64(['city', 'pt', 'Lisbon', 'Lisbon'])}`), 'place_id', 'invalid_place_id'],
        ['place_id not a string', c.post(`${V1}/assets/query`, { filter: { place_id: 7 } }), 'place_id'],
      ];
      for (const [name, req, field, code] of cases) {
        const r = await req;
        assert.equal(r.status, 422, `${name}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(typeof p.code, 'string', name);
        assert.ok(JSON.stringify(p).includes(field), `${name} names ${field}: ${JSON.stringify(p)}`);
        if (code) assert.ok(JSON.stringify(p).includes(code), `${name} says ${code}: ${JSON.stringify(p)}`);
      }
      // A well-formed place where the caller has no photos lists nothing (no error: the list is a search).
      assert.deepEqual(await listedKeys(c, ids, { filter: { place_id: b64(['city', 'PT', 'Lisbon', 'Lisbon']) } }), []);
      const nowhere = await c.get(`${V1}/places/${b64(['city', 'PT', 'Lisbon', 'Lisbon'])}`);
      assert.equal(nowhere.status, 404, nowhere.text);
      assert.equal(problem(c, nowhere).code, 'place_not_found');
    }
    const anonymous = new Client(srv.url);
    assert.equal((await anonymous.get(`${V1}/places`)).status, 401);
    assert.equal((await anonymous.get(`${V1}/places/cells`)).status, 401);
  });
});
