/**
 * Places over HTTP on real media: the corpus GPS files (copied at test time) ingested through the
 * real pipeline, their place names in getAsset checked against the files' labels, location clusters
 * rebuilt and listed, ownership between two members, positions written outside the pipeline (an
 * older catalog, (0, 0)) caught up by the sync job, and bad input. Both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, templateClient, type TestServer } from '../helpers/server.ts';
import { V1, data, login, problem } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { GPS_FILES, RECIPES } from '../../template/recipes.ts';
import { rebuildLocationClustersJob } from '../../../server/src/features/places/places.jobs.ts';
import { CORPUS_PLACES } from './corpus-places.ts';


type Place = { city: string | null; region: string | null; country: string; country_code: string; geohash: string } | null;
type Cluster = { cluster_id: string; geohash: string; photo_count: number; label: string | null; city: string | null; region: string | null; country: string | null; provider: string; geocode_status: string; precision: number; centroid_latitude: number };

describe('places: names, clusters, ownership', { timeout: 900_000 }, () => {
  let srv: TestServer;
  let alice: Record<'A' | 'B', Client>;
  let bob: Record<'A' | 'B', Client>;
  let aliceId = 0;
  let bobId = 0;
  let ids: Record<string, string> = {};
  let bobIds: Record<string, string> = {};

  before(async () => {
    // Every photo of the corpus's gps folder (alice's) and two of bob's, from the template: RECIPES.places.
    srv = await startServer({ template: RECIPES.places });
    const a = await templateClient(srv, 'alice');
    const b = await templateClient(srv, 'bob');
    aliceId = srv.template!.users.alice!.id;
    bobId = srv.template!.users.bob!.id;
    alice = inBothVariants(a);
    bob = inBothVariants(b);
    const { helsinki, sydney, ...mine } = srv.template!.assets;
    ids = mine;
    bobIds = { helsinki: helsinki!, sydney: sydney! };
  });
  after(() => srv.stop({ removeData: true }));

  const placeOf = async (c: Client, id: string): Promise<Place> => {
    const r = await c.get(`${V1}/assets/${id}`);
    assert.equal(r.status, 200, r.text);
    return (data(c, r) as { place: Place }).place;
  };

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: getAsset names the place of every corpus file with GPS as its label says; none without GPS`, async () => {
      const c = alice[variant];
      for (const file of GPS_FILES) {
        const place = await placeOf(c, ids[file]!);
        const want = CORPUS_PLACES[file];
        if (!want) {
          assert.equal(place, null, `${file}: no GPS, no place`);
          continue;
        }
        assert.ok(place, `${file}: a place`);
        assert.equal(place.country, want.country, file);
        if (want.region) assert.equal(place.region, want.region, file);
        if (want.city) assert.equal(place.city, want.city, file);
        assert.match(place.geohash, /^[0-9b-hjkmnp-z]{7}$/, file);
      }
      assert.ok(GPS_FILES.includes('empty_gps.jpg') && GPS_FILES.includes('big_ben_only_time.jpg'));
    });
  }

  test('geohashes at precision 5 and 7 are stored for every asset with a position', () => {
    const rows = srv.container.db.prepare('SELECT original_filename, gps_latitude, geohash5, geohash7 FROM assets').all() as { original_filename: string; gps_latitude: number | null; geohash5: string | null; geohash7: string | null }[];
    assert.equal(rows.length, GPS_FILES.length + 2);
    for (const r of rows) {
      if (r.gps_latitude === null) assert.deepEqual([r.geohash5, r.geohash7], [null, null], r.original_filename);
      else {
        assert.match(r.geohash5 ?? '', /^[0-9b-hjkmnp-z]{5}$/, r.original_filename);
        assert.equal(r.geohash7?.slice(0, 5), r.geohash5, r.original_filename);
      }
    }
  });

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: a rebuild is queued with a receipt, then the clusters list the places with their names, most photos first`, async () => {
      const c = alice[variant];
      const r = await c.post(`${V1}/location-clusters/rebuild`, {});
      assert.equal(r.status, 200, r.text);
      const receipt = data(c, r) as { status: string; receipt_id: string; repository_id: string | null; message: string };
      assert.equal(receipt.status, 'queued');
      assert.match(receipt.receipt_id, /^\d+$/);
      assert.equal(receipt.repository_id, null);
      await srv.container.jobRunner.whenIdle();
      const job = srv.container.jobs.get(Number(receipt.receipt_id));
      assert.equal(job?.state, 'completed');

      const list = await c.get(`${V1}/location-clusters?limit=100`);
      assert.equal(list.status, 200, list.text);
      const body = data(c, list) as { clusters: Cluster[]; total: number; limit: number; offset: number };
      assert.equal(body.limit, 100);
      assert.equal(body.offset, 0);
      assert.equal(body.total, body.clusters.length);
      // 17 files with GPS; the three big_ben copies share one cell, the Tuscany shots a few cells.
      const photos = body.clusters.reduce((n, k) => n + k.photo_count, 0);
      assert.equal(photos, 17);
      for (let i = 1; i < body.clusters.length; i++) assert.ok(body.clusters[i - 1]!.photo_count >= body.clusters[i]!.photo_count);
      for (const k of body.clusters) {
        assert.equal(k.precision, 7);
        assert.equal(k.geohash.length, 7);
        assert.equal(k.provider, 'geonames-offline');
        assert.equal(k.geocode_status, 'resolved');
        assert.ok(k.label && k.country, `${k.geohash} is named`);
      }
      const london = body.clusters.find((k) => k.city === 'London');
      assert.equal(london?.photo_count, 2, 'both geotagged big_ben files (the third has no GPS)');
      assert.equal(london?.label, 'London, United Kingdom');
      assert.equal(london?.region, 'England');
      const tuscany = body.clusters.filter((k) => k.region === 'Tuscany').reduce((n, k) => n + k.photo_count, 0);
      assert.equal(tuscany, 8, 'seven Arezzo shots and one in Florence');
      assert.ok(body.clusters.some((k) => k.city === 'Helsinki' && k.country === 'Finland'));

      // A geohash prefix keeps the clusters inside that cell.
      const cell = london!.geohash.slice(0, 5);
      const inCell = data(c, await c.get(`${V1}/location-clusters?geohash=${cell}`)) as { clusters: Cluster[]; total: number };
      assert.deepEqual(inCell.clusters.map((k) => k.geohash), [london!.geohash]);
      const page = data(c, await c.get(`${V1}/location-clusters?limit=1&offset=1`)) as { clusters: Cluster[]; total: number };
      assert.equal(page.clusters.length, 1);
      assert.equal(page.total, body.total);
      assert.equal(page.clusters[0]!.cluster_id, body.clusters[1]!.cluster_id);
    });
  }

  test("another member never sees your clusters; theirs are their own (and an administrator's are only theirs)", async () => {
    for (const variant of ['A', 'B'] as const) {
      const c = bob[variant];
      const before = data(c, await c.get(`${V1}/location-clusters`)) as { clusters: Cluster[]; total: number };
      assert.equal(before.total, 0, 'bob has not rebuilt: none of alice’s show');
    }
    const r = await bob.A.post(`${V1}/location-clusters/rebuild`);
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    const mine = data(bob.A, await bob.A.get(`${V1}/location-clusters`)) as { clusters: Cluster[] };
    assert.deepEqual(mine.clusters.map((k) => k.city).sort(), ['Helsinki', 'Sydney']);
    assert.deepEqual(mine.clusters.map((k) => k.photo_count), [1, 1]);
    const members = srv.container.db.prepare('SELECT a.owner_id FROM location_cluster_members m JOIN assets a USING (asset_id) JOIN location_clusters l USING (cluster_id) WHERE l.owner_id = ?').pluck().all(bobId);
    assert.deepEqual([...new Set(members)], [bobId]);
    const hers = data(alice.A, await alice.A.get(`${V1}/location-clusters?limit=1000`)) as { clusters: Cluster[] };
    assert.equal(hers.clusters.reduce((n, k) => n + k.photo_count, 0), 17, 'bob’s rebuild left alice’s clusters alone');
    // Bob cannot read alice's asset (and so its place) either.
    assert.equal((await bob.A.get(`${V1}/assets/${ids['HMD_Nokia_8.3_5G.jpg']}`)).status, 404);
    assert.equal((await placeOf(bob.B, bobIds.helsinki!))?.city, 'Helsinki');
  });

  test('a rebuild while one of yours is queued or running is 409 (not a second run); another member is not held up', async () => {
    const held = srv.container.jobs.enqueue(rebuildLocationClustersJob, { owner_id: aliceId, repository_id: null }, { delayMs: 3_600_000 });
    assert.equal(held.inserted, true);
    try {
      for (const c of [alice.A, alice.B]) {
        const r = await c.post(`${V1}/location-clusters/rebuild`, {});
        assert.equal(r.status, 409, r.text);
        assert.equal(problem(c, r).code, 'location_rebuild_running');
      }
      const jobs = srv.container.db.prepare("SELECT count(*) FROM jobs WHERE kind = 'places.rebuild-location-clusters' AND state IN ('available', 'scheduled', 'running', 'retryable')").pluck().get();
      assert.equal(jobs, 1, 'no second run queued');
      assert.equal((await bob.A.post(`${V1}/location-clusters/rebuild`, {})).status, 200);
    } finally {
      srv.container.jobs.cancel(held.job.id);
    }
    await srv.container.jobRunner.whenIdle();
    assert.equal((await alice.A.post(`${V1}/location-clusters/rebuild`, { repository_id: srv.container.repositories.primary()!.repository_id })).status, 200);
    await srv.container.jobRunner.whenIdle();
  });

  test('positions written outside the pipeline (an older catalog, an edit, (0, 0)) get their geohashes and names from the sync job', async () => {
    const db = srv.container.db;
    const arezzo = ids['DSCN0010.jpg']!;
    const kenya = ids['Kodak_CX7530_kenya.jpg']!;
    // An older catalog: geohashes never computed.
    db.prepare('UPDATE assets SET geohash5 = NULL, geohash7 = NULL WHERE owner_id = ?').run(aliceId);
    // A position moved by SQL (to Lisbon), and one set to (0, 0): the trigger makes them stale.
    db.prepare('UPDATE assets SET gps_latitude = 38.7223, gps_longitude = -9.1393 WHERE asset_id = ?').run(arezzo);
    db.prepare('UPDATE assets SET gps_latitude = 0, gps_longitude = 0 WHERE asset_id = ?').run(kenya);
    assert.equal(srv.container.placeNames.pending(), true);
    const counts = srv.container.placeNames.sync();
    assert.equal(counts.geohashed, 17);
    assert.equal(srv.container.placeNames.pending(), false);
    const lisbon = await placeOf(alice.A, arezzo);
    assert.equal(lisbon?.city, 'Lisbon');
    assert.equal(lisbon?.country, 'Portugal');
    assert.equal(await placeOf(alice.B, kenya), null, '(0, 0) is no place');
    assert.equal(await placeOf(alice.A, ids['empty_gps.jpg']!), null);
    // Put them back for the tests that follow.
    db.prepare('UPDATE assets SET gps_latitude = 43.467448, gps_longitude = 11.885127 WHERE asset_id = ?').run(arezzo);
    db.prepare('UPDATE assets SET gps_latitude = -0.3713, gps_longitude = 36.056417 WHERE asset_id = ?').run(kenya);
    srv.container.placeNames.sync();
    assert.equal((await placeOf(alice.A, kenya))?.country, 'Kenya');
  });

  test('bad input: problem+json naming the field, nothing queued', async () => {
    const before = srv.container.db.prepare("SELECT count(*) FROM jobs WHERE kind = 'places.rebuild-location-clusters'").pluck().get();
    for (const c of [alice.A, alice.B]) {
      const cases: [string, Promise<import('../helpers/server.ts').HttpResult>, number, string][] = [
        ['unknown repository', c.post(`${V1}/location-clusters/rebuild`, { repository_id: '0190a000-0000-7000-8000-000000000000' }), 422, 'body.repository_id'],
        ['not a uuid', c.post(`${V1}/location-clusters/rebuild`, { repository_id: 'lisbon' }), 422, 'repository_id'],
        ['unknown field', c.post(`${V1}/location-clusters/rebuild`, { owner_id: 2 }), 422, ''],
        ['limit 0', c.get(`${V1}/location-clusters?limit=0`), 422, 'limit'],
        ['limit too big', c.get(`${V1}/location-clusters?limit=1001`), 422, 'limit'],
        ['negative offset', c.get(`${V1}/location-clusters?offset=-1`), 422, 'offset'],
        ['not a geohash', c.get(`${V1}/location-clusters?geohash=ai%27--`), 422, 'geohash'],
        ['repository not a uuid', c.get(`${V1}/location-clusters?repository_id=x`), 422, 'repository_id'],
      ];
      for (const [name, req, status, field] of cases) {
        const r = await req;
        assert.equal(r.status, status, `${name}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(typeof p.code, 'string', name);
        if (field) assert.ok(JSON.stringify(p).includes(field), `${name} names ${field}: ${JSON.stringify(p)}`);
      }
    }
    const anonymous = new Client(srv.url);
    assert.equal((await anonymous.get(`${V1}/location-clusters`)).status, 401);
    assert.equal(srv.container.db.prepare("SELECT count(*) FROM jobs WHERE kind = 'places.rebuild-location-clusters'").pluck().get(), before);
  });

  test('a catalog from before the places migration (positions without geohashes or names) is caught up by the job queued at start', async () => {
    const db = srv.container.db;
    db.prepare('UPDATE assets SET geohash5 = NULL, geohash7 = NULL').run();
    db.prepare('DELETE FROM place_cells').run();
    const dataDir = srv.dataDir;
    await srv.stop();
    srv = await startServer({ dataDir });
    await srv.container.jobRunner.whenIdle();
    const missing = srv.container.db.prepare("SELECT count(*) FROM assets WHERE gps_latitude IS NOT NULL AND (geohash7 IS NULL OR geohash5 IS NULL)").pluck().get();
    assert.equal(missing, 0);
    const job = srv.container.db.prepare("SELECT state FROM jobs WHERE kind = 'places.name-places' ORDER BY id DESC LIMIT 1").pluck().get();
    assert.equal(job, 'completed');
    const c = new Client(srv.url);
    await login(c, 'alice');
    assert.equal((await placeOf(c, ids['sydney_opera_house.jpg']!))?.city, 'Sydney');
  });
});
