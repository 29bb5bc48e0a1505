/**
 * The medium and large thumbnails are made on their first request (features/assets/api/lazy-thumbnails.ts), not
 * at ingest: what a person sees must not change. Each is served as the size it names (upright, within its
 * bounds) for photos and videos, is listed in the asset detail in both response variants, is kept on disk
 * and served again after a restart without being made twice, and is made anew from a replaced file's new
 * content, never served from the old one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { V1, data } from '../helpers/api.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { CORPUS } from '../media/corpus.ts';
import { addFile, household, inVariant, repoPath, type Household } from './fixture.ts';

describe('lazily made thumbnail sizes', { timeout: 300_000 }, () => {
  let h: Household;
  let srv: TestServer;
  const ids = {} as Record<'photo' | 'portrait' | 'video', string>;
  const thumbFile = (id: string, size: string) => srv.container.derivatives.thumbnail(id, size as 'small');

  async function fetchThumb(id: string, size: string): Promise<{ status: number; body: Buffer; etag: string | null }> {
    const r = await fetch(`${srv.url}${V1}/assets/${id}/thumbnail?size=${size}`, { headers: { authorization: `Bearer ${h.owner.token}` } });
    return { status: r.status, body: Buffer.from(await r.arrayBuffer()), etag: r.headers.get('etag') };
  }

  before(async () => {
    h = await household();
    srv = h.srv;
    ids.photo = await addFile(srv, 'photo.jpg', h.ownerId, 'exif/Olympus_E-P3.jpg'); // 4032×3024
    ids.portrait = await addFile(srv, 'portrait.jpg', h.ownerId, 'exif/orientation_portrait_6.jpg'); // stored 600×450, EXIF 6
    ids.video = await addFile(srv, 'clip.mp4', h.ownerId, 'video/with-gps.mp4');
    await srv.container.jobRunner.whenIdle();
  });
  after(() => srv.stop({ removeData: true }));


  test('ingest makes only the small size; the detail lists all three in both variants', async () => {
    for (const id of Object.values(ids)) {
      assert.ok(fs.existsSync(thumbFile(id, 'small')), 'small made at ingest');
      assert.ok(!fs.existsSync(thumbFile(id, 'medium')) && !fs.existsSync(thumbFile(id, 'large')), 'medium and large wait for a request');
    }
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(h.owner, variant);
      const r = await client.get(`${V1}/assets/${ids.photo}`);
      assert.equal(r.status, 200, r.text);
      const sizes = (data(client, r).thumbnails as { size: string; storage_path: string }[]).map((t) => [t.size, t.storage_path]);
      assert.deepEqual(sizes, ['small', 'medium', 'large'].map((s) => [s, `/api/v1/assets/${ids.photo}/thumbnail?size=${s}`]));
    }
  });

  test('a first request makes the size it names, upright, for photos and videos', async () => {
    const expect: Array<[keyof typeof ids, string, [number, number]]> = [
      ['photo', 'large', [1920, 1440]],
      ['photo', 'medium', [800, 600]],
      ['portrait', 'large', [450, 600]], // never enlarged; turned upright
      ['portrait', 'medium', [450, 600]],
    ];
    for (const [key, size, dims] of expect) {
      const r = await fetchThumb(ids[key], size);
      assert.equal(r.status, 200, `${key} ${size}`);
      const m = await sharp(r.body).metadata();
      assert.equal(m.format, 'webp');
      assert.deepEqual([m.width, m.height], dims, `${key} ${size}`);
      assert.ok(fs.existsSync(thumbFile(ids[key], size)), `${key} ${size} kept`);
    }
    const poster = await sharp(fs.readFileSync(srv.container.derivatives.poster(ids.video))).metadata();
    const v = await fetchThumb(ids.video, 'large');
    assert.equal(v.status, 200);
    const vm = await sharp(v.body).metadata();
    const scale = Math.min(1, 1920 / Math.max(poster.width!, poster.height!));
    assert.deepEqual([vm.width, vm.height], [Math.round(poster.width! * scale), Math.round(poster.height! * scale)], 'the poster at the large size');
  });

  test('concurrent first requests get the same picture, made once', async () => {
    const id = ids.video;
    fs.rmSync(thumbFile(id, 'medium'), { force: true });
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetchThumb(id, 'medium')));
    assert.ok(answers.every((a) => a.status === 200 && a.body.equals(answers[0]!.body)));
    assert.deepEqual(fs.readdirSync(srv.container.derivatives.dir(id)).filter((f) => f.endsWith('.tmp')), []);
  });

  test('the made sizes survive a restart and are served without being made again', async () => {
    const before = { bytes: fs.readFileSync(thumbFile(ids.photo, 'large')), mtime: fs.statSync(thumbFile(ids.photo, 'large')).mtimeMs };
    const dataDir = srv.dataDir;
    await srv.stop();
    srv = await startServer({ dataDir }); // the owner's bearer token stays valid (sessions are in the catalog)
    const r = await fetchThumb(ids.photo, 'large');
    assert.equal(r.status, 200);
    assert.ok(r.body.equals(before.bytes), 'the same file');
    assert.equal(fs.statSync(thumbFile(ids.photo, 'large')).mtimeMs, before.mtime, 'not made again');
  });

  test('a replaced file gets its lazy sizes made from the new content', async () => {
    const old = await fetchThumb(ids.photo, 'large');
    fs.copyFileSync(`${CORPUS}/gps/DSCN0010.jpg`, repoPath(srv, 'photo.jpg')); // 640×480, another picture
    const repo = srv.container.repositories.primary()!;
    await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: 'photo.jpg', ownerId: h.ownerId, source: 'scan' });
    await srv.container.jobRunner.whenIdle();
    assert.ok(!fs.existsSync(thumbFile(ids.photo, 'large')), 'the old large size is gone once the new content is processed');
    const now = await fetchThumb(ids.photo, 'large');
    assert.equal(now.status, 200);
    assert.notEqual(now.etag, old.etag);
    const m = await sharp(now.body).metadata();
    assert.deepEqual([m.width, m.height], [640, 480]);
  });

  test('a size that cannot be made (the original is gone) answers the small one', async () => {
    fs.rmSync(thumbFile(ids.portrait, 'large'), { force: true });
    fs.rmSync(repoPath(srv, 'portrait.jpg'));
    const r = await fetchThumb(ids.portrait, 'large');
    assert.equal(r.status, 200);
    assert.ok(r.body.equals(fs.readFileSync(thumbFile(ids.portrait, 'small'))));
    assert.match(r.etag ?? '', /small/);
  });
});
