/**
 * After a gap in the change journal (features/browse/catalog-tracker.ts): another connection writes
 * more changes at once than the tracker applies one by one (a big import by another process), or
 * so many that the journal is pruned past the tracker's position. The tracker then starts over:
 * it reads the catalog shape again and every cache computes again.
 *
 * Shown here on a small catalog (1500 RAW+JPEG pairs, 300 stacks), in both response variants:
 * - the rebuild never holds the event loop: it spans several turns of the event loop (counted by a
 *   ticker in this process, where the server runs), and none is done at once inside a request
 *   (`blocking_rebuilds` stays 0);
 * - the answers after the gap are exact: equal to the answers of fresh services computing
 *   everything from scratch on the same catalog (timeline collapsed and expanded, a later page,
 *   the liked list, the map, the years statistic), and they show the real changes written in
 *   the same batch as the flood (a new photo, a trashed JPEG whose RAW now stands for its item,
 *   a stack member trashed, likes).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { dataPaths } from '../../../server/src/container.ts';
import { FIRST_SCREENS } from '../../../server/src/warm-up.ts';
import { BrowseService } from '../../../server/src/features/browse/browse.service.ts';
import { CatalogTracker } from '../../../server/src/features/browse/catalog-tracker.ts';
import { MapIndex } from '../../../server/src/features/places/map-index.ts';
import { PlacesService } from '../../../server/src/features/places/places.service.ts';
import { OwnerFacts } from '../../../server/src/features/statistics/owner-facts.ts';
import { CatalogMemo } from '../../../server/src/features/statistics/memo.ts';
import { StatisticsService } from '../../../server/src/features/statistics/statistics.service.ts';
import { CacheRegistry } from '../../../server/src/platform/cache/kept-cache.ts';
import type { Actor } from '../../../server/src/platform/http/context.ts';
import { V1, data, signedInHousehold } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';

const PAIRS = 1500;
const STACKS = 300;

type Journal = { rebuilds: number; blocking_rebuilds: number; rebuilding: boolean; position: number };

for (const variant of ['A', 'B'] as const) {
  describe(`caches after a gap in the change journal (variant ${variant})`, { timeout: 300_000 }, () => {
    let srv: TestServer;
    let alice: Client;
    let aliceActor: Actor;
    let repo: string;
    const pairs: { jpeg: string; raw: string; item: string }[] = [];

    before(async () => {
      srv = await startServer();
      const h = await signedInHousehold(srv.url, variant, ['bob'] as const);
      alice = h.admin;
      const db = srv.container.db;
      const aliceId = db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
      aliceActor = { userId: aliceId, username: 'alice', role: 'admin', sessionId: 'test', via: 'bearer' };
      const make = catalogOf(db);
      // Offline: no scan looks for these synthetic files on disk (and puts them in the Trash as missing).
      repo = make.repository({ name: 'synthetic', path: path.join(srv.dataDir, 'synthetic'), status: 'offline' });
      db.transaction(() => {
        for (let i = 0; i < PAIRS; i++) {
          const taken = Date.UTC(2015 + (i % 8), i % 12, 1 + (i % 27), i % 24);
          const gps = i % 3 === 0 ? { gps_latitude: 40 + (i % 50) / 10, gps_longitude: -3 + (i % 70) / 10 } : {};
          const jpeg = make.asset({ owner_id: aliceId, repository_id: repo, storage_path: `y${i % 8}/IMG_${i}.JPG`, original_filename: `IMG_${i}.JPG`, taken_time: taken, upload_time: Date.UTC(2024, 0, 1) + i * 1000, ...gps });
          const raw = make.asset({ owner_id: aliceId, repository_id: repo, storage_path: `y${i % 8}/IMG_${i}.CR2`, original_filename: `IMG_${i}.CR2`, mime_type: 'image/x-canon-cr2', taken_time: taken, upload_time: Date.UTC(2024, 0, 1) + i * 1000 + 1, ...gps });
          const item = make.mediaItem(aliceId, 'photo', [
            { asset_id: jpeg, relation: 'jpeg_original' },
            { asset_id: raw, relation: 'raw_original' },
          ]);
          pairs.push({ jpeg, raw, item });
        }
        for (let s = 0; s < STACKS; s++) make.stack({ owner_id: aliceId, stack_kind: s % 2 ? 'burst' : 'manual', members: [pairs[4 * s]!.item, pairs[4 * s + 1]!.item, pairs[4 * s + 2]!.item] });
        for (let i = 0; i < 3; i++) make.asset({ owner_id: h.members.bob.id, repository_id: repo, storage_path: `bob/${i}.jpg`, taken_time: Date.UTC(2021, i, 1) });
      })();
    });
    after(() => srv.stop({ removeData: true }));

    const ok = async (r: Promise<{ status: number; text: string }>) => {
      const res = await r;
      assert.equal(res.status, 200, res.text);
      return data(alice, res as never);
    };
    const queries = {
      timeline: FIRST_SCREENS.timeline,
      expanded: { ...FIRST_SCREENS.timeline, stack_mode: 'expanded' as const, pagination: { limit: 100, offset: 1000 } },
      later: { sort_by: 'recently_added' as const, pagination: { limit: 50, offset: 700 } },
      liked: { filter: { liked: true } },
    };
    /** The answers over HTTP (each the cached answer of its screen, after the first time). */
    const answers = async () => ({
      timeline: await ok(alice.post(`${V1}/assets/query`, queries.timeline)),
      expanded: await ok(alice.post(`${V1}/assets/query`, queries.expanded)),
      later: await ok(alice.post(`${V1}/assets/query`, queries.later)),
      liked: await ok(alice.post(`${V1}/assets/query`, queries.liked)),
      map: await ok(alice.get(`${V1}/assets/map-points?limit=5000`)),
      years: await ok(alice.get(`${V1}/stats/available-years`)),
    });
    /** The same answers from fresh services that compute everything from scratch on the same catalog. */
    const reference = async () => {
      const db = srv.container.db;
      const tracker = new CatalogTracker(db);
      const cache = <K, V>() => new CacheRegistry().create<K, V>('reference', 1 << 30, () => 0);
      const browse = new BrowseService(db, tracker, cache());
      const places = new PlacesService(db, new MapIndex(db, tracker, cache()), srv.container.repositories);
      const stats = new StatisticsService(db, new OwnerFacts(db, tracker, cache()), new CatalogMemo(db, tracker, cache()), srv.container.repositories);
      try {
        const json = <T>(x: T): T => JSON.parse(JSON.stringify(x));
        return {
          timeline: json(await browse.query(aliceActor, queries.timeline)),
          expanded: json(await browse.query(aliceActor, queries.expanded)),
          later: json(await browse.query(aliceActor, queries.later)),
          liked: json(await browse.query(aliceActor, queries.liked)),
          map: JSON.parse(await places.mapPointsJson(aliceActor, { limit: 5000, offset: 0 })),
          years: json(await stats.years(aliceActor)),
        };
      } finally {
        tracker.close();
      }
    };
    const journal = async (): Promise<Journal> => (await ok(alice.get(`${V1}/runtime/diagnostics`))).caches.journal;
    /** Counts the turns of the event loop during which the server's tracker was rebuilding. */
    const watchRebuild = () => {
      let turns = 0;
      let on = true;
      const tick = () => {
        if (!on) return;
        if (srv.container.catalog.counters().rebuilding) turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      return () => {
        on = false;
        return turns;
      };
    };
    const ids = (list: { items: { media_item: { primary_asset: { asset_id: string } } }[] }) => list.items.map((i) => i.media_item.primary_asset.asset_id);

    /** Another connection writes real changes plus `flood` rating flips over every pair (two journal entries each). */
    const writeFromOtherConnection = (flood: number, real: (other: Database.Database) => void) => {
      const other = new Database(dataPaths(srv.dataDir).catalog);
      other.pragma('busy_timeout = 5000');
      try {
        const flip = other.prepare('UPDATE assets SET rating = 5 - rating WHERE repository_id = ? AND storage_path LIKE ?');
        other.transaction(() => {
          real(other);
          // An even number of flips: ratings end as they were; the journal holds every one.
          for (let k = 0; k < flood; k++) flip.run(repo, 'y%');
        })();
      } finally {
        other.close();
      }
    };

    test('more changes at once than the tracker applies one by one: rebuilt a slice at a time, answers exact', async () => {
      const first = await answers();
      assert.equal(first.timeline.total_media_items, PAIRS);
      const j0 = await journal();
      const added = crypto.randomUUID();
      writeFromOtherConnection(20, (other) => {
        const make = catalogOf(other);
        make.asset({ asset_id: added, owner_id: aliceActor.userId, repository_id: repo, storage_path: 'new/fresh.jpg', taken_time: Date.UTC(2026, 0, 2), gps_latitude: 10, gps_longitude: 20 });
        const now = Date.now();
        // The JPEG of pair 3 (not stacked) to the Trash: its RAW now stands for the item.
        other.prepare('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id = ?').run(now, pairs[3]!.jpeg);
        // Both files of a stack member (pair 4, stack 1's first member) to the Trash.
        other.prepare('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id IN (?, ?)').run(now, pairs[4]!.jpeg, pairs[4]!.raw);
        other.prepare('UPDATE assets SET liked = 1 WHERE asset_id IN (?, ?, ?)').run(pairs[10]!.jpeg, pairs[11]!.jpeg, pairs[700]!.jpeg);
      });
      const stop = watchRebuild();
      const next = await answers();
      const turns = stop();
      const j1 = await journal();
      assert.ok(j1.position - j0.position > 50_000, `the other connection wrote ${j1.position - j0.position} journal entries`);
      assert.equal(j1.rebuilds, j0.rebuilds + 1, 'the gap made the tracker start over once');
      assert.equal(j1.blocking_rebuilds, 0, 'no rebuild was done at once inside a request');
      assert.ok(turns >= 2, `the rebuild spanned ${turns} turns of the event loop`);

      assert.deepEqual(next, await reference(), 'every answer after the gap equals a computation from scratch');
      assert.equal(next.timeline.total_media_items, PAIRS + 1 - 1, 'one item came, one (both files of pair 4) went');
      assert.equal(ids(next.timeline)[0], added, 'the new photo is the newest capture');
      assert.deepEqual(ids(next.liked).sort(), [pairs[10]!.jpeg, pairs[11]!.jpeg, pairs[700]!.jpeg].sort());
      assert.equal(next.years.years.find((y: { year: number }) => y.year === 2026)?.count, 1);
      assert.ok(next.map.points.some((p: { asset_id: string }) => p.asset_id === added));
    });

    test('the journal pruned past the tracker: rebuilt a slice at a time, answers exact', async () => {
      await answers();
      const j0 = await journal();
      writeFromOtherConnection(24, (other) => {
        other.prepare('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id = ?').run(pairs[3]!.jpeg);
        other.prepare('UPDATE assets SET liked = 0 WHERE asset_id = ?').run(pairs[700]!.jpeg);
      });
      const oldest = srv.container.db.prepare('SELECT min(seq) FROM change_journal').pluck().get() as number;
      assert.ok(oldest > j0.position + 1, 'the journal no longer reaches back to the tracker');
      const stop = watchRebuild();
      const next = await answers();
      const turns = stop();
      const j1 = await journal();
      assert.equal(j1.rebuilds, j0.rebuilds + 1);
      assert.equal(j1.blocking_rebuilds, 0);
      assert.ok(turns >= 2, `the rebuild spanned ${turns} turns of the event loop`);
      assert.deepEqual(next, await reference());
      assert.deepEqual(ids(next.liked).sort(), [pairs[10]!.jpeg, pairs[11]!.jpeg].sort());
    });
  });
}
