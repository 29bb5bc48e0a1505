/**
 * Place names feed the search: the `place` channel of searchAssets finds photos by the town, region
 * or country they were taken in (corpus GPS files, ingested for real), and the plain-language parser
 * reads "in Helsinki" as a removable location chip. Ownership: another member's photo taken in the
 * same place is never found. Both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, registerAdmin } from '../helpers/api.ts';
import { inBothVariants, indexCorpus } from '../helpers/corpus-assets.ts';

// Neutral file names: the filename channel must not find a photo by the place word.
const FILES = {
  helsinki: ['gps/HMD_Nokia_8.3_5G.jpg', 'trips/p1.jpg'],
  london: ['gps/big_ben.jpg', 'trips/p2.jpg'],
  arezzo: ['gps/DSCN0010.jpg', 'trips/p3.jpg'],
  florence: ['gps/Nikon_D70s_gps.jpg', 'trips/p4.jpg'],
  sydney: ['gps/sydney_opera_house.jpg', 'trips/p5.jpg'],
  nogps: ['gps/big_ben_only_time.jpg', 'trips/p6.jpg'],
} as const;
type Key = keyof typeof FILES;

type Item = { media_item: { primary_asset: { asset_id: string } }; match: { sources: string[]; why: string[] } };
type Answer = {
  result_items: Item[];
  top_results_meta: { sources: { type: string; weight: number; candidate_count: number; error: string | null }[] };
  parsed: { rest: string; filter: { location?: { south: number; north: number; west: number; east: number } }; chips: { id: string; kind: string; label: string; text: string }[] };
};

describe('search by place', { timeout: 900_000 }, () => {
  let srv: TestServer;
  let alice: Record<'A' | 'B', Client>;
  let bob: Record<'A' | 'B', Client>;
  let ids = {} as Record<Key, string>;
  let bobHelsinki = '';

  before(async () => {
    srv = await startServer();
    const a = new Client(srv.url);
    const aliceId = (await registerAdmin(a)).session.user.user_id;
    const b = new Client(srv.url);
    const bobId = (await addMember(a, b, 'bob')).session.user.user_id;
    alice = inBothVariants(a);
    bob = inBothVariants(b);
    ids = await indexCorpus(srv, aliceId, FILES);
    bobHelsinki = (await indexCorpus(srv, bobId, { h: ['gps/HMD_Nokia_8.3_5G.jpg', 'bob/b1.jpg'] })).h;
  });
  after(() => srv.stop({ removeData: true }));

  const keysOf = (a: Answer) => {
    const byId = new Map<string, string>([...Object.entries(ids).map(([k, v]) => [v, k] as [string, string]), [bobHelsinki, 'bob:helsinki']]);
    return a.result_items.map((i) => byId.get(i.media_item.primary_asset.asset_id) ?? i.media_item.primary_asset.asset_id).sort();
  };
  const search = async (c: Client, body: object): Promise<Answer> => {
    const r = await c.post(`${V1}/assets/search`, body);
    assert.equal(r.status, 200, r.text);
    return data(c, r) as Answer;
  };

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: "Helsinki", "Finland", "Tuscany", "london", "New South Wales" find the photos taken there, through the place channel (weight 0.8)`, async () => {
      const c = alice[variant];
      const helsinki = await search(c, { query: 'Helsinki' });
      assert.deepEqual(keysOf(helsinki), ['helsinki']);
      const place = helsinki.top_results_meta.sources.find((s) => s.type === 'place');
      assert.equal(place?.weight, 0.8);
      assert.equal(place?.error, null);
      assert.ok(helsinki.result_items[0]!.match.sources.includes('place'));
      assert.deepEqual(helsinki.result_items[0]!.match.why, ['taken in Helsinki']);
      assert.deepEqual(keysOf(await search(c, { query: 'Finland' })), ['helsinki']);
      assert.deepEqual(keysOf(await search(c, { query: 'Tuscany' })), ['arezzo', 'florence']);
      assert.deepEqual(keysOf(await search(c, { query: 'london' })), ['london']);
      assert.deepEqual(keysOf(await search(c, { query: 'New South Wales' })), ['sydney']);
      assert.deepEqual(keysOf(await search(c, { query: 'Helsinki harbour' })), ['helsinki'], 'a place word among others');
      assert.deepEqual(keysOf(await search(c, { query: 'Lisbon' })), [], 'no photo taken there');
    });

    test(`variant ${variant}: "in Helsinki" is a removable place chip filtering to the photos taken there`, async () => {
      const c = alice[variant];
      const a = await search(c, { query: 'photos in Helsinki' });
      const chip = a.parsed.chips.find((k) => k.kind === 'place');
      assert.ok(chip, JSON.stringify(a.parsed));
      assert.equal(chip.label, 'In Helsinki');
      assert.equal(chip.text, 'in Helsinki');
      const box = a.parsed.filter.location!;
      assert.ok(box.south <= 60.146706 && box.north >= 60.146706 && box.west <= 24.906772 && box.east >= 24.906772, JSON.stringify(box));
      assert.ok(box.north - box.south < 0.01, 'the box is around the photos, not the country');
      assert.deepEqual(keysOf(a), ['helsinki']);
      assert.equal(a.parsed.rest, '');
      // "in Tuscany" covers both Tuscan photos and nothing else.
      assert.deepEqual(keysOf(await search(c, { query: 'in Tuscany' })), ['arezzo', 'florence']);
      assert.deepEqual(keysOf(await search(c, { query: 'photos taken in Italy' })), ['arezzo', 'florence']);
      // Removing the chip puts its words back into the text: the place channel still finds Helsinki.
      const undone = await search(c, { query: 'photos in Helsinki', ignore_parsed: [chip.id] });
      assert.equal(undone.parsed.chips.some((k) => k.kind === 'place'), false);
      assert.equal(undone.parsed.filter.location, undefined);
      assert.deepEqual(keysOf(undone), ['helsinki']);
      // A place of nobody's photos is not a chip: "in Lisbon" stays words.
      const lisbon = await search(c, { query: 'in Lisbon' });
      assert.deepEqual(lisbon.parsed.chips, []);
      assert.deepEqual(keysOf(lisbon), []);
    });
  }

  test("another member's photo taken in the same place is never found, and their own is", async () => {
    for (const variant of ['A', 'B'] as const) {
      assert.deepEqual(keysOf(await search(bob[variant], { query: 'Helsinki' })), ['bob:helsinki']);
      assert.deepEqual(keysOf(await search(bob[variant], { query: 'Tuscany' })), []);
      const chip = await search(bob[variant], { query: 'in Tuscany' });
      assert.deepEqual(chip.parsed.chips, [], 'alice’s places are not bob’s to name');
      assert.deepEqual(keysOf(await search(alice[variant], { query: 'Helsinki' })), ['helsinki']);
    }
  });

  test('odd place queries answer, never fail: quotes, FTS syntax, lone punctuation, accents', async () => {
    for (const query of ['"Helsinki', 'Helsinki OR', 'NEAR(', '*', 'Hel*', '-', 'Zürich', 'Sydney"; DROP TABLE place_cells; --']) {
      const a = await search(alice.A, { query });
      const place = a.top_results_meta.sources.find((s) => s.type === 'place');
      if (place) assert.equal(place.error, null, query);
    }
    assert.deepEqual(keysOf(await search(alice.B, { query: 'Sydney"; DROP TABLE place_cells; --' })).includes('sydney'), true);
  });
});
