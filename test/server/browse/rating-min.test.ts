/**
 * `rating_min` ("4+ stars", "at least 3 stars" of the plain-language queries): rated at least that
 * many stars, ratings set through the API, the list following a re-rating, only the caller's own
 * marks (a partner's starred photos shown in the timeline are not listed), combined with `rating`,
 * out-of-range values a 422 naming the field; both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, templateClient, type Client, type TestServer } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { inBothVariants, listedKeys } from '../helpers/corpus-assets.ts';
import { RECIPES } from '../../template/recipes.ts';

describe('queryAssets: rating_min', () => {
  let srv: TestServer;
  let ids: Record<string, string> = {};
  const clients = {} as Record<'alice' | 'bob', Record<'A' | 'B', Client>>;

  before(async () => {
    // Four of alice's cameras and one of bob's, from the template (RECIPES.cameras).
    srv = await startServer({ template: RECIPES.cameras });
    const alice = await templateClient(srv, 'alice');
    const bob = await templateClient(srv, 'bob');
    Object.assign(clients, { alice: inBothVariants(alice), bob: inBothVariants(bob) });
    const t = srv.template!.assets;
    ids = { five: t.canon40d!, four: t.canonG9!, two: t.nikon!, unrated: t.olympus!, bobsFive: t.bobsCanon! };
    const rate = async (who: 'alice' | 'bob', key: string, rating: number) => {
      const r = await clients[who].A.put(`${V1}/assets/${ids[key]}/rating`, { rating });
      assert.equal(r.status, 200, r.text);
    };
    await rate('alice', 'five', 5);
    await rate('alice', 'four', 4);
    await rate('alice', 'two', 2);
    await rate('bob', 'bobsFive', 5);
    // Alice shares her library with Bob, who shows it in his timeline: her stars are still hers.
    const share = await clients.alice.A.post(`${V1}/partner-shares`, { partner_user_id: srv.template!.users.bob!.id });
    assert.equal(share.status, 201, share.text);
    const shown = await clients.bob.A.put(`${V1}/partner-shares/${data(clients.alice.A, share).share_id}`, { show_in_timeline: true });
    assert.equal(shown.status, 200, shown.text);
  });
  after(() => srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    const keysOf = (who: 'alice' | 'bob', filter: object) => listedKeys(clients[who][variant], ids, { filter });

    test(`variant ${variant}: rated at least n stars, your own marks only`, async () => {
      assert.deepEqual(await keysOf('alice', { rating_min: 4 }), ['five', 'four']);
      assert.deepEqual(await keysOf('alice', { rating_min: 1 }), ['five', 'four', 'two'], 'any rating: the unrated photo is left out');
      assert.deepEqual(await keysOf('alice', { rating_min: 5 }), ['five']);
      assert.deepEqual(await keysOf('alice', { rating_min: 3, rating: 4 }), ['four'], 'both hold');
      assert.deepEqual(await keysOf('alice', { rating_min: 5, rating: 4 }), []);
      assert.deepEqual(await keysOf('bob', {}), ['bobsFive', 'five', 'four', 'two', 'unrated'], "alice's photos are in bob's timeline");
      assert.deepEqual(await keysOf('bob', { rating_min: 4 }), ['bobsFive'], "alice's stars are not bob's");
    });

    test(`variant ${variant}: out of range is a 422 naming body.filter.rating_min`, async () => {
      const c = clients.alice[variant];
      for (const bad of [0, 6, 2.5, '4']) {
        const r = await c.post(`${V1}/assets/query`, { filter: { rating_min: bad } });
        assert.equal(r.status, 422, `${JSON.stringify(bad)}: ${r.text}`);
        const fields = (problem(c, r).errors ?? []).map((e) => e.field);
        assert.ok(fields.includes('body.filter.rating_min'), JSON.stringify(fields));
      }
    });
  }

  test('a re-rating moves a photo in and out of the list', async () => {
    const c = clients.alice.A;
    const keys = () => listedKeys(c, ids, { filter: { rating_min: 4 } });
    assert.deepEqual(await keys(), ['five', 'four']);
    assert.equal((await c.put(`${V1}/assets/${ids.two}/rating`, { rating: 4 })).status, 200);
    assert.equal((await c.put(`${V1}/assets/${ids.five}/rating`, { rating: 3 })).status, 200);
    assert.deepEqual(await keys(), ['four', 'two']);
  });
});
