/**
 * Issue 24: dates and places.
 * 1. A file with no date inside is dated by its modification time, marked `file_modified`: a scanned photo
 *    without EXIF and a video whose container date is zero by the disk's time; an upload (single, batch file,
 *    chunked session) by the `last_modified` its client sends. Without one, no date; a bad one is 422.
 * 2. A person corrects dates (one, or many by a shift or a zone) and places (position, place name, clear),
 *    restores the file's values and undoes: the timeline, map, places and search follow; the file's values
 *    are kept; only the owner may.
 * Real server, real SQLite, real sharp/ffmpeg/exifr; media made at run time or from the corpus.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { household, inVariant, repoPath } from './fixture.ts';
import { makeClip, scratchDir } from './made-media.ts';
import { U, postMultipart, type Part } from '../uploads/helpers.ts';

const SCAN_MTIME = Date.parse('2015-06-01T10:00:00Z');
const CLIP_MTIME = Date.parse('2016-03-01T12:00:00Z');
const UPLOAD_MODIFIED = '2017-07-14T18:30:00+02:00';
const SESSION_MODIFIED = Date.parse('2018-02-03T04:05:06Z');
const BATCH_MODIFIED = Date.parse('2019-09-09T09:09:09Z');

/** A JPEG with no metadata at all (a scanned print), different per seed. */
const plainJpeg = (seed: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: (seed * 13) % 256 } } }).jpeg().toBuffer();

/** Writes a file into the repository with a given modification time and indexes it as a scan would. */
async function scanFile(srv: TestServer, rel: string, ownerId: number, bytes: Buffer, mtime: number): Promise<string> {
  const dest = repoPath(srv, rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, bytes);
  fs.utimesSync(dest, mtime / 1000, mtime / 1000);
  const repo = srv.container.repositories.primary()!;
  const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId, source: 'scan' });
  assert.equal(r.outcome, 'created', JSON.stringify(r));
  return (r as { asset_id: string }).asset_id;
}

async function scanCorpus(srv: TestServer, rel: string, ownerId: number): Promise<string> {
  return scanFile(srv, `corpus/${path.basename(rel)}`, ownerId, fs.readFileSync(path.join(CORPUS, rel)), Date.now());
}

describe('capture dates of last resort, and corrections of dates and places', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const tmp = scratchDir();
  const id: Record<string, string> = {};

  before(async () => {
    const h = await household();
    ({ srv, owner, other } = h);
    id.scan = await scanFile(srv, 'scans/print.jpg', h.ownerId, await plainJpeg(1), SCAN_MTIME);
    const clip = makeClip(path.join(tmp, 'zero.mp4'), { seconds: 1, audio: false, args: ['-metadata', 'creation_time=1904-01-01T00:00:00Z'] });
    id.clip = await scanFile(srv, 'videos/zero.mp4', h.ownerId, clip, CLIP_MTIME);
    // Two undated files copied at once, named like an original and its edit: their shared modification time
    // is no evidence that one is an edit of the other.
    id.pair = await scanFile(srv, 'scans/pair.jpg', h.ownerId, await plainJpeg(6), SCAN_MTIME + 60_000);
    id.pairEdit = await scanFile(srv, 'scans/pair-2.jpg', h.ownerId, await plainJpeg(7), SCAN_MTIME + 61_000);
    id.tuscany = await scanCorpus(srv, 'gps/DSCN0010.jpg', h.ownerId);
    id.london = await scanCorpus(srv, 'gps/big_ben.jpg', h.ownerId);

    const single = await postMultipart(srv, `${U}/files`, owner.token, [
      { name: 'last_modified', value: UPLOAD_MODIFIED },
      { name: 'file', filename: 'upload.jpg', data: await plainJpeg(2) },
    ]);
    assert.equal(single.status, 200, single.text);
    id.upload = single.body.asset_id;

    const none = await postMultipart(srv, `${U}/files`, owner.token, [{ name: 'file', filename: 'nodate.jpg', data: await plainJpeg(3) }]);
    assert.equal(none.status, 200, none.text);
    id.nodate = none.body.asset_id;

    const batch = await postMultipart(srv, `${U}/batch`, owner.token, [
      { name: 'last_modified_b1', value: String(BATCH_MODIFIED) },
      { name: 'single_b1', filename: 'batch.jpg', data: await plainJpeg(4) },
    ]);
    assert.equal(batch.status, 200, batch.text);
    id.batch = batch.body.results[0].asset_id;

    const bytes = await plainJpeg(5);
    const s = await owner.post(`${U}/sessions`, { session_id: 'dated-session', filename: 'session.jpg', total_size: bytes.length, total_chunks: 1, chunk_size: bytes.length, last_modified: SESSION_MODIFIED });
    assert.equal(s.status, 201, s.text);
    const chunk = await postMultipart(srv, `${U}/batch`, owner.token, [{ name: `chunk_dated-session_0_1`, filename: 'session.jpg', data: bytes }]);
    assert.equal(chunk.status, 200, chunk.text);
    id.session = chunk.body.results[0].asset_id;
    assert.ok(id.session, chunk.text);

    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const get = async (c: Client, assetId: string) => data(c, await c.get(`${V1}/assets/${assetId}`));
  /** The timeline's items on one day (queryAssets' date filter), as asset ids. */
  const onDay = async (c: Client, day: string) => {
    const l = data(c, await c.post(`${V1}/assets/query`, { filter: { date: { from: day, to: day } }, stack_mode: 'expanded' }));
    return l.items.map((i: { media_item: { primary_asset: { asset_id: string } } }) => i.media_item.primary_asset.asset_id);
  };

  test('files without a date inside are dated by their modification time, marked file_modified (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const c = inVariant(owner, variant);
      const expect: [string, string | null, number | null, string | null][] = [
        ['scan', new Date(SCAN_MTIME).toISOString(), null, 'file_modified'],
        ['clip', new Date(CLIP_MTIME).toISOString(), null, 'file_modified'],
        ['upload', new Date(Date.parse(UPLOAD_MODIFIED)).toISOString(), 120, 'file_modified'],
        ['batch', new Date(BATCH_MODIFIED).toISOString(), null, 'file_modified'],
        ['session', new Date(SESSION_MODIFIED).toISOString(), null, 'file_modified'],
        ['nodate', null, null, null],
      ];
      for (const [key, taken, offset, source] of expect) {
        const a = await get(c, id[key]!);
        assert.equal(a.state, 'ready', `${key}: ${a.last_error}`);
        assert.deepEqual([a.taken_time, a.capture_offset_minutes, a.time_source], [taken, offset, source], key);
        assert.deepEqual([a.file_capture.taken_time, a.file_capture.time_source], [taken, source], key);
      }
      const dated = await get(c, id.tuscany!);
      assert.equal(dated.time_source, 'file');
      assert.equal(dated.place_source, 'file');
    }
    // The timeline finds the scanned print on its day, not under "No date".
    assert.ok((await onDay(owner, '2015-06-01')).includes(id.scan));
    // Files dated only by their modification time are not paired as an original and its edit.
    const [pair, edit] = [await get(owner, id.pair!), await get(owner, id.pairEdit!)];
    assert.equal(pair.time_source, 'file_modified');
    assert.notEqual(pair.media_item_id, edit.media_item_id, 'pair.jpg and pair-2.jpg stay two items');
  });

  test('a bad last_modified is 422 naming the field, on every upload path, and stores nothing', async () => {
    const jpeg = await plainJpeg(9);
    const cases: [string, Promise<{ status: number; body: any }>, string][] = [
      ['single, not a time', postMultipart(srv, `${U}/files`, owner.token, [{ name: 'last_modified', value: 'yesterday' }, { name: 'file', filename: 'x.jpg', data: jpeg }]), 'body.last_modified'],
      ['single, no zone', postMultipart(srv, `${U}/files`, owner.token, [{ name: 'last_modified', value: '2020-01-01T10:00:00' }, { name: 'file', filename: 'x.jpg', data: jpeg }]), 'body.last_modified'],
      ['single, future', postMultipart(srv, `${U}/files`, owner.token, [{ name: 'last_modified', value: String(Date.now() + 10 * 86_400_000) }, { name: 'file', filename: 'x.jpg', data: jpeg }]), 'body.last_modified'],
      ['batch', postMultipart(srv, `${U}/batch`, owner.token, [{ name: 'last_modified_x1', value: '1700-01-01T00:00:00Z' }, { name: 'single_x1', filename: 'x.jpg', data: jpeg }] as Part[]), 'body.last_modified_x1'],
    ];
    for (const [what, p, field] of cases) {
      const r = await p;
      assert.equal(r.status, 422, `${what}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'invalid_last_modified', what);
      assert.deepEqual(r.body.errors.map((e: { field: string }) => e.field), [field], what);
    }
    for (const variant of ['A', 'B'] as const) {
      const c = inVariant(owner, variant);
      const r = await c.post(`${U}/sessions`, { filename: 'x.jpg', total_size: 10, total_chunks: 1, last_modified: 'soon' });
      const p = problem(c, r);
      assert.equal(p.status, 422);
      assert.equal(p.code, 'invalid_last_modified');
      assert.equal(p.errors?.[0]?.field, 'body.last_modified');
    }
  });

  test('one date: set, shown everywhere, kept over re-processing, restored and undone (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const c = inVariant(owner, variant);
      const set = data(c, await c.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: '1987-08-15T16:20:00', offset_minutes: 60 }));
      assert.deepEqual(set.asset_ids, [id.scan]);
      let a = await get(c, id.scan!);
      assert.deepEqual([a.taken_time, a.capture_offset_minutes, a.time_source], ['1987-08-15T15:20:00.000Z', 60, 'user']);
      assert.equal(a.file_capture.taken_time, new Date(SCAN_MTIME).toISOString(), "the file's own date is kept");
      assert.deepEqual(await onDay(c, '1987-08-15'), [id.scan]);

      // Re-reading the file does not undo the person's date.
      assert.equal((await c.post(`${V1}/assets/${id.scan}/reprocess`, {})).status, 200);
      await srv.container.jobRunner.whenIdle();
      a = await get(c, id.scan!);
      assert.deepEqual([a.taken_time, a.time_source], ['1987-08-15T15:20:00.000Z', 'user']);

      const restore = data(c, await c.req('DELETE', `${V1}/assets/${id.scan}/capture-time`));
      a = await get(c, id.scan!);
      assert.deepEqual([a.taken_time, a.time_source], [new Date(SCAN_MTIME).toISOString(), 'file_modified']);
      // Undoing the restore brings the correction back; undoing the correction brings the file's date back.
      data(c, await c.post(`${V1}/asset-corrections/${restore.correction_id}/undo`));
      assert.equal((await get(c, id.scan!)).time_source, 'user');
      const undo = data(c, await c.post(`${V1}/asset-corrections/${set.correction_id}/undo`));
      assert.deepEqual(undo.asset_ids, [id.scan]);
      a = await get(c, id.scan!);
      assert.deepEqual([a.taken_time, a.time_source], [new Date(SCAN_MTIME).toISOString(), 'file_modified']);
      assert.equal(problem(c, await c.post(`${V1}/asset-corrections/${set.correction_id}/undo`)).code, 'correction_already_undone');
    }
  });

  test('many dates: one shift for all, one zone for all, no-date items skipped, undo', async () => {
    const c = owner;
    const before = await Promise.all([id.tuscany!, id.london!].map((x) => get(c, x)));
    const shift = data(c, await c.post(`${V1}/assets/capture-times`, { asset_ids: [id.tuscany, id.london, id.nodate], shift_minutes: 2 * 1440 + 90 }));
    assert.deepEqual(new Set(shift.asset_ids), new Set([id.tuscany, id.london]));
    assert.deepEqual(shift.skipped, [{ asset_id: id.nodate, reason: 'no_date' }]);
    for (const b of before) {
      const a = await get(c, b.asset_id);
      assert.equal(Date.parse(a.taken_time) - Date.parse(b.taken_time), (2 * 1440 + 90) * 60_000);
      assert.equal(a.capture_offset_minutes, b.capture_offset_minutes);
      assert.equal(a.time_source, 'user');
    }
    // A zone: the wall clock the camera showed stays, read in the new zone.
    const zone = data(c, await c.post(`${V1}/assets/capture-times`, { asset_ids: [id.tuscany], offset_minutes: 330 }));
    const t = await get(c, id.tuscany!);
    const wall = Date.parse(before[0].taken_time) + (2 * 1440 + 90) * 60_000 + (before[0].capture_offset_minutes ?? 0) * 60_000;
    assert.deepEqual([Date.parse(t.taken_time), t.capture_offset_minutes], [wall - 330 * 60_000, 330]);
    // Undoing the shift leaves the photo the zone correction changed since: undo the later one first.
    const undoShift = data(c, await c.post(`${V1}/asset-corrections/${shift.correction_id}/undo`));
    assert.deepEqual(undoShift.asset_ids, [id.london]);
    assert.deepEqual(undoShift.skipped, [{ asset_id: id.tuscany, reason: 'corrected_since' }]);
    assert.equal((await get(c, id.london!)).taken_time, before[1].taken_time);
    data(c, await c.post(`${V1}/asset-corrections/${zone.correction_id}/undo`));
    // The zone's undo puts back the shifted date (what the photo had before the zone was set).
    assert.equal(Date.parse((await get(c, id.tuscany!)).taken_time), Date.parse(before[0].taken_time) + (2 * 1440 + 90) * 60_000);
    data(c, await c.req('DELETE', `${V1}/assets/${id.tuscany}/capture-time`));
    assert.equal((await get(c, id.tuscany!)).taken_time, before[0].taken_time);
  });

  test('places: by position and by name; map, places and search follow; clear, restore, undo (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const c = inVariant(owner, variant);
      const names = data(c, await c.get(`${V1}/place-names?q=lisbo`));
      assert.ok(names.places.some((p: { name: string; country: string }) => p.name === 'Lisbon' && p.country === 'Portugal'), JSON.stringify(names));

      const byName = data(c, await c.put(`${V1}/assets/${id.scan}/location`, { place_name: 'Lisbon' }));
      await srv.container.jobRunner.whenIdle();
      let a = await get(c, id.scan!);
      assert.equal(a.place_source, 'user');
      assert.ok(Math.abs(a.gps_latitude - 38.72) < 0.05 && Math.abs(a.gps_longitude + 9.13) < 0.05, `${a.gps_latitude},${a.gps_longitude}`);
      assert.equal(a.place?.city, 'Lisbon');
      const points = data(c, await c.get(`${V1}/assets/map-points`));
      assert.ok(points.points.some((p: { asset_id: string }) => p.asset_id === id.scan), 'the map shows it');
      const cities = data(c, await c.get(`${V1}/places?level=city`));
      assert.ok(cities.places.some((p: { city: string }) => p.city === 'Lisbon'), JSON.stringify(cities.places.map((p: { city: string }) => p.city)));
      const found = data(c, await c.post(`${V1}/assets/search`, { query: 'Lisbon' }));
      assert.ok(JSON.stringify(found).includes(id.scan!), 'search finds it by the place');

      // Many at once, by position; then cleared; the file's GPS is kept and comes back with a restore.
      const many = data(c, await c.post(`${V1}/assets/locations`, { asset_ids: [id.tuscany, id.clip], latitude: 60.1699, longitude: 24.9384 }));
      assert.equal(many.asset_ids.length, 2);
      await srv.container.jobRunner.whenIdle();
      assert.equal((await get(c, id.tuscany!)).place?.city, 'Helsinki');
      data(c, await c.put(`${V1}/assets/${id.tuscany}/location`, { latitude: null, longitude: null }));
      a = await get(c, id.tuscany!);
      assert.deepEqual([a.gps_latitude, a.place_source, a.place], [null, 'user', null]);
      assert.ok(a.file_capture.gps_latitude > 43, "the file's position is kept");
      data(c, await c.req('DELETE', `${V1}/assets/${id.tuscany}/location`));
      a = await get(c, id.tuscany!);
      assert.deepEqual([a.gps_latitude, a.place_source], [a.file_capture.gps_latitude, 'file']);

      // Undo: the scan goes back to no place; the clip too.
      data(c, await c.post(`${V1}/asset-corrections/${byName.correction_id}/undo`));
      data(c, await c.post(`${V1}/asset-corrections/${many.correction_id}/undo`));
      a = await get(c, id.scan!);
      assert.deepEqual([a.gps_latitude, a.place_source], [null, null]);
      assert.equal((await get(c, id.clip!)).gps_latitude, null);
    }
  });

  test('only the owner corrects; bad input is 422 naming the field (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const o = inVariant(owner, variant);
      const b = inVariant(other, variant);
      assert.equal(problem(b, await b.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: '2000-01-01T00:00', offset_minutes: null })).status, 404);
      assert.equal(problem(b, await b.post(`${V1}/assets/capture-times`, { asset_ids: [id.scan], shift_minutes: 60 })).status, 404);
      assert.equal(problem(b, await b.put(`${V1}/assets/${id.scan}/location`, { latitude: 1, longitude: 1 })).status, 404);
      assert.equal(problem(b, await b.req('DELETE', `${V1}/assets/${id.scan}/location`)).status, 404);
      const mine = data(o, await o.put(`${V1}/assets/${id.london}/capture-time`, { local_time: '2001-01-01T00:00', offset_minutes: 0 }));
      assert.equal(problem(b, await b.post(`${V1}/asset-corrections/${mine.correction_id}/undo`)).status, 404);
      data(o, await o.post(`${V1}/asset-corrections/${mine.correction_id}/undo`));

      const bad: [string, Promise<any>, string, string?][] = [
        ['zone in local_time', o.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: '2000-01-01T00:00+02:00', offset_minutes: null }), 'body.local_time'],
        ['not a date', o.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: 'soon', offset_minutes: null }), 'body.local_time'],
        ['future', o.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: '2999-01-01T00:00', offset_minutes: null }), 'body.local_time', 'date_out_of_range'],
        ['offset too big', o.put(`${V1}/assets/${id.scan}/capture-time`, { local_time: '2000-01-01T00:00', offset_minutes: 1000 }), 'body.offset_minutes'],
        ['nothing to do', o.post(`${V1}/assets/capture-times`, { asset_ids: [id.scan] }), 'body.shift_minutes'],
        ['no ids', o.post(`${V1}/assets/capture-times`, { asset_ids: [], shift_minutes: 5 }), 'body.asset_ids'],
        ['latitude alone', o.put(`${V1}/assets/${id.scan}/location`, { latitude: 10 }), 'body.longitude'],
        ['latitude out of range', o.put(`${V1}/assets/${id.scan}/location`, { latitude: 95, longitude: 0 }), 'body.latitude'],
        ['(0, 0)', o.put(`${V1}/assets/${id.scan}/location`, { latitude: 0, longitude: 0 }), 'body.latitude'],
        ['unknown place', o.put(`${V1}/assets/${id.scan}/location`, { place_name: 'Qqqzzzxxville' }), 'body.place_name', 'place_not_found'],
        ['both forms', o.put(`${V1}/assets/${id.scan}/location`, { place_name: 'Lisbon', latitude: 1, longitude: 1 }), 'body.place_name'],
      ];
      for (const [what, r, field, code] of bad) {
        const p = problem(o, await r);
        assert.equal(p.status, 422, `${what}: ${p.detail}`);
        assert.ok(p.errors?.some((e) => e.field.startsWith(field)), `${what}: ${JSON.stringify(p.errors)}`);
        if (code) assert.equal(p.code, code, what);
      }
    }
  });
});
