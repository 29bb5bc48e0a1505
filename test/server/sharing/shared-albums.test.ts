/**
 * Shared albums through real HTTP, in both response variants: the owner adds members as viewers or
 * contributors; viewers read and change nothing (403 where they can read, 404 where they cannot);
 * contributors add their own photos and everyone sees who added what; leaving and removing work;
 * likes stay per member; the Trash takes only one's own photos; bad input names its field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1, data, problem } from '../helpers/api.ts';
import { sharingWorld, VARIANTS, type World } from './world.ts';

describe('shared albums', () => {
  let w: World;
  before(async () => {
    w = await sharingWorld();
  });
  after(() => w.srv.stop({ removeData: true }));

  /** An album of alice's holding a1, shared with bob (viewer) and carl (contributor). */
  async function sharedAlbum(variant: 'A' | 'B', name: string, asset = w.assets.a1) {
    const alice = w.as('alice', variant);
    const album = data(alice, await alice.post(`${V1}/albums`, { album_name: name }));
    assert.equal((await alice.post(`${V1}/albums/${album.album_id}/assets/${asset}`, {})).status, 200);
    for (const [who, role] of [['bob', 'viewer'], ['carl', 'contributor']] as const) {
      const r = await alice.post(`${V1}/albums/${album.album_id}/members`, { user_id: w.id[who], role });
      assert.equal(r.status, 201, r.text);
      const m = data(alice, r);
      assert.deepEqual(m.role, role);
      assert.equal(m.user_id, w.id[who]);
      assert.equal(m.initials, who[0]!.toUpperCase());
    }
    return album.album_id as number;
  }

  for (const variant of VARIANTS) {
    test(`members see the album, its members and who added what (variant ${variant})`, async () => {
      const id = await sharedAlbum(variant, `Holiday ${variant}`);
      const bob = w.as('bob', variant);
      const listed = data(bob, await bob.get(`${V1}/albums`)).albums.find((a: any) => a.album_id === id);
      assert.ok(listed, 'the shared album is in the member’s album list');
      assert.equal(listed.role, 'viewer');
      assert.equal(listed.shared, true);
      assert.deepEqual(listed.owner, { user_id: w.id.alice, display_name: 'Alice', initials: 'A' });
      const own = data(w.as('alice', variant), await w.as('alice', variant).get(`${V1}/albums/${id}`));
      assert.equal(own.role, 'owner');
      assert.equal(own.member_count, 2);

      const members = data(bob, await bob.get(`${V1}/albums/${id}/members`));
      assert.equal(members.owner.user_id, w.id.alice);
      assert.deepEqual(members.members.map((m: any) => [m.user_id, m.role]), [[w.id.bob, 'viewer'], [w.id.carl, 'contributor']]);

      const carl = w.as('carl', variant);
      const add = await carl.post(`${V1}/albums/${id}/assets/${w.assets.c1}`, {});
      assert.equal(add.status, 200, add.text);
      const entries = data(bob, await bob.get(`${V1}/albums/${id}/assets`)).assets;
      assert.deepEqual(entries.map((e: any) => [e.asset_id, e.added_by.initials]), [[w.assets.a1, 'A'], [w.assets.c1, 'C']]);
      // The members read the photos themselves (their files too).
      assert.equal((await bob.get(`${V1}/assets/${w.assets.c1}`)).status, 200);
      assert.equal((await bob.req('GET', `${V1}/assets/${w.assets.a1}/thumbnail?size=small`)).status, 200);
      // Someone outside the album cannot even see it exists.
      const dave = w.as('dave', variant);
      for (const path of [`/albums/${id}`, `/albums/${id}/assets`, `/albums/${id}/members`]) {
        const r = await dave.get(`${V1}${path}`);
        assert.equal(r.status, 404, path);
        assert.equal(problem(dave, r).code, 'album_not_found');
      }
      assert.equal(problem(dave, await dave.get(`${V1}/assets/${w.assets.a1}`)).code, 'asset_not_found');
    });

    test(`a viewer changes nothing: 403 for what they can read, and the album is as it was (variant ${variant})`, async () => {
      const id = await sharedAlbum(variant, `Viewer ${variant}`);
      const alice = w.as('alice', variant);
      const before = data(alice, await alice.get(`${V1}/albums/${id}/assets`));
      const bob = w.as('bob', variant);
      const tries: [string, string, unknown][] = [
        ['PUT', `/albums/${id}`, { album_name: 'mine now' }],
        ['DELETE', `/albums/${id}`, undefined],
        ['POST', `/albums/${id}/assets/${w.assets.b1}`, {}],
        ['POST', `/assets/${w.assets.b1}/albums/${id}`, undefined],
        ['DELETE', `/albums/${id}/assets/${w.assets.a1}`, undefined],
        ['PUT', `/albums/${id}/assets/${w.assets.a1}/position`, { position: 0 }],
        ['POST', `/albums/${id}/members`, { user_id: w.id.dave, role: 'viewer' }],
        ['PUT', `/albums/${id}/members/${w.id.carl}`, { role: 'viewer' }],
        ['DELETE', `/albums/${id}/members/${w.id.carl}`, undefined],
        ['POST', `/albums/${id}/bioclip/rebuild`, undefined],
      ];
      for (const [method, path, body] of tries) {
        const r = await bob.req(method, `${V1}${path}`, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
        assert.equal(problem(bob, r).code, 'album_read_only', `${method} ${path}`);
      }
      // The owner's photo is not the viewer's to change either.
      for (const [method, path, body] of [
        ['PUT', `/assets/${w.assets.a1}/description`, { description: 'bob was here' }],
        ['DELETE', `/assets/${w.assets.a1}`, undefined],
      ] as const) {
        const r = await bob.req(method, `${V1}${path}`, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
        assert.equal(problem(bob, r).code, 'asset_read_only');
      }
      assert.deepEqual(data(alice, await alice.get(`${V1}/albums/${id}/assets`)), before);
      assert.equal(data(alice, await alice.get(`${V1}/albums/${id}`)).album_name, `Viewer ${variant}`);
      assert.equal(data(alice, await alice.get(`${V1}/assets/${w.assets.a1}`)).is_deleted, false, 'the Trash takes only one’s own photos');
    });

    test(`contributors add only their own photos and take out only what they added (variant ${variant})`, async () => {
      const id = await sharedAlbum(variant, `Contrib ${variant}`);
      const carl = w.as('carl', variant);
      // alice's photo is shared with carl through the album, but is not his to pass on.
      const r = await carl.post(`${V1}/albums/${id}/assets/${w.assets.a2}`, {});
      assert.equal(r.status, 404, 'a2 is not in the album: carl cannot even read it');
      const a1 = await carl.post(`${V1}/albums/${id}/assets/${w.assets.b1}`, {});
      assert.equal(problem(carl, a1).code, 'asset_not_found');
      assert.equal(problem(carl, await carl.req('DELETE', `${V1}/albums/${id}/assets/${w.assets.a1}`)).code, 'album_read_only');
      assert.equal((await carl.post(`${V1}/albums/${id}/assets/${w.assets.c1}`, {})).status, 200);
      assert.equal((await carl.req('DELETE', `${V1}/albums/${id}/assets/${w.assets.c1}`)).status, 200);
      assert.equal(problem(carl, await carl.put(`${V1}/albums/${id}`, { album_name: 'x' })).code, 'album_read_only');
    });

    test(`leaving takes the member's photos out; removing and deleting are the owner's (variant ${variant})`, async () => {
      // a3 is in no other album: once bob is out, nothing shares it with him.
      const id = await sharedAlbum(variant, `Leave ${variant}`, w.assets.a3);
      const alice = w.as('alice', variant);
      const bob = w.as('bob', variant);
      const carl = w.as('carl', variant);
      assert.equal((await carl.post(`${V1}/albums/${id}/assets/${w.assets.c1}`, {})).status, 200);
      assert.equal(problem(bob, await bob.req('DELETE', `${V1}/albums/${id}/members/${w.id.carl}`)).code, 'album_read_only');
      const left = await carl.req('DELETE', `${V1}/albums/${id}/members/${w.id.carl}`);
      assert.equal(left.status, 200, left.text);
      assert.match(data(carl, left).message, /You left/);
      assert.equal(problem(carl, await carl.get(`${V1}/albums/${id}`)).code, 'album_not_found');
      assert.deepEqual(data(alice, await alice.get(`${V1}/albums/${id}/assets`)).assets.map((a: any) => a.asset_id), [w.assets.a3]);
      assert.equal((await carl.get(`${V1}/assets/${w.assets.c1}`)).status, 200, 'carl’s photo stays in his library');
      assert.equal((await alice.req('DELETE', `${V1}/albums/${id}/members/${w.id.bob}`)).status, 200);
      assert.equal(problem(bob, await bob.get(`${V1}/albums/${id}`)).code, 'album_not_found');
      assert.equal(problem(bob, await bob.get(`${V1}/assets/${w.assets.a3}`)).code, 'asset_not_found', 'no longer shared with bob');
      const again = await alice.post(`${V1}/albums/${id}/members`, { user_id: w.id.bob, role: 'viewer' });
      assert.equal(again.status, 201);
      assert.equal(problem(bob, await bob.req('DELETE', `${V1}/albums/${id}`)).code, 'album_read_only');
      assert.equal((await alice.req('DELETE', `${V1}/albums/${id}`)).status, 200);
      assert.equal(problem(bob, await bob.get(`${V1}/albums/${id}`)).code, 'album_not_found');
    });

    test(`likes and ratings stay per member (variant ${variant})`, async () => {
      await sharedAlbum(variant, `Likes ${variant}`);
      const alice = w.as('alice', variant);
      const bob = w.as('bob', variant);
      const asset = w.assets.a1;
      assert.equal((await alice.put(`${V1}/assets/${asset}/rating-and-like`, { liked: false, rating: 0 })).status, 200);
      assert.equal((await bob.put(`${V1}/assets/${asset}/rating-and-like`, { liked: true, rating: 5 })).status, 200);
      const mine = data(bob, await bob.get(`${V1}/assets/${asset}`));
      assert.deepEqual([mine.liked, mine.rating], [true, 5]);
      const owners = data(alice, await alice.get(`${V1}/assets/${asset}`));
      assert.deepEqual([owners.liked, owners.rating], [false, 0], 'bob’s like is not alice’s');
      assert.equal((await alice.put(`${V1}/assets/${asset}/rating`, { rating: 2 })).status, 200);
      assert.equal((await bob.put(`${V1}/assets/${asset}/like`, { liked: false })).status, 200);
      const carl = w.as('carl', variant);
      const carls = data(carl, await carl.get(`${V1}/assets/${asset}`));
      assert.deepEqual([carls.liked, carls.rating], [false, 0], 'carl sees his own (none)');
      const bobs = data(bob, await bob.get(`${V1}/assets/${asset}`));
      assert.deepEqual([bobs.liked, bobs.rating], [false, 5]);
      assert.equal(data(alice, await alice.get(`${V1}/assets/${asset}`)).rating, 2);
      const listed = data(bob, await bob.get(`${V1}/albums`)).albums.find((a: any) => a.album_name === `Likes ${variant}`);
      const entry = data(bob, await bob.get(`${V1}/albums/${listed.album_id}/assets`)).assets[0];
      assert.deepEqual([entry.liked, entry.rating], [false, 5], 'album listings show the reader’s marks too');
    });

    test(`bad input names its field (variant ${variant})`, async () => {
      const id = await sharedAlbum(variant, `Bad ${variant}`);
      const alice = w.as('alice', variant);
      const self = problem(alice, await alice.post(`${V1}/albums/${id}/members`, { user_id: w.id.alice, role: 'viewer' }));
      assert.equal(self.status, 422);
      assert.equal(self.code, 'share_with_self');
      assert.deepEqual(self.errors?.map((e) => e.field), ['body.user_id']);
      const nobody = problem(alice, await alice.post(`${V1}/albums/${id}/members`, { user_id: 987654, role: 'viewer' }));
      assert.equal(nobody.code, 'not_a_member');
      assert.deepEqual(nobody.errors?.map((e) => e.field), ['body.user_id']);
      assert.equal(problem(alice, await alice.post(`${V1}/albums/${id}/members`, { user_id: w.id.bob, role: 'viewer' })).code, 'already_a_member');
      const role = problem(alice, await alice.post(`${V1}/albums/${id}/members`, { user_id: w.id.dave, role: 'admin' }));
      assert.equal(role.status, 422);
      assert.deepEqual(role.errors?.map((e) => e.field), ['body.role']);
      const notMember = problem(alice, await alice.put(`${V1}/albums/${id}/members/${w.id.dave}`, { role: 'viewer' }));
      assert.equal(notMember.code, 'album_member_not_found');
      assert.equal((await alice.put(`${V1}/albums/${id}/members/${w.id.bob}`, { role: 'contributor' })).status, 200);
      assert.equal(data(w.as('bob', variant), await w.as('bob', variant).get(`${V1}/albums/${id}`)).role, 'contributor');
    });
  }
});
