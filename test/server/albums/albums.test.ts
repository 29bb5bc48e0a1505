/**
 * Albums over HTTP on a real catalog: create, read, update, delete, the paged list (bounds, order,
 * repository scope), the albums of an asset, the asset-scoped add, ownership between two household
 * members, and bad input naming the field. Deleting an album leaves its assets in the library.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1, data } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { cleanupTemps, makeRepoFolder, waitFor } from '../repositories/helpers.ts';
import { albumAssets, createAlbum, del, fails, ok, setup, type Album, type World } from './helpers.ts';

const UNKNOWN_UUID = '0190a0a0-0000-7000-8000-000000000000';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('albums: CRUD, list, ownership', { timeout: 300_000 }, () => {
  let w: World;
  const albums = (c: Client, q = '') => c.get(`${V1}/albums${q}`);

  before(async () => {
    w = await setup(
      { canon: 'exif/Canon_40D.jpg', bee: 'duplicates/bee.jpg', nikon: 'exif/Nikon_D70.jpg' },
      { bobs: 'gps/DSCN0010.jpg' },
    );
  });
  after(async () => {
    await w.srv.stop({ removeData: true });
    cleanupTemps();
  });

  test('create, get, update: the album shape, defaults and trimming', async () => {
    const a = await createAlbum(w.alice, { album_name: '  Summer 2024 ' });
    assert.deepEqual(Object.keys(a).sort(), [
      'album_id', 'album_name', 'album_type', 'asset_count', 'cover_asset_id', 'created_at', 'description', 'display_cover_asset_id', 'member_count', 'owner', 'role', 'shared', 'updated_at', 'user_id',
    ]);
    assert.equal(typeof a.album_id, 'number');
    assert.equal(a.album_name, 'Summer 2024');
    assert.equal(a.album_type, 'regular');
    assert.equal(a.description, null);
    assert.equal(a.asset_count, 0);
    assert.equal(a.cover_asset_id, null);
    assert.equal(a.display_cover_asset_id, null);
    assert.equal(a.user_id, w.aliceId);
    assert.match(a.created_at, ISO);
    assert.match(a.updated_at, ISO);

    const bio = await createAlbum(w.alice, { album_name: 'Garden birds', album_type: 'bio', description: 'Feeder visitors' });
    assert.equal(bio.album_type, 'bio');
    assert.equal(bio.description, 'Feeder visitors');

    const got = ok<Album>(w.alice, await w.alice.get(`${V1}/albums/${a.album_id}`));
    assert.deepEqual(got, a);

    const upd = ok<Album>(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { album_name: 'Summer', description: 'At the lake' }));
    assert.equal(upd.album_name, 'Summer');
    assert.equal(upd.description, 'At the lake');
    assert.equal(upd.album_type, 'regular', 'fields not given stay');
    assert.ok(Date.parse(upd.updated_at) >= Date.parse(a.updated_at));
    const cleared = ok<Album>(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { description: null }));
    assert.equal(cleared.description, null);
    assert.equal(cleared.album_name, 'Summer');
    // Names need not be unique.
    assert.notEqual((await createAlbum(w.alice, { album_name: 'Summer' })).album_id, a.album_id);
  });

  test('bad input is 422 naming the field; unknown ids are 404', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.album_name'],
      [{ album_name: '' }, 'body.album_name'],
      [{ album_name: '   ' }, 'body.album_name'],
      [{ album_name: 'x'.repeat(201) }, 'body.album_name'],
      [{ album_name: 42 }, 'body.album_name'],
      [{ album_name: 'A', album_type: 'smart' }, 'body.album_type'],
      [{ album_name: 'A', description: 'd'.repeat(2001) }, 'body.description'],
      [{ album_name: 'A', colour: 'red' }, 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await w.alice.post(`${V1}/albums`, body);
      const p = fails(w.alice, r, 422);
      assert.ok(p.errors?.some((e) => e.field.startsWith(field)), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(p)}`);
    }
    const a = await createAlbum(w.alice, { album_name: 'Input checks' });
    fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, {}), 422, { field: 'body' });
    fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { album_name: '' }), 422, { field: 'body.album_name' });
    fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { cover_asset_id: 'nope' }), 422, { field: 'body.cover_asset_id' });
    fails(w.alice, await w.alice.put(`${V1}/albums/${a.album_id}`, { album_type: 'default' }), 422, { field: 'body.album_type' });
    for (const bad of ['abc', '0', '-3', '1.5']) fails(w.alice, await w.alice.get(`${V1}/albums/${bad}`), 422, { field: 'path.id' });
    fails(w.alice, await w.alice.get(`${V1}/albums/999999`), 404, { code: 'album_not_found', field: 'path.id' });
    fails(w.alice, await w.alice.put(`${V1}/albums/999999`, { album_name: 'x' }), 404, { code: 'album_not_found' });
    fails(w.alice, await del(w.alice, `${V1}/albums/999999`), 404, { code: 'album_not_found' });
    fails(w.alice, await w.alice.get(`${V1}/albums/999999/assets`), 404, { code: 'album_not_found' });
    fails(w.alice, await w.alice.post(`${V1}/albums/${a.album_id}/assets/not-a-uuid`), 422, { field: 'path.assetId' });
    fails(w.alice, await w.alice.post(`${V1}/albums/${a.album_id}/assets/${UNKNOWN_UUID}`), 404, { code: 'asset_not_found', field: 'path.assetId' });
    fails(w.alice, await w.alice.get(`${V1}/assets/${UNKNOWN_UUID}/albums`), 404, { code: 'asset_not_found' });
    // Signed out: 401 everywhere.
    const anon = new Client(w.srv.url);
    assert.equal((await anon.get(`${V1}/albums`)).status, 401);
    assert.equal((await anon.post(`${V1}/albums`, { album_name: 'x' })).status, 401);
    assert.equal((await anon.get(`${V1}/albums/${a.album_id}`)).status, 401);
  });

  test('listAlbums pages (default 20, max 100), newest change first, bounds checked', async () => {
    // A fresh member with exactly 25 albums.
    const carol = new Client(w.srv.url);
    const reg = await carol.post(`${V1}/auth/register`, { username: 'carol', password: 'correct horse battery', invite_code: 'family-2026' });
    carol.token = data(carol, reg).token;
    const made: Album[] = [];
    for (let i = 0; i < 25; i++) made.push(await createAlbum(carol, { album_name: `Album ${i}` }));

    const first = ok(carol, await albums(carol));
    assert.equal(first.limit, 20);
    assert.equal(first.offset, 0);
    assert.equal(first.total, 25);
    assert.equal(first.albums.length, 20);
    const second = ok(carol, await albums(carol, '?limit=20&offset=20'));
    assert.equal(second.albums.length, 5);
    assert.equal(second.total, 25);
    const all = [...first.albums, ...second.albums].map((a: Album) => a.album_id);
    assert.equal(new Set(all).size, 25, 'pages do not overlap');
    // Created one after the other: the newest first.
    assert.deepEqual(all, made.map((a) => a.album_id).reverse());
    // A change moves an album to the front.
    const oldest = made[0]!;
    ok(carol, await carol.put(`${V1}/albums/${oldest.album_id}`, { album_name: 'Renamed' }));
    const front = ok(carol, await albums(carol, '?limit=1'));
    assert.equal(front.albums.length, 1);
    assert.equal(front.albums[0].album_id, oldest.album_id);

    const max = ok(carol, await albums(carol, '?limit=100'));
    assert.equal(max.albums.length, 25);
    const beyond = ok(carol, await albums(carol, '?offset=25'));
    assert.deepEqual(beyond.albums, []);
    assert.equal(beyond.total, 25);
    assert.equal(ok(carol, await albums(carol, '?offset=1000')).albums.length, 0);

    for (const q of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=2.5']) fails(carol, await albums(carol, `?${q}`), 422, { field: 'query.limit' });
    for (const q of ['offset=-1', 'offset=x']) fails(carol, await albums(carol, `?${q}`), 422, { field: 'query.offset' });
    fails(carol, await albums(carol, '?repository_id=nope'), 422, { field: 'query.repository_id' });
    fails(carol, await albums(carol, `?repository_id=${UNKNOWN_UUID}`), 404, { code: 'repository_not_found', field: 'query.repository_id' });
  });

  test('members never see or change each other’s albums, nor add each other’s assets', async () => {
    const mine = await createAlbum(w.alice, { album_name: 'Alice private', album_type: 'bio' });
    ok(w.alice, await w.alice.post(`${V1}/albums/${mine.album_id}/assets/${w.ids.canon}`));
    const bobs = await createAlbum(w.bob, { album_name: 'Bob album' });

    const bobList = ok(w.bob, await albums(w.bob, '?limit=100'));
    assert.ok(bobList.albums.every((a: Album) => a.user_id === w.bobId));
    assert.ok(!bobList.albums.some((a: Album) => a.album_id === mine.album_id));
    const aliceList = ok(w.alice, await albums(w.alice, '?limit=100'));
    assert.ok(aliceList.albums.every((a: Album) => a.user_id === w.aliceId));
    assert.ok(!aliceList.albums.some((a: Album) => a.album_id === bobs.album_id));

    const base = `${V1}/albums/${mine.album_id}`;
    const attempts = [
      () => w.bob.get(base),
      () => w.bob.put(base, { album_name: 'Mine now' }),
      () => del(w.bob, base),
      () => w.bob.get(`${base}/assets`),
      () => w.bob.post(`${base}/assets/${w.ids.bobs}`),
      () => del(w.bob, `${base}/assets/${w.ids.canon}`),
      () => w.bob.put(`${base}/assets/${w.ids.canon}/position`, { position: 0 }),
      () => w.bob.post(`${base}/bioclip/rebuild`),
    ];
    for (const attempt of attempts) fails(w.bob, await attempt(), 404, { code: 'album_not_found', field: 'path.id' });
    fails(w.bob, await w.bob.post(`${V1}/assets/${w.ids.bobs}/albums/${mine.album_id}`), 404, { code: 'album_not_found', field: 'path.albumId' });
    // Bob's asset into Alice's album, by Alice: the asset is not hers.
    fails(w.alice, await w.alice.post(`${base}/assets/${w.ids.bobs}`), 404, { code: 'asset_not_found', field: 'path.assetId' });
    fails(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bobs}/albums/${mine.album_id}`), 404, { code: 'asset_not_found', field: 'path.id' });
    // Alice's asset into Bob's album, by Bob.
    fails(w.bob, await w.bob.post(`${V1}/albums/${bobs.album_id}/assets/${w.ids.canon}`), 404, { code: 'asset_not_found', field: 'path.assetId' });
    fails(w.bob, await w.bob.get(`${V1}/assets/${w.ids.canon}/albums`), 404, { code: 'asset_not_found', field: 'path.id' });

    // Nothing changed.
    const still = ok<Album>(w.alice, await w.alice.get(base));
    assert.equal(still.album_name, 'Alice private');
    assert.equal(still.asset_count, 1);
    assert.equal(ok(w.bob, await w.bob.get(`${V1}/albums/${bobs.album_id}`)).asset_count, 0);
  });

  test('listAssetAlbums and addAssetToAlbumByAsset', async () => {
    const zoo = await createAlbum(w.alice, { album_name: 'Zoo' });
    const attic = await createAlbum(w.alice, { album_name: 'attic finds' });
    ok(w.alice, await w.alice.post(`${V1}/albums/${zoo.album_id}/assets/${w.ids.nikon}`));
    const m = ok(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bee}/albums/${zoo.album_id}`));
    assert.match(m.message, /position 1/);
    ok(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bee}/albums/${attic.album_id}`));
    // Again: nothing changes.
    assert.match(ok(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bee}/albums/${attic.album_id}`)).message, /Already/);
    assert.deepEqual((await albumAssets(w.alice, zoo.album_id)).assets.map((a) => a.asset_id), [w.ids.nikon, w.ids.bee]);

    const r = ok(w.alice, await w.alice.get(`${V1}/assets/${w.ids.bee}/albums`));
    assert.equal(r.asset_id, w.ids.bee);
    assert.equal(r.count, 2);
    assert.deepEqual(r.albums.map((a: Album) => a.album_name), ['attic finds', 'Zoo'], 'by name, case-insensitive');
    const inZoo = r.albums.find((a: Album) => a.album_id === zoo.album_id);
    assert.equal(inZoo.position, 1);
    assert.match(inZoo.added_time, ISO);
    assert.equal(inZoo.asset_count, 2);
    assert.equal(inZoo.user_id, w.aliceId);
    assert.equal(r.albums.find((a: Album) => a.album_id === attic.album_id).position, 0);
    const none = ok(w.bob, await w.bob.get(`${V1}/assets/${w.ids.bobs}/albums`));
    assert.deepEqual(none, { albums: [], asset_id: w.ids.bobs, count: 0 });
    fails(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bee}/albums/abc`), 422, { field: 'path.albumId' });
    fails(w.alice, await w.alice.post(`${V1}/assets/${w.ids.bee}/albums/999999`), 404, { code: 'album_not_found', field: 'path.albumId' });
  });

  test('deleting an album leaves its assets in the library', async () => {
    const a = await createAlbum(w.alice, { album_name: 'Short-lived' });
    for (const k of ['canon', 'bee']) ok(w.alice, await w.alice.post(`${V1}/albums/${a.album_id}/assets/${w.ids[k]}`));
    const m = ok(w.alice, await del(w.alice, `${V1}/albums/${a.album_id}`));
    assert.match(m.message, /2 assets stay/);
    fails(w.alice, await w.alice.get(`${V1}/albums/${a.album_id}`), 404, { code: 'album_not_found' });
    fails(w.alice, await del(w.alice, `${V1}/albums/${a.album_id}`), 404);
    const db = w.srv.container.db;
    assert.equal((db.prepare('SELECT count(*) AS n FROM album_assets WHERE album_id = ?').get(a.album_id) as { n: number }).n, 0);
    for (const k of ['canon', 'bee']) {
      const asset = ok(w.alice, await w.alice.get(`${V1}/assets/${w.ids[k]}`));
      assert.equal(asset.is_deleted, false);
      const albumsOf = ok(w.alice, await w.alice.get(`${V1}/assets/${w.ids[k]}/albums`));
      assert.ok(!albumsOf.albums.some((x: Album) => x.album_id === a.album_id));
    }
  });

  test('repository_id scopes the list, the counts, the cover and the asset listing', async () => {
    // A second repository, registered over HTTP; its first scan indexes one photo (owned by alice, the admin).
    const folder = makeRepoFolder({ 'trip/bird.jpg': 'exif/Pentax_K10D.jpg' });
    const reg = ok(w.alice, await w.alice.post(`${V1}/repositories`, { name: 'Trip', path: folder.dir }), 201);
    const repoId: string = reg.id ?? reg.repository_id;
    const db = w.srv.container.db;
    const tripPhoto = await waitFor('the scan of the new repository', async () => {
      await w.srv.container.jobRunner.whenIdle();
      return (db.prepare("SELECT asset_id FROM assets WHERE repository_id = ? AND state = 'ready'").get(repoId) as { asset_id: string } | undefined)?.asset_id;
    }, 60_000);
    const primary = w.srv.container.repositories.primary()!.repository_id;

    const mixed = await createAlbum(w.alice, { album_name: 'Mixed' });
    ok(w.alice, await w.alice.post(`${V1}/albums/${mixed.album_id}/assets/${w.ids.canon}`));
    ok(w.alice, await w.alice.post(`${V1}/albums/${mixed.album_id}/assets/${tripPhoto}`));
    const homeOnly = await createAlbum(w.alice, { album_name: 'Home only' });
    ok(w.alice, await w.alice.post(`${V1}/albums/${homeOnly.album_id}/assets/${w.ids.nikon}`));
    const empty = await createAlbum(w.alice, { album_name: 'Empty' });

    const scoped = ok(w.alice, await albums(w.alice, `?repository_id=${repoId}&limit=100`));
    assert.deepEqual(scoped.albums.map((a: Album) => a.album_id), [mixed.album_id]);
    assert.equal(scoped.total, 1);
    assert.equal(scoped.albums[0].asset_count, 1, 'only the trip photo counts');
    assert.equal(scoped.albums[0].display_cover_asset_id, tripPhoto);
    const home = ok(w.alice, await albums(w.alice, `?repository_id=${primary}&limit=100`));
    const homeIds = home.albums.map((a: Album) => a.album_id);
    assert.ok(homeIds.includes(mixed.album_id) && homeIds.includes(homeOnly.album_id));
    assert.ok(!homeIds.includes(empty.album_id), 'an empty album holds nothing of any repository');
    const unscoped = ok(w.alice, await albums(w.alice, '?limit=100'));
    assert.ok(unscoped.albums.some((a: Album) => a.album_id === empty.album_id));
    assert.equal(unscoped.albums.find((a: Album) => a.album_id === mixed.album_id).asset_count, 2);

    const one = ok<Album>(w.alice, await w.alice.get(`${V1}/albums/${mixed.album_id}?repository_id=${repoId}`));
    assert.equal(one.asset_count, 1);
    assert.equal(one.display_cover_asset_id, tripPhoto);
    assert.equal(ok<Album>(w.alice, await w.alice.get(`${V1}/albums/${mixed.album_id}`)).display_cover_asset_id, w.ids.canon);
    const listed = await albumAssets(w.alice, mixed.album_id, `?repository_id=${repoId}`);
    assert.deepEqual(listed.assets.map((a) => [a.asset_id, a.position]), [[tripPhoto, 1]], 'album positions are kept');
    assert.equal(listed.count, 1);
    fails(w.alice, await w.alice.get(`${V1}/albums/${mixed.album_id}?repository_id=${UNKNOWN_UUID}`), 404, { code: 'repository_not_found' });
    fails(w.alice, await w.alice.get(`${V1}/albums/${mixed.album_id}/assets?repository_id=${UNKNOWN_UUID}`), 404, { code: 'repository_not_found' });
  });

  test('variant B wraps album answers in the envelope', async () => {
    const b = new Client(w.srv.url, 'B');
    b.token = w.alice.token;
    const r = await b.post(`${V1}/albums`, { album_name: 'Enveloped' });
    assert.equal(r.status, 201, r.text);
    const a = data<Album>(b, r);
    assert.equal(a.album_name, 'Enveloped');
    const missing = await b.get(`${V1}/albums/999999`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 404);
  });
});
