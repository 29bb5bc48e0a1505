/**
 * One asset over HTTP: the detail with every include flag filled from real tables (tags, albums, species,
 * stack), the logical media item, soft delete and restore, and the edits (metadata, description, like,
 * rating). Ownership: another user gets 404 everywhere and changes nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { NO_SUCH_ID, addFile, household, repoPath, silentWav } from './fixture.ts';
import { catalogOf } from '../helpers/factories.ts';

describe('one asset: detail, media item, trash, edits', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const ids = {} as Record<'canon' | 'second' | 'gone' | 'nikonJpeg' | 'nikonRaw' | 'video' | 'audio' | 'bob', string>;
  const get = async (id: string, query = '') => {
    const r = await owner.get(`${V1}/assets/${id}${query}`);
    assert.equal(r.status, 200, r.text);
    return data(owner, r);
  };
  const mediaItemOf = (assetId: string) =>
    srv.container.db.prepare('SELECT media_item_id FROM media_item_components WHERE asset_id = ?').pluck().get(assetId) as string;

  before(async () => {
    const h = await household();
    ({ srv, owner, other } = h);
    ids.canon = await addFile(srv, 'gps/Canon_600D_gps.jpg', h.ownerId);
    ids.second = await addFile(srv, 'exif/Canon_40D.jpg', h.ownerId);
    ids.gone = await addFile(srv, 'exif/Nikon_D70.jpg', h.ownerId);
    ids.nikonJpeg = await addFile(srv, 'raw/RAW_NIKON_D1.JPG', h.ownerId);
    ids.nikonRaw = await addFile(srv, 'raw/RAW_NIKON_D1.NEF', h.ownerId);
    ids.video = await addFile(srv, 'video/sample.3gp', h.ownerId);
    ids.audio = await addFile(srv, 'audio/silence.wav', h.ownerId, silentWav());
    ids.bob = await addFile(srv, 'bob/DSCN0010.jpg', h.otherId, 'gps/DSCN0010.jpg');
    await srv.container.jobRunner.whenIdle();

    // Organising data written through the catalog factories: machine tags and species have no operation,
    // and Bob's album holds the owner's photo (a state the API refuses), so the albums list must filter it.
    const cat = catalogOf(srv.container.db);
    cat.tagAsset(ids.canon, 'beach', 'manual', 1);
    cat.tagAsset(ids.canon, 'Dog', 'zeroshot', 0.82);
    const holiday = cat.album(h.ownerId, 'Holiday 2011');
    const best = cat.album(h.ownerId, 'Best of');
    const bobs = cat.album(h.otherId, 'Bob private');
    cat.albumMember(holiday, ids.canon, { position: 3, addedAt: Date.UTC(2024, 0, 2) });
    cat.albumMember(best, ids.canon, { position: 0, addedAt: Date.UTC(2024, 5, 1) });
    cat.albumMember(bobs, ids.canon, { position: 0, addedAt: Date.UTC(2024, 0, 1) });
    cat.species(ids.canon, 'Canis lupus familiaris', 0.31, 'bioclip');
    cat.species(ids.canon, 'Felis catus', 0.64, 'bioclip');
    cat.stack({ stack_id: '0190a000-0000-7000-8000-00000000000a', owner_id: h.ownerId, stack_kind: 'burst', members: [mediaItemOf(ids.canon), mediaItemOf(ids.second)] });
  });
  after(() => srv.stop({ removeData: true }));

  test('getAsset fills tags, the caller’s albums, species best first and the stack; flags leave fields out', async () => {
    const a = await get(ids.canon);
    assert.equal(a.asset_id, ids.canon);
    assert.deepEqual(a.tags, [
      { tag_id: a.tags[0].tag_id, tag_name: 'beach', source: 'manual', confidence: 1 },
      { tag_id: a.tags[1].tag_id, tag_name: 'Dog', source: 'zeroshot', confidence: 0.82 },
    ]);
    assert.deepEqual(
      a.albums.map((x: { album_name: string; position: number; added_time: string }) => [x.album_name, x.position, x.added_time]),
      [
        ['Holiday 2011', 3, '2024-01-02T00:00:00.000Z'],
        ['Best of', 0, '2024-06-01T00:00:00.000Z'],
      ],
      'only the caller’s albums, oldest membership first',
    );
    assert.equal(typeof a.albums[0].album_id, 'number');
    assert.deepEqual(a.species_predictions, [
      { label: 'Felis catus', score: 0.64 },
      { label: 'Canis lupus familiaris', score: 0.31 },
    ]);
    assert.deepEqual(a.stack, { stack_cover: true, stack_id: '0190a000-0000-7000-8000-00000000000a', stack_kind: 'burst', stack_size: 2 });
    assert.deepEqual(a.thumbnails.map((t: { size: string }) => t.size), ['small', 'medium', 'large']);
    assert.ok(!('ocr_result' in a) && !('face_result' in a), 'ocr and faces are off by default');

    const second = await get(ids.second);
    assert.deepEqual(second.stack, { stack_cover: false, stack_id: '0190a000-0000-7000-8000-00000000000a', stack_kind: 'burst', stack_size: 2 });
    assert.deepEqual(second.tags, []);
    assert.deepEqual(second.albums, []);
    assert.deepEqual(second.species_predictions, []);
    // The chosen cover wins over the first position.
    srv.container.db.prepare('UPDATE stacks SET cover_media_item_id = ?').run(mediaItemOf(ids.second));
    assert.equal((await get(ids.second)).stack.stack_cover, true);
    assert.equal((await get(ids.canon)).stack.stack_cover, false);
    assert.equal((await get(ids.video)).stack, null, 'not stacked');

    const bare = await get(ids.canon, '?include_thumbnails=false&include_tags=0&include_albums=false&include_species=false&include_ocr=true&include_faces=1');
    for (const k of ['thumbnails', 'tags', 'albums', 'species_predictions']) assert.ok(!(k in bare), `${k} left out`);
    assert.equal(bare.ocr_result, null);
    assert.equal(bare.face_result, null);
    assert.ok(bare.stack, 'the stack is part of the asset itself');

    const bad = await owner.get(`${V1}/assets/${ids.canon}?include_tags=maybe`);
    assert.equal(problem(owner, bad).errors?.[0]?.field, 'query.include_tags');
    assert.equal(problem(other, await other.get(`${V1}/assets/${ids.canon}`)).code, 'asset_not_found');
  });

  test('getAssetMediaItem: a RAW+JPEG pair from either side, a single asset, ownership', async () => {
    const fromJpeg = data(owner, await owner.get(`${V1}/assets/${ids.nikonJpeg}/media-item`));
    assert.equal(fromJpeg.asset_id, ids.nikonJpeg);
    assert.equal(fromJpeg.media_item.media_kind, 'photo');
    assert.equal(fromJpeg.media_item.primary_asset_id, ids.nikonJpeg);
    assert.deepEqual(fromJpeg.media_item.components, [
      { asset_id: ids.nikonJpeg, position: 0, relation: 'jpeg_original' },
      { asset_id: ids.nikonRaw, position: 1, relation: 'raw_original' },
    ]);
    const fromRaw = data(owner, await owner.get(`${V1}/assets/${ids.nikonRaw}/media-item`));
    assert.equal(fromRaw.asset_id, ids.nikonRaw);
    assert.deepEqual(fromRaw.media_item, fromJpeg.media_item);
    const single = data(owner, await owner.get(`${V1}/assets/${ids.video}/media-item`));
    assert.equal(single.media_item.media_kind, 'video');
    assert.deepEqual(single.media_item.components, [{ asset_id: ids.video, position: 0, relation: 'original' }]);
    assert.equal((await other.get(`${V1}/assets/${ids.nikonJpeg}/media-item`)).status, 404);
    assert.equal((await owner.get(`${V1}/assets/${NO_SUCH_ID}/media-item`)).status, 404);
  });

  test('deleteAsset moves to the Trash without touching the file; restoreAsset brings it back as it was', async () => {
    const file = repoPath(srv, 'exif/Canon_40D.jpg');
    const bytes = fs.readFileSync(file);
    // Another user can neither delete nor restore it, and learns nothing.
    assert.equal(problem(other, await other.req('DELETE', `${V1}/assets/${ids.second}`)).code, 'asset_not_found');
    assert.equal((await get(ids.second)).is_deleted, false);

    const del = await owner.req('DELETE', `${V1}/assets/${ids.second}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(typeof data(owner, del).message, 'string');
    const trashed = await get(ids.second);
    assert.equal(trashed.is_deleted, true);
    assert.ok(Math.abs(Date.parse(trashed.deleted_at) - Date.now()) < 60_000);
    assert.ok(fs.readFileSync(file).equals(bytes), 'the file is untouched');
    assert.equal(trashed.stack.stack_id, '0190a000-0000-7000-8000-00000000000a', 'organisation is kept');
    assert.equal((await owner.req('DELETE', `${V1}/assets/${ids.second}`)).status, 200, 'deleting again is harmless');
    assert.equal((await get(ids.second)).deleted_at, trashed.deleted_at, 'and keeps the first deletion time');

    for (const [method, p, body] of [
      ['PUT', 'like', { liked: true }],
      ['PUT', 'rating', { rating: 3 }],
      ['PUT', 'description', { description: 'x' }],
      ['PUT', '', { specific_metadata: { lens_model: 'x' } }],
    ] as const) {
      const r = await owner.req(method, `${V1}/assets/${ids.second}${p ? `/${p}` : ''}`, { json: body });
      assert.equal(problem(owner, r).code, 'asset_in_trash', `${p}: ${r.text}`);
    }
    assert.equal(problem(other, await other.post(`${V1}/assets/${ids.second}/restore`)).code, 'asset_not_found');

    const res = await owner.post(`${V1}/assets/${ids.second}/restore`);
    assert.equal(res.status, 200, res.text);
    const back = await get(ids.second);
    assert.equal(back.is_deleted, false);
    assert.equal(back.deleted_at, null);
    const again = await owner.post(`${V1}/assets/${ids.second}/restore`);
    assert.equal(again.status, 409);
    assert.equal(problem(owner, again).code, 'asset_not_in_trash');
    assert.ok(fs.readFileSync(file).equals(bytes));
  });

  test('an asset whose file is gone cannot be restored (409 original_missing)', async () => {
    assert.equal((await owner.req('DELETE', `${V1}/assets/${ids.gone}`)).status, 200);
    fs.rmSync(repoPath(srv, 'exif/Nikon_D70.jpg'));
    const r = await owner.post(`${V1}/assets/${ids.gone}/restore`);
    assert.equal(r.status, 409);
    assert.equal(problem(owner, r).code, 'original_missing');
    assert.equal((await get(ids.gone)).is_deleted, true);
  });

  test('like, rating, rating-and-like and description change the asset; bad values name their field', async () => {
    const put = (p: string, body: unknown, c = owner) => c.put(`${V1}/assets/${ids.canon}/${p}`, body);
    assert.equal((await put('like', { liked: true })).status, 200);
    assert.equal((await get(ids.canon)).liked, true);
    assert.equal((await put('rating', { rating: 4 })).status, 200);
    assert.equal((await get(ids.canon)).rating, 4);
    assert.equal((await put('rating', { rating: 0 })).status, 200);
    assert.equal((await get(ids.canon)).rating, 0);
    const both = await put('rating-and-like', { liked: false, rating: 5 });
    assert.equal(both.status, 200, both.text);
    let a = await get(ids.canon);
    assert.equal(a.liked, false);
    assert.equal(a.rating, 5);
    assert.equal((await put('description', { description: '  Sunset at the pier  ' })).status, 200);
    assert.equal((await get(ids.canon)).description, 'Sunset at the pier');
    assert.equal((await put('description', { description: '' })).status, 200);
    assert.equal((await get(ids.canon)).description, null, 'an empty description clears it');

    const bad: [string, unknown, string][] = [
      ['rating', { rating: 6 }, 'body.rating'],
      ['rating', { rating: -1 }, 'body.rating'],
      ['rating', { rating: 2.5 }, 'body.rating'],
      ['rating', {}, 'body.rating'],
      ['like', { liked: 'yes' }, 'body.liked'],
      ['rating-and-like', { rating: 3 }, 'body.liked'],
      ['rating-and-like', { liked: true, rating: 9 }, 'body.rating'],
      ['description', { description: 42 }, 'body.description'],
      ['like', { liked: true, extra: 1 }, 'body'],
    ];
    for (const [p, body, field] of bad) {
      const r = await put(p, body);
      assert.equal(r.status, 422, `${p} ${JSON.stringify(body)}: ${r.text}`);
      assert.ok(problem(owner, r).errors?.some((e) => e.field === field), `${p} ${JSON.stringify(body)} names ${field}: ${r.text}`);
    }
    a = await get(ids.canon);
    assert.equal(a.rating, 5, 'nothing changed by refused requests');

    const valid: Record<string, unknown> = { like: { liked: true }, rating: { rating: 1 }, 'rating-and-like': { liked: true, rating: 1 }, description: { description: 'mine' } };
    for (const [p, body] of Object.entries(valid)) {
      const r = await put(p, body, other);
      assert.equal(problem(other, r).code, 'asset_not_found', `${p} by another user`);
    }
    a = await get(ids.canon);
    assert.deepEqual([a.liked, a.rating, a.description], [false, 5, null], 'another user changed nothing');
    assert.equal((await owner.put(`${V1}/assets/${NO_SUCH_ID}/like`, { liked: true })).status, 404);
  });

  test('updateAssetMetadata merges a per-type patch into specific_metadata and refuses what may not change', async () => {
    const put = (id: string, specific_metadata: unknown, c = owner) => c.put(`${V1}/assets/${id}`, { specific_metadata });
    const before = (await get(ids.canon)).specific_metadata;
    assert.equal(before.camera_model, 'Canon EOS 600D');

    const ok = await put(ids.canon, { lens_model: 'EF 50mm f/1.8 II', f_number: 2.8, exposure_time: '1/250', iso_speed: 400 });
    assert.equal(ok.status, 200, ok.text);
    let m = (await get(ids.canon)).specific_metadata;
    assert.equal(m.lens_model, 'EF 50mm f/1.8 II');
    assert.equal(m.f_number, 2.8);
    assert.equal(m.exposure_time, '1/250');
    assert.equal(m.iso_speed, 400);
    assert.equal(m.camera_model, 'Canon EOS 600D', 'fields not sent keep their values');
    assert.equal(m.camera_make, before.camera_make);
    assert.deepEqual(m.edited_fields, ['exposure_time', 'f_number', 'iso_speed', 'lens_model']);
    // The camera filter column follows the correction.
    assert.equal((await put(ids.canon, { camera_model: '  Canon EOS Kiss X5 ' })).status, 200);
    const col = srv.container.db.prepare('SELECT camera_model, lens_model FROM assets WHERE asset_id = ?').get(ids.canon) as { camera_model: string; lens_model: string };
    assert.deepEqual(col, { camera_model: 'Canon EOS Kiss X5', lens_model: 'EF 50mm f/1.8 II' });
    assert.equal((await put(ids.canon, { lens_model: null })).status, 200);
    m = (await get(ids.canon)).specific_metadata;
    assert.equal(m.lens_model, null, 'null clears');
    assert.deepEqual(m.edited_fields, ['camera_model', 'exposure_time', 'f_number', 'iso_speed', 'lens_model']);

    const refused: [string, unknown, string, string?][] = [
      [ids.canon, { artist: 'Someone' }, 'body.specific_metadata.artist', 'not_for_this_type'],
      [ids.canon, { is_raw: true }, 'body.specific_metadata.is_raw', 'read_only'],
      [ids.canon, { content_identifier: 'ABC' }, 'body.specific_metadata.content_identifier', 'read_only'],
      [ids.canon, { f_number: 0 }, 'body.specific_metadata.f_number'],
      [ids.canon, { iso_speed: 100.5 }, 'body.specific_metadata.iso_speed'],
      [ids.canon, { exposure_time: 'fast' }, 'body.specific_metadata.exposure_time'],
      [ids.canon, { camera_make: '   ' }, 'body.specific_metadata.camera_make'],
      [ids.canon, { camera_make: 'a\u0007b' }, 'body.specific_metadata.camera_make'],
      [ids.canon, { video_codec: 'h264' }, 'body.specific_metadata'],
      [ids.canon, {}, 'body.specific_metadata'],
      [ids.video, { lens_model: 'x' }, 'body.specific_metadata.lens_model', 'not_for_this_type'],
      [ids.audio, { camera_model: 'x' }, 'body.specific_metadata.camera_model', 'not_for_this_type'],
    ];
    for (const [id, patch, field, code] of refused) {
      const r = await put(id, patch);
      assert.equal(r.status, 422, `${JSON.stringify(patch)}: ${r.text}`);
      const p = problem(owner, r);
      const hit = p.errors?.find((e) => e.field === field) as { field: string; code?: string } | undefined;
      assert.ok(hit, `${JSON.stringify(patch)} names ${field}: ${r.text}`);
      if (code) assert.equal(hit.code, code);
    }
    const noBody = await owner.put(`${V1}/assets/${ids.canon}`, { description: 'x' });
    assert.ok(problem(owner, noBody).errors?.some((e) => e.field === 'body.specific_metadata'));
    assert.equal((await get(ids.canon)).specific_metadata.camera_model, 'Canon EOS Kiss X5', 'refused patches changed nothing');

    assert.equal((await put(ids.video, { camera_make: 'Nokia', camera_model: 'N95' })).status, 200);
    const v = (await get(ids.video)).specific_metadata;
    assert.deepEqual([v.camera_make, v.camera_model], ['Nokia', 'N95']);
    assert.ok('video_codec' in v, 'technical fields are kept');
    assert.equal((await put(ids.audio, { title: 'Quiet', artist: 'Nobody', album: 'Tests' })).status, 200);
    const au = (await get(ids.audio)).specific_metadata;
    assert.deepEqual([au.title, au.artist, au.album], ['Quiet', 'Nobody', 'Tests']);

    assert.equal((await put(ids.canon, { lens_model: 'theirs' }, other)).status, 404);
    srv.container.db.prepare("UPDATE assets SET state = 'processing' WHERE asset_id = ?").run(ids.second);
    const busy = await put(ids.second, { lens_model: 'x' });
    assert.equal(busy.status, 409);
    assert.equal(problem(owner, busy).code, 'asset_processing');
    srv.container.db.prepare("UPDATE assets SET state = 'ready' WHERE asset_id = ?").run(ids.second);
  });

  test('reprocessing reads the file again but keeps what a person corrected', async () => {
    const before = (await get(ids.canon)).specific_metadata;
    assert.deepEqual([before.camera_model, before.lens_model, before.f_number], ['Canon EOS Kiss X5', null, 2.8], 'the corrections of the test above');
    // Something the file says, changed behind the catalog's back: reprocessing must read it again.
    const stale = { ...before, camera_make: 'stale make' };
    srv.container.db.prepare('UPDATE assets SET specific_metadata = ? WHERE asset_id = ?').run(JSON.stringify(stale), ids.canon);
    const r = await owner.post(`${V1}/assets/${ids.canon}/reprocess`, {});
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    const after = await get(ids.canon);
    assert.equal(after.state, 'ready');
    const m = after.specific_metadata;
    assert.deepEqual([m.camera_model, m.lens_model, m.f_number, m.exposure_time, m.iso_speed], ['Canon EOS Kiss X5', null, 2.8, '1/250', 400], 'corrections kept');
    assert.deepEqual(m.edited_fields, before.edited_fields);
    assert.equal(m.camera_make, 'Canon', 'a field nobody edited is read from the file again');
    const col = srv.container.db.prepare('SELECT camera_model FROM assets WHERE asset_id = ?').pluck().get(ids.canon);
    assert.equal(col, 'Canon EOS Kiss X5', 'the camera filter still follows the correction');
  });

  test('variant B wraps the answers of the new operations', async () => {
    const b = new Client(srv.url, 'B');
    b.token = owner.token;
    const r = await b.put(`${V1}/assets/${ids.canon}/like`, { liked: true });
    assert.equal(data(b, r).message.length > 0, true);
    const bad = await b.put(`${V1}/assets/${ids.canon}/rating`, { rating: 7 });
    assert.equal(problem(b, bad).errors?.[0]?.field, 'body.rating');
    const mi = data(b, await b.get(`${V1}/assets/${ids.canon}/media-item`));
    assert.equal(mi.asset_id, ids.canon);
  });

  test('one more photo through ingest and its job prepares none of the ingest statements again (they are kept)', async () => {
    // Preparing an asset or job write compiles the tables' triggers: it cost more than running the statement,
    // several times for each file of an import (scripts/bench/ingest.ts). The files above prepared them once.
    const db = srv.container.db;
    const prepare = db.prepare;
    const seen: string[] = [];
    db.prepare = ((sql: string) => (seen.push(sql), prepare.call(db, sql))) as typeof db.prepare;
    try {
      const ownerId = db.prepare('SELECT owner_id FROM assets WHERE asset_id = ?').pluck().get(ids.canon) as number;
      seen.length = 0;
      const id = await addFile(srv, 'more/Olympus_E-P3.jpg', ownerId, 'exif/Olympus_E-P3.jpg');
      await srv.container.jobRunner.whenIdle();
      assert.equal((await get(id)).state, 'ready');
    } finally {
      db.prepare = prepare;
    }
    // The statements of the assets store, the pipeline, media items and the job queue (other features' own reactions are theirs).
    const ingestPath = /INSERT INTO (assets|jobs|media_items|media_item_components)\b|UPDATE (assets|upload_receipts) SET|^SELECT \* FROM assets WHERE (asset_id = \?|repository_id = \? AND (storage_path|hash) = \?)|FROM jobs WHERE (id = \? AND state = 'running'|state = 'running' AND kind)/;
    assert.deepEqual(seen.filter((sql) => ingestPath.test(sql)), []);
  });
});
