/**
 * Typed text (names, titles, descriptions, user names, display names, tags, repository names) with
 * control characters is refused with 422 naming the field (code `control_characters`) on every
 * operation that takes it, and nothing is stored. Multi-line descriptions keep tab and line breaks;
 * single-line names do not. Right-to-left marks in typed text are kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from './helpers/server.ts';
import { V1, data, problem, signedInHousehold } from './helpers/api.ts';

const SOME_ID = '0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d';
/** Each is refused in every single-line field. */
const BAD_SINGLE = ['\u0000', 'a\u0000b', 'tab\there', 'two\nlines', 'esc\u001b[31m', 'del\u007f', 'c1\u0085', 'sep\u2028x', 'lone\ud800'];
/** Refused in multi-line fields too (tab, LF and CR are allowed there). */
const BAD_MULTI = ['\u0000', 'a\u0000b', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', 'c1\u009b'];

for (const variant of ['A', 'B'] as const) {
  describe(`control characters in typed text, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    let member: Client;
    let albumId: number;
    before(async () => {
      srv = await startServer();
      const h = await signedInHousehold(srv.url, variant, ['bob']);
      ({ admin } = h);
      member = h.members.bob.client;
      const r = await member.post(`${V1}/albums`, { album_name: 'Summer' });
      assert.equal(r.status, 201, r.text);
      albumId = data(member, r).album_id;
    });
    after(() => srv.stop({ removeData: true }));

    async function refused(c: Client, send: () => Promise<import('./helpers/server.ts').HttpResult>, field: string) {
      const r = await send();
      assert.equal(r.status, 422, `${field}: ${r.text}`);
      const p = problem(c, r);
      const errors = (p.errors ?? []) as { field: string; code?: string }[];
      assert.ok(
        errors.some((e) => e.field === field && e.code === 'control_characters'),
        `${field} named with code control_characters in ${r.text}`,
      );
    }

    test('single-line fields refuse every control character', async () => {
      for (const bad of BAD_SINGLE) {
        await refused(member, () => member.post(`${V1}/albums`, { album_name: bad }), 'body.album_name');
        await refused(member, () => member.put(`${V1}/albums/${albumId}`, { album_name: bad }), 'body.album_name');
        await refused(member, () => member.patch(`${V1}/users/me/profile`, { display_name: bad }), 'body.display_name');
        await refused(admin, () => admin.patch(`${V1}/users/2`, { display_name: bad }), 'body.display_name');
        await refused(admin, () => admin.patch(`${V1}/users/2`, { username: `bob${bad}` }), 'body.username');
        await refused(member, () => member.post(`${V1}/assets/${SOME_ID}/tags`, { tag_name: bad }), 'body.tag_name');
        await refused(admin, () => admin.post(`${V1}/repositories`, { name: bad, path: '/nonexistent' }), 'body.name');
        await refused(member, () => member.post(`${V1}/assets/query`, { filter: { camera_model: bad } }), 'body.filter.camera_model');
        await refused(member, () => member.post(`${V1}/auth/login`, { username: `bob${bad}`, password: 'x' }), 'body.username');
        await refused(
          member,
          () => member.put(`${V1}/assets/${SOME_ID}`, { specific_metadata: { camera_model: bad, title: bad } }),
          'body.specific_metadata.camera_model',
        );
        const reg = new Client(srv.url, variant);
        await refused(reg, () => reg.post(`${V1}/auth/register`, { username: 'carol', password: 'long enough pw', display_name: bad }), 'body.display_name');
      }
    });

    test('multi-line fields refuse control characters other than tab and line breaks', async () => {
      for (const bad of BAD_MULTI) {
        await refused(member, () => member.post(`${V1}/albums`, { album_name: 'x', description: bad }), 'body.description');
        await refused(member, () => member.put(`${V1}/albums/${albumId}`, { description: bad }), 'body.description');
        await refused(member, () => member.put(`${V1}/assets/${SOME_ID}/description`, { description: bad }), 'body.description');
      }
    });

    test('nothing was stored, and the album keeps its name', async () => {
      const r = await member.get(`${V1}/albums`);
      const list = data(member, r);
      assert.equal(list.total, 1);
      assert.equal(list.albums[0].album_name, 'Summer');
      const me = data(member, await member.get(`${V1}/auth/me`));
      assert.equal(me.username, 'bob');
      assert.doesNotMatch(JSON.stringify(me), /\\u0000/);
    });

    test('descriptions keep paragraphs and tabs; names keep right-to-left marks', async () => {
      const description = 'First line\n\nSecond\tparagraph\r\nend';
      const r = await member.put(`${V1}/albums/${albumId}`, { album_name: 'שלום \u200fעולם', description });
      assert.equal(r.status, 200, r.text);
      const album = data(member, await member.get(`${V1}/albums/${albumId}`));
      assert.equal(album.album_name, 'שלום \u200fעולם');
      assert.equal(album.description, description);
    });

    test('surrounding white space of a name is trimmed, not refused', async () => {
      const r = await member.post(`${V1}/albums`, { album_name: '  Winter \n' });
      assert.equal(r.status, 201, r.text);
      assert.equal(data(member, r).album_name, 'Winter');
    });
  });
}
