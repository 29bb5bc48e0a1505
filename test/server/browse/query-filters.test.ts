/**
 * queryAssets filters and stacks, listLikedAssets and listAssetsByRating, over HTTP on a real
 * catalog. Camera, lens, capture times, GPS, RAW+JPEG pairs and live photos come from corpus files
 * through the real ingest and media pipeline; likes, ratings, tags, albums and stacks are set in SQL
 * (their own features are tested elsewhere).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { catalogOf } from '../helpers/factories.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Ref = { media_item_id: string; primary_asset_id: string };
type Item = {
  id: string;
  best_ts_ms: number;
  stack: { stack_id: string; stack_kind: string; cover: Ref; matched_members: number; members: Ref[] } | null;
  media_item: {
    media_item_id: string;
    media_kind: string;
    composition: { component_count: number; has_raw: boolean; has_jpeg: boolean; has_live_motion: boolean };
    primary_asset: { asset_id: string; original_filename: string; taken_time: string | null; upload_time: string; liked: boolean; rating: number };
    stack: { stack_id: string; stack_kind: string; member_count: number; is_cover: boolean } | null;
  };
};
type List = { items: Item[]; limit: number; offset: number; stack_mode: string; total_files: number; total_media_items: number; total_visible: number };
type AssetPage = { assets: { asset_id: string; original_filename: string; liked: boolean; rating: number }[]; limit: number; offset: number; total: number };

/** Corpus file → where it goes in the primary repository (folders matter for the folder filter). */
const FILES = {
  canon: ['gps/Canon_600D_gps.jpg', 'trips/usa/Canon_600D_gps.jpg'], // Canon EOS 600D + EF-S15-85mm, 2015-06-12, Yosemite
  dscn10: ['gps/DSCN0010.jpg', 'trips/italy/DSCN0010.jpg'], // NIKON COOLPIX P6000, 2008-10-22, Tuscany
  dscn12: ['gps/DSCN0012.jpg', 'trips/italy/DSCN0012.jpg'],
  sydney: ['gps/sydney_opera_house.jpg', 'trips/australia/sydney_opera_house.jpg'], // 2020-09-19 20:55:57 +10:00, Sydney
  jpeg: ['raw/RAW_NIKON_D1.JPG', 'raw/RAW_NIKON_D1.JPG'], // RAW+JPEG pair, 2000-11-19
  raw: ['raw/RAW_NIKON_D1.NEF', 'raw/RAW_NIKON_D1.NEF'],
  still: ['live/IMG_7943.HEIC', 'live/IMG_7943.HEIC'], // live photo
  motion: ['live/IMG_7943_HEVC.MOV', 'live/IMG_7943_HEVC.MOV'],
  video: ['video/with-gps.mp4', 'video/with-gps.mp4'],
  noExif: ['exif/no_exif.jpg', 'no_exif.jpg'], // at the repository root; its capture time is removed below
} as const;
type Key = keyof typeof FILES;

describe('queryAssets filters, stacks, liked and rated lists', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let aliceId: number;
  let bobId: number;
  let repoId: string;
  const ids = {} as Record<Key | 'bob', string>;
  const items = {} as Record<Key, string>; // media item ids
  let bobAlbum = 0;
  let aliceAlbum = 0;
  let burstId = '';

  const query = (c: Client, body?: unknown) => c.post(`${V1}/assets/query`, body);
  const list = async (c: Client, body?: unknown): Promise<List> => {
    const r = await query(c, body);
    assert.equal(r.status, 200, r.text);
    return data<List>(c, r);
  };
  /** The keys of the primary assets listed, in list order. */
  const names = (l: List) => l.items.map((i) => (Object.keys(ids) as (Key | 'bob')[]).find((k) => ids[k] === i.media_item.primary_asset.asset_id) ?? i.media_item.primary_asset.original_filename);
  const keysOf = async (body: unknown, c: Client = alice) => names(await list(c, { pagination: { limit: 200 }, stack_mode: 'expanded', ...(body as object) }));
  const sameSet = (a: string[], b: string[], msg?: string) => assert.deepEqual([...a].sort(), [...b].sort(), msg);
  const field422 = async (body: unknown, field: string | RegExp) => {
    const r = await query(alice, body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    const fields = (problem(alice, r).errors ?? []).map((e) => e.field);
    assert.ok(fields.some((f) => (typeof field === 'string' ? f === field : field.test(f))), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(fields)}`);
  };
  const sql = (s: string, ...p: unknown[]) => srv.container.db.prepare(s).run(...p);

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
    const repo = srv.container.repositories.primary()!;
    repoId = repo.repository_id;
    const index = async (from: string, rel: string, ownerId: number) => {
      fs.mkdirSync(path.join(repo.path, path.dirname(rel)), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, from), path.join(repo.path, rel));
      const r = await srv.container.ingest.indexFile({ repositoryId: repoId, relPath: rel, ownerId, source: 'scan' });
      assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
      await sleep(3);
      return (r as { asset_id: string }).asset_id;
    };
    for (const [k, [from, rel]] of Object.entries(FILES)) ids[k as Key] = await index(from, rel, aliceId);
    ids.bob = await index('gps/DSCN0021.jpg', 'trips/italy/DSCN0021.jpg', bobId);
    await srv.container.jobRunner.whenIdle();
    const db = srv.container.db;
    for (const k of Object.keys(FILES) as Key[]) items[k] = db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ?').pluck().get(ids[k]) as string;
    assert.equal(items.jpeg, items.raw, 'the RAW and the JPEG are one media item');
    assert.equal(items.still, items.motion, 'the live photo is one media item');

    // Likes, ratings, tags, albums, stacks, and a photo without capture time: straight in the catalog
    // (the factories for tags, albums and stacks; machine tags and a burst's group key have no operation).
    const now = Date.now();
    sql('UPDATE assets SET taken_time = NULL, capture_offset_minutes = NULL WHERE asset_id = ?', ids.noExif);
    sql('UPDATE assets SET liked = 1 WHERE asset_id = ?', ids.canon);
    sql('UPDATE assets SET rating = 4 WHERE asset_id IN (?, ?)', ids.sydney, ids.dscn12);
    sql('UPDATE assets SET rating = 2 WHERE asset_id = ?', ids.dscn10);
    sql('UPDATE assets SET liked = 1, rating = 5 WHERE asset_id = ?', ids.bob);
    const cat = catalogOf(db, () => now);
    cat.tagAsset(ids.dscn10, 'beach', 'manual');
    cat.tagAsset(ids.dscn10, 'Sunset', 'manual');
    cat.tagAsset(ids.sydney, 'Sunset', 'zeroshot', 1);
    cat.tagAsset(ids.sydney, 'opera', 'metadata', 1);
    cat.tagAsset(ids.bob, 'beach', 'manual');
    const album = (owner: number, name: string, assets: string[]) => {
      const id = cat.album(owner, name);
      for (const a of assets) cat.albumMember(id, a);
      return id;
    };
    aliceAlbum = album(aliceId, 'Italy', [ids.dscn10, ids.dscn12]);
    bobAlbum = album(bobId, 'Bob in Italy', [ids.bob]);
    // Stacks: a burst of three with its middle frame as cover, a manual stack of two without a chosen cover.
    sql('DELETE FROM stack_members');
    sql('DELETE FROM stacks');
    burstId = '0195f000-0000-7000-8000-0000000000b1';
    cat.stack({ stack_id: burstId, owner_id: aliceId, stack_kind: 'burst', group_key: 'test-burst', cover_media_item_id: items.dscn12, members: [items.dscn10, items.dscn12, items.canon] });
    cat.stack({ stack_id: '0195f000-0000-7000-8000-0000000000b2', owner_id: aliceId, stack_kind: 'manual', members: [items.sydney, items.noExif] });
  });
  after(() => srv.stop({ removeData: true }));

  const ALL: Key[] = ['canon', 'dscn10', 'dscn12', 'sydney', 'jpeg', 'still', 'video', 'noExif'];

  test('camera_model and lens are exact; another user’s photo with the same camera is not listed', async () => {
    sameSet(await keysOf({ filter: { camera_model: 'COOLPIX P6000' } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { camera_model: 'coolpix p6000' } }), [], 'exact, case included');
    sameSet(await keysOf({ filter: { camera_model: 'COOLPIX P6000' } }, bob), ['bob']);
    sameSet(await keysOf({ filter: { camera_model: 'NIKON D1' } }), ['jpeg'], 'the pair is one row');
    sameSet(await keysOf({ filter: { lens: 'EF-S15-85mm f/3.5-5.6 IS USM' } }), ['canon']);
    sameSet(await keysOf({ filter: { lens: 'EF-S15-85mm', camera_model: 'Canon EOS 600D' } }), []);
    sameSet(await keysOf({ filter: { camera_model: 'Canon EOS 600D' }, sort_by: 'date_captured' }), ['canon']);
  });

  test('date: inclusive days in viewer_timezone (UTC by default), RFC 3339 instants, upload time when there is no capture time', async () => {
    const l = await list(alice, { pagination: { limit: 200 }, stack_mode: 'expanded' });
    const sydney = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.sydney)!;
    // 20:55:57 at +10:00 is 10:55:57 UTC on the 19th, and 00:55:57 on the 20th at +14:00 (Kiribati).
    assert.equal(sydney.media_item.primary_asset.taken_time, '2020-09-19T10:55:57.000Z');
    sameSet(await keysOf({ filter: { date: { from: '2008-10-22', to: '2008-10-22' } } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { date: { from: '2020-09-19', to: '2020-09-19' } } }), ['sydney']);
    sameSet(await keysOf({ filter: { date: { from: '2020-09-20', to: '2020-09-20' } } }), []);
    sameSet(await keysOf({ viewer_timezone: 'Pacific/Kiritimati', filter: { date: { from: '2020-09-20', to: '2020-09-20' } } }), ['sydney']);
    sameSet(await keysOf({ viewer_timezone: 'Pacific/Kiritimati', filter: { date: { from: '2020-09-19', to: '2020-09-19' } } }), []);
    sameSet(await keysOf({ viewer_timezone: 'America/Los_Angeles', filter: { date: { to: '2008-10-22' } } }), ['jpeg', 'dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { date: { from: '2020-09-19T10:55:57Z', to: '2020-09-19T10:55:57Z' } } }), ['sydney'], 'an instant is inclusive');
    sameSet(await keysOf({ filter: { date: { from: '2020-09-19T12:55:58+02:00', to: '2021-01-01' } } }), [], 'one second later (in another offset) leaves it out');
    const today = new Date().toISOString().slice(0, 10);
    const recent = await keysOf({ filter: { date: { from: today } } });
    assert.ok(recent.includes('noExif'), 'no capture time: the upload time counts');
    assert.ok(!recent.includes('dscn10'));
    // Sorted by capture time: the same set, newest first.
    const byDate = await list(alice, { sort_by: 'date_captured', stack_mode: 'expanded', filter: { date: { from: '2000-01-01', to: '2021-01-01' } } });
    assert.deepEqual(names(byDate), ['sydney', 'video', 'canon', 'dscn12', 'dscn10', 'jpeg']);
  });

  test('location: a box, a box across the antimeridian; assets without GPS never match', async () => {
    sameSet(await keysOf({ filter: { location: { south: 43, north: 44, west: 11, east: 12 } } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { location: { south: -40, north: -30, west: 150, east: -170 } } }), ['sydney'], 'west > east crosses the antimeridian');
    sameSet(await keysOf({ filter: { location: { south: -40, north: -30, west: -170, east: 150 } } }), [], 'the other way round it does not reach 151°E');
    sameSet(await keysOf({ filter: { location: { south: 30, north: 40, west: -125, east: -115 } } }), ['canon']);
    const world = await keysOf({ filter: { location: { south: -90, north: 90, west: -180, east: 180 } } });
    assert.ok(!world.includes('noExif') && world.includes('sydney'));
  });

  test('filename operators and the filename search; semantic search is unavailable', async () => {
    sameSet(await keysOf({ filter: { filename: { value: 'dscn00' } } }), ['dscn10', 'dscn12'], 'contains, ASCII case ignored');
    sameSet(await keysOf({ filter: { filename: { operator: 'starts_with', value: 'DSCN001' } } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { filename: { operator: 'ends_with', value: '.HEIC' } } }), ['still']);
    sameSet(await keysOf({ filter: { filename: { operator: 'ends_with', value: '.nef' } } }), [], 'the RAW does not stand for its pair');
    sameSet(await keysOf({ filter: { filename: { operator: 'matches', value: 'DSCN00?0.jpg' } } }), ['dscn10']);
    sameSet(await keysOf({ filter: { filename: { operator: 'matches', value: '*opera*' } } }), ['sydney']);
    sameSet(await keysOf({ filter: { filename: { operator: 'matches', value: 'opera' } } }), [], 'matches is the whole name');
    sameSet(await keysOf({ filter: { filename: { mode: 'starts_with', value: 'no_' } } }), ['noExif'], 'legacy key `mode`');
    sameSet(await keysOf({ filter: { filename: { value: '_' } } }), ['canon', 'sydney', 'jpeg', 'still', 'noExif'], '`_` is literal');
    sameSet(await keysOf({ filter: { filename: { value: '%' } } }), [], '`%` is literal');
    sameSet(await keysOf({ query: 'OPERA' }), ['sydney']);
    sameSet(await keysOf({ query: 'dscn', search_type: 'filename', filter: { filename: { operator: 'ends_with', value: '12.jpg' } } }), ['dscn12'], 'both apply');
    sameSet(await keysOf({ query: '' }), ALL, 'an empty search is no search');
    const sem = await query(alice, { query: 'a dog on a beach', search_type: 'semantic' });
    assert.equal(sem.status, 503);
    assert.equal(problem(alice, sem).code, 'semantic_search_unavailable');
    sameSet(await keysOf({ query: ' ', search_type: 'semantic' }), ALL, 'no search text: the plain list');
  });

  test('folder_path and folder_recursive, with or without repository_id', async () => {
    sameSet(await keysOf({ filter: { folder_path: 'trips' } }), ['canon', 'dscn10', 'dscn12', 'sydney']);
    sameSet(await keysOf({ filter: { folder_path: 'trips', folder_recursive: false } }), []);
    sameSet(await keysOf({ filter: { folder_path: '/trips/italy/', repository_id: repoId } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { folder_path: 'trips/italy', folder_recursive: false } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { folder_path: '', folder_recursive: false } }), ['noExif'], 'the root alone');
    sameSet(await keysOf({ filter: { folder_path: '' } }), ALL);
    sameSet(await keysOf({ filter: { folder_path: 'trip' } }), [], 'a prefix of a folder name is not the folder');
    sameSet(await keysOf({ filter: { folder_path: 'trips/italy', repository_id: '00000000-0000-7000-8000-000000000000' } }), []);
    await field422({ filter: { folder_path: 'trips/../etc' } }, 'body.filter.folder_path');
  });

  test('album_id: your album only; another user’s album matches nothing', async () => {
    sameSet(await keysOf({ filter: { album_id: aliceAlbum } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { album_id: bobAlbum } }), [], 'alice asking for bob’s album');
    sameSet(await keysOf({ filter: { album_id: bobAlbum } }, bob), ['bob']);
    sameSet(await keysOf({ filter: { album_id: aliceAlbum } }, bob), []);
    sameSet(await keysOf({ filter: { album_id: 999_999 } }), []);
    await field422({ filter: { album_id: 'x' } }, 'body.filter.album_id');
  });

  test('tags: tag_name (case ignored), tag_names (every one), tag_source', async () => {
    sameSet(await keysOf({ filter: { tag_name: 'BEACH' } }), ['dscn10']);
    sameSet(await keysOf({ filter: { tag_name: 'sunset' } }), ['dscn10', 'sydney']);
    sameSet(await keysOf({ filter: { tag_names: ['sunset', 'beach'] } }), ['dscn10']);
    sameSet(await keysOf({ filter: { tag_names: ['sunset', 'opera'] } }), ['sydney']);
    sameSet(await keysOf({ filter: { tag_name: 'sunset', tag_names: ['beach'] } }), ['dscn10'], 'tag_name and tag_names together');
    sameSet(await keysOf({ filter: { tag_name: 'sunset', tag_source: 'zeroshot' } }), ['sydney']);
    sameSet(await keysOf({ filter: { tag_source: 'metadata' } }), ['sydney']);
    sameSet(await keysOf({ filter: { tag_source: 'manual' } }), ['dscn10']);
    sameSet(await keysOf({ filter: { tag_name: 'no such tag' } }), []);
    sameSet(await keysOf({ filter: { tag_name: 'beach' } }, bob), ['bob']);
    await field422({ filter: { tag_source: 'ai' } }, 'body.filter.tag_source');
    await field422({ filter: { tag_names: [] } }, 'body.filter.tag_names');
  });

  test('liked and rating filters; listLikedAssets and listAssetsByRating', async () => {
    sameSet(await keysOf({ filter: { liked: true } }), ['canon']);
    sameSet(await keysOf({ filter: { liked: false } }), ALL.filter((k) => k !== 'canon'));
    sameSet(await keysOf({ filter: { rating: 4 } }), ['sydney', 'dscn12']);
    sameSet(await keysOf({ filter: { rating: 0 } }), ['canon', 'jpeg', 'still', 'video', 'noExif']);
    sameSet(await keysOf({ filter: { rating: 2, liked: false } }), ['dscn10']);
    await field422({ filter: { rating: 6 } }, 'body.filter.rating');
    await field422({ filter: { rating: -1 } }, 'body.filter.rating');
    await field422({ filter: { liked: 'yes' } }, 'body.filter.liked');

    const liked = data<AssetPage>(alice, await alice.get(`${V1}/assets/liked`));
    assert.deepEqual(liked.assets.map((a) => a.asset_id), [ids.canon]);
    assert.deepEqual([liked.limit, liked.offset, liked.total], [20, 0, 1]);
    assert.equal(liked.assets[0]!.liked, true);
    const bobs = data<AssetPage>(bob, await bob.get(`${V1}/assets/liked`));
    assert.deepEqual(bobs.assets.map((a) => a.asset_id), [ids.bob], 'each their own');

    const four = data<AssetPage>(alice, await alice.get(`${V1}/assets/rating/4`));
    assert.deepEqual(four.assets.map((a) => a.asset_id), [ids.sydney, ids.dscn12], 'newest capture first');
    assert.equal(four.total, 2);
    const page2 = data<AssetPage>(alice, await alice.get(`${V1}/assets/rating/4?limit=1&offset=1`));
    assert.deepEqual([page2.assets.map((a) => a.asset_id), page2.limit, page2.offset, page2.total], [[ids.dscn12], 1, 1, 2]);
    const past = data<AssetPage>(alice, await alice.get(`${V1}/assets/rating/4?offset=5`));
    assert.deepEqual([past.assets, past.total], [[], 2]);
    const unrated = data<AssetPage>(alice, await alice.get(`${V1}/assets/rating/0?limit=200`));
    assert.equal(unrated.total, 5);
    assert.ok(!unrated.assets.some((a) => a.asset_id === ids.raw), 'one asset per media item: the RAW does not appear beside its JPEG');
    assert.equal(data<AssetPage>(alice, await alice.get(`${V1}/assets/rating/5`)).total, 0, 'bob’s 5-star photo is not alice’s');

    for (const [p, field] of [
      ['/assets/rating/6', 'path.rating'],
      ['/assets/rating/-1', 'path.rating'],
      ['/assets/rating/four', 'path.rating'],
      ['/assets/liked?limit=0', 'query.limit'],
      ['/assets/liked?limit=201', 'query.limit'],
      ['/assets/rating/3?offset=-1', 'query.offset'],
    ] as const) {
      const r = await alice.get(`${V1}${p}`);
      assert.equal(r.status, 422, `${p}: ${r.text}`);
      assert.equal(problem(alice, r).errors?.[0]?.field, field, p);
    }
    assert.equal((await new Client(srv.url).get(`${V1}/assets/liked`)).status, 401);
  });

  test('owner_id, event_id and person_id: only your own id matches; an unknown event and people match nothing', async () => {
    sameSet(await keysOf({ filter: { owner_id: aliceId } }), ALL);
    sameSet(await keysOf({ filter: { owner_id: bobId } }), [], 'an administrator does not see another member’s photos');
    sameSet(await keysOf({ filter: { owner_id: aliceId } }, bob), []);
    const none = await list(alice, { filter: { event_id: '0195f000-0000-7000-8000-000000000001' } });
    assert.deepEqual([none.items, none.total_media_items, none.total_files, none.total_visible], [[], 0, 0, 0]);
    sameSet(await keysOf({ filter: { person_id: 1 } }), []);
    await field422({ filter: { event_id: 'not-a-uuid' } }, 'body.filter.event_id');
    await field422({ filter: { person_id: 'x' } }, 'body.filter.person_id');
    await field422({ filter: { owner_id: 0 } }, 'body.filter.owner_id');
  });

  test('type and types, repository_id', async () => {
    sameSet(await keysOf({ filter: { type: 'VIDEO' } }), ['video'], 'the live photo is a photo (its still stands for it)');
    sameSet(await keysOf({ filter: { types: ['PHOTO', 'VIDEO'], type: 'VIDEO' } }), ['video']);
    sameSet(await keysOf({ filter: { types: ['VIDEO'], type: 'PHOTO' } }), []);
    sameSet(await keysOf({ filter: { types: ['AUDIO', 'PHOTO'] } }), ALL.filter((k) => k !== 'video'));
    sameSet(await keysOf({ filter: { repository_id: repoId } }), ALL);
    await field422({ filter: { types: ['PHOTO', 'DOC'] } }, 'body.filter.types.1');
  });

  test('media_item.composition', async () => {
    sameSet(await keysOf({ filter: { media_item: { composition: 'contains_raw' } } }), ['jpeg']);
    sameSet(await keysOf({ filter: { media_item: { composition: 'jpeg_raw' } } }), ['jpeg']);
    sameSet(await keysOf({ filter: { media_item: { composition: 'raw_unpaired' } } }), []);
    sameSet(await keysOf({ filter: { media_item: { composition: 'no_raw' } } }), ALL.filter((k) => k !== 'jpeg'));
    sameSet(await keysOf({ filter: { media_item: { composition: 'live_photo' } } }), ['still']);
    await field422({ filter: { media_item: { composition: 'raw_only' } } }, 'body.filter.media_item.composition');
  });

  test('stacks collapsed: one row per stack at its cover, with members and totals', async () => {
    const l = await list(alice, { pagination: { limit: 200 } });
    assert.equal(l.stack_mode, 'collapsed');
    assert.equal(l.total_media_items, 8);
    assert.equal(l.total_files, 10, 'the pair and the live photo count two files each');
    assert.equal(l.total_visible, 5, 'burst of 3 and manual stack of 2 show once each');
    sameSet(names(l), ['dscn12', 'sydney', 'jpeg', 'still', 'video']);
    const burst = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.dscn12)!;
    assert.deepEqual(burst.stack, {
      stack_id: burstId,
      stack_kind: 'burst',
      cover: { media_item_id: items.dscn12, primary_asset_id: ids.dscn12 },
      matched_members: 3,
      members: [
        { media_item_id: items.dscn10, primary_asset_id: ids.dscn10 },
        { media_item_id: items.dscn12, primary_asset_id: ids.dscn12 },
        { media_item_id: items.canon, primary_asset_id: ids.canon },
      ],
    });
    assert.deepEqual(burst.media_item.stack, { stack_id: burstId, stack_kind: 'burst', member_count: 3, is_cover: true });
    const manual = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.sydney)!;
    assert.equal(manual.stack?.stack_kind, 'manual');
    assert.deepEqual(manual.stack?.cover, { media_item_id: items.sydney, primary_asset_id: ids.sydney }, 'no chosen cover: the first member');
    assert.equal(l.items.find((i) => i.media_item.primary_asset.asset_id === ids.video)!.stack, null);

    // The cover does not match: the first matching member stands for the stack.
    const f = await list(alice, { filter: { camera_model: 'Canon EOS 600D' } });
    assert.deepEqual(names(f), ['canon']);
    assert.equal(f.items[0]!.stack?.matched_members, 1);
    assert.equal(f.items[0]!.stack?.cover.media_item_id, items.dscn12);
    assert.deepEqual([f.total_visible, f.total_media_items], [1, 1]);
    const italy = await list(alice, { filter: { folder_path: 'trips/italy' } });
    assert.deepEqual(names(italy), ['dscn12']);
    assert.deepEqual([italy.items[0]!.stack?.matched_members, italy.total_visible, italy.total_media_items], [2, 1, 2]);

    // Paging a collapsed list walks total_visible rows.
    const seen: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const p = await list(alice, { pagination: { limit: 2, offset } });
      assert.equal(p.total_visible, 5);
      seen.push(...p.items.map((i) => i.id));
    }
    assert.deepEqual(seen, l.items.map((i) => i.id));
  });

  test('stacks expanded: every member a row with media_item.stack; membership and kinds filters', async () => {
    const e = await list(alice, { stack_mode: 'expanded', pagination: { limit: 200 } });
    assert.deepEqual([e.stack_mode, e.total_visible, e.total_media_items, e.total_files], ['expanded', 8, 8, 10]);
    assert.ok(e.items.every((i) => i.stack === null), 'no collapsed stack rows in expanded mode');
    const member = e.items.find((i) => i.media_item.primary_asset.asset_id === ids.dscn10)!;
    assert.deepEqual(member.media_item.stack, { stack_id: burstId, stack_kind: 'burst', member_count: 3, is_cover: false });
    assert.equal(e.items.filter((i) => i.media_item.stack !== null).length, 5);
    const recent = await list(alice, { pagination: { limit: 200 } });
    const order = names(e);
    assert.deepEqual(names(recent), order.filter((k) => !['dscn10', 'canon', 'noExif'].includes(k)), 'collapsing keeps the order of the shown rows');

    sameSet(await keysOf({ filter: { stack: { membership: 'stacked' } } }), ['dscn10', 'dscn12', 'canon', 'sydney', 'noExif']);
    sameSet(await keysOf({ filter: { stack: { membership: 'unstacked' } } }), ['jpeg', 'still', 'video']);
    sameSet(await keysOf({ filter: { stack: { kinds: ['manual'] } } }), ['sydney', 'noExif']);
    sameSet(await keysOf({ filter: { stack: { membership: 'unstacked', kinds: ['burst'] } } }), ['sydney', 'noExif', 'jpeg', 'still', 'video']);
    const stacked = await list(alice, { filter: { stack: { membership: 'stacked', kinds: ['burst'] } } });
    assert.deepEqual([stacked.total_visible, stacked.total_media_items], [1, 3]);
    await field422({ filter: { stack: { membership: 'some' } } }, 'body.filter.stack.membership');
    await field422({ filter: { stack: { kinds: ['auto'] } } }, 'body.filter.stack.kinds.0');
  });

  test('bad input names the field', async () => {
    await field422({ viewer_timezone: 'Mars/Olympus_Mons', filter: { date: { from: '2020-01-01' } } }, 'body.viewer_timezone');
    await field422({ viewer_timezone: 'Nowhere' }, 'body.viewer_timezone');
    await field422({ filter: { date: { from: '2020-13-01' } } }, 'body.filter.date.from');
    await field422({ filter: { date: { to: '2020-02-30' } } }, 'body.filter.date.to');
    await field422({ filter: { date: { from: 'yesterday' } } }, 'body.filter.date.from');
    await field422({ filter: { date: {} } }, 'body.filter.date');
    await field422({ filter: { date: { from: '2021-01-01', to: '2020-01-01' } } }, 'body.filter.date.from');
    await field422({ filter: { location: { south: 50, north: 40, west: 0, east: 1 } } }, 'body.filter.location.south');
    await field422({ filter: { location: { south: 0, north: 91, west: 0, east: 1 } } }, 'body.filter.location.north');
    await field422({ filter: { location: { south: 0, north: 1, west: -181, east: 1 } } }, 'body.filter.location.west');
    await field422({ filter: { location: { south: 0, north: 1, west: 0 } } }, 'body.filter.location.east');
    await field422({ filter: { filename: { operator: 'regex', value: 'x' } } }, 'body.filter.filename.operator');
    await field422({ filter: { filename: { value: '' } } }, 'body.filter.filename.value');
    await field422({ pagination: { limit: 0 } }, 'body.pagination.limit');
    await field422({ pagination: { limit: 201 } }, 'body.pagination.limit');
    await field422({ search_type: 'fuzzy' }, 'body.search_type');
    await field422({ stack_mode: 'flat' }, 'body.stack_mode');
    const unknown = await query(alice, { filter: { colour: 'red' } });
    assert.equal(unknown.status, 422);
    assert.match(problem(alice, unknown).detail, /colour/);
  });

  test('a change to the catalog shows in the next answer (no stale list)', async () => {
    const before1 = await list(alice, { filter: { liked: true } });
    assert.equal(before1.total_media_items, 1);
    sql('UPDATE assets SET liked = 1 WHERE asset_id = ?', ids.video);
    const after1 = await list(alice, { filter: { liked: true } });
    sameSet(names(after1), ['canon', 'video']);
    // Into the Trash: the pair's JPEG goes, the RAW stands for the pair in the library (unpaired there).
    sql('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id = ?', Date.now(), ids.jpeg);
    sameSet(await keysOf({ filter: { media_item: { composition: 'raw_unpaired' } } }), ['raw']);
    sameSet(await keysOf({ filter: { media_item: { composition: 'jpeg_raw' } } }), []);
    sameSet(await keysOf({ filter: { is_deleted: true } }), ['jpeg']);
    sameSet(await keysOf({ filter: { is_deleted: true, media_item: { composition: 'no_raw' } } }), ['jpeg']);
    const lib = await list(alice, { stack_mode: 'expanded' });
    assert.deepEqual([lib.total_media_items, lib.total_files], [8, 9]);
    sql('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id = ?', ids.jpeg);
    sql('UPDATE assets SET liked = 0 WHERE asset_id = ?', ids.video);
    sameSet(await keysOf({ filter: { media_item: { composition: 'jpeg_raw' } } }), ['jpeg']);

    // Album and tag links, a tag renamed, a composition changing: lists read before follow.
    sameSet(await keysOf({ filter: { album_id: aliceAlbum } }), ['dscn10', 'dscn12']);
    sameSet(await keysOf({ filter: { tag_name: 'opera' } }), ['sydney']);
    sameSet(await keysOf({ filter: { media_item: { composition: 'no_raw' } } }), ALL.filter((k) => k !== 'jpeg'));
    catalogOf(srv.container.db).albumMember(aliceAlbum, ids.video, { position: 2 });
    sql('DELETE FROM album_assets WHERE album_id = ? AND asset_id = ?', aliceAlbum, ids.dscn10);
    sameSet(await keysOf({ filter: { album_id: aliceAlbum } }), ['dscn12', 'video']);
    catalogOf(srv.container.db).tagAsset(ids.canon, 'opera', 'manual', 1, 0);
    sameSet(await keysOf({ filter: { tag_name: 'opera' } }), ['sydney', 'canon']);
    sql("UPDATE tags SET tag_name = 'Opera House' WHERE tag_name = 'opera'");
    sameSet(await keysOf({ filter: { tag_name: 'opera' } }), []);
    sameSet(await keysOf({ filter: { tag_name: 'opera house' } }), ['sydney', 'canon']);
    sql('UPDATE assets SET specific_metadata = json_set(specific_metadata, \'$.is_raw\', json(\'true\')) WHERE asset_id = ?', ids.video);
    sameSet(await keysOf({ filter: { media_item: { composition: 'no_raw' } } }), ALL.filter((k) => k !== 'jpeg' && k !== 'video'));
    sql('UPDATE assets SET specific_metadata = json_set(specific_metadata, \'$.is_raw\', json(\'false\')) WHERE asset_id = ?', ids.video);
    sameSet(await keysOf({ filter: { media_item: { composition: 'no_raw' } } }), ALL.filter((k) => k !== 'jpeg'));

    // A stack taken apart: the collapsed list grows by the rows it hid.
    assert.equal((await list(alice)).total_visible, 5);
    sql("DELETE FROM stack_members WHERE stack_id = '0195f000-0000-7000-8000-0000000000b2'");
    const unstacked = await list(alice, { pagination: { limit: 200 } });
    assert.equal(unstacked.total_visible, 6);
    assert.equal(unstacked.items.find((i) => i.media_item.primary_asset.asset_id === ids.sydney)!.stack, null);

    // A write by another connection to the catalog file (another process) shows too.
    const other = new Database(path.join(srv.dataDir, 'catalog.sqlite3'));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare('UPDATE assets SET rating = 1 WHERE asset_id = ?').run(ids.video);
      sameSet(await keysOf({ filter: { rating: 1 } }), ['video']);
      other.prepare('UPDATE assets SET rating = 0 WHERE asset_id = ?').run(ids.video);
      sameSet(await keysOf({ filter: { rating: 1 } }), []);
    } finally {
      other.close();
    }
  });

  test('files indexed after a list was read show up in the next answer', async () => {
    const before1 = await list(alice, { stack_mode: 'expanded', pagination: { limit: 200 } });
    assert.ok(before1.total_media_items > 0);
    const repo = srv.container.repositories.primary()!;
    // A new single file, and a RAW (made distinct by one byte) that joins the existing DSCN0012.jpg as its pair.
    fs.copyFileSync(path.join(CORPUS, 'gps/DSCN0025.jpg'), path.join(repo.path, 'trips/italy/DSCN0025.jpg'));
    fs.writeFileSync(path.join(repo.path, 'trips/italy/DSCN0012.NEF'), Buffer.concat([fs.readFileSync(path.join(CORPUS, 'raw/RAW_NIKON_D1.NEF')), Buffer.from([0])]));
    for (const rel of ['trips/italy/DSCN0025.jpg', 'trips/italy/DSCN0012.NEF']) {
      const r = await srv.container.ingest.indexFile({ repositoryId: repoId, relPath: rel, ownerId: aliceId, source: 'scan' });
      assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
    }
    await srv.container.jobRunner.whenIdle();
    const after1 = await list(alice, { stack_mode: 'expanded', pagination: { limit: 200 } });
    assert.equal(after1.total_media_items, before1.total_media_items + 1, 'the RAW is no row of its own');
    assert.equal(after1.total_files, before1.total_files + 2);
    assert.equal(after1.items[0]!.media_item.primary_asset.original_filename, 'DSCN0025.jpg', 'newest first');
    sameSet(await keysOf({ filter: { media_item: { composition: 'jpeg_raw' } } }), ['jpeg', 'dscn12']);
    const pair = after1.items.find((i) => i.media_item.primary_asset.asset_id === ids.dscn12)!;
    assert.equal(pair.media_item.composition.component_count, 2);
    assert.equal(pair.media_item.stack?.stack_id, burstId, 'still in its burst');
  });
});
