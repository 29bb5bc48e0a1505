/**
 * Photo events over real HTTP on a real catalog, in both response variants: a synthetic trip (assets and
 * media items seeded through the catalog's stores with exact capture times and GPS: ingest is not the
 * point here) is cut where the events-v1 rules say, and the person's corrections (title, hidden, cover,
 * split, removed and added photos) survive a rebuild after the library changed; resetEvent drops them.
 * Also: ownership (another member's event is 404), bad input (problem+json naming the field), 409 while
 * a rebuild holds the lease, dirty ranges written by the catalog's triggers, queryAssets by event_id.
 *
 * The seeded rows have no files, so they live in a repository of their own that is offline: in the
 * primary (an active repository) the scheduler's first scan, 15 s after the server starts, marks every
 * one of them missing. On a loaded machine that scan landed in the middle of the suite and every event
 * lost its photos (queryAssets by event_id `[]`, then no event found for any photo); test 4 runs that
 * scan on purpose after its rebuild, so the timing no longer decides.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer, type Client } from '../helpers/server.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';

const H = 3_600_000;
const T0 = Date.parse('2024-06-03T09:00:00Z');
const LISBON = { lat: 38.7223, lon: -9.1393 };
const PORTO = { lat: 41.1579, lon: -8.6291 };

for (const variant of ['A', 'B'] as const) {
  describe(`photo events (variant ${variant})`, { timeout: 300_000 }, () => {
    let srv: TestServer;
    let alice: Client;
    let bob: Client;
    let aliceId: number;
    let bobId: number;
    /** The repository of the seeded rows (offline: no scan removes them). */
    let repo: string;
    const items: Record<string, { asset: string; item: string }> = {};

    const seed = (owner: number, name: string, time: number | null, at: { lat: number; lon: number } | null, upload = T0 - 100 * H) => {
      const cat = catalogOf(srv.container.db);
      const asset = cat.asset({ owner_id: owner, repository_id: repo, original_filename: `${name}.jpg`, taken_time: time, capture_offset_minutes: time === null ? null : 60, gps_latitude: at?.lat ?? null, gps_longitude: at?.lon ?? null, upload_time: upload });
      const item = cat.mediaItem(owner, 'photo', [{ asset_id: asset, relation: 'original' }]);
      items[name] = { asset, item };
    };
    const ok = async (c: Client, p: Promise<{ status: number; text: string; body: unknown; headers: Headers }>, status = 200) => {
      const r = await p;
      assert.equal(r.status, status, r.text);
      return data(c, r as never);
    };
    const rebuild = async () => {
      await ok(alice, alice.patch(`${V1}/events/rebuild-state`, { rebuild: true }));
      await srv.container.jobRunner.whenIdle();
      const s = await ok(alice, alice.get(`${V1}/events/rebuild-state`));
      assert.equal(s.running_run_id, null);
      return s;
    };
    const list = async (c = alice, q = '') => (await ok(c, c.get(`${V1}/events?limit=50${q}`))).events as any[];
    const eventOf = async (name: string) => {
      const evs = await list(alice, '&include_hidden=true');
      for (const e of evs) {
        const m = await ok(alice, alice.get(`${V1}/events/${e.event_id}/members?limit=500`));
        if (m.assets.some((a: any) => a.media_item_id === items[name]!.item)) return e;
      }
      return null;
    };
    const memberNames = async (eventId: string) => {
      const m = await ok(alice, alice.get(`${V1}/events/${eventId}/members?limit=500`));
      const byItem = new Map(Object.entries(items).map(([k, v]) => [v.item, k]));
      return m.assets.map((a: any) => byItem.get(a.media_item_id)).sort();
    };

    before(async () => {
      srv = await startServer();
      // Its folder never exists, so every reachability check keeps it offline and no scan walks it.
      repo = catalogOf(srv.container.db).repository({ name: 'Synthetic trip', path: path.join(srv.dataDir, 'synthetic-trip'), status: 'offline' });
      const h = await signedInHousehold(srv.url, variant, ['bob']);
      alice = h.admin;
      aliceId = (await ok(alice, alice.get(`${V1}/auth/me`))).user_id ?? (await ok(alice, alice.get(`${V1}/auth/me`))).user?.user_id;
      bob = h.members.bob.client;
      bobId = h.members.bob.id;
      // Lisbon, four photos over three hours; Porto the next day (22 h later); two photos without GPS two days on.
      for (let i = 0; i < 4; i++) seed(aliceId, `lisbon${i}`, T0 + i * H, { lat: LISBON.lat + i * 0.001, lon: LISBON.lon });
      for (let i = 0; i < 3; i++) seed(aliceId, `porto${i}`, T0 + 25 * H + i * H, PORTO);
      seed(aliceId, 'home0', T0 + 60 * H, null);
      seed(aliceId, 'home1', T0 + 61 * H, null);
      seed(bobId, 'bob0', T0, LISBON);
    });
    after(() => srv.stop({ removeData: true }));

    test('a rebuild cuts the trip where the rules say, titled by place and month (by dates without a place), newest first', async () => {
      const before = await ok(alice, alice.get(`${V1}/events/rebuild-state`));
      assert.equal(before.initialized, false);
      assert.equal(before.pending, true, 'seeded photos are waiting (the catalog triggers marked them)');
      const s = await rebuild();
      assert.equal(s.initialized, true);
      assert.equal(s.pending, false);
      assert.equal(s.algorithm_version, 'events-v1');
      assert.deepEqual(s.pending_ranges, []);
      const evs = await list();
      assert.deepEqual(evs.map((e) => e.canonical_media_count), [2, 3, 4]);
      assert.deepEqual(await memberNames(evs[2].event_id), ['lisbon0', 'lisbon1', 'lisbon2', 'lisbon3']);
      assert.equal(evs[2].title, 'Lisbon · June 2024', 'the offline reverse geocoder names the place');
      assert.equal(evs[2].timezone, '+01:00');
      assert.equal(evs[2].start_at, T0);
      assert.equal(evs[2].end_at, T0 + 3 * H);
      assert.equal(evs[2].cover_asset_id, items.lisbon0!.asset);
      assert.equal(evs[1].title, 'Porto · June 2024');
      assert.match(evs[0].title, /^\d+(–\d+)? June 2024$/, 'photos without a position: dates only');
      assert.ok(Math.abs(evs[1].centroid.lat - PORTO.lat) < 1e-6);
      // Bob sees only his own.
      const bobs = await list(bob);
      assert.equal(bobs.length, 0, 'bob has had no rebuild yet');
    });

    test('a rebuild reads the candidates a page at a time: the pages give exactly the one-read answer', async () => {
      // A RAW+JPEG pair (one item, two files: the later RAW has GPS, the JPEG the earlier time) among the rest.
      const cat = catalogOf(srv.container.db);
      const jpeg = cat.asset({ owner_id: aliceId, repository_id: repo, original_filename: 'pair.jpg', taken_time: T0 + 90 * H, upload_time: T0 });
      const raw = cat.asset({ owner_id: aliceId, repository_id: repo, original_filename: 'pair.nef', taken_time: T0 + 90 * H + 1000, gps_latitude: PORTO.lat, gps_longitude: PORTO.lon, upload_time: T0 });
      const pair = cat.mediaItem(aliceId, 'photo', [{ asset_id: jpeg, relation: 'jpeg_original' }, { asset_id: raw, relation: 'raw_original' }]);
      const store = srv.container.photoEvents.store;
      const whole = store.candidates(aliceId);
      for (const size of [1, 2, 3, 5]) {
        const paged = [];
        for (let after: string | null = ''; after !== null; ) {
          const page = store.candidatesPage(aliceId, after, size);
          paged.push(...page.items);
          after = page.last;
        }
        assert.deepEqual(paged, whole, `pages of ${size} rows`);
      }
      const c = whole.find((x) => x.id === pair)!;
      assert.equal(c.time, T0 + 90 * H, 'the earliest capture time of its files');
      assert.equal(c.lat, PORTO.lat, 'the place of the file that has one');
      cat.removeAsset(jpeg);
      cat.removeAsset(raw);
      srv.container.db.prepare('DELETE FROM media_items WHERE media_item_id = ?').run(pair);
    });

    test('paging with a cursor walks every event once', async () => {
      const p1 = await ok(alice, alice.get(`${V1}/events?limit=2`));
      assert.equal(p1.events.length, 2);
      assert.ok(p1.next_cursor);
      const p2 = await ok(alice, alice.get(`${V1}/events?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`));
      assert.equal(p2.events.length, 1);
      assert.equal(p2.next_cursor, null);
      assert.equal(new Set([...p1.events, ...p2.events].map((e: any) => e.event_id)).size, 3);
      // Members page by position; repository_id narrows to items with a file in that repository.
      const e = p1.events[0].event_id;
      const m1 = await ok(alice, alice.get(`${V1}/events/${e}/members?limit=1`));
      const m2 = await ok(alice, alice.get(`${V1}/events/${e}/members?limit=1&cursor=${m1.next_cursor}`));
      assert.notEqual(m1.assets[0].media_item_id, m2.assets[0].media_item_id);
      assert.equal(m1.omitted_members, 0);
      assert.equal((await ok(alice, alice.get(`${V1}/events/${e}/members?repository_id=${repo}`))).assets.length, p1.events[0].canonical_media_count);
      assert.equal((await ok(alice, alice.get(`${V1}/events/${e}/members?repository_id=${crypto.randomUUID()}`))).assets.length, 0);
      assert.equal((await ok(alice, alice.get(`${V1}/events?repository_id=${crypto.randomUUID()}`))).events.length, 0);
      const bad = problem(alice, await alice.get(`${V1}/events?cursor=nonsense`));
      assert.equal(bad.status, 422);
      assert.equal(bad.errors?.[0]?.field, 'query.cursor');
    });

    test('corrections survive a rebuild after the library changed', async () => {
      const lisbon = (await eventOf('lisbon0'))!;
      const porto = (await eventOf('porto0'))!;
      const home = (await eventOf('home0'))!;
      // Rename, choose a cover, hide; split Lisbon at its third photo; take a Porto photo out; add a home photo to Porto.
      let r = await ok(alice, alice.patch(`${V1}/events/${lisbon.event_id}`, { title_override: 'Lisbon with Grandma', cover_asset_id: items.lisbon1!.asset }));
      assert.equal(r.event.title, 'Lisbon with Grandma');
      assert.equal(r.event.cover_asset_id, items.lisbon1!.asset);
      await ok(alice, alice.patch(`${V1}/events/${home.event_id}`, { is_hidden: true }));
      const split = await ok(alice, alice.post(`${V1}/events/${lisbon.event_id}/split`, { at_media_item_id: items.lisbon2!.item }));
      assert.equal(split.event.event_id, lisbon.event_id);
      assert.equal(split.pending_rebuild, true);
      const second = split.created_event_id as string;
      assert.deepEqual(await memberNames(lisbon.event_id), ['lisbon0', 'lisbon1']);
      assert.deepEqual(await memberNames(second), ['lisbon2', 'lisbon3']);
      r = await ok(alice, alice.req('DELETE', `${V1}/events/${porto.event_id}/members/${items.porto1!.item}`));
      assert.equal(r.event.canonical_media_count, 2);
      r = await ok(alice, alice.post(`${V1}/events/${porto.event_id}/members`, { asset_ids: [items.home1!.asset] }));
      assert.equal(r.event.canonical_media_count, 3);
      assert.equal(r.event.end_at, T0 + 61 * H);

      // The library changes: a new Lisbon photo, a Porto photo's time moves; the triggers mark the ranges.
      seed(aliceId, 'lisbon4', T0 + 3.5 * H, LISBON);
      catalogOf(srv.container.db).change(items.porto2!.asset, { taken_time: T0 + 27.5 * H });
      const waiting = await ok(alice, alice.get(`${V1}/events/rebuild-state`));
      assert.equal(waiting.pending, true);
      assert.ok(waiting.pending_ranges.some((x: any) => x.start_at <= T0 + 3.5 * H && x.end_at >= T0 + 3.5 * H), JSON.stringify(waiting.pending_ranges));
      await rebuild();
      // The scan the scheduler's first tick queues (15 s after start, whenever the suite has got to):
      // it walks the primary, and the seeded rows, whose files exist nowhere, are not in it.
      srv.container.repositories.tick();
      await srv.container.jobRunner.whenIdle();
      assert.ok(srv.container.db.prepare("SELECT count(*) FROM repository_scans WHERE status = 'completed'").pluck().get() as number > 0, 'a scan ran');

      const l = await ok(alice, alice.get(`${V1}/events/${lisbon.event_id}`));
      assert.equal(l.title, 'Lisbon with Grandma');
      assert.equal(l.cover_asset_id, items.lisbon1!.asset);
      assert.equal(l.pending_rebuild, false);
      assert.deepEqual(await memberNames(lisbon.event_id), ['lisbon0', 'lisbon1'], 'the split holds');
      assert.deepEqual(await memberNames(second), ['lisbon2', 'lisbon3', 'lisbon4'], 'the new photo joins the part it belongs to');
      assert.deepEqual(await memberNames(porto.event_id), ['home1', 'porto0', 'porto2'], 'removed stays out, added stays in');
      assert.equal(await eventOf('porto1'), null, 'a removed photo belongs to no event');
      const shown = (await list()).map((e) => e.event_id);
      assert.ok(!shown.includes(home.event_id), 'hidden stays hidden');
      assert.ok((await list(alice, '&include_hidden=true')).some((e) => e.event_id === home.event_id));

      // queryAssets by event_id lists exactly the event's photos.
      const q = await ok(alice, alice.post(`${V1}/assets/query`, { filter: { event_id: second }, pagination: { limit: 50 } }));
      assert.deepEqual(q.items.map((i: any) => i.media_item.media_item_id).sort(), [items.lisbon2!.item, items.lisbon3!.item, items.lisbon4!.item].sort());
    });

    test('split, cover and change requests outside the event are 422 naming the field, and change nothing', async () => {
      const lisbon = (await eventOf('lisbon0'))!;
      const before = await memberNames(lisbon.event_id);
      let p = problem(alice, await alice.post(`${V1}/events/${lisbon.event_id}/split`, { at_media_item_id: items.porto0!.item }));
      assert.equal(p.status, 422);
      assert.equal(p.code, 'split_point_outside_event');
      assert.equal(p.errors?.[0]?.field, 'body.at_media_item_id');
      p = problem(alice, await alice.post(`${V1}/events/${lisbon.event_id}/split`, { at_time: T0 - H }));
      assert.equal(p.errors?.[0]?.field, 'body.at_time');
      p = problem(alice, await alice.post(`${V1}/events/${lisbon.event_id}/split`, { at_time: T0 + 100 * H }));
      assert.equal(p.code, 'split_point_outside_event');
      p = problem(alice, await alice.post(`${V1}/events/${lisbon.event_id}/split`, {}));
      assert.equal(p.status, 422);
      p = problem(alice, await alice.patch(`${V1}/events/${lisbon.event_id}`, { cover_asset_id: items.porto0!.asset }));
      assert.equal(p.code, 'cover_not_member');
      assert.equal(p.errors?.[0]?.field, 'body.cover_asset_id');
      p = problem(alice, await alice.get(`${V1}/events/not-a-uuid`));
      assert.equal(p.status, 422);
      p = problem(alice, await alice.get(`${V1}/events/${crypto.randomUUID()}`));
      assert.equal(p.status, 404);
      assert.equal(p.code, 'event_not_found');
      assert.deepEqual(await memberNames(lisbon.event_id), before);
    });

    test('another member’s event is 404 for every operation, and its photos are not theirs to add', async () => {
      const lisbon = (await eventOf('lisbon0'))!;
      const id = lisbon.event_id;
      for (const r of [
        await bob.get(`${V1}/events/${id}`),
        await bob.patch(`${V1}/events/${id}`, { title_override: 'mine' }),
        await bob.get(`${V1}/events/${id}/members`),
        await bob.get(`${V1}/events/${id}/relations`),
        await bob.post(`${V1}/events/${id}/split`, { at_media_item_id: items.lisbon1!.item }),
        await bob.post(`${V1}/events/${id}/reset`),
        await bob.req('DELETE', `${V1}/events/${id}/members/${items.lisbon1!.item}`),
        await bob.post(`${V1}/events/${id}/members`, { asset_ids: [items.bob0!.asset] }),
      ]) {
        assert.equal(problem(bob, r).status, 404);
      }
      const q = await ok(bob, bob.post(`${V1}/assets/query`, { filter: { event_id: id }, pagination: { limit: 50 } }));
      assert.equal(q.items.length, 0);
      const p = problem(alice, await alice.post(`${V1}/events/${id}/members`, { asset_ids: [items.bob0!.asset] }));
      assert.equal(p.status, 404);
      assert.equal((await ok(alice, alice.get(`${V1}/events/${id}`))).title, 'Lisbon with Grandma');
    });

    test('relations: albums holding its photos and geohash-7 location cells; no faces, no people', async () => {
      const porto = (await eventOf('porto0'))!;
      const album = catalogOf(srv.container.db).album(aliceId, 'Portugal');
      catalogOf(srv.container.db).albumMember(album, items.porto0!.asset);
      const r = await ok(alice, alice.get(`${V1}/events/${porto.event_id}/relations`));
      assert.equal(r.complete, true, 'people come from faces (wired): these seeded photos have none');
      assert.ok(!r.relations.some((x: any) => x.relation === 'contains_person'));
      const inAlbum = r.relations.find((x: any) => x.relation === 'represented_in');
      assert.deepEqual(inAlbum.to, { id: String(album), kind: 'album' });
      assert.equal(inAlbum.facts.distinct_media_items, 1);
      const cell = r.relations.find((x: any) => x.relation === 'occurred_at');
      assert.equal(cell.to.kind, 'location_cell');
      assert.match(cell.to.id, /:ez3f/);
      assert.equal(cell.facts.distinct_media_items, 2);
      assert.match(r.source_version, /^events-v1:\d+$/);
    });

    test('a second rebuild while one holds the lease is 409; pausing stops automatic rebuilds', async () => {
      const photoEvents = srv.container.photoEvents;
      // Another worker's run holds the lease (as a run in another process would).
      srv.container.db.transaction(() => photoEvents.store.claim(aliceId, 'other-worker', Date.now(), 30_000)).immediate();
      const s = await ok(alice, alice.get(`${V1}/events/rebuild-state`));
      assert.equal(s.running_run_id, 'other-worker');
      const jobs = () => srv.container.db.prepare("SELECT count(*) FROM jobs WHERE kind = 'events.rebuild-owner' AND state NOT IN ('completed', 'cancelled', 'discarded')").pluck().get();
      const jobsBefore = jobs();
      const p = problem(alice, await alice.patch(`${V1}/events/rebuild-state`, { rebuild: true }));
      assert.equal(p.status, 409);
      assert.equal(p.code, 'event_rebuild_running');
      assert.equal(jobs(), jobsBefore, 'no second run queued');
      assert.equal((await ok(alice, alice.get(`${V1}/events/rebuild-state`))).queued_run_id, s.queued_run_id);
      srv.container.db.transaction(() => photoEvents.store.release(aliceId, 'other-worker', null, Date.now())).immediate();

      // Nothing waiting (a rebuild now clears the debounced one the corrections queued), then pause.
      await ok(alice, alice.patch(`${V1}/events/rebuild-state`, { rebuild: true }));
      await srv.container.jobRunner.whenIdle();
      const paused = await ok(alice, alice.patch(`${V1}/events/rebuild-state`, { paused: true }));
      assert.equal(paused.paused, true);
      srv.container.db.transaction(() => photoEvents.afterAssetChange(aliceId)).immediate();
      assert.equal((await ok(alice, alice.get(`${V1}/events/rebuild-state`))).queued_run_id, null, 'paused: no automatic rebuild');
      const resumed = await ok(alice, alice.patch(`${V1}/events/rebuild-state`, { paused: false }));
      assert.equal(resumed.paused, false);
      const bad = problem(alice, await alice.patch(`${V1}/events/rebuild-state`, { paused: 'yes' }));
      assert.equal(bad.errors?.[0]?.field, 'body.paused');
    });

    test('resetEvent drops the corrections; the split-off event redirects to its successor', async () => {
      const lisbon = (await eventOf('lisbon0'))!;
      const second = (await eventOf('lisbon2'))!;
      assert.notEqual(lisbon.event_id, second.event_id);
      const r = await ok(alice, alice.post(`${V1}/events/${lisbon.event_id}/reset`));
      assert.equal(r.pending_rebuild, true);
      assert.equal(r.event.title_override, null);
      await srv.container.jobRunner.whenIdle();
      const after = await ok(alice, alice.get(`${V1}/events/${lisbon.event_id}`));
      assert.equal(after.title, 'Lisbon · June 2024');
      assert.equal(after.cover_asset_id, items.lisbon0!.asset);
      assert.deepEqual(await memberNames(lisbon.event_id), ['lisbon0', 'lisbon1', 'lisbon2', 'lisbon3', 'lisbon4']);
      const redirected = await ok(alice, alice.get(`${V1}/events/${second.event_id}`));
      assert.equal(redirected.event_id, lisbon.event_id);
      assert.equal(redirected.redirected_from, second.event_id);
      const q = await ok(alice, alice.post(`${V1}/assets/query`, { filter: { event_id: second.event_id }, pagination: { limit: 50 } }));
      assert.equal(q.items.length, 5, 'the retired id lists its successor’s photos');
    });
  });
}
