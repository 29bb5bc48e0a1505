/**
 * exportAsset and downloadAssets over HTTP: re-encoded photos decoded back with sharp (format and bounds,
 * orientation, HEIC), refusals naming the field, and streamed zips of originals unpacked and compared byte
 * for byte with the files on disk.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { NO_SUCH_ID, addFile, household, repoPath } from './fixture.ts';

interface ZipEntry {
  name: string;
  method: number;
  data: Buffer;
  mtime: number;
}

/** A minimal zip reader (central directory, stored or deflated entries, ZIP64 sizes and offsets), checking CRCs. */
function readZip(zip: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'end of central directory found');
  let count = zip.readUInt16LE(eocd + 10);
  let cdOffset = zip.readUInt32LE(eocd + 16);
  if (eocd >= 20 && zip.readUInt32LE(eocd - 20) === 0x07064b50) {
    const z64 = Number(zip.readBigUInt64LE(eocd - 12));
    assert.equal(zip.readUInt32LE(z64), 0x06064b50);
    count = Number(zip.readBigUInt64LE(z64 + 32));
    cdOffset = Number(zip.readBigUInt64LE(z64 + 48));
  }
  const out: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    assert.equal(zip.readUInt32LE(p), 0x02014b50, 'central directory entry');
    const method = zip.readUInt16LE(p + 10);
    const dosTime = zip.readUInt16LE(p + 12);
    const dosDate = zip.readUInt16LE(p + 14);
    const crc = zip.readUInt32LE(p + 16);
    let csize = zip.readUInt32LE(p + 20);
    let usize = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    let e = p + 46 + nameLen;
    const end = e + extraLen;
    while (e < end) {
      const id = zip.readUInt16LE(e);
      const size = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (usize === 0xffffffff) {
          usize = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (csize === 0xffffffff) {
          csize = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + size;
    }
    assert.equal(zip.readUInt32LE(local), 0x04034b50, 'local file header');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + csize);
    const bytes = method === 0 ? raw : zlib.inflateRawSync(raw);
    assert.equal(bytes.length, usize, `${name}: size`);
    assert.equal(zlib.crc32(bytes), crc, `${name}: crc`);
    const mtime = new Date(1980 + (dosDate >> 9), ((dosDate >> 5) & 15) - 1, dosDate & 31, dosTime >> 11, (dosTime >> 5) & 63, (dosTime & 31) * 2).getTime();
    out.push({ name, method, data: Buffer.from(bytes), mtime });
    p = end + commentLen;
  }
  return out;
}

describe('exportAsset and downloadAssets', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const ids = {} as Record<'portrait' | 'heic' | 'raw' | 'canon' | 'corrupt' | 'video' | 'dupA' | 'dupB' | 'dupC' | 'trashed' | 'vanished' | 'bob', string>;
  const fetchAs = (c: Client, p: string, init: RequestInit = {}) =>
    fetch(`${srv.url}${p}`, { ...init, headers: { authorization: `Bearer ${c.token}`, ...(init.headers as Record<string, string>) } });
  const exportOf = async (id: string, query: string, c = owner) => {
    const r = await fetchAs(c, `${V1}/assets/${id}/export?${query}`);
    return { r, body: Buffer.from(await r.arrayBuffer()) };
  };
  const zipOf = (ids: string[], c = owner, headers: Record<string, string> = {}) =>
    fetchAs(c, `${V1}/assets/download`, { method: 'POST', body: JSON.stringify({ asset_ids: ids }), headers: { 'content-type': 'application/json', ...headers } });

  before(async () => {
    const h = await household();
    ({ srv, owner, other } = h);
    ids.portrait = await addFile(srv, 'exif/orientation_portrait_6.jpg', h.ownerId);
    ids.heic = await addFile(srv, 'heic/Stonehenge.heic', h.ownerId);
    ids.raw = await addFile(srv, 'raw/Canon_EOS_R6_pruned.CR3', h.ownerId);
    ids.canon = await addFile(srv, 'gps/Canon_600D_gps.jpg', h.ownerId);
    ids.corrupt = await addFile(srv, 'exif/corrupted.jpg', h.ownerId);
    ids.video = await addFile(srv, 'video/sample.3gp', h.ownerId);
    ids.dupA = await addFile(srv, 'a/IMG_0001.jpg', h.ownerId, 'exif/Canon_40D.jpg');
    ids.dupB = await addFile(srv, 'b/IMG_0001.jpg', h.ownerId, 'exif/Nikon_D70.jpg');
    ids.dupC = await addFile(srv, 'c/img_0001.JPG', h.ownerId, 'exif/Pentax_K10D.jpg');
    ids.trashed = await addFile(srv, 'exif/Sony_HDR-HC3.jpg', h.ownerId);
    ids.vanished = await addFile(srv, 'exif/Ricoh_Caplio_RR330.jpg', h.ownerId);
    ids.bob = await addFile(srv, 'bob/DSCN0010.jpg', h.otherId, 'gps/DSCN0010.jpg');
    await srv.container.jobRunner.whenIdle();
    assert.equal((await owner.req('DELETE', `${V1}/assets/${ids.trashed}`)).status, 200);
  });
  after(() => srv.stop({ removeData: true }));

  test('exports in each format within the bounds, upright, never enlarged, as an attachment', async () => {
    const cases: [string, string, number, number][] = [
      // orientation_portrait_6.jpg is stored 600×450 with EXIF orientation 6: upright it is 450×600.
      ['format=jpeg&max_width=300', 'jpeg', 300, 400],
      ['format=png&max_height=100', 'png', 75, 100],
      ['format=webp&quality=50&max_width=10000&max_height=10000', 'webp', 450, 600],
      ['format=avif&max_width=200&max_height=200', 'heif', 150, 200],
      ['format=jpeg&quality=100', 'jpeg', 450, 600],
    ];
    for (const [q, format, width, height] of cases) {
      const { r, body } = await exportOf(ids.portrait, q);
      assert.equal(r.status, 200, `${q}: ${body.toString()}`);
      const meta = await sharp(body).metadata();
      assert.equal(meta.format, format, q);
      if (format === 'heif') assert.equal(meta.compression, 'av1', 'AVIF is AV1 in a HEIF container');
      assert.deepEqual([meta.width, meta.height], [width, height], q);
      assert.equal(meta.orientation ?? 1, 1, 'no orientation tag left to apply twice');
      assert.equal(meta.exif, undefined, 'EXIF is not copied');
      const ext = q.match(/format=(\w+)/)![1] === 'jpeg' ? 'jpg' : q.match(/format=(\w+)/)![1];
      assert.equal(r.headers.get('content-type'), { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', heif: 'image/avif' }[format]);
      assert.equal(r.headers.get('content-disposition')?.split(';')[0], 'attachment');
      assert.match(r.headers.get('content-disposition')!, new RegExp(`filename="orientation_portrait_6\\.${ext}"`));
      assert.equal(Number(r.headers.get('content-length')), body.length);
    }
    // Lower quality gives fewer bytes for the same image.
    const hi = (await exportOf(ids.canon, 'format=webp&quality=95&max_width=800')).body;
    const lo = (await exportOf(ids.canon, 'format=webp&quality=20&max_width=800')).body;
    assert.ok(lo.length < hi.length, `quality 20 (${lo.length} B) < quality 95 (${hi.length} B)`);
  });

  test('HEIC is decoded through the wasm decoder, RAW through its preview; the file name is made safe; the temporary file is removed', async () => {
    const { r, body } = await exportOf(ids.heic, `format=jpeg&max_width=150&filename=${encodeURIComponent('../../Trip\u0001 "Stonehenge".jpg')}`);
    assert.equal(r.status, 200, body.toString());
    const meta = await sharp(body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 150, 100]);
    const cd = r.headers.get('content-disposition')!;
    const name = decodeURIComponent(cd.match(/filename\*=UTF-8''(.+)$/)![1]!);
    assert.ok(name.endsWith('.jpg') && !name.endsWith('.jpg.jpg'), name);
    // eslint-disable-next-line no-control-regex -- the test checks that no control character reaches the name
    assert.ok(!/[\\/\u0000-\u001f"]/.test(name), `no separators, control characters or quotes: ${name}`);
    assert.match(name, /Trip_ _Stonehenge_\.jpg$/);
    const raw = await exportOf(ids.raw, 'format=webp&max_width=800');
    assert.equal(raw.r.status, 200, raw.body.toString());
    const rawMeta = await sharp(raw.body).metadata();
    assert.deepEqual([rawMeta.format, rawMeta.width, rawMeta.height], ['webp', 800, 533], 'the CR3 preview (3:2), bounded');
    const full = await exportOf(ids.heic, 'format=png');
    assert.deepEqual([(await sharp(full.body).metadata()).width, (await sharp(full.body).metadata()).height], [300, 200]);
    assert.match(full.r.headers.get('content-disposition')!, /filename="Stonehenge\.png"/);
    // Every export so far has been read to its end: no encoded file is left behind.
    const exportDir = path.join(srv.dataDir, 'tmp/exports');
    for (let i = 0; i < 50 && fs.existsSync(exportDir) && fs.readdirSync(exportDir).length; i++) await new Promise((res) => setTimeout(res, 20));
    assert.deepEqual(fs.existsSync(exportDir) ? fs.readdirSync(exportDir) : [], []);
  });

  test('export refusals name the reason or the field; other users get 404', async () => {
    const expectProblem = async (id: string, q: string, status: number, check: (p: { code: string; errors?: { field: string }[] }) => void, c = owner) => {
      const { r, body } = await exportOf(id, q, c);
      assert.equal(r.status, status, `${q}: ${body.toString()}`);
      assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
      check(JSON.parse(body.toString()));
    };
    await expectProblem(ids.video, 'format=jpeg', 422, (p) => {
      assert.equal(p.code, 'export_not_a_photo');
      assert.match(JSON.stringify(p), /video as an image/);
    });
    await expectProblem(ids.portrait, 'format=png&quality=80', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.quality'));
    await expectProblem(ids.portrait, '', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.format'));
    await expectProblem(ids.portrait, 'format=gif', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.format'));
    await expectProblem(ids.portrait, 'format=jpeg&quality=0', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.quality'));
    await expectProblem(ids.portrait, 'format=jpeg&quality=101', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.quality'));
    await expectProblem(ids.portrait, 'format=jpeg&max_width=0', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.max_width'));
    await expectProblem(ids.portrait, 'format=jpeg&max_height=abc', 422, (p) => assert.equal(p.errors?.[0]?.field, 'query.max_height'));
    await expectProblem(ids.corrupt, 'format=jpeg', 422, (p) => assert.equal(p.code, 'image_not_decodable'));
    await expectProblem(ids.portrait, 'format=jpeg', 404, (p) => assert.equal(p.code, 'asset_not_found'), other);
    await expectProblem(NO_SUCH_ID, 'format=jpeg', 404, (p) => assert.equal(p.code, 'asset_not_found'));
    assert.equal((await fetch(`${srv.url}${V1}/assets/${ids.portrait}/export?format=jpeg`)).status, 401);
  });

  test('export works through a media token, and is the same file answer in variant B', async () => {
    const mt = data(owner, await owner.get(`${V1}/auth/media-token`)).token as string;
    const viaToken = await fetch(`${srv.url}${V1}/assets/${ids.portrait}/export?format=webp&max_width=90&mt=${encodeURIComponent(mt)}`);
    assert.equal(viaToken.status, 200);
    assert.equal((await sharp(Buffer.from(await viaToken.arrayBuffer())).metadata()).width, 90);
    const b = await fetchAs(owner, `${V1}/assets/${ids.portrait}/export?format=jpeg`, { headers: { 'x-api-variant': 'B' } });
    assert.equal(b.headers.get('content-type'), 'image/jpeg');
    const bBad = await fetchAs(owner, `${V1}/assets/${ids.portrait}/export?format=bmp`, { headers: { 'x-api-variant': 'B' } });
    assert.equal(bBad.status, 422);
    assert.match(bBad.headers.get('content-type') ?? '', /^application\/problem\+json/, 'file routes keep problem+json errors in B');
  });

  test('downloadAssets streams a zip of the originals, byte for byte, with unique names', async () => {
    const order = [ids.canon, ids.dupA, ids.heic, ids.dupB, ids.dupC, ids.trashed, ids.canon, ids.video];
    const r = await zipOf(order);
    const zip = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, zip.toString().slice(0, 300));
    assert.equal(r.headers.get('content-type'), 'application/zip');
    assert.equal(Number(r.headers.get('content-length')), zip.length, 'the exact size is known up front');
    assert.match(r.headers.get('content-disposition')!, /^attachment; filename="hearth-\d{4}-\d{2}-\d{2}-7-files\.zip"/);
    const entries = readZip(zip);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['Canon_600D_gps.jpg', 'IMG_0001.jpg', 'Stonehenge.heic', 'IMG_0001 (2).jpg', 'img_0001 (3).JPG', 'Sony_HDR-HC3.jpg', 'sample.3gp'],
    );
    const onDisk = ['gps/Canon_600D_gps.jpg', 'a/IMG_0001.jpg', 'heic/Stonehenge.heic', 'b/IMG_0001.jpg', 'c/img_0001.JPG', 'exif/Sony_HDR-HC3.jpg', 'video/sample.3gp'];
    entries.forEach((e, i) => {
      assert.equal(e.method, 0, 'stored, not deflated');
      assert.ok(e.data.equals(fs.readFileSync(repoPath(srv, onDisk[i]!))), `${e.name} is the original byte for byte`);
      const mtime = fs.statSync(repoPath(srv, onDisk[i]!)).mtimeMs;
      assert.ok(Math.abs(e.mtime - mtime) <= 2000, `${e.name} keeps the file's time`);
    });
    // Variant B gets the same zip.
    const b = await zipOf([ids.canon], owner, { 'x-api-variant': 'B' });
    const one = readZip(Buffer.from(await b.arrayBuffer()));
    assert.deepEqual(one.map((e) => e.name), ['Canon_600D_gps.jpg']);
    assert.match(b.headers.get('content-disposition')!, /-1-file\.zip"/);
  });

  test('downloadAssets checks every id before sending a byte', async () => {
    const unknown = await zipOf([ids.canon, NO_SUCH_ID, ids.bob]);
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const p = (await unknown.json()) as { code: string; detail: string; errors: { field: string; message: string }[] };
    assert.equal(p.code, 'asset_not_found');
    assert.deepEqual(p.errors.map((e) => e.field), ['body.asset_ids.1', 'body.asset_ids.2']);
    assert.ok(p.detail.includes(NO_SUCH_ID) && p.detail.includes(ids.bob!), p.detail);
    assert.equal((await zipOf([ids.bob], other)).status, 200, 'bob can download his own');

    fs.rmSync(repoPath(srv, 'exif/Ricoh_Caplio_RR330.jpg'));
    const gone = await zipOf([ids.canon, ids.vanished]);
    assert.equal(gone.status, 409);
    const g = (await gone.json()) as { code: string; detail: string; errors: { field: string }[] };
    assert.equal(g.code, 'original_missing');
    assert.deepEqual(g.errors.map((e) => e.field), ['body.asset_ids.1']);
    assert.match(g.detail, /Ricoh_Caplio_RR330\.jpg/);

    const bad = async (body: unknown, field: string) => {
      const r = await owner.post(`${V1}/assets/download`, body);
      assert.equal(r.status, 422, r.text);
      assert.ok(problem(owner, r).errors?.some((e) => e.field === field), `${JSON.stringify(body).slice(0, 80)} names ${field}: ${r.text}`);
    };
    await bad({ asset_ids: [] }, 'body.asset_ids');
    await bad({}, 'body.asset_ids');
    await bad({ asset_ids: ['not-a-uuid'] }, 'body.asset_ids.0');
    await bad({ asset_ids: Array.from({ length: 1001 }, () => ids.canon) }, 'body.asset_ids');
    await bad({ asset_ids: [ids.canon], zip: true }, 'body');
    assert.equal((await new Client(srv.url).post(`${V1}/assets/download`, { asset_ids: [ids.canon] })).status, 401);
  });
});
