/**
 * Accounts and sessions over real HTTP and a real SQLite file, in both response variants:
 * bootstrap rules, sign-in, refresh rotation and replay revocation, CSRF, cookie flags, logout,
 * media tokens, password change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from './helpers/server.ts';
import { PASSWORD, V1, adopt, addMember, data, login, problem, registerAdmin } from './helpers/api.ts';

for (const variant of ['A', 'B'] as const) {
  describe(`accounts and sessions, variant ${variant}`, () => {
    let srv: TestServer;
    const refreshBody = (token: string | undefined) => (variant === 'B' ? { refresh_token: token } : undefined);
    const csrf = (s: { csrfToken: string | null }): Record<string, string> => (variant === 'A' ? { 'x-csrf-token': s.csrfToken! } : {});

    before(async () => {
      srv = await startServer();
    });
    after(() => srv.stop({ removeData: true }));

    test('a fresh install reports bootstrap mode and the first account becomes the admin', async () => {
      const c = new Client(srv.url, variant);
      const status = data(c, await c.get(`${V1}/auth/bootstrap`));
      assert.deepEqual(
        { bootstrap_mode: status.bootstrap_mode, next_role: status.next_role, setup_code_required: status.setup_code_required },
        { bootstrap_mode: true, next_role: 'admin', setup_code_required: false },
      );
      const { session } = await registerAdmin(c);
      assert.equal(session.bootstrap_admin, true);
      assert.equal(session.user.role, 'admin');
      assert.ok(session.user.permissions.includes('manage_users'));
      assert.ok(session.token);
      const me = data(c, await c.get(`${V1}/auth/me`));
      assert.equal(me.username, 'alice');
      const after = data(c, await c.get(`${V1}/auth/bootstrap`));
      assert.equal(after.bootstrap_mode, false);
      assert.equal(after.next_role, 'user');
    });

    test('the refresh token travels as an HttpOnly SameSite cookie in A and in the body in B', async () => {
      const c = new Client(srv.url, variant);
      const r = await c.post(`${V1}/auth/login`, { username: 'alice', password: PASSWORD });
      const s = data(c, r);
      const setCookie = r.headers.getSetCookie().join('\n');
      if (variant === 'A') {
        assert.match(setCookie, /hearth_refresh=/);
        assert.match(setCookie, /HttpOnly/i);
        assert.match(setCookie, /SameSite=Strict/i);
        assert.match(setCookie, /Path=\/api\/v1\/auth/);
        assert.doesNotMatch(setCookie, /Secure/i, 'plain HTTP on the LAN: no Secure flag, or the browser would drop it');
        assert.ok(s.csrfToken?.startsWith('v1.'));
        assert.equal(s.refresh_token, undefined);
        const viaHttps = await c.post(`${V1}/auth/login`, { username: 'alice', password: PASSWORD }, { headers: {} });
        assert.equal(viaHttps.status, 200);
      } else {
        assert.equal(setCookie, '', 'variant B sets no cookie');
        assert.equal(typeof s.refresh_token, 'string');
        assert.equal(s.csrfToken, null);
      }
    });

    test('refresh rotates the token; replaying a used token revokes every session of the user', async () => {
      const c = new Client(srv.url, variant);
      const first = await login(c, 'alice');
      const other = new Client(srv.url, variant);
      await login(other, 'alice');
      const spentCookie = new Map(c.cookies);

      const r1 = await c.post(`${V1}/auth/refresh`, refreshBody(first.refreshToken), { headers: csrf(first.session) });
      const second = adopt(c, r1);
      assert.notEqual(second.session.token, first.session.token);
      if (variant === 'B') assert.notEqual(second.refreshToken, first.refreshToken);
      else assert.notEqual(c.cookies.get('hearth_refresh'), spentCookie.get('hearth_refresh'));
      assert.equal((await c.get(`${V1}/auth/me`)).status, 200);

      // The thief replays the spent token.
      const thief = new Client(srv.url, variant);
      for (const [k, v] of spentCookie) thief.cookies.set(k, v);
      const replay = await thief.post(`${V1}/auth/refresh`, refreshBody(first.refreshToken), { headers: csrf(first.session) });
      assert.equal(problem(thief, replay).code, 'refresh_token_reused');

      // Every session of alice is gone: the rotated one, its access token, and the other device.
      assert.equal((await c.get(`${V1}/auth/me`)).status, 401);
      assert.equal((await other.get(`${V1}/auth/me`)).status, 401);
      const again = await c.post(`${V1}/auth/refresh`, refreshBody(second.refreshToken), { headers: csrf(second.session) });
      assert.equal(again.status, 401);
    });

    test('logout ends the session and its access token', async () => {
      const c = new Client(srv.url, variant);
      const s = await login(c, 'alice');
      const r = await c.post(`${V1}/auth/logout`, refreshBody(s.refreshToken), { headers: csrf(s.session) });
      assert.equal(r.status, 200, r.text);
      assert.equal(typeof data(c, r).message, 'string');
      if (variant === 'A') assert.equal(c.cookies.has('hearth_refresh'), false, 'cookie cleared');
      assert.equal((await c.get(`${V1}/auth/me`)).status, 401);
      const refresh = await c.post(`${V1}/auth/refresh`, refreshBody(s.refreshToken), { headers: csrf(s.session) });
      assert.equal(refresh.status, 401);
    });

    test('media tokens open media access only, never bearer routes', async () => {
      const c = new Client(srv.url, variant);
      await login(c, 'alice');
      const mt = data(c, await c.get(`${V1}/auth/media-token`));
      assert.ok(mt.token && Date.parse(mt.expires_at) > Date.now());
      const asBearer = await c.get(`${V1}/auth/me`, { auth: false, headers: { authorization: `Bearer ${mt.token}` } });
      assert.equal(asBearer.status, 401, 'a media token is not an access token');
      const asQuery = await c.get(`${V1}/auth/me?mt=${encodeURIComponent(mt.token)}`, { auth: false });
      assert.equal(asQuery.status, 401, '?mt= is accepted on media routes only');
      // Media routes (thumbnails, originals) resolve ?mt= through this; their HTTP tests come with them.
      const ok = await srv.container.auth.authenticateMediaToken(mt.token);
      assert.equal(ok?.username, 'alice');
      assert.equal(ok?.via, 'media_token');
    });

    test('changing the password verifies the old one, revokes all sessions and signs this device in anew', async () => {
      const admin = new Client(srv.url, variant);
      await login(admin, 'alice');
      const member = new Client(srv.url, variant);
      await addMember(admin, member, `bob${variant}`);
      const laptop = new Client(srv.url, variant);
      const l = await login(laptop, `bob${variant}`);

      const wrong = await member.put(`${V1}/users/me/password`, { current_password: 'not my password', new_password: 'a brand new secret' });
      assert.equal(problem(member, wrong).code, 'wrong_password');

      const r = await member.put(`${V1}/users/me/password`, { current_password: PASSWORD, new_password: 'a brand new secret' });
      const fresh = adopt(member, r);
      assert.equal((await member.get(`${V1}/auth/me`)).status, 200, 'this device keeps working with its new session');
      assert.equal((await laptop.get(`${V1}/auth/me`)).status, 401, 'other sessions end');
      const oldRefresh = await laptop.post(`${V1}/auth/refresh`, refreshBody(l.refreshToken), { headers: csrf(l.session) });
      assert.equal(oldRefresh.status, 401);
      assert.ok(fresh.session.token);
      assert.equal((await member.post(`${V1}/auth/login`, { username: `bob${variant}`, password: PASSWORD })).status, 401);
      await login(new Client(srv.url, variant), `bob${variant}`, 'a brand new secret');
    });

    test('profile updates are the caller\'s own', async () => {
      const c = new Client(srv.url, variant);
      await login(c, 'alice');
      const u = data(c, await c.patch(`${V1}/users/me/profile`, { display_name: 'Alice W.' }));
      assert.equal(u.display_name, 'Alice W.');
      assert.equal(data(c, await c.get(`${V1}/auth/me`)).display_name, 'Alice W.');
    });

    test('login options never reveal whether an account exists', async () => {
      const c = new Client(srv.url, variant);
      const known = data(c, await c.post(`${V1}/auth/login/options`, { username: 'alice' }));
      const unknown = data(c, await c.post(`${V1}/auth/login/options`, { username: 'nobody-here' }));
      assert.deepEqual(known, { password: true, passkey: false });
      assert.deepEqual(unknown, known);
    });

    test('browser auth capabilities describe the connection', async () => {
      const c = new Client(srv.url, variant);
      const caps = data(c, await c.get(`${V1}/auth/browser-capabilities`));
      assert.equal(caps.current_origin, srv.url);
      assert.equal(caps.insecure_transport, false, 'loopback is a secure context');
      // An address is no relying party id: passkeys need a name (passkeys.test.ts covers the other addresses).
      assert.equal(caps.passkey_available, false);
      assert.equal(caps.passkey_unavailable_reason, 'ip_address');
    });
  });
}

describe('variant A specifics', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
    await registerAdmin(new Client(srv.url));
  });
  after(() => srv.stop({ removeData: true }));

  test('refresh and logout without the CSRF token bound to the cookie are refused', async () => {
    const c = new Client(srv.url);
    const s = await login(c, 'alice');
    const none = await c.post(`${V1}/auth/refresh`);
    assert.equal(problem(c, none).code, 'csrf_invalid');
    const other = new Client(srv.url);
    const o = await login(other, 'alice');
    const foreign = await c.post(`${V1}/auth/refresh`, undefined, { headers: { 'x-csrf-token': o.session.csrfToken } });
    assert.equal(foreign.status, 403, 'a CSRF token of another session does not fit this cookie');
    const noLogout = await c.post(`${V1}/auth/logout`);
    assert.equal(noLogout.status, 403);
    assert.equal((await c.get(`${V1}/auth/me`)).status, 200, 'refused logout left the session alone');

    const token = data(c, await c.get(`${V1}/auth/csrf`));
    assert.equal(token.csrfToken, s.session.csrfToken, 'getCsrfToken recovers the token after a page reload');
    const ok = await c.post(`${V1}/auth/refresh`, undefined, { headers: { 'x-csrf-token': token.csrfToken } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('getCsrfToken without a live cookie answers null, not an error (a fresh page load asks it)', async () => {
    const c = new Client(srv.url);
    const none = await c.get(`${V1}/auth/csrf`);
    assert.equal(none.status, 200, none.text);
    assert.equal(data(c, none).csrfToken, null);
    const b = new Client(srv.url, 'B');
    const enveloped = await b.get(`${V1}/auth/csrf`);
    assert.equal(enveloped.status, 200, enveloped.text);
    assert.equal(data(b, enveloped).csrfToken, null);

    // A cookie whose session ended: null too, and the browser is told to forget it.
    const ended = new Client(srv.url);
    ended.cookies.set('hearth_refresh', 'a-spent-or-forged-token');
    const stale = await ended.get(`${V1}/auth/csrf`);
    assert.equal(stale.status, 200, stale.text);
    assert.equal(data(ended, stale).csrfToken, null);
    assert.match(stale.headers.getSetCookie().join('\n'), /Max-Age=0/i, 'the dead cookie is cleared');
  });

  test('a new login in the same browser ends the previous cookie session', async () => {
    const c = new Client(srv.url);
    const first = await login(c, 'alice');
    const firstToken = first.session.token;
    await login(c, 'alice');
    const old = await c.get(`${V1}/auth/me`, { headers: { authorization: `Bearer ${firstToken}` } });
    assert.equal(old.status, 401);
  });

  test('the Secure flag is set on HTTPS behind a trusted proxy', async () => {
    const proxied = await startServer({ env: { HEARTH_TRUST_PROXY: 'true' } });
    try {
      const c = new Client(proxied.url, 'A', { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.0.0.5' });
      await registerAdmin(c, 'setup').catch(() => undefined);
      const status = data(c, await c.get(`${V1}/auth/bootstrap`));
      assert.equal(status.setup_code_required, true, 'proxied requests are never local');
      const code = proxied.container.setupCode.ensure(false)!;
      const r = await c.post(`${V1}/auth/register`, { username: 'carol', password: PASSWORD, setup_code: code });
      assert.equal(r.status, 201, r.text);
      assert.match(r.headers.getSetCookie().join(';'), /Secure/);
    } finally {
      await proxied.stop({ removeData: true });
    }
  });
});
