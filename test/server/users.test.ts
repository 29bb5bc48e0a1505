/**
 * Administration over HTTP in both variants: who may call (401 anonymous, 403 non-admin), listing
 * with statistics, updates with the last-admin rule, and the access reset → required password change
 * → new session flow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from './helpers/server.ts';
import { PASSWORD, V1, adopt, addMember, data, login, problem, registerAdmin } from './helpers/api.ts';

for (const variant of ['A', 'B'] as const) {
  describe(`user administration, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    let member: Client;
    let memberId: number;

    before(async () => {
      srv = await startServer();
      admin = new Client(srv.url, variant);
      await registerAdmin(admin);
      member = new Client(srv.url, variant);
      memberId = (await addMember(admin, member, 'bob')).session.user.user_id;
    });
    after(() => srv.stop({ removeData: true }));

    test('anonymous callers get 401 on every non-public operation', async () => {
      const anon = new Client(srv.url, variant);
      const calls: [string, string, unknown?][] = [
        ['GET', '/auth/me'],
        ['GET', '/auth/media-token'],
        ['PUT', '/users/me/password', { current_password: 'x', new_password: 'yyyyyyyyyyyy' }],
        ['PATCH', '/users/me/profile', { display_name: 'x' }],
        ['GET', '/users'],
        ['PATCH', `/users/${memberId}`, { display_name: 'x' }],
        ['POST', `/users/${memberId}/reset-access`],
        ['GET', '/settings/system'],
        ['PATCH', '/settings/system', { ml: { ocr_enabled: false } }],
      ];
      for (const [method, p, json] of calls) {
        const r = await anon.req(method, `${V1}${p}`, { json });
        assert.equal(r.status, 401, `${method} ${p}: ${r.text}`);
        assert.equal(problem(anon, r).code, 'unauthorized');
      }
      const forged = await anon.get(`${V1}/auth/me`, { headers: { authorization: 'Bearer not.a.token' } });
      assert.equal(forged.status, 401);
    });

    test('members are refused administrator operations with 403', async () => {
      const calls: [string, string, unknown?][] = [
        ['GET', '/users'],
        ['PATCH', `/users/${memberId}`, { role: 'admin' }],
        ['POST', '/users/1/reset-access'],
        ['GET', '/settings/system'],
        ['PATCH', '/settings/system', { registration: { mode: 'closed' } }],
      ];
      for (const [method, p, json] of calls) {
        const r = await member.req(method, `${V1}${p}`, { json });
        assert.equal(r.status, 403, `${method} ${p}: ${r.text}`);
        assert.equal(problem(member, r).code, 'admin_only');
      }
      assert.equal(data(member, await member.get(`${V1}/auth/me`)).role, 'user', 'the refused promotion did not happen');
    });

    test('listUsers pages accounts with statistics', async () => {
      const page = data(admin, await admin.get(`${V1}/users?limit=1&offset=0`));
      assert.equal(page.total, 2);
      assert.equal(page.limit, 1);
      assert.equal(page.users.length, 1);
      assert.equal(page.users[0].username, 'alice');
      assert.ok(page.users[0].stats.active_sessions >= 1);
      const rest = data(admin, await admin.get(`${V1}/users?limit=20&offset=1`));
      assert.deepEqual(rest.users.map((u: { username: string }) => u.username), ['bob']);
      const bad = await admin.get(`${V1}/users?limit=1000`);
      assert.equal(problem(admin, bad).errors?.[0]?.field, 'query.limit');
    });

    test('updateUser changes identity and role; the last admin cannot be demoted', async () => {
      const u = data(admin, await admin.patch(`${V1}/users/${memberId}`, { display_name: 'Bobby' }));
      assert.equal(u.display_name, 'Bobby');
      const self = await admin.patch(`${V1}/users/1`, { role: 'user' });
      assert.equal(problem(admin, self).code, 'last_admin');
      const missing = await admin.patch(`${V1}/users/9999`, { display_name: 'x' });
      assert.equal(missing.status, 404);
      const taken = await admin.patch(`${V1}/users/${memberId}`, { username: 'ALICE' });
      assert.equal(problem(admin, taken).code, 'username_taken');
    });

    test('deactivating an account ends its sessions at once; reactivating lets it sign in again', async () => {
      const c = new Client(srv.url, variant);
      await login(c, 'bob');
      assert.equal((await c.get(`${V1}/auth/me`)).status, 200);
      assert.equal(data(admin, await admin.patch(`${V1}/users/${memberId}`, { is_active: false })).is_active, false);
      assert.equal((await c.get(`${V1}/auth/me`)).status, 401, 'the access token died with the account');
      const denied = await c.post(`${V1}/auth/login`, { username: 'bob', password: PASSWORD });
      assert.equal(problem(c, denied).code, 'account_disabled');
      const wrongPw = await c.post(`${V1}/auth/login`, { username: 'bob', password: 'wrong password!' });
      assert.equal(problem(c, wrongPw).code, 'invalid_credentials', 'without the password nothing is revealed');
      await admin.patch(`${V1}/users/${memberId}`, { is_active: true });
      await login(c, 'bob');
    });

    test('reset access: temporary password → requires_password_change → completePasswordChange → session', async () => {
      const device = new Client(srv.url, variant);
      await login(device, 'bob');
      const reset = data(admin, await admin.post(`${V1}/users/${memberId}/reset-access`));
      assert.match(reset.temporary_password, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      assert.equal((await device.get(`${V1}/auth/me`)).status, 401, 'the reset ended every session');
      assert.equal((await device.post(`${V1}/auth/login`, { username: 'bob', password: PASSWORD })).status, 401);

      const c = new Client(srv.url, variant);
      const r = await c.post(`${V1}/auth/login`, { username: 'bob', password: reset.temporary_password });
      const pending = data(c, r);
      assert.equal(pending.requires_password_change, true);
      assert.equal(pending.token, null, 'no access before the password is changed');
      assert.ok(pending.password_change_token);
      assert.equal(r.headers.getSetCookie().length, 0);

      const tooShort = await c.post(`${V1}/auth/password-change/complete`, { password_change_token: pending.password_change_token, new_password: 'short' });
      assert.equal(problem(c, tooShort).errors?.[0]?.field, 'body.new_password');

      const done = await c.post(`${V1}/auth/password-change/complete`, { password_change_token: pending.password_change_token, new_password: 'my own new password' });
      adopt(c, done);
      assert.equal(data(c, await c.get(`${V1}/auth/me`)).username, 'bob');
      const reused = await c.post(`${V1}/auth/password-change/complete`, { password_change_token: pending.password_change_token, new_password: 'another new password' });
      assert.equal(problem(c, reused).code, 'password_change_token_invalid', 'the token is single-use');
      await login(new Client(srv.url, variant), 'bob', 'my own new password');
      // Put bob back for the other tests of this file.
      const again = data(admin, await admin.post(`${V1}/users/${memberId}/reset-access`));
      const p = data(member, await member.post(`${V1}/auth/login`, { username: 'bob', password: again.temporary_password }));
      adopt(member, await member.post(`${V1}/auth/password-change/complete`, { password_change_token: p.password_change_token, new_password: PASSWORD }));
    });

    test('an administrator cannot reset their own access (they change their password instead)', async () => {
      const r = await admin.post(`${V1}/users/1/reset-access`);
      assert.equal(problem(admin, r).code, 'cannot_reset_self');
    });
  });
}
