/**
 * Staged registration over real HTTP, in both response variants: with the household's setting on, a
 * new account exists only once its second factor is enrolled (an authenticator app, or a passkey made by
 * the software authenticator), plain registration is refused, a stage reserves no name, a finished or
 * expired stage opens nothing, and an abandoned one leaves no account and no secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, V1, adopt, data, problem, registerAdmin } from '../helpers/api.ts';
import { SoftPasskey, openAt } from '../helpers/soft-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const INVITE = 'staged-family-2026';
const at = openAt;

describe('staged registration', () => {
  let srv: TestServer;
  let admin: Client;
  let n = 0;

  before(async () => {
    srv = await startServer({ env: { HEARTH_TRUST_PROXY: 'true' } });
    admin = new Client(srv.url, 'A', at(ORIGIN));
    await registerAdmin(admin);
    const r = await admin.patch(`${V1}/settings/system`, { registration: { mode: 'invite_code', invite_code: INVITE, require_second_factor: true } });
    assert.equal(r.status, 200, r.text);
    assert.equal(data(admin, r).registration.require_second_factor, true);
  });
  after(() => srv.stop({ removeData: true }));

  const usernames = async () => (data(admin, await admin.get(`${V1}/users?limit=100`)).users as { username: string }[]).map((u) => u.username);
  const start = (c: Client, username: string, extra: Record<string, string> = {}) =>
    c.post(`${V1}/auth/register/staged`, { username, password: PASSWORD, invite_code: INVITE, ...extra }, { auth: false });

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: with an authenticator app; plain registration refused; nothing exists before the first code`, async () => {
      const c = new Client(srv.url, variant, { 'x-forwarded-for': `10.44.0.${variant === 'A' ? 1 : 2}`, ...at(ORIGIN) });
      const username = `staged${variant.toLowerCase()}${++n}`;
      const plain = await c.post(`${V1}/auth/register`, { username, password: PASSWORD, invite_code: INVITE }, { auth: false });
      assert.equal(problem(c, plain).code, 'second_factor_required');
      assert.equal(problem(c, await start(c, username, { invite_code: 'wrong' })).code, 'invite_code_invalid');
      assert.equal(problem(c, await start(c, 'alice')).code, 'username_taken');

      const r = await start(c, username);
      assert.equal(r.status, 201, r.text);
      const stage = data(c, r);
      assert.deepEqual(stage.methods, ['totp', 'passkey']);
      assert.ok(!(await usernames()).includes(username), 'no account before the second factor');
      assert.equal(problem(c, await c.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false })).code, 'invalid_credentials');

      const early = await c.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: stage.stage_token, code: '123456' }, { auth: false });
      assert.equal(problem(c, early).code, 'totp_setup_missing');
      const setup = data(c, await c.post(`${V1}/auth/register/staged/totp/setup`, { stage_token: stage.stage_token }, { auth: false }));
      assert.match(setup.otpauth_uri, /^otpauth:\/\/totp\//);
      assert.match(setup.qr_svg, /^<svg/);
      const code = await generate({ secret: setup.secret });
      const wrong = await c.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: stage.stage_token, code: code === '000000' ? '111111' : '000000' }, { auth: false });
      assert.equal(problem(c, wrong).code, 'mfa_code_invalid');
      assert.ok(!(await usernames()).includes(username));

      const done = await c.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: stage.stage_token, code }, { auth: false });
      assert.equal(done.status, 201, done.text);
      const made = data(c, done);
      assert.equal(made.recovery_codes.length, 10);
      c.token = made.session.token;
      assert.equal(made.session.user.username, username);
      const status = data(c, await c.get(`${V1}/auth/mfa`));
      assert.equal(status.totp_enabled, true);
      assert.equal(status.recovery_codes_remaining, 10);
      assert.deepEqual(status.session.methods, ['password', 'totp']);
      // The stage is spent; the password now leads to the second step.
      assert.equal(problem(c, await c.post(`${V1}/auth/register/staged/totp/setup`, { stage_token: stage.stage_token }, { auth: false })).code, 'stage_invalid');
      assert.equal(data(c, await c.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false })).requires_mfa, true);
    });
  }

  test('with a passkey: the account is made with it and signs in with it; at a LAN address the passkey way is refused', async () => {
    const c = new Client(srv.url, 'B', { 'x-forwarded-for': '10.44.1.1', ...at(ORIGIN) });
    const username = `stagedkey${++n}`;
    const stage = data(c, await start(c, username));
    const lan = new Client(srv.url, 'B', { 'x-forwarded-for': '10.44.1.1', ...at('http://192.168.1.20:6680') });
    assert.equal(problem(lan, await lan.post(`${V1}/auth/register/staged/passkey/begin`, { stage_token: stage.stage_token }, { auth: false })).code, 'passkey_unavailable');

    const key = new SoftPasskey(ORIGIN);
    const begun = data(c, await c.post(`${V1}/auth/register/staged/passkey/begin`, { stage_token: stage.stage_token }, { auth: false }));
    assert.equal(begun.options.rp.id, 'localhost');
    const evil = new SoftPasskey('https://evil.example');
    const refused = await c.post(`${V1}/auth/register/staged/passkey/verify`, { challenge_token: begun.challenge_token, credential: evil.create(begun.options) }, { auth: false });
    assert.equal(problem(c, refused).code, 'passkey_invalid');
    assert.ok(!(await usernames()).includes(username));

    const again = data(c, await c.post(`${V1}/auth/register/staged/passkey/begin`, { stage_token: stage.stage_token }, { auth: false }));
    const r = await c.post(`${V1}/auth/register/staged/passkey/verify`, { challenge_token: again.challenge_token, credential: key.create(again.options), label: 'Phone' }, { auth: false });
    assert.equal(r.status, 201, r.text);
    const made = data(c, r);
    assert.equal(made.credential.label, 'Phone');
    assert.equal(made.session.user.username, username);

    const out = new Client(srv.url, 'B', at(ORIGIN));
    const login = data(out, await out.post(`${V1}/auth/passkeys/login/begin`, { username }, { auth: false }));
    adopt(out, await out.post(`${V1}/auth/passkeys/login/verify`, { challenge_token: login.challenge_token, credential: key.get(login.options) }, { auth: false }));
    assert.deepEqual(data(out, await out.get(`${V1}/auth/mfa`)).session.methods, ['passkey']);
  });

  test('a stage reserves no name; an expired or abandoned stage leaves no account, no secret', async () => {
    const first = new Client(srv.url, 'A', { 'x-forwarded-for': '10.44.2.1', ...at(ORIGIN) });
    const second = new Client(srv.url, 'A', { 'x-forwarded-for': '10.44.2.2', ...at(ORIGIN) });
    const name = `samename${++n}`;
    const a = data(first, await start(first, name));
    const b = data(second, await start(second, name));
    const setupA = data(first, await first.post(`${V1}/auth/register/staged/totp/setup`, { stage_token: a.stage_token }, { auth: false }));
    const setupB = data(second, await second.post(`${V1}/auth/register/staged/totp/setup`, { stage_token: b.stage_token }, { auth: false }));
    const won = await second.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: b.stage_token, code: await generate({ secret: setupB.secret }) }, { auth: false });
    assert.equal(won.status, 201, won.text);
    const lost = await first.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: a.stage_token, code: await generate({ secret: setupA.secret }) }, { auth: false });
    assert.equal(problem(first, lost).code, 'username_taken');
    assert.equal((await usernames()).filter((u) => u === name).length, 1);

    const ghost = `ghost${++n}`;
    const abandoned = data(first, await start(first, ghost));
    await first.post(`${V1}/auth/register/staged/totp/setup`, { stage_token: abandoned.stage_token }, { auth: false });
    srv.container.db.prepare('UPDATE registration_stages SET expires_at = 1').run();
    const late = await first.post(`${V1}/auth/register/staged/totp/complete`, { stage_token: abandoned.stage_token, code: '123456' }, { auth: false });
    assert.equal(problem(first, late).code, 'stage_invalid');
    srv.container.stagedRegistration.store.prune(Date.now());
    assert.equal((srv.container.db.prepare('SELECT count(*) AS n FROM registration_stages').get() as { n: number }).n, 0, 'the stage and its sealed key are gone');
    assert.ok(!(await usernames()).includes(ghost));
    // The name was never reserved: anyone may still take it.
    assert.equal((await start(second, ghost)).status, 201);
  });
});
