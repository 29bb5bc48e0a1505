/**
 * The warm-up after a start (server/src/warm-up.ts) prepares each member's kept answers: the
 * timeline list, filter options, folder counts, map points and statistics facts, members with
 * files only, in the caches the routers use: the first screens' own requests are then hits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIRST_SCREENS, warmLibraryCaches } from '../../server/src/warm-up.ts';
import { V1, data } from './helpers/api.ts';
import type { Container } from '../../server/src/container.ts';
import { insertAsset, setup, type World } from './statistics/catalog.ts';
import { Client } from './helpers/server.ts';

describe('warm-up after a start', { timeout: 120_000 }, () => {
  let w: World;
  before(async () => {
    w = await setup();
    for (let i = 0; i < 20; i++) insertAsset(w, { owner: w.aliceId, repo: w.primary.repository_id, path: `trip/${i}.jpg`, lat: 52 + i / 100, lon: 4.9, taken: Date.UTC(2020, 5, 1 + i) });
  });
  after(() => w.srv.stop({ removeData: true }));

  test('prepares the answers of every member with files, and says so in the log', async () => {
    const c = w.srv.container;
    assert.equal(c.mapIndex.keeps(w.aliceId), false);
    const lines: { level: string; obj: Record<string, unknown> }[] = [];
    const log = { info: (obj: Record<string, unknown>) => lines.push({ level: 'info', obj }), warn: (obj: Record<string, unknown>) => lines.push({ level: 'warn', obj }) };
    await warmLibraryCaches({ ...w.srv.container, log } as unknown as Container);
    assert.deepEqual(lines.filter((l) => l.level === 'warn'), []);
    assert.equal(lines.find((l) => l.level === 'info')?.obj.members, 1, 'alice has files; bob has none');
    assert.equal(c.mapIndex.keeps(w.aliceId), true);
    assert.equal(c.ownerFacts.keeps(w.aliceId), true);
    assert.equal(c.folderTotals.keeps(w.primary.repository_id, w.aliceId), true);
    assert.equal(c.mapIndex.keeps(w.bobId), false);
  });

  test("the first screens' requests after the warm-up are served from the caches it filled (both variants)", async () => {
    const c = w.srv.container;
    const counters = () => Object.fromEntries(c.caches.snapshot().map((x) => [x.name, x]));
    const before = counters();
    // What the web app's first screens ask (renderer/src: PhotosPage, FilterBar, FoldersPage, MapPage).
    const screens: [string, (client: typeof w.alice) => ReturnType<typeof w.alice.get>][] = [
      ['lists', (client) => client.post(`${V1}/assets/query`, FIRST_SCREENS.timeline)],
      ['memo', (client) => client.get(`${V1}/assets/filter-options`)],
      ['folder_totals', (client) => client.get(`${V1}/assets/folders?path=${FIRST_SCREENS.folders.path}`)],
      ['map_points', (client) => client.get(`${V1}/assets/map-points?limit=${FIRST_SCREENS.map.limit}&offset=${FIRST_SCREENS.map.offset}`)],
    ];
    for (const variant of ['A', 'B'] as const) {
      const client = new Client(w.srv.url, variant);
      client.token = w.alice.token;
      for (const [, request] of screens) {
        const r = await request(client);
        assert.equal(r.status, 200, r.text);
        assert.ok(data(client, r));
      }
    }
    const after = counters();
    for (const [name] of screens) {
      assert.equal(after[name]!.misses, before[name]!.misses, `${name}: the warm-up's entry answered (no store call)`);
      // At least one hit per request (the folders root looks up each repository's counts).
      assert.ok(after[name]!.hits >= before[name]!.hits + 2, `${name}: served from the cache`);
    }
  });

  test('stops when the server is closing', async () => {
    const c = w.srv.container;
    insertAsset(w, { owner: w.bobId, repo: w.primary.repository_id, path: 'bob/1.jpg', lat: 1, lon: 1 });
    const lines: unknown[] = [];
    const log = { info: (o: unknown) => lines.push(o), warn: (o: unknown) => lines.push(o) };
    await warmLibraryCaches({ ...w.srv.container, log } as unknown as Container, () => true);
    assert.equal(c.mapIndex.keeps(w.bobId), false);
    assert.deepEqual(lines, []);
  });
});
