/**
 * One asset over HTTP: detail, EXIF, thumbnails, the original byte for byte, Range requests on web
 * video, media tokens on media URLs, ownership (another user's asset is 404), reprocessing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';

import { CORPUS } from '../media/corpus.ts';

describe('asset files and details', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const ids: Record<string, string> = {};

  before(async () => {
    srv = await startServer();
    owner = new Client(srv.url);
    const me = await registerAdmin(owner);
    other = new Client(srv.url);
    await addMember(owner, other, 'bob');
    const repo = srv.container.repositories.primary()!;
    const picks = { photo: 'gps/Canon_600D_gps.jpg', portrait: 'exif/orientation_portrait_6.jpg', video: 'video/100_0306.AVI' };
    for (const [k, rel] of Object.entries(picks)) {
      const name = rel;
      fs.mkdirSync(path.join(repo.path, path.dirname(name)), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, name), path.join(repo.path, name));
      const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: name, ownerId: me.session.user.user_id, source: 'scan' });
      assert.equal(r.outcome, 'created');
      ids[k] = (r as { asset_id: string }).asset_id;
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(() => srv.stop({ removeData: true }));

  test('getAsset returns the processed asset with thumbnails; another user gets 404, anonymous 401', async () => {
    const a = data(owner, await owner.get(`${V1}/assets/${ids.photo}`));
    assert.equal(a.state, 'ready');
    assert.equal(a.type, 'PHOTO');
    assert.equal(a.specific_metadata.camera_model, 'Canon EOS 600D');
    assert.ok(Math.abs(a.gps_latitude - 37.746765) < 1e-4);
    assert.deepEqual(a.thumbnails.map((t: { size: string }) => t.size), ['small', 'medium', 'large']);
    assert.ok(a.status.includes(30));
    assert.equal((await other.get(`${V1}/assets/${ids.photo}`)).status, 404);
    assert.equal((await new Client(srv.url).get(`${V1}/assets/${ids.photo}`)).status, 401);
    const unknown = await owner.get(`${V1}/assets/00000000-0000-7000-8000-000000000000`);
    assert.equal(problem(owner, unknown).code, 'asset_not_found');
    const badId = await owner.get(`${V1}/assets/not-a-uuid`);
    assert.equal(problem(owner, badId).errors?.[0]?.field, 'path.id');
  });

  test('EXIF is returned raw', async () => {
    const e = data(owner, await owner.get(`${V1}/assets/${ids.photo}/exif`));
    assert.equal(e.asset_id, ids.photo);
    assert.match(JSON.stringify(e.exif_raw), /Canon EOS 600D/);
  });

  test('thumbnails are WebP within their bounds, upright; media tokens work on media URLs only', async () => {
    for (const [size, edge] of [['small', 400], ['medium', 800], ['large', 1920]] as const) {
      const r = await fetch(`${srv.url}${V1}/assets/${ids.portrait}/thumbnail?size=${size}`, { headers: { authorization: `Bearer ${owner.token}` } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'image/webp');
      const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
      assert.equal(meta.format, 'webp');
      assert.ok(Math.max(meta.width!, meta.height!) <= edge);
      assert.ok(meta.height! > meta.width!, 'EXIF orientation 6 comes out portrait');
    }
    const mt = data(owner, await owner.get(`${V1}/auth/media-token`)).token as string;
    const viaToken = await fetch(`${srv.url}${V1}/assets/${ids.photo}/thumbnail?mt=${encodeURIComponent(mt)}`);
    assert.equal(viaToken.status, 200);
    const bobToken = data(other, await other.get(`${V1}/auth/media-token`)).token as string;
    assert.equal((await fetch(`${srv.url}${V1}/assets/${ids.photo}/thumbnail?mt=${encodeURIComponent(bobToken)}`)).status, 404);
    assert.equal((await fetch(`${srv.url}${V1}/assets/${ids.photo}/thumbnail?mt=garbage`)).status, 401);
    const badSize = await fetch(`${srv.url}${V1}/assets/${ids.photo}/thumbnail?size=huge&mt=${encodeURIComponent(mt)}`);
    assert.equal(badSize.status, 422);
    assert.match(badSize.headers.get('content-type') ?? '', /problem\+json/);
  });

  test('the original comes back byte for byte, with Range support', async () => {
    const repo = srv.container.repositories.primary()!;
    const a = data(owner, await owner.get(`${V1}/assets/${ids.video}`));
    const onDisk = fs.readFileSync(path.join(repo.path, a.folder_path, a.original_filename));
    const full = await fetch(`${srv.url}${V1}/assets/${ids.video}/original`, { headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(full.status, 200);
    assert.ok(Buffer.from(await full.arrayBuffer()).equals(onDisk));
    const part = await fetch(`${srv.url}${V1}/assets/${ids.video}/original`, { headers: { authorization: `Bearer ${owner.token}`, range: 'bytes=100-199' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-199/${onDisk.length}`);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(onDisk.subarray(100, 200)));
    const bad = await fetch(`${srv.url}${V1}/assets/${ids.video}/original`, { headers: { authorization: `Bearer ${owner.token}`, range: `bytes=${onDisk.length + 10}-` } });
    assert.equal(bad.status, 416);
  });

  test('a video that browsers cannot play gets an H.264 web copy served with Range; a photo has none', async () => {
    const r = await fetch(`${srv.url}${V1}/assets/${ids.video}/video/web`, { headers: { authorization: `Bearer ${owner.token}`, range: 'bytes=0-11' } });
    assert.equal(r.status, 206);
    assert.equal(r.headers.get('content-type'), 'video/mp4');
    const head = Buffer.from(await r.arrayBuffer());
    assert.equal(head.subarray(4, 8).toString('latin1'), 'ftyp');
    const photo = await fetch(`${srv.url}${V1}/assets/${ids.photo}/video/web`, { headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(photo.status, 404);
    assert.equal(photo.headers.get('content-type'), 'application/problem+json');
  });

  test('file responses and their errors are the same in variant B', async () => {
    const r = await fetch(`${srv.url}${V1}/assets/${ids.photo}/thumbnail`, { headers: { authorization: `Bearer ${owner.token}`, 'x-api-variant': 'B' } });
    assert.equal(r.headers.get('content-type'), 'image/webp');
    const missing = await fetch(`${srv.url}${V1}/assets/00000000-0000-7000-8000-000000000000/thumbnail`, { headers: { authorization: `Bearer ${owner.token}`, 'x-api-variant': 'B' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/problem+json');
  });

  test('reprocessAsset queues the pipeline again and the asset ends ready', async () => {
    const r = data(owner, await owner.post(`${V1}/assets/${ids.photo}/reprocess`, { tasks: ['derivatives'] }));
    assert.equal(r.status, 'queued');
    const job = data(owner, await owner.get(`${V1}/jobs/${r.receipt_id}`));
    assert.equal(job.kind, 'assets.process-asset');
    await srv.container.jobRunner.whenIdle();
    assert.equal(data(owner, await owner.get(`${V1}/assets/${ids.photo}`)).state, 'ready');
    assert.equal((await other.post(`${V1}/assets/${ids.photo}/reprocess`, {})).status, 404);
    const bad = await owner.post(`${V1}/assets/${ids.photo}/reprocess`, { tasks: ['teleport'] });
    assert.equal(bad.status, 422);
  });
});
