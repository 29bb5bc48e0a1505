/**
 * The list queries read indexes, not the assets table (whose rows carry kilobytes of EXIF): for
 * every kind of filter the query plan of `matching` walks a covering index of 0007, or reads rows by
 * id from album/tag links. A change that made SQLite fall back to reading every row (a term spelled
 * differently from an indexed expression, a partial index condition missing) fails here, long
 * before anyone notices a slow library.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { buildFilter } from '../../../server/src/features/browse/browse.filter.ts';
import type { AssetFilter } from '../../../server/src/features/browse/browse.routes.ts';
import { BrowseStore, type ListSort } from '../../../server/src/features/browse/browse.store.ts';

describe('list query plans', () => {
  let srv: TestServer;
  let store: BrowseStore;
  before(async () => {
    srv = await startServer();
    store = new BrowseStore(srv.container.db);
  });
  after(() => srv.stop({ removeData: true }));

  const repo = '0195f000-0000-7000-8000-000000000001';
  const CASES: [string, AssetFilter, string][] = [
    ['timeline', {}, 'COVERING INDEX assets_list_upload'],
    ['trash', { is_deleted: true }, 'COVERING INDEX assets_list_upload'],
    ['type', { type: 'VIDEO' }, 'COVERING INDEX assets_list_upload'],
    ['types', { types: ['PHOTO', 'AUDIO'] }, 'COVERING INDEX assets_list_upload'],
    ['not liked', { liked: false }, 'COVERING INDEX assets_list_upload'],
    ['rating 0', { rating: 0 }, 'COVERING INDEX assets_list_upload'],
    ['liked', { liked: true }, 'COVERING INDEX assets_list_liked'],
    ['rating', { rating: 4 }, 'COVERING INDEX assets_list_rated'],
    ['rating at least', { rating_min: 4 }, 'COVERING INDEX assets_list_upload'],
    ['camera', { camera_model: 'X-T4' }, 'COVERING INDEX assets_list_camera'],
    ['date', { date: { from: '2020-01-01', to: '2020-12-31' } }, 'COVERING INDEX assets_list_best'],
    ['location', { location: { south: 1, north: 2, west: 3, east: 4 } }, 'COVERING INDEX assets_list_gps'],
    ['antimeridian', { location: { south: 1, north: 2, west: 170, east: -170 } }, 'COVERING INDEX assets_list_gps'],
    ['folder', { folder_path: '2020/07' }, 'COVERING INDEX assets_list_path'],
    ['folder in a repository', { folder_path: '2020', repository_id: repo, folder_recursive: false }, 'COVERING INDEX assets_list_path'],
    ['filename', { filename: { operator: 'contains', value: 'IMG' } }, 'COVERING INDEX assets_owner_filename'],
    ['album', { album_id: 3 }, 'COVERING INDEX assets_id_list'],
    ['tag', { tag_name: 'beach' }, 'COVERING INDEX assets_id_list'],
    ['tags and source', { tag_names: ['beach', 'sea'], tag_source: 'manual' }, 'COVERING INDEX assets_id_list'],
    ['tag source', { tag_source: 'zeroshot' }, 'COVERING INDEX assets_id_list'],
    ['contains_raw', { media_item: { composition: 'contains_raw' } }, 'COVERING INDEX assets_list_upload'],
    ['jpeg_raw', { media_item: { composition: 'jpeg_raw' } }, 'COVERING INDEX assets_list_upload'],
    ['no_raw', { media_item: { composition: 'no_raw' } }, 'COVERING INDEX assets_list_upload'],
    ['live_photo', { media_item: { composition: 'live_photo' } }, 'COVERING INDEX assets_list_upload'],
    ['stacks', { stack: { membership: 'stacked' } }, 'COVERING INDEX assets_list_upload'],
  ];

  for (const sort of ['recently_added', 'date_captured'] as ListSort[]) {
    test(`every filter answers from an index (${sort})`, () => {
      for (const [name, filter, expected] of CASES) {
        const plan = store.plan(buildFilter(1, { filter }), sort);
        const main = plan.find((d) => / a USING /.test(d)) ?? '';
        const want = sort === 'date_captured' && expected.endsWith('assets_list_upload') ? expected.replace('assets_list_upload', 'assets_list_best') : expected;
        assert.ok(main.includes(want), `${name} (${sort}): ${plan.join(' | ')}`);
        assert.ok(!plan.some((d) => /^SCAN a\b/.test(d)), `${name} (${sort}) reads every row: ${plan.join(' | ')}`);
        // The RAW subqueries use their partial index; nothing else reads the assets table in full.
        assert.ok(!plan.some((d) => /SCAN r\b/.test(d)), `${name} (${sort}): ${plan.join(' | ')}`);
        if (filter.media_item?.composition?.includes('raw')) assert.ok(plan.some((d) => d.includes('assets_owner_raw')), `${name}: ${plan.join(' | ')}`);
      }
    });
  }

  test('the timeline is read in index order: no sorting', () => {
    for (const sort of ['recently_added', 'date_captured'] as ListSort[]) {
      for (const filter of [{}, { type: 'PHOTO' }, { liked: false }, { rating_min: 3 }] as AssetFilter[]) {
        const plan = store.plan(buildFilter(1, { filter }), sort);
        assert.ok(!plan.some((d) => d.includes('TEMP B-TREE')), `${JSON.stringify(filter)} ${sort}: ${plan.join(' | ')}`);
      }
    }
  });
});
