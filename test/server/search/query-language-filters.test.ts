/**
 * The parser's filters are queryAssets' filters: real media from the corpus ingested through the
 * real pipeline, the catalog names taken from getFilterOptions as searchAssets will take them, each
 * query parsed and its filter sent as it is (with `viewer_timezone`) over HTTP; the photos listed are
 * the ones the words mean. Both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, templateClient, type Client, type TestServer } from '../helpers/server.ts';
import { RECIPES } from '../../template/recipes.ts';
import { V1, data } from '../helpers/api.ts';
import { inBothVariants, listedKeys } from '../helpers/corpus-assets.ts';
import { parseQuery, type QueryContext } from '../../../server/src/features/search/query-language/index.ts';

// The photos (cameras, dates, a RAW+JPEG pair, a live photo, a video) are the template's: RECIPES.queryLanguage.
type Key = keyof typeof RECIPES.queryLanguage.files;

describe('parsed queries list the photos they name', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let ids = {} as Record<Key, string>;
  let clients = {} as Record<'A' | 'B', Client>;

  before(async () => {
    srv = await startServer({ template: RECIPES.queryLanguage });
    const a = await templateClient(srv, 'alice');
    clients = inBothVariants(a);
    ids = srv.template!.assets as Record<Key, string>;
    for (const [key, rating] of [['canon', 5], ['dscn10', 4]] as const) assert.equal((await a.put(`${V1}/assets/${ids[key]}/rating`, { rating })).status, 200);
    assert.equal((await a.put(`${V1}/assets/${ids.dscn10}/like`, { liked: true })).status, 200);
  });
  after(() => srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    /** The context searchAssets builds: the caller's catalog names from getFilterOptions. */
    const contextOf = async (c: Client): Promise<QueryContext> => {
      const r = await c.get(`${V1}/assets/filter-options`);
      assert.equal(r.status, 200, r.text);
      const o = data(c, r) as { camera_makes: string[]; cameras: { make: string | null; model: string; name: string }[]; lenses: string[] };
      return {
        now: Date.parse('2025-07-16T10:00:00Z'),
        timeZone: 'Europe/Amsterdam',
        cameraMakes: o.camera_makes,
        cameraModels: o.cameras.map((cam) => ({ value: cam.model, say: [cam.name] })),
        lenses: o.lenses,
      };
    };

    test(`variant ${variant}: each query's filter, sent as it is, lists what its words name`, async () => {
      const c = clients[variant];
      const ctx = await contextOf(c);
      const listed = (q: string) => {
        const parsed = parseQuery(q, ctx);
        return listedKeys(c, ids, { filter: parsed.filter, viewer_timezone: parsed.viewer_timezone });
      };
      const cases: [string, Key[]][] = [
        ['videos', ['video']],
        ['photos', ['canon', 'dscn10', 'jpeg', 'still']],
        ['live photos', ['still']],
        ['heic', ['still']],
        ['jpeg', ['canon', 'dscn10', 'jpeg']],
        ['raw', ['jpeg']],
        ['5 stars', ['canon']],
        ['4+ stars', ['canon', 'dscn10']],
        ['at least 5 stars', ['canon']],
        ['unrated', ['jpeg', 'still', 'video']],
        ['favourites', ['dscn10']],
        ['2015', ['canon']],
        ['in june 2015', ['canon']],
        ['october 2008 beach', ['dscn10']],
        ['between 2000 and 2008', ['dscn10', 'jpeg']],
        ['before 2001', ['jpeg']],
        ['canon', ['canon']],
        ['shot on canon eos 600d', ['canon']],
        ['nikon coolpix p6000 photos', ['dscn10']],
        ['ef-s15-85mm f/3.5-5.6 is usm', ['canon']],
        ['my favourite photos from 2008', ['dscn10']],
      ];
      for (const [q, keys] of cases) assert.deepEqual(await listed(q), [...keys].sort(), q);
    });
  }
});
