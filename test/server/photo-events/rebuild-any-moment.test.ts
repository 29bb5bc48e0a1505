/**
 * A rebuild may run at any moment: the automatic one (the debounced job, the minute's sweep) between
 * two corrections, or one already planning while a correction comes in. Whichever order they take,
 * every correction holds afterwards, no photo is lost from its event, and queryAssets by event_id
 * lists exactly the event's members after each publish (the list cache starts over on the journal's
 * `events` bit). The automatic runs go through the job's own handler (`runRebuildJob`, not manual).
 *
 * Seeded rows have no files: they live in an offline repository of their own, which no scan walks
 * (in an active one the scheduler's first scan marks them all missing: events-http.test.ts).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SnoozeError } from '../../../server/src/platform/jobs/registry.ts';
import { startServer, type TestServer, type Client } from '../helpers/server.ts';
import { V1, data, signedInHousehold } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';

const H = 3_600_000;
const T0 = Date.parse('2024-06-03T09:00:00Z');
const LISBON = { lat: 38.7223, lon: -9.1393 };
const PORTO = { lat: 41.1579, lon: -8.6291 };

for (const variant of ['A', 'B'] as const) {
  describe(`photo events: a rebuild at any moment (variant ${variant})`, { timeout: 300_000 }, () => {
    let srv: TestServer;
    let alice: Client;
    let aliceId: number;
    let repo: string;
    let runs = 0;
    const items: Record<string, { asset: string; item: string }> = {};
    const nameOf = new Map<string, string>();

    const seed = (name: string, time: number, at: { lat: number; lon: number }) => {
      const cat = catalogOf(srv.container.db);
      const asset = cat.asset({ owner_id: aliceId, repository_id: repo, original_filename: `${name}.jpg`, taken_time: time, capture_offset_minutes: 60, gps_latitude: at.lat, gps_longitude: at.lon, upload_time: T0 - 100 * H });
      const item = cat.mediaItem(aliceId, 'photo', [{ asset_id: asset, relation: 'original' }]);
      items[name] = { asset, item };
      nameOf.set(item, name);
    };
    const ok = async (p: Promise<{ status: number; text: string; body: unknown; headers: Headers }>) => {
      const r = await p;
      assert.equal(r.status, 200, r.text);
      return data(alice, r as never);
    };
    /** One automatic run as the job runs it: published, or snoozed because something changed meanwhile. */
    const automatic = async (run: Promise<unknown>): Promise<'published' | 'again'> => {
      try {
        await run;
        return 'published';
      } catch (e) {
        assert.ok(e instanceof SnoozeError, String(e));
        return 'again';
      }
    };
    /**
     * Only the runs the test starts take the lease: the corrections' debounced jobs (due in 60 s, which a
     * loaded machine can reach) are cancelled first, and the minute's sweep is stopped in `before`.
     */
    const autoRun = () => {
      const queued = srv.container.db.prepare("SELECT id FROM jobs WHERE kind = 'events.rebuild-owner' AND state IN ('scheduled', 'available')").pluck().all() as number[];
      for (const id of queued) srv.container.jobs.cancel(id);
      return srv.container.photoEvents.runRebuildJob(aliceId, false, `auto-${++runs}`);
    };
    /** Every active event (hidden too) as its members' names, the title, and what queryAssets by its id lists. */
    const snapshot = async () => {
      const out: { id: string; title: string; members: string[]; queried: string[] }[] = [];
      for (const e of (await ok(alice.get(`${V1}/events?limit=50&include_hidden=true`))).events as any[]) {
        const m = await ok(alice.get(`${V1}/events/${e.event_id}/members?limit=500`));
        const q = await ok(alice.post(`${V1}/assets/query`, { filter: { event_id: e.event_id }, pagination: { limit: 50 } }));
        out.push({
          id: e.event_id,
          title: e.title,
          members: m.assets.map((a: any) => nameOf.get(a.media_item_id)!).sort(),
          queried: q.items.map((i: any) => nameOf.get(i.media_item.media_item_id)!).sort(),
        });
      }
      for (const e of out) assert.deepEqual(e.queried, e.members, `queryAssets by event_id lists the members of ${e.title}`);
      return out;
    };
    const holding = async (name: string) => (await snapshot()).find((e) => e.members.includes(name));

    before(async () => {
      srv = await startServer();
      srv.container.photoEvents.stop();
      repo = catalogOf(srv.container.db).repository({ name: 'Synthetic trip', path: path.join(srv.dataDir, 'synthetic-trip'), status: 'offline' });
      const h = await signedInHousehold(srv.url, variant, []);
      alice = h.admin;
      const me = await ok(alice.get(`${V1}/auth/me`));
      aliceId = me.user_id ?? me.user?.user_id;
      for (let i = 0; i < 4; i++) seed(`lisbon${i}`, T0 + i * H, { lat: LISBON.lat + i * 0.001, lon: LISBON.lon });
      for (let i = 0; i < 3; i++) seed(`porto${i}`, T0 + 25 * H + i * H, PORTO);
      assert.equal(await automatic(autoRun()), 'published');
    });
    after(() => srv.stop({ removeData: true }));

    test('an automatic rebuild between corrections keeps each of them', async () => {
      const lisbon = (await holding('lisbon0'))!;
      const porto = (await holding('porto0'))!;
      assert.deepEqual(lisbon.members, ['lisbon0', 'lisbon1', 'lisbon2', 'lisbon3']);

      await ok(alice.patch(`${V1}/events/${lisbon.id}`, { title_override: 'Lisbon with Grandma' }));
      assert.equal(await automatic(autoRun()), 'published');
      const split = await ok(alice.post(`${V1}/events/${lisbon.id}/split`, { at_media_item_id: items.lisbon2!.item }));
      assert.equal(await automatic(autoRun()), 'published');
      await ok(alice.req('DELETE', `${V1}/events/${porto.id}/members/${items.porto1!.item}`));
      assert.equal(await automatic(autoRun()), 'published');
      seed('lisbon4', T0 + 3.5 * H, LISBON);
      assert.equal(await automatic(autoRun()), 'published');

      const after = await snapshot();
      assert.deepEqual(after.find((e) => e.id === lisbon.id), { id: lisbon.id, title: 'Lisbon with Grandma', members: ['lisbon0', 'lisbon1'], queried: ['lisbon0', 'lisbon1'] });
      assert.deepEqual(after.find((e) => e.id === split.created_event_id)?.members, ['lisbon2', 'lisbon3', 'lisbon4']);
      assert.deepEqual(after.find((e) => e.id === porto.id)?.members, ['porto0', 'porto2']);
      assert.equal(await holding('porto1'), undefined, 'a removed photo belongs to no event');
    });

    test('a rebuild already planning when a correction comes in: the correction holds, the next run agrees', async () => {
      const porto = (await holding('porto0'))!;
      const second = (await holding('lisbon2'))!;
      const before = await snapshot();
      // Started first; the correction's request is answered while the run reads, plans or publishes.
      const first = automatic(autoRun());
      const added = await ok(alice.post(`${V1}/events/${porto.id}/members`, { asset_ids: [items.lisbon4!.asset] }));
      assert.deepEqual(added.event.canonical_media_count, 3);
      const renamed = await ok(alice.patch(`${V1}/events/${second.id}`, { title_override: 'Alfama' }));
      assert.equal(renamed.event.title, 'Alfama');
      const outcome = await first;
      assert.ok(outcome === 'published' || outcome === 'again');
      // Whatever the first did, what the person sees now holds, and a run after it changes none of it.
      const seen = await snapshot();
      assert.deepEqual(seen.find((e) => e.id === porto.id)?.members, ['lisbon4', 'porto0', 'porto2']);
      assert.deepEqual(seen.find((e) => e.id === second.id), { id: second.id, title: 'Alfama', members: ['lisbon2', 'lisbon3'], queried: ['lisbon2', 'lisbon3'] });
      assert.equal(await automatic(autoRun()), 'published');
      assert.deepEqual(await snapshot(), seen);
      assert.equal(seen.length, before.length, 'no event lost or made');

      // The library changes while a run is planning (before its first read ends): it must not publish
      // what it read, and the next run has the change.
      const racing = automatic(autoRun());
      catalogOf(srv.container.db).change(items.lisbon3!.asset, { taken_time: T0 + 3 * H + 60_000 });
      assert.equal(await racing, 'again', 'a run that read before the change does not publish');
      assert.equal((await ok(alice.get(`${V1}/events/rebuild-state`))).pending, true);
      assert.equal(await automatic(autoRun()), 'published');
      assert.equal((await ok(alice.get(`${V1}/events/${second.id}`))).end_at, T0 + 3 * H + 60_000);
      assert.deepEqual(await snapshot(), seen);

      // Two runs at once: one holds the lease, the other waits (snoozed), and nothing changes.
      const [a, b] = await Promise.all([automatic(autoRun()), automatic(autoRun())]);
      assert.deepEqual([a, b].sort(), ['again', 'published']);
      assert.deepEqual(await snapshot(), seen);
      const state = await ok(alice.get(`${V1}/events/rebuild-state`));
      assert.equal(state.running_run_id, null);
      assert.equal(state.pending, false);
    });
  });
}
