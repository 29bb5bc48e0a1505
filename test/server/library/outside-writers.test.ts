/**
 * Caches that survive other writers (server/src/platform/cache, features/browse/catalog-tracker.ts):
 * on a small catalog, a second better-sqlite3 connection and then a worker thread each write to the
 * catalog file behind the server's back. The next answers over HTTP show each change, and the
 * cached answers stay cached: the catalog's change journal names exactly what was touched, so the
 * caches patch those rows instead of starting over. Read through the runtime diagnostics'
 * counters (getRuntimeDiagnostics), in both response variants.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { dataPaths } from '../../../server/src/container.ts';
import { FIRST_SCREENS } from '../../../server/src/warm-up.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';

const INSERT = `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, width, height,
    taken_time, upload_time, gps_latitude, gps_longitude, state, status, created_at, updated_at)
  VALUES (@id, @owner, @repo, @path, 'PHOTO', @name, 'image/jpeg', 1000, 4000, 3000, @taken, @upload, @lat, @lon, 'ready', '[]', @upload, @upload)`;

type Counters = { name: string; entries: number; hits: number; misses: number; invalidations: number; rows_reread: number };
const CACHES = ['lists', 'map_points', 'statistics_facts', 'folder_totals'] as const;

/** Writes with a worker thread's own connection to the catalog file (the SQL and its parameters). */
async function writeFromWorker(catalog: string, statements: [string, Record<string, unknown>][]): Promise<number> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.catalog);
    db.pragma('busy_timeout = 5000');
    let changes = 0;
    db.transaction(() => { for (const [sql, params] of workerData.statements) changes += db.prepare(sql).run(params).changes; })();
    db.close();
    parentPort.postMessage(changes);`;
  const worker = new Worker(code, { eval: true, workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), catalog, statements } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

for (const variant of ['A', 'B'] as const) {
  describe(`caches after writes by another connection and a worker thread (variant ${variant})`, { timeout: 120_000 }, () => {
    let srv: TestServer;
    let alice: Client;
    let bob: Client;
    let aliceId: number;
    let repo: string;
    const ids: string[] = [];

    before(async () => {
      srv = await startServer();
      const h = await signedInHousehold(srv.url, variant, ['bob'] as const);
      alice = h.admin;
      bob = h.members.bob.client;
      const db = srv.container.db;
      aliceId = db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
      repo = srv.container.repositories.primary()!.repository_id;
      const insert = db.prepare(INSERT);
      for (let i = 0; i < 12; i++) {
        const id = crypto.randomUUID();
        ids.push(id);
        const gps = i % 3 !== 0;
        insert.run({ id, owner: aliceId, repo, path: `${i < 6 ? 'trip' : 'home'}/${i}.jpg`, name: `${i}.jpg`, taken: Date.UTC(2019 + (i % 3), i, 5), upload: Date.UTC(2024, 0, 1 + i), lat: gps ? 48 + i / 10 : null, lon: gps ? 2 + i / 10 : null });
      }
      for (let i = 0; i < 3; i++) {
        insert.run({ id: crypto.randomUUID(), owner: h.members.bob.id, repo, path: `bob/${i}.jpg`, name: `b${i}.jpg`, taken: Date.UTC(2021, i, 1), upload: Date.UTC(2024, 1, 1 + i), lat: null, lon: null });
      }
    });
    after(() => srv.stop({ removeData: true }));

    const ok = async (r: Promise<{ status: number; text: string }>, client: Client) => {
      const res = await r;
      assert.equal(res.status, 200, res.text);
      return data(client, res as never);
    };
    const timeline = (c: Client) => ok(c.post(`${V1}/assets/query`, FIRST_SCREENS.timeline), c);
    const liked = () => ok(alice.post(`${V1}/assets/query`, { filter: { liked: true } }), alice);
    const map = () => ok(alice.get(`${V1}/assets/map-points?limit=5000`), alice);
    const years = () => ok(alice.get(`${V1}/stats/available-years`), alice);
    const folders = () => ok(alice.get(`${V1}/assets/folders?repository_id=${repo}&path=`), alice);
    const counters = async (): Promise<Record<string, Counters>> => {
      const d = await ok(alice.get(`${V1}/runtime/diagnostics`), alice);
      return Object.fromEntries((d.caches.caches as Counters[]).map((c) => [c.name, c]));
    };
    const idsOf = (list: { items: { media_item: { primary_asset: { asset_id: string } } }[] }) => list.items.map((i) => i.media_item.primary_asset.asset_id);
    /** Every answer the test reads, in one go (each one the cached answer of its screen). */
    const everything = async () => ({ timeline: await timeline(alice), bob: await timeline(bob), liked: await liked(), map: await map(), years: await years(), folders: await folders() });

    test('the runtime diagnostics are for administrators only', async () => {
      const member = await bob.get(`${V1}/runtime/diagnostics`);
      assert.equal(member.status, 403);
      assert.ok(problem(bob, member).code);
      const anonymous = new Client(srv.url, variant);
      const none = await anonymous.get(`${V1}/runtime/diagnostics`);
      assert.equal(none.status, 401);
      assert.ok(problem(anonymous, none).code);
    });

    test('a like written by a second connection shows in the liked list; every cached answer stays cached', async () => {
      const before = await everything();
      assert.equal(before.timeline.total_visible, 12);
      assert.equal(before.liked.total_visible, 0);
      const c0 = await counters();
      for (const name of CACHES) assert.ok(c0[name]!.entries >= 1, `${name} holds the answers just given`);

      const other = new Database(dataPaths(srv.dataDir).catalog);
      try {
        assert.equal(other.prepare('UPDATE assets SET liked = 1 WHERE asset_id = ?').run(ids[4]).changes, 1);
      } finally {
        other.close();
      }

      const next = await everything();
      assert.deepEqual(idsOf(next.liked), [ids[4]], 'the like shows');
      // The same rows in the same order (the page itself is read fresh: ids[4] now says it is liked).
      assert.deepEqual(idsOf(next.timeline), idsOf(before.timeline), 'the timeline does not depend on likes');
      assert.equal(next.timeline.items.find((i: { media_item: { primary_asset: { asset_id: string; liked: boolean } } }) => i.media_item.primary_asset.asset_id === ids[4]).media_item.primary_asset.liked, true);
      assert.deepEqual(next.bob, before.bob);
      assert.deepEqual(next.map, before.map);
      assert.deepEqual(next.years, before.years);
      assert.deepEqual(next.folders, before.folders);
      const c1 = await counters();
      for (const name of CACHES) {
        assert.equal(c1[name]!.misses, c0[name]!.misses, `${name}: nothing computed again`);
        assert.equal(c1[name]!.invalidations, c0[name]!.invalidations, `${name}: nothing thrown away`);
      }
      // The statistics answers themselves are kept (memo) while nothing they count moved: their facts are not even consulted.
      for (const name of ['lists', 'map_points', 'folder_totals', 'memo']) assert.ok(c1[name]!.hits > c0[name]!.hits, `${name}: served from the cache`);
      assert.equal(c1.memo!.misses, c0.memo!.misses, 'memo: no statistic computed again');
      // A like is not something a map point or a statistic shows: the liked row is not even read again.
      for (const name of ['map_points', 'statistics_facts']) assert.equal(c1[name]!.rows_reread, c0[name]!.rows_reread, `${name}: the liked row is not read again`);
    });

    test('a worker thread trashes one photo and adds another: lists, map, statistics and folders show both; still no recomputation', async () => {
      const before = await everything();
      const c0 = await counters();
      const added = crypto.randomUUID();
      const trashed = ids[1]!; // geotagged, in trip/, taken in 2020
      const changes = await writeFromWorker(dataPaths(srv.dataDir).catalog, [
        ['UPDATE assets SET is_deleted = 1, deleted_at = @now WHERE asset_id = @id', { id: trashed, now: Date.now() }],
        [INSERT, { id: added, owner: aliceId, repo, path: 'new/fresh.jpg', name: 'fresh.jpg', taken: Date.UTC(2026, 0, 2), upload: Date.now(), lat: 10, lon: 20 }],
      ]);
      assert.equal(changes, 2);

      const next = await everything();
      assert.equal(next.timeline.total_visible, before.timeline.total_visible);
      assert.equal(idsOf(next.timeline)[0], added, 'the newest capture comes first');
      assert.ok(!idsOf(next.timeline).includes(trashed), 'the trashed photo left the timeline');
      const points = (m: { points: { asset_id: string }[] }) => m.points.map((p) => p.asset_id);
      assert.equal(next.map.total, before.map.total);
      assert.ok(points(next.map).includes(added) && !points(next.map).includes(trashed));
      const yearCount = (y: { years: { year: number; count: number }[] }, year: number) => y.years.find((x) => x.year === year)?.count ?? 0;
      assert.equal(yearCount(next.years, 2026), 1);
      assert.equal(yearCount(next.years, 2020), yearCount(before.years, 2020) - 1);
      const folder = (f: { folders: { folder_path: string; asset_count: number }[] }, p: string) => f.folders.find((x) => x.folder_path === p)?.asset_count ?? 0;
      assert.equal(folder(next.folders, 'new'), 1);
      assert.equal(folder(next.folders, 'trip'), folder(before.folders, 'trip') - 1);
      assert.deepEqual(next.bob, before.bob, "bob's timeline is untouched");
      assert.deepEqual(next.liked, before.liked);

      const c1 = await counters();
      for (const name of CACHES) {
        assert.equal(c1[name]!.misses, c0[name]!.misses, `${name}: brought up to date, not computed again`);
        assert.equal(c1[name]!.invalidations, c0[name]!.invalidations, `${name}: nothing thrown away`);
      }
      // The trashed and the added row are read again (and only those).
      for (const name of ['map_points', 'statistics_facts']) assert.equal(c1[name]!.rows_reread - c0[name]!.rows_reread, 2, `${name}: the two changed rows are read again`);
      const d = await ok(alice.get(`${V1}/runtime/diagnostics`), alice);
      assert.equal(d.caches.journal.rebuilds, 1, 'the catalog shape was built once, then only patched');
    });
  });
}
