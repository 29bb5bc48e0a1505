/**
 * getAssetQueryYears (issue 24 point 3): the years of exactly the list queryAssets gives for the same
 * body, for a date scrubber beside it. A synthetic catalog (helpers/factories.ts, the real stores):
 * Alice's photos spread over 2005..2026, three liked ones from 2008; Bob's photos of 2019 shared
 * with Alice and shown in her timeline. Favourites cover 2008 only (not the whole library), the
 * timeline covers Bob's year too, a capture offset moves a photo into the year of its own clock,
 * undated files count in the year they were added, and the counts agree with queryAssets' rows for
 * filters and stack modes; a bad body is a 422; both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';

const REPO = '0195f000-0000-7000-8000-0000000ea224';
const at = (iso: string) => Date.parse(iso);

describe('getAssetQueryYears: the years of the list beside the scrubber', () => {
  let srv: TestServer;
  const clients = {} as Record<'alice' | 'bob', Record<'A' | 'B', Client>>;

  before(async () => {
    srv = await startServer();
    const alice = new Client(srv.url);
    const bob = new Client(srv.url);
    const aliceId = (await registerAdmin(alice)).session.user.user_id;
    const bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
    Object.assign(clients, { alice: inBothVariants(alice), bob: inBothVariants(bob) });
    const catalog = catalogOf(srv.container.db, () => at('2026-03-01T12:00:00Z'));
    // Not mounted (offline): never scanned, so the rows stay as written.
    catalog.repository({ repository_id: REPO, name: 'Synthetic', path: '/nonexistent/hearth-years', status: 'offline' });
    const photo = (owner: number, name: string, taken: string | null, more: Record<string, unknown> = {}) =>
      catalog.asset({ owner_id: owner, repository_id: REPO, original_filename: name, taken_time: taken === null ? null : at(taken), ...more });
    photo(aliceId, 'new.jpg', '2026-02-01T10:00:00Z');
    photo(aliceId, 'old.jpg', '2005-06-01T10:00:00Z');
    for (const d of ['2008-03-01', '2008-07-14', '2008-12-30']) photo(aliceId, `fav-${d}.jpg`, `${d}T10:00:00Z`, { liked: 1 });
    photo(aliceId, 'plain-2008.jpg', '2008-05-05T10:00:00Z');
    for (const d of ['2015-01-02', '2015-08-09']) photo(aliceId, `walk-${d}.jpg`, `${d}T10:00:00Z`);
    // 23:30 UTC on New Year's Eve, taken at UTC+02:00: its own clock says 2017.
    photo(aliceId, 'newyear.jpg', '2016-12-31T23:30:00Z', { capture_offset_minutes: 120 });
    // No capture time: it counts in the year it was added (2026 here), as getStatsYears counts it.
    photo(aliceId, 'undated.png', null);
    photo(aliceId, 'gone.jpg', '2010-01-01T10:00:00Z', { is_deleted: 1, deleted_at: at('2026-02-20T00:00:00Z') });
    for (const d of ['2019-04-01', '2019-04-02']) photo(bobId, `bob-${d}.jpg`, `${d}T10:00:00Z`);
    // Bob shares his library with Alice, who shows it in her timeline.
    const share = await clients.bob.A.post(`${V1}/partner-shares`, { partner_user_id: aliceId });
    assert.equal(share.status, 201, share.text);
    const shown = await clients.alice.A.put(`${V1}/partner-shares/${data(clients.bob.A, share).share_id}`, { show_in_timeline: true });
    assert.equal(shown.status, 200, shown.text);
  });
  after(() => srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    const years = async (who: 'alice' | 'bob', body: object) => {
      const c = clients[who][variant];
      const r = await c.post(`${V1}/assets/query/years`, body);
      assert.equal(r.status, 200, r.text);
      return data<{ years: { year: number; count: number }[]; total: number }>(c, r);
    };
    /** The years of queryAssets' own rows for the same body (date_captured, every page). */
    const yearsOfList = async (who: 'alice' | 'bob', body: object) => {
      const c = clients[who][variant];
      const r = await c.post(`${V1}/assets/query`, { ...body, sort_by: 'date_captured', pagination: { limit: 200 } });
      assert.equal(r.status, 200, r.text);
      const counts = new Map<number, number>();
      for (const i of data<{ items: { best_ts_ms: number; media_item: { primary_asset: { capture_offset_minutes: number | null } } }[] }>(c, r).items) {
        const y = new Date(i.best_ts_ms + (i.media_item.primary_asset.capture_offset_minutes ?? 0) * 60_000).getUTCFullYear();
        counts.set(y, (counts.get(y) ?? 0) + 1);
      }
      return [...counts].map(([year, count]) => ({ year, count })).sort((a, b) => b.year - a.year);
    };

    test(`variant ${variant}: Favourites cover the favourites' year only`, async () => {
      assert.deepEqual(await years('alice', { filter: { liked: true } }), { years: [{ year: 2008, count: 3 }], total: 3 });
    });

    test(`variant ${variant}: the timeline covers the partner's photos it shows, offsets and undated files`, async () => {
      assert.deepEqual(await years('alice', {}), {
        years: [
          { year: 2026, count: 2 },
          { year: 2019, count: 2 },
          { year: 2017, count: 1 },
          { year: 2015, count: 2 },
          { year: 2008, count: 4 },
          { year: 2005, count: 1 },
        ],
        total: 12,
      });
      assert.deepEqual(await years('bob', {}), { years: [{ year: 2019, count: 2 }], total: 2 }, "Alice's photos are not Bob's");
    });

    test(`variant ${variant}: the same rows as queryAssets for the same body`, async () => {
      for (const body of [{}, { filter: { liked: true } }, { filter: { is_deleted: true } }, { query: 'walk' }, { filter: { date: { from: '2008-01-01', to: '2016-12-31' } } }, { stack_mode: 'expanded' }]) {
        const got = await years('alice', body);
        assert.deepEqual(got.years, await yearsOfList('alice', body), JSON.stringify(body));
        assert.equal(
          got.total,
          got.years.reduce((n, y) => n + y.count, 0),
          JSON.stringify(body),
        );
      }
      assert.deepEqual(await years('alice', { filter: { owner_id: 999 } }), { years: [], total: 0 }, 'nothing matches: no years');
    });

    test(`variant ${variant}: a bad body is a 422 naming the field`, async () => {
      const c = clients.alice[variant];
      for (const [body, field] of [
        [{ filter: { liked: 'yes' } }, 'body.filter.liked'],
        [{ pagination: { limit: 5 } }, 'body'],
        [{ sort_by: 'date_captured' }, 'body'],
      ] as const) {
        const r = await c.post(`${V1}/assets/query/years`, body);
        assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
        const fields = (problem(c, r).errors ?? []).map((e) => e.field);
        assert.ok(fields.some((f) => f?.startsWith(field)), `${JSON.stringify(body)}: ${JSON.stringify(fields)}`);
      }
    });
  }

  test('signed out: 401', async () => {
    const r = await new Client(srv.url).post(`${V1}/assets/query/years`, {});
    assert.equal(r.status, 401, r.text);
  });
});
