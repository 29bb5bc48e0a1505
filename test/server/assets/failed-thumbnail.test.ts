/**
 * The thumbnail of an asset whose processing failed (issue 12, "48 requests for the thumbnail of a
 * photo already known to have failed"): every size, for damaged files of several kinds, asked with the
 * bearer token and with a media token (`?mt=`, how <img> asks), answers 404 problem+json with the
 * stable code `thumbnail_failed` and a cache policy that lets the browser keep the answer; a photo
 * whose thumbnail exists is still served as before (its own cache policy). The answer is a file
 * route's, the same in both variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { cutShort, makeClip, noisePng, scratchDir } from './made-media.ts';

describe('a failed asset’s thumbnail is a 404 the browser may keep', { timeout: 180_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  const tmp = scratchDir();
  const failed: Record<string, string> = {};
  let good = '';

  before(async () => {
    const h = await household();
    let ownerId: number;
    ({ srv, owner, ownerId } = h);
    const corpus = (rel: string) => fs.readFileSync(path.join(CORPUS, rel));
    const damaged: Record<string, Buffer> = {
      'photo.jpg': cutShort(corpus('exif/jolla.jpg')),
      'noise.png': cutShort(await noisePng()),
      'clip.mp4': cutShort(makeClip(path.join(tmp, 'clip.mp4'))),
    };
    for (const [name, bytes] of Object.entries(damaged)) failed[name] = await addFile(srv, `damaged/${name}`, ownerId, bytes);
    good = await addFile(srv, 'fine/DSCN0010.jpg', ownerId, 'gps/DSCN0010.jpg');
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('every size of every failed asset: 404 thumbnail_failed, problem+json, Cache-Control private with a max-age', async () => {
    const mt = data(owner, await owner.get(`${V1}/auth/media-token`)).token as string;
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const [name, id] of Object.entries(failed)) {
        assert.equal(data(client, await client.get(`${V1}/assets/${id}`)).state, 'failed', name);
        for (const size of ['small', 'medium', 'large']) {
          for (const how of ['bearer', 'media token'] as const) {
            const url = `${V1}/assets/${id}/thumbnail?size=${size}${how === 'media token' ? `&mt=${encodeURIComponent(mt)}` : ''}`;
            const r = how === 'bearer' ? await client.get(url) : await client.get(url, { auth: false });
            const what = `${variant} ${name} ${size} (${how})`;
            assert.equal(r.status, 404, `${what}: ${r.text}`);
            assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
            assert.equal((r.body as { code?: string }).code, 'thumbnail_failed', what);
            const cache = r.headers.get('cache-control') ?? '';
            assert.match(cache, /\bprivate\b/, `${what}: ${cache}`);
            const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1] ?? 0);
            assert.ok(maxAge >= 60, `${what}: the browser may keep the answer (${cache})`);
          }
        }
      }
    }
  });

  test('a thumbnail that exists is still served, as a file', async () => {
    for (const variant of ['A', 'B'] as const) {
      const r = await inVariant(owner, variant).get(`${V1}/assets/${good}/thumbnail?size=small`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'image/webp');
      assert.match(r.headers.get('cache-control') ?? '', /private, max-age=\d+/);
    }
  });
});
