/**
 * An avatar is one of the account's own assets: another member's asset answers exactly as an asset
 * that does not exist (404 `asset_not_found`), through updateMyProfile and the administrators'
 * updateUser alike; nothing is stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type Client, type TestServer } from './helpers/server.ts';
import { V1, data, problem, signedInHousehold } from './helpers/api.ts';
import { corpusFile } from './repositories/helpers.ts';
import { uploadFile } from './uploads/helpers.ts';

const UNKNOWN = '0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d';

for (const variant of ['A', 'B'] as const) {
  describe(`avatars are the account's own assets, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    let bob: Client;
    let carol: Client;
    let bobsPhoto: string;
    let carolsPhoto: string;
    let carolId: number;

    before(async () => {
      srv = await startServer();
      const h = await signedInHousehold(srv.url, variant, ['bob', 'carol']);
      ({ admin } = h);
      bob = h.members.bob.client;
      carol = h.members.carol.client;
      carolId = h.members.carol.id;
      const a = await uploadFile(srv, bob.token!, corpusFile('exif/Canon_40D.jpg'));
      assert.ok(a.status < 300, a.text);
      bobsPhoto = (a.body as { asset_id: string }).asset_id;
      const b = await uploadFile(srv, carol.token!, corpusFile('exif/Nikon_D70.jpg'));
      assert.ok(b.status < 300, b.text);
      carolsPhoto = (b.body as { asset_id: string }).asset_id;
    });
    after(() => srv.stop({ removeData: true }));

    /** The failure, without what differs per request. */
    const answer = (c: Client, r: Awaited<ReturnType<Client['req']>>) => {
      const p = problem(c, r) as Record<string, unknown>;
      return { status: r.status, code: p.code, detail: p.detail, errors: p.errors };
    };

    test("another member's asset is refused exactly like an unknown one", async () => {
      const other = await carol.patch(`${V1}/users/me/profile`, { avatar_asset_id: bobsPhoto });
      const unknown = await carol.patch(`${V1}/users/me/profile`, { avatar_asset_id: UNKNOWN });
      assert.equal(other.status, 404, other.text);
      assert.deepEqual(answer(carol, other), answer(carol, unknown));
      assert.equal(answer(carol, other).code, 'asset_not_found');
      assert.equal(data(carol, await carol.get(`${V1}/auth/me`)).avatar_asset_id, null, 'nothing stored');
    });

    test('administrators cannot give an account an asset of someone else either', async () => {
      const other = await admin.patch(`${V1}/users/${carolId}`, { avatar_asset_id: bobsPhoto });
      const unknown = await admin.patch(`${V1}/users/${carolId}`, { avatar_asset_id: UNKNOWN });
      assert.equal(other.status, 404, other.text);
      assert.deepEqual(answer(admin, other), answer(admin, unknown));
      assert.equal(data(carol, await carol.get(`${V1}/auth/me`)).avatar_asset_id, null);
    });

    test('one of your own assets is taken, and null clears it', async () => {
      const mine = await carol.patch(`${V1}/users/me/profile`, { avatar_asset_id: carolsPhoto });
      assert.equal(mine.status, 200, mine.text);
      assert.equal(data(carol, mine).avatar_asset_id, carolsPhoto);
      const byAdmin = await admin.patch(`${V1}/users/${carolId}`, { avatar_asset_id: carolsPhoto });
      assert.equal(byAdmin.status, 200, byAdmin.text);
      const cleared = await carol.patch(`${V1}/users/me/profile`, { avatar_asset_id: null });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(data(carol, cleared).avatar_asset_id, null);
    });
  });
}
