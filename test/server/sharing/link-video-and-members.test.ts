/**
 * What the sharing screens need beyond the first sharing operations, through real HTTP in both
 * response variants:
 * - listHouseholdMembers: a member (not only the administrator) picks whom to share with, by name;
 *   never themselves, never a deactivated account, never a username or role.
 * - getSharedLinkVideo: a link's video plays in the public page (its web copy, Range answered 206),
 *   also when the link does not allow downloads; it is a link's video only (a photo, another link's
 *   photo id, a locked or revoked link: the same refusals as thumbnails).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { indexFiles } from '../albums/helpers.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { sharingWorld, VARIANTS, type World } from './world.ts';

describe('sharing: household members and link videos', () => {
  let w: World;
  let video: string;
  before(async () => {
    w = await sharingWorld();
    video = (await indexFiles(w.srv, { v1: 'video/iphone5_gps.mov' }, w.id.alice)).v1!;
  });
  after(() => w.srv.stop({ removeData: true }));

  const rawProblem = (r: { status: number; headers: Headers; text: string }) => {
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    return JSON.parse(r.text) as { code: string; status: number };
  };

  for (const variant of VARIANTS) {
    test(`a member lists the other active members by name only (variant ${variant})`, async () => {
      const bob = w.as('bob', variant);
      const r = await bob.get(`${V1}/sharing/members`);
      assert.equal(r.status, 200, r.text);
      const body = data(bob, r);
      assert.deepEqual(
        body.members.map((m: any) => m.user_id).sort(),
        [w.id.alice, w.id.carl, w.id.dave].sort(),
        'everyone but bob',
      );
      assert.equal(body.count, 3);
      for (const m of body.members) assert.deepEqual(Object.keys(m).sort(), ['display_name', 'initials', 'user_id']);
      assert.deepEqual(
        body.members.find((m: any) => m.user_id === w.id.alice),
        { user_id: w.id.alice, display_name: 'Alice', initials: 'A' },
      );
      assert.equal((await new Client(w.srv.url, variant).get(`${V1}/sharing/members`)).status, 401, 'signed in only');
    });
  }

  test('a deactivated member is not offered', async () => {
    const alice = w.as('alice', 'A');
    assert.equal((await alice.req('PATCH', `${V1}/users/${w.id.dave}`, { json: { is_active: false } })).status, 200);
    try {
      const ids = data(alice, await alice.get(`${V1}/sharing/members`)).members.map((m: any) => m.user_id);
      assert.deepEqual(ids.sort(), [w.id.bob, w.id.carl].sort());
    } finally {
      assert.equal((await alice.req('PATCH', `${V1}/users/${w.id.dave}`, { json: { is_active: true } })).status, 200);
    }
  });

  for (const variant of VARIANTS) {
    test(`a link's video plays without downloads allowed; only the link's videos (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const link = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [w.assets.a1, video], allow_download: false }));
      const v = new Client(w.srv.url, variant);
      const photos = data(v, await v.get(`${V1}/shared/${link.key}/photos`)).photos as { photo_id: string; type: string }[];
      const clip = photos.find((p) => p.type === 'VIDEO')!;
      const still = photos.find((p) => p.type === 'PHOTO')!;
      assert.ok(clip && still, JSON.stringify(photos));

      const played = await fetch(`${w.srv.url}${V1}/shared/${link.key}/photos/${clip.photo_id}/video`);
      assert.equal(played.status, 200);
      assert.match(played.headers.get('content-type') ?? '', /^video\/(mp4|quicktime)$/, 'the web copy, or the original when the browser plays it as it is');
      const bytes = Buffer.from(await played.arrayBuffer());
      assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp', 'an MP4/QuickTime file the browser plays');
      const part = await fetch(`${w.srv.url}${V1}/shared/${link.key}/photos/${clip.photo_id}/video`, { headers: { range: 'bytes=0-99' } });
      assert.equal(part.status, 206);
      assert.equal((await part.arrayBuffer()).byteLength, 100);
      // The original stays behind the download switch.
      assert.equal(rawProblem(await v.get(`${V1}/shared/${link.key}/photos/${clip.photo_id}/original`)).code, 'download_not_allowed');

      assert.equal(rawProblem(await v.get(`${V1}/shared/${link.key}/photos/${still.photo_id}/video`)).code, 'wrong_asset_type');
      const other = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [video] }));
      const otherClip = data(v, await v.get(`${V1}/shared/${other.key}/photos`)).photos[0].photo_id;
      for (const id of [otherClip, video]) assert.equal(rawProblem(await v.get(`${V1}/shared/${link.key}/photos/${id}/video`)).code, 'photo_not_found', id);

      const locked = data(alice, await alice.post(`${V1}/share-links`, { asset_ids: [video], password: 'open sesame' }));
      const lockedClip = (await w.srv.container.shareLinks.listAssets(locked.key, (await w.srv.container.shareLinks.unlock(locked.key, 'open sesame', '10.9.9.9')).link_token)).photos[0]!.photo_id;
      assert.equal(rawProblem(await v.get(`${V1}/shared/${locked.key}/photos/${lockedClip}/video`)).code, 'link_locked');

      assert.equal((await alice.put(`${V1}/share-links/${link.link_id}`, { revoked: true })).status, 200);
      const gone = await v.get(`${V1}/shared/${link.key}/photos/${clip.photo_id}/video`);
      assert.equal(gone.status, 404);
      assert.equal(rawProblem(gone).code, 'share_link_not_found');
      assert.equal(problem(v, await v.get(`${V1}/shared/${link.key}`)).code, 'share_link_not_found');
    });
  }
});
