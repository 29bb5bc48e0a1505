/**
 * Public links through real HTTP, in both response variants: made by a member for their own album
 * or photos; opened without an account; never revealing anything outside what they share (asset
 * and owner ids, members' names, paths); expired or revoked answering exactly like unknown keys;
 * passwords rate-limited per link and address; downloads only when allowed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1, data, problem } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { sharingWorld, VARIANTS, type World } from './world.ts';

describe('public links', () => {
  let w: World;
  /** Strings no public answer may contain: catalog ids, names, paths. */
  let secrets: string[];
  before(async () => {
    w = await sharingWorld();
    const repo = w.srv.container.repositories.primary()!;
    secrets = [...Object.values(w.assets), 'Alice', 'alice', 'carl', repo.path, repo.repository_id, 'a1/', 'c1/'];
  });
  after(() => w.srv.stop({ removeData: true }));

  const visitor = (variant: 'A' | 'B') => new Client(w.srv.url, variant);
  /** File and stream routes answer problem+json in both variants (never the B envelope). */
  const rawProblem = (r: { status: number; headers: Headers; text: string }) => {
    assert.ok(r.status >= 400, `expected a failure: ${r.status}`);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const p = JSON.parse(r.text);
    assert.equal(p.status, r.status);
    return p as { code: string; detail: string; title: string; status: number };
  };
  const noSecrets = (text: string, where: string) => {
    for (const s of secrets) assert.ok(!text.includes(s), `${where} reveals ${s}: ${text.slice(0, 300)}`);
  };

  /** Alice's album with a1 and a2, carl contributing c1; a link to it. */
  async function albumLink(variant: 'A' | 'B', extra: Record<string, unknown> = {}) {
    const alice = w.as('alice', variant);
    const album = data(alice, await alice.post(`${V1}/albums`, { album_name: `Garden ${variant}` })).album_id;
    for (const a of [w.assets.a1, w.assets.a2]) assert.equal((await alice.post(`${V1}/albums/${album}/assets/${a}`, {})).status, 200);
    assert.equal((await alice.post(`${V1}/albums/${album}/members`, { user_id: w.id.carl, role: 'contributor' })).status, 201);
    assert.equal((await w.as('carl', variant).post(`${V1}/albums/${album}/assets/${w.assets.c1}`, {})).status, 200);
    const r = await alice.post(`${V1}/share-links`, { album_id: album, ...extra });
    assert.equal(r.status, 201, r.text);
    return { album, link: data(alice, r) };
  }

  for (const variant of VARIANTS) {
    test(`a link shows its photos without an account and nothing else (variant ${variant})`, async () => {
      const { link } = await albumLink(variant);
      assert.match(link.key, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(link.kind, 'album');
      assert.equal(link.asset_count, 2, "carl's contribution is not alice's to publish");
      const alice = w.as('alice', variant);
      const listed = data(alice, await alice.get(`${V1}/share-links`)).links.find((l: any) => l.link_id === link.link_id);
      assert.equal(listed.key, null, 'the key is shown once');
      assert.equal(listed.status, 'active');

      const v = visitor(variant);
      const info = await v.get(`${V1}/shared/${link.key}`);
      assert.equal(info.status, 200, info.text);
      const shown = data(v, info);
      assert.deepEqual([shown.title, shown.asset_count, shown.needs_password, shown.allow_download], [`Garden ${variant}`, 2, false, true]);
      noSecrets(info.text, 'getSharedLink');
      const photos = await v.get(`${V1}/shared/${link.key}/photos`);
      assert.equal(photos.status, 200, photos.text);
      noSecrets(photos.text, 'listSharedLinkAssets');
      const list = data(v, photos).photos;
      assert.deepEqual(list.map((p: any) => p.file_name), ['Canon_40D.jpg', 'Canon_DIGITAL_IXUS_400.jpg']);
      assert.deepEqual(Object.keys(list[0]).sort(), ['capture_offset_minutes', 'duration', 'file_name', 'height', 'mime_type', 'photo_id', 'taken_time', 'type', 'width']);

      const thumb = await fetch(`${w.srv.url}${V1}/shared/${link.key}/photos/${list[0].photo_id}/thumbnail?size=small`);
      assert.equal(thumb.status, 200);
      assert.equal(thumb.headers.get('content-type'), 'image/webp');
      assert.ok((await thumb.arrayBuffer()).byteLength > 100);
      const original = await fetch(`${w.srv.url}${V1}/shared/${link.key}/photos/${list[0].photo_id}/original`);
      assert.equal(original.status, 200);
      assert.equal(Number(original.headers.get('content-length')), 7958);
      noSecrets(original.headers.get('content-disposition') ?? '', 'the original’s name');
      const zip = await fetch(`${w.srv.url}${V1}/shared/${link.key}/download`);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-type'), 'application/zip');
      const bytes = Buffer.from(await zip.arrayBuffer());
      assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
      assert.ok(bytes.includes('Canon_40D.jpg') && bytes.includes('Canon_DIGITAL_IXUS_400.jpg') && !bytes.includes('FinePix6900'), 'the zip holds exactly the link’s photos');

      // Photo ids belong to their link: a catalog id, another link's id or a made-up one is no photo here.
      const other = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a3] }));
      const otherPhoto = data(v, await v.get(`${V1}/shared/${other.key}/photos`)).photos[0].photo_id;
      for (const id of [otherPhoto, w.assets.a3, 'AAAAAAAAAAAAAAAAAAAAAA']) {
        const r = await v.get(`${V1}/shared/${link.key}/photos/${id}/thumbnail`);
        assert.equal(r.status, 404, id);
        assert.equal(rawProblem(r).code, 'photo_not_found');
      }
      assert.notEqual(otherPhoto, list[0].photo_id);
    });

    test(`expired, revoked and unknown links answer the same 404 (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const v = visitor(variant);
      const a = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1], expires_at: new Date(Date.now() + 3_600_000).toISOString() }));
      const b = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1] }));
      assert.equal((await v.get(`${V1}/shared/${a.key}`)).status, 200);
      // The hour passes (the clock is the catalog's: the expiry is moved, not waited for).
      w.srv.container.db.prepare('UPDATE share_links SET expires_at = ? WHERE link_id = ?').run(Date.now() - 1, a.link_id);
      assert.equal((await alice.put(`${V1}/share-links/${b.link_id}`, { revoked: true })).status, 200);
      const answers = [];
      for (const key of [a.key, b.key, 'NoSuchKeyNoSuchKey0000']) {
        for (const path of ['', '/photos', '/download']) {
          const r = await v.get(`${V1}/shared/${key}${path}`);
          assert.equal(r.status, 404, `${key}${path}`);
          const p = path === '/download' ? rawProblem(r) : problem(v, r);
          answers.push(JSON.stringify([p.code, p.detail, p.status]));
        }
      }
      assert.equal(new Set(answers).size, 1, `one answer for all: ${[...new Set(answers)].join(' | ')}`);
      const statuses = data(alice, await alice.get(`${V1}/share-links`)).links.filter((l: any) => [a.link_id, b.link_id].includes(l.link_id)).map((l: any) => l.status).sort();
      assert.deepEqual(statuses, ['expired', 'revoked']);
      assert.equal((await alice.put(`${V1}/share-links/${b.link_id}`, { revoked: false })).status, 200);
      assert.equal((await v.get(`${V1}/shared/${b.key}`)).status, 200);
      assert.equal((await alice.req('DELETE', `${V1}/share-links/${b.link_id}`)).status, 200);
      assert.equal((await v.get(`${V1}/shared/${b.key}`)).status, 404);
    });

    test(`a password link needs its token; wrong passwords are rate-limited per link and address (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const v = visitor(variant);
      const link = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1, w.assets.a2], password: 'open sesame', allow_download: false }));
      const other = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1], password: 'other door' }));
      const info = data(v, await v.get(`${V1}/shared/${link.key}`));
      assert.deepEqual([info.needs_password, info.link_token], [true, null]);
      assert.equal(problem(v, await v.get(`${V1}/shared/${link.key}/photos`)).code, 'link_locked');
      for (let i = 0; i < 5; i++) {
        const wrong = problem(v, await v.post(`${V1}/shared/${link.key}/unlock`, { password: `guess ${i}` }));
        assert.equal(wrong.code, 'wrong_password');
        assert.deepEqual(wrong.errors?.map((e) => e.field), ['body.password']);
      }
      const locked = await v.post(`${V1}/shared/${link.key}/unlock`, { password: 'open sesame' });
      assert.equal(locked.status, 429, 'locked out, even with the right password');
      assert.equal(problem(v, locked).code, 'rate_limited');
      assert.ok(Number(locked.headers.get('retry-after')) > 0, 'Retry-After is set');
      // Another link from the same address is not locked by this one's failures.
      const opened = await v.post(`${V1}/shared/${other.key}/unlock`, { password: 'other door' });
      assert.equal(opened.status, 200, opened.text);

      // The right password opens a link that was not attacked (the lockout is per link and address).
      const link3 = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1, w.assets.a2], password: 'open sesame', allow_download: false }));
      const ok = await v.post(`${V1}/shared/${link3.key}/unlock`, { password: 'open sesame' });
      assert.equal(ok.status, 200, ok.text);
      const token = data(v, ok).link_token as string;
      const photos = await v.req('GET', `${V1}/shared/${link3.key}/photos`, { headers: { 'x-link-token': token } });
      assert.equal(photos.status, 200, photos.text);
      const photo = data(v, photos).photos[0].photo_id;
      assert.equal((await fetch(`${w.srv.url}${V1}/shared/${link3.key}/photos/${photo}/thumbnail?lt=${token}`)).status, 200);
      assert.equal((await fetch(`${w.srv.url}${V1}/shared/${link3.key}/photos/${photo}/thumbnail`)).status, 401);
      assert.equal(rawProblem(await v.get(`${V1}/shared/${link3.key}/download?lt=${token}`)).code, 'download_not_allowed');
      assert.equal(rawProblem(await v.get(`${V1}/shared/${link3.key}/photos/${photo}/original?lt=${token}`)).code, 'download_not_allowed');
      // A token of another link opens nothing here; a changed link ends the tokens given out.
      const otherToken = data(v, opened).link_token as string;
      assert.equal((await v.get(`${V1}/shared/${link3.key}/photos?lt=${otherToken}`)).status, 401);
      assert.equal((await alice.put(`${V1}/share-links/${link3.link_id}`, { password: 'new words' })).status, 200);
      assert.equal(problem(v, await v.get(`${V1}/shared/${link3.key}/photos?lt=${token}`)).code, 'link_locked');
    });

    test(`a photo in the Trash leaves the link; bad input names its field (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const v = visitor(variant);
      const link = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a3] }));
      assert.equal(data(v, await v.get(`${V1}/shared/${link.key}/photos`)).count, 1);
      assert.equal((await alice.req('DELETE', `${V1}/assets/${w.assets.a3}`)).status, 200);
      assert.equal(data(v, await v.get(`${V1}/shared/${link.key}/photos`)).count, 0);
      assert.equal((await alice.post(`${V1}/assets/${w.assets.a3}/restore`, {})).status, 200);

      const past = problem(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1], expires_at: '2001-01-01T00:00:00Z' }));
      assert.equal(past.code, 'expiry_in_past');
      assert.deepEqual(past.errors?.map((e) => e.field), ['body.expires_at']);
      const bobsAlbum = data(w.as('bob', variant), await w.as('bob', variant).post(`${V1}/albums`, { album_name: 'Bob only' })).album_id;
      const foreign = problem(alice, await alice.post(`${V1}/share-links`, { album_id: bobsAlbum }));
      assert.equal(foreign.status, 404);
      assert.deepEqual(foreign.errors?.map((e) => e.field), ['body.album_id']);
      const notMine = problem(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1, w.assets.b1] }));
      assert.equal(notMine.status, 404);
      assert.deepEqual(notMine.errors?.map((e) => e.field), ['body.asset_ids.1']);
      const both = problem(alice, await alice.post(`${V1}/share-links`, { album_id: bobsAlbum, asset_ids: [w.assets.a1] }));
      assert.equal(both.code, 'link_target');
      assert.deepEqual(both.errors?.map((e) => e.field), ['body.album_id']);
      const short = problem(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1], password: 'abc' }));
      assert.deepEqual(short.errors?.map((e) => e.field), ['body.password']);
      assert.equal(problem(w.as('bob', variant), await w.as('bob', variant).req('DELETE', `${V1}/share-links/${link.link_id}`)).code, 'share_link_not_found');
    });
  }
});
