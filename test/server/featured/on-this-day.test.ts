/**
 * getFeaturedPhotos with `on_this_day` (beyond the contract, additive): the photos taken on the
 * viewer's month and day in earlier years, by each photo's own local date (its recorded UTC offset),
 * newest first as candidates; not this year's, not another day's, not undated ones, not the Trash,
 * not another member's; 29 February only on 29 February; a bad date is a 422 naming the field. Both
 * response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { indexCorpus, insertAsset, setup, utc, type World } from '../statistics/catalog.ts';

type Featured = { assets: { asset_id: string; taken_time: string | null }[]; candidate_count: number; count: number; strategy: string };

describe('getFeaturedPhotos: on this day', { timeout: 300_000 }, () => {
  let w: World;
  const ids: Record<string, string> = {};
  const clients: Record<'A' | 'B', Client> = {} as never;

  before(async () => {
    w = await setup();
    clients.A = w.alice;
    clients.B = new Client(w.srv.url, 'B');
    clients.B.token = w.alice.token;
    // A real photo, taken 2008-05-30 15:56:01 (no offset recorded: the camera's clock).
    ids.canon = await indexCorpus(w, 'exif/Canon_40D.jpg', 'memories/Canon_40D.jpg', w.aliceId);
    await w.srv.container.jobRunner.whenIdle();
    const row = (key: string, r: Partial<Parameters<typeof insertAsset>[1]>) => (ids[key] = insertAsset(w, { owner: w.aliceId, repo: w.synth.repository_id, path: `m/${key}.jpg`, ...r }));
    row('y2023', { taken: utc('2023-11-25T09:00:00') });
    row('y2019', { taken: utc('2019-11-25T18:30:00') });
    // 25 November in Tokyo (+09:00), still the 24th in UTC.
    row('tokyo', { taken: utc('2015-11-24T20:00:00'), offset: 540 });
    // 25 November in UTC, but the 24th where it was taken (−05:00).
    row('newYork', { taken: utc('2016-11-25T02:00:00'), offset: -300 });
    row('thisYear', { taken: utc('2026-11-25T08:00:00') });
    row('otherDay', { taken: utc('2022-11-26T08:00:00') });
    row('undated', { taken: null, upload: utc('2021-11-25T08:00:00') });
    row('trashed', { taken: utc('2020-11-25T08:00:00'), deleted: true });
    row('video', { taken: utc('2018-11-25T08:00:00'), type: 'VIDEO' });
    row('leap', { taken: utc('2024-02-29T12:00:00') });
    row('feb28', { taken: utc('2023-02-28T12:00:00') });
    insertAsset(w, { owner: w.bobId, repo: w.synth.repository_id, path: 'm/bob.jpg', taken: utc('2021-11-25T08:00:00') });
  });
  after(() => w.srv.stop({ removeData: true }));

  const featured = async (c: Client, query: Record<string, string | number>) => {
    const r = await c.get(`${V1}/assets/featured?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`);
    assert.equal(r.status, 200, r.text);
    return data<Featured>(c, r);
  };
  const keys = (f: Featured) => {
    const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
    return f.assets.map((a) => byId.get(a.asset_id) ?? a.asset_id).sort();
  };

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: the photos taken on this day in earlier years, by their own local date`, async () => {
      const c = clients[variant];
      const f = await featured(c, { on_this_day: '2026-11-25', count: 24 });
      assert.equal(f.strategy, 'weighted_aes_v1');
      assert.deepEqual(keys(f), ['tokyo', 'y2019', 'y2023']);
      assert.equal(f.candidate_count, 3);
      // The real photo of 30 May 2008 on its day, from any later year.
      assert.deepEqual(keys(await featured(c, { on_this_day: '2011-05-30' })), ['canon']);
      assert.deepEqual(keys(await featured(c, { on_this_day: '2008-05-30' })), [], 'not the same year');
      // Without it, the usual featured photos (recent ones) are unchanged.
      assert.ok((await featured(c, { days: 0, count: 24 })).candidate_count > 3);
    });

    test(`variant ${variant}: candidate_limit keeps the newest years; 29 February only on 29 February`, async () => {
      const c = clients[variant];
      assert.deepEqual(keys(await featured(c, { on_this_day: '2026-11-25', candidate_limit: 16, count: 1 })).length, 1);
      assert.deepEqual(keys(await featured(c, { on_this_day: '2028-02-29' })), ['leap']);
      assert.deepEqual(keys(await featured(c, { on_this_day: '2025-02-28' })), ['feb28']);
      assert.deepEqual(keys(await featured(c, { on_this_day: '2025-03-01' })), []);
    });

    test(`variant ${variant}: a date that is not a calendar date is a 422 naming on_this_day`, async () => {
      const c = clients[variant];
      for (const bad of ['2026-02-30', '11-25', '2026-13-01', 'today', '']) {
        const r = await c.get(`${V1}/assets/featured?on_this_day=${encodeURIComponent(bad)}`);
        assert.equal(r.status, 422, `${bad}: ${r.text}`);
        if (variant === 'A') assert.equal(r.headers.get('content-type')?.split(';')[0], 'application/problem+json');
        assert.equal(problem(c, r).errors?.[0]?.field, 'query.on_this_day', bad);
      }
    });
  }
});
