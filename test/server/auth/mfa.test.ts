/**
 * Two-step sign-in over real HTTP and a real SQLite file, in both response variants: TOTP enrolment
 * behind a step-up proof, the sign-in challenge and verifyMfa, recovery codes, replay and clock drift,
 * the one-time tokens (mfa_token, setup_token, security_token) and what each opens, the access reset,
 * the rate limiter after 100 wrong codes, and that no secret or code is answered or logged again.
 *
 * One server for the file. It trusts X-Forwarded-For (HEARTH_TRUST_PROXY) so each variant, and the
 * rate-limit test, signs in from an address of its own: a lockout of one never answers for another.
 * Codes for chosen times are computed with otplib; a test using several codes of the current step
 * first waits until the step has at least 6 s left, so the server's step is the one the test computed.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { qrSvg } from '../../../server/src/adapters/qr/index.ts';
import { KeyRing } from '../../../server/src/platform/crypto/keys.ts';
import { createLogger } from '../../../server/src/platform/logger.ts';
import { MfaService } from '../../../server/src/features/auth/mfa.service.ts';
import { matchTotpStep } from '../../../server/src/features/auth/totp.ts';
import { Client, startServer, type HttpResult, type TestServer } from '../helpers/server.ts';
import { PASSWORD, V1, adopt, addMember, data, problem, registerAdmin } from '../helpers/api.ts';

const STEP_MS = 30_000;
const shown = new Set<string>(); // every secret, code and one-time token the server answered once
let logText = '';

/** The TOTP code of `secret` at `offset` steps from now (otplib, as an authenticator app would). */
async function codeAt(secret: string, offset: number, nowMs = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor((nowMs + offset * STEP_MS) / 1000) });
}

/** Waits until the current 30 s step has at least 6 s left. */
async function awayFromStepEdge(): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 6_000) await new Promise((r) => setTimeout(r, left + 200));
}

function assertNothingShown(text: string, where: string): void {
  for (const s of shown) assert.ok(!text.includes(s), `${where} repeats a secret, code or token shown once`);
}

describe('two-step sign-in', () => {
  let srv: TestServer;
  let admin: Client;

  before(async () => {
    srv = await startServer({
      env: { HEARTH_TRUST_PROXY: 'true', HEARTH_LOG_LEVEL: 'debug' },
      logTo: { write: (line) => void (logText += line) },
    });
    admin = new Client(srv.url);
    await registerAdmin(admin);
  });
  after(() => srv.stop({ removeData: true }));

  test('a code is accepted from one step before to one step after the server clock, no further', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const t = Date.UTC(2026, 10, 30, 3, 0, 15); // mid-step
    const step = Math.floor(t / STEP_MS);
    for (const offset of [-1, 0, 1]) assert.equal(await matchTotpStep(secret, await codeAt(secret, offset, t), t), step + offset);
    for (const offset of [-2, 2]) assert.equal(await matchTotpStep(secret, await codeAt(secret, offset, t), t), null);
    assert.equal(await matchTotpStep(secret, '12345a', t), null, 'a malformed code is a wrong code, not an error');
    assert.equal(await matchTotpStep(secret, `${(await codeAt(secret, 0, t)).slice(0, 3)} ${(await codeAt(secret, 0, t)).slice(3)}`, t), step, 'spaces ignored');
  });

  for (const variant of ['A', 'B'] as const) {
    describe(`variant ${variant}`, () => {
      const address = variant === 'A' ? '10.27.0.1' : '10.27.0.2';
      let n = 0;

      /** A new member signed in with a client of this variant, from this variant's address. */
      async function member(ip = address) {
        const c = new Client(srv.url, variant, { 'x-forwarded-for': ip });
        const username = `m${variant.toLowerCase()}${++n}`;
        const signed = await addMember(admin, c, username);
        return { c, username, userId: signed.session.user.user_id as number };
      }

      async function stepUp(c: Client, action: string, proof: Record<string, string>): Promise<string> {
        const r = await c.post(`${V1}/auth/security/verify`, { action, ...proof });
        assert.equal(r.status, 200, r.text);
        const p = data(c, r);
        assert.ok(Date.parse(p.expires_at) > Date.now());
        shown.add(p.security_token);
        return p.security_token;
      }

      /** Turns TOTP on with a code one step old (drift), so the current and next steps stay unused. */
      async function enrol(c: Client) {
        const proof = await stepUp(c, 'begin_totp_setup', { password: PASSWORD });
        const setup = data(c, await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: proof }));
        shown.add(setup.secret);
        shown.add(setup.setup_token);
        // The QR code is the otpauth URI's, drawn by the server (no QR service sees the key).
        assert.equal(setup.qr_svg, await qrSvg(setup.otpauth_uri));
        const r = await c.post(`${V1}/auth/mfa/totp/enable`, { setup_token: setup.setup_token, code: await codeAt(setup.secret, -1) });
        assert.equal(r.status, 200, r.text);
        const enabled = data(c, r);
        for (const code of enabled.recovery_codes) shown.add(code);
        c.token = enabled.session.token;
        return { secret: setup.secret as string, setup, enabled, codes: enabled.recovery_codes as string[] };
      }

      async function challenge(c: Client, username: string) {
        const r = await c.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false });
        assert.equal(r.status, 200, r.text);
        const s = data(c, r);
        if (s.mfa_token) shown.add(s.mfa_token);
        return { r, s };
      }

      const verify = (c: Client, body: Record<string, string>) => c.post(`${V1}/auth/mfa/verify`, body, { auth: false });

      test('turning TOTP on: a password proof, the key shown once, the first code, ten recovery codes and a new session', async () => {
        await awayFromStepEdge();
        const { c, username } = await member();
        const before = data(c, await c.get(`${V1}/auth/mfa`));
        assert.deepEqual(
          { ...before, session: { methods: before.session.methods } },
          { totp_enabled: false, available_methods: ['password'], passkey_count: 0, recovery_codes_remaining: 0, recovery_codes_generated_at: null, session: { methods: ['password'] } },
        );
        const noProof = await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: 'made-up' });
        assert.equal(problem(c, noProof).code, 'security_token_invalid');
        assert.equal(noProof.status, 403);
        assert.equal(problem(c, await c.post(`${V1}/auth/security/verify`, { action: 'begin_totp_setup', password: 'wrong password' })).code, 'wrong_password');
        assert.equal(problem(c, await c.post(`${V1}/auth/security/verify`, { action: 'begin_totp_setup', code: '123456' })).code, 'no_second_factor');

        const proof = await stepUp(c, 'begin_totp_setup', { password: PASSWORD });
        const setup = data(c, await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: proof }));
        shown.add(setup.secret);
        shown.add(setup.setup_token);
        assert.equal(setup.account_name, username);
        assert.equal(setup.issuer, 'Hearth');
        assert.match(setup.secret, /^[A-Z2-7]{32}$/);
        const uri = new URL(setup.otpauth_uri);
        assert.equal(uri.protocol, 'otpauth:');
        assert.equal(uri.searchParams.get('secret'), setup.secret);
        assert.equal(uri.searchParams.get('issuer'), 'Hearth');
        assert.ok(Date.parse(setup.expires_at) > Date.now());
        const spent = await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: proof });
        assert.equal(problem(c, spent).code, 'security_token_invalid', 'the proof was spent');

        // Too far from the server's clock, either way: refused, and nothing is enabled.
        for (const offset of [-2, 2]) {
          const far = await c.post(`${V1}/auth/mfa/totp/enable`, { setup_token: setup.setup_token, code: await codeAt(setup.secret, offset) });
          assert.equal(problem(c, far).code, 'mfa_code_invalid');
        }
        assert.equal(data(c, await c.get(`${V1}/auth/mfa`)).totp_enabled, false, 'nothing half-enrolled');

        const oldToken = c.token;
        const r = await c.post(`${V1}/auth/mfa/totp/enable`, { setup_token: setup.setup_token, code: await codeAt(setup.secret, -1) });
        assert.equal(r.status, 200, r.text);
        const enabled = data(c, r);
        for (const code of enabled.recovery_codes) shown.add(code);
        assert.equal(enabled.recovery_codes.length, 10);
        assert.equal(new Set(enabled.recovery_codes).size, 10);
        for (const code of enabled.recovery_codes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
        assert.ok(enabled.session.token && enabled.session.token !== oldToken);
        assert.equal(enabled.session.requires_mfa, false);
        if (variant === 'A') assert.match(r.headers.getSetCookie().join('\n'), /hearth_refresh=/, 'the new session replaces the cookie');
        else assert.equal(typeof enabled.session.refresh_token, 'string');
        assert.equal(enabled.status.totp_enabled, true);
        assert.equal(enabled.status.recovery_codes_remaining, 10);
        assert.equal(enabled.status.recovery_codes_generated_at, enabled.generated_at);
        assert.deepEqual(enabled.status.session.methods, ['password', 'totp']);

        // The session that existed before the second factor has ended; the new one works.
        assert.equal((await c.get(`${V1}/auth/me`, { headers: { authorization: `Bearer ${oldToken}` } })).status, 401);
        c.token = enabled.session.token;
        const status = await c.get(`${V1}/auth/mfa`);
        assert.deepEqual(data(c, status).available_methods, ['totp', 'recovery_code']);
        assertNothingShown(status.text, 'getMfaStatus');
        const again = await c.post(`${V1}/auth/mfa/totp/enable`, { setup_token: setup.setup_token, code: await codeAt(setup.secret, 0) });
        assert.equal(problem(c, again).code, 'setup_token_invalid', 'a setup is used once');
        assert.equal(problem(c, await c.post(`${V1}/auth/security/verify`, { action: 'begin_totp_setup', password: PASSWORD })).code, 'second_factor_required');
        const proof2 = await stepUp(c, 'begin_totp_setup', { code: await codeAt(setup.secret, 0) });
        assert.equal(problem(c, await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: proof2 })).code, 'totp_already_enabled');
      });

      test('signing in with TOTP on answers the challenge and no session; a code completes it, and opens nothing twice', async () => {
        await awayFromStepEdge();
        const { c, username } = await member();
        const { secret } = await enrol(c);
        const out = new Client(srv.url, variant, { 'x-forwarded-for': address });
        const { r, s } = await challenge(out, username);
        assert.equal(s.requires_mfa, true);
        assert.equal(s.token, null);
        assert.equal(typeof s.mfa_token, 'string');
        assert.deepEqual(s.mfa_methods, ['totp', 'recovery_code']);
        assert.equal(r.headers.getSetCookie().length, 0, 'no refresh cookie before the second step');
        assert.equal(s.refresh_token, undefined);
        assertNothingShown(r.text.replace(s.mfa_token, ''), 'the challenge');

        // The mfa_token opens nothing but verifyMfa.
        assert.equal((await out.get(`${V1}/auth/me`, { headers: { authorization: `Bearer ${s.mfa_token}` } })).status, 401);
        const asPasswordChange = await out.post(`${V1}/auth/password-change/complete`, { password_change_token: s.mfa_token, new_password: 'another long password' });
        assert.equal(problem(out, asPasswordChange).code, 'password_change_token_invalid');
        const asRefresh = await out.post(`${V1}/auth/refresh`, variant === 'B' ? { refresh_token: s.mfa_token } : undefined, {
          headers: variant === 'A' ? { cookie: `hearth_refresh=${s.mfa_token}` } : {},
        });
        // Variant A: no CSRF token can be made for it (403); variant B: no such session (401).
        assert.ok(['csrf_invalid', 'session_ended'].includes(problem(out, asRefresh).code));

        const asProof = await c.post(`${V1}/auth/mfa/totp/disable`, { security_token: s.mfa_token });
        assert.equal(problem(c, asProof).code, 'security_token_invalid');
        // The login options probe does not tell that this account has TOTP on.
        const probe = (name: string) => out.post(`${V1}/auth/login/options`, { username: name });
        assert.deepEqual(data(out, await probe(username)), data(out, await probe('nobody-here')));

        const missing = await verify(out, { mfa_token: s.mfa_token });
        assert.equal(missing.status, 422);
        const done = await verify(out, { mfa_token: s.mfa_token, code: await codeAt(secret, 0) });
        const signed = adopt(out, done);
        assert.equal(signed.session.requires_mfa, false);
        if (variant === 'A') assert.match(done.headers.getSetCookie().join('\n'), /hearth_refresh=/);
        else assert.equal(typeof signed.refreshToken, 'string');
        assertNothingShown(done.text, 'verifyMfa');
        const me = await out.get(`${V1}/auth/me`);
        assert.equal(data(out, me).username, username);
        assert.deepEqual(data(out, await out.get(`${V1}/auth/mfa`)).session.methods, ['password', 'totp']);
        const list = await admin.get(`${V1}/users?limit=100`);
        assertNothingShown(list.text, "the administrator's user list");
        // It tells the administrator which accounts have a second factor, and nothing more.
        const listed = (data(admin, list).users as { username: string; stats: { second_factors: string[] } }[]).find((u) => u.username === username);
        assert.deepEqual(listed?.stats.second_factors, ['totp']);

        const twice = await verify(out, { mfa_token: s.mfa_token, code: await codeAt(secret, 1) });
        assert.equal(problem(out, twice).code, 'mfa_token_invalid');
        assert.equal(twice.status, 401);
      });

      test('a code is accepted once: a replayed or older code is refused; +1 step accepted, ±2 refused', async () => {
        await awayFromStepEdge();
        const { c, username } = await member();
        const { secret } = await enrol(c); // used the code one step old
        const now = await codeAt(secret, 0);
        const first = await challenge(c, username);
        adopt(c, await verify(c, { mfa_token: first.s.mfa_token, code: now }));

        const second = await challenge(c, username);
        const replay = await verify(c, { mfa_token: second.s.mfa_token, code: now });
        assert.equal(problem(c, replay).code, 'mfa_code_reused');
        const older = await verify(c, { mfa_token: second.s.mfa_token, code: await codeAt(secret, -1) });
        assert.equal(problem(c, older).code, 'mfa_code_reused');
        const tooOld = await verify(c, { mfa_token: second.s.mfa_token, code: await codeAt(secret, -2) });
        assert.equal(problem(c, tooOld).code, 'mfa_code_invalid');
        const tooNew = await verify(c, { mfa_token: second.s.mfa_token, code: await codeAt(secret, 2) });
        assert.equal(problem(c, tooNew).code, 'mfa_code_invalid');
        // The challenge survives wrong codes (within the rate limit): the next step's code completes it.
        adopt(c, await verify(c, { mfa_token: second.s.mfa_token, code: await codeAt(secret, 1) }));
        const third = await challenge(c, username);
        assert.equal(problem(c, await verify(c, { mfa_token: third.s.mfa_token, code: await codeAt(secret, 1) })).code, 'mfa_code_reused');
      });

      test('the same code sent twice at once signs in once; a code one step behind the server clock is accepted', async () => {
        await awayFromStepEdge();
        const { c, username } = await member();
        const { secret } = await enrol(c);
        const { s } = await challenge(c, username);
        const code = await codeAt(secret, 0);
        const both = await Promise.all([verify(c, { mfa_token: s.mfa_token, code }), verify(c, { mfa_token: s.mfa_token, code })]);
        assert.deepEqual(both.map((r) => r.status).sort(), [200, 401]);
        const refused = both.find((r) => r.status === 401)!;
        assert.ok(['mfa_code_reused', 'mfa_token_invalid'].includes(problem(c, refused).code));

        // The server's clock one minute on (two steps): this step's code is two steps behind it (refused),
        // the next step's one step behind (accepted).
        const later = new MfaService(srv.container.db, srv.container.auth, KeyRing.fromFile(path.join(srv.dataDir, 'secret.key')), createLogger('silent'), () => Date.now() + 60_000);
        const next = await challenge(c, username);
        const client = { ip: address, isLocal: false, userAgent: null };
        await assert.rejects(later.verifyMfa({ mfa_token: next.s.mfa_token, code: await codeAt(secret, 0) }, client), (e: { code?: string }) => e.code === 'mfa_code_invalid');
        const signed = await later.verifyMfa({ mfa_token: next.s.mfa_token, code: await codeAt(secret, 1) }, client);
        assert.ok('token' in signed && signed.token);
      });

      test('a recovery code signs in once, typed in any case; the count left goes down', async () => {
        const { c, username } = await member();
        const { codes } = await enrol(c);
        const { s } = await challenge(c, username);
        const typed = ` ${codes[0]!.toUpperCase().replace('-', ' ')} `;
        const signed = adopt(c, await verify(c, { mfa_token: s.mfa_token, recovery_code: typed }));
        assert.equal(signed.session.user.username, username);
        const status = data(c, await c.get(`${V1}/auth/mfa`));
        assert.equal(status.recovery_codes_remaining, 9);
        assert.deepEqual(status.session.methods, ['password', 'recovery_code']);

        const again = await challenge(c, username);
        assert.equal(problem(c, await verify(c, { mfa_token: again.s.mfa_token, recovery_code: codes[0]! })).code, 'mfa_code_invalid');
        assert.equal(problem(c, await verify(c, { mfa_token: again.s.mfa_token, recovery_code: 'not-a-code' })).code, 'mfa_code_invalid');
        assert.equal((await verify(c, { mfa_token: again.s.mfa_token, code: '000000', recovery_code: codes[1]! })).status, 422);
        adopt(c, await verify(c, { mfa_token: again.s.mfa_token, recovery_code: codes[1]! }));
        assert.equal(data(c, await c.get(`${V1}/auth/mfa`)).recovery_codes_remaining, 8);
      });

      test("an mfa_token is bound to its account and expires", async () => {
        await awayFromStepEdge();
        const x = await member();
        const y = await member();
        await enrol(x.c);
        const ySecret = (await enrol(y.c)).secret;
        const { s } = await challenge(x.c, x.username);
        const crossed = await verify(x.c, { mfa_token: s.mfa_token, code: await codeAt(ySecret, 0) });
        assert.equal(problem(x.c, crossed).code, 'mfa_code_invalid', "another account's code does not complete this sign-in");

        // The server's clock 6 minutes later (the challenge lives 5): the same token is refused.
        const later = new MfaService(srv.container.db, srv.container.auth, KeyRing.fromFile(path.join(srv.dataDir, 'secret.key')), createLogger('silent'), () => Date.now() + 6 * 60_000);
        const ylater = await challenge(y.c, y.username);
        await assert.rejects(
          later.verifyMfa({ mfa_token: ylater.s.mfa_token, code: await codeAt(ySecret, 12) }, { ip: '10.27.9.9', isLocal: false, userAgent: null }),
          (e: { code?: string }) => e.code === 'mfa_token_invalid',
        );
      });

      test('a step-up token is spent on use, for its own action and account, and expires', async () => {
        await awayFromStepEdge();
        const x = await member();
        const y = await member();
        const { secret, codes } = await enrol(x.c);
        await enrol(y.c);
        assert.equal((await x.c.post(`${V1}/auth/security/verify`, { action: 'disable_totp' })).status, 422, 'one proof is needed');
        assert.equal((await x.c.post(`${V1}/auth/security/verify`, { action: 'disable_totp', code: '1', recovery_code: 'x' })).status, 422);
        assert.equal((await x.c.post(`${V1}/auth/security/verify`, { action: 'open_everything', code: '123456' })).status, 422);

        const forRegen = await stepUp(x.c, 'regenerate_recovery_codes', { recovery_code: codes[0]! });
        assert.equal(problem(x.c, await x.c.post(`${V1}/auth/mfa/totp/disable`, { security_token: forRegen })).code, 'security_token_invalid', 'another action');
        assert.equal(problem(y.c, await y.c.post(`${V1}/auth/mfa/recovery-codes`, { security_token: forRegen })).code, 'security_token_invalid', 'another account');
        const r = await x.c.post(`${V1}/auth/mfa/recovery-codes`, { security_token: forRegen });
        assert.equal(r.status, 200, r.text);
        const fresh = data(x.c, r);
        for (const code of fresh.recovery_codes) shown.add(code);
        assert.equal(fresh.recovery_codes.length, 10);
        assert.equal(fresh.status.recovery_codes_remaining, 10);
        assert.ok(!fresh.recovery_codes.some((code: string) => codes.includes(code)));
        const oldToken = x.c.token;
        x.c.token = fresh.session.token;
        assert.equal((await x.c.get(`${V1}/auth/me`, { headers: { authorization: `Bearer ${oldToken}` } })).status, 401, 'other sessions ended');
        assert.equal(problem(x.c, await x.c.post(`${V1}/auth/mfa/recovery-codes`, { security_token: forRegen })).code, 'security_token_invalid', 'spent');
        const old = await x.c.post(`${V1}/auth/security/verify`, { action: 'disable_totp', recovery_code: codes[1]! });
        assert.equal(problem(x.c, old).code, 'mfa_code_invalid', 'the replaced codes stopped working');

        // Made now, spent 6 minutes later (a proof lives 5): refused.
        const proof = await stepUp(x.c, 'disable_totp', { code: await codeAt(secret, 0) });
        const later = new MfaService(srv.container.db, srv.container.auth, KeyRing.fromFile(path.join(srv.dataDir, 'secret.key')), createLogger('silent'), () => Date.now() + 6 * 60_000);
        const actor = { userId: x.userId, username: x.username, role: 'user' as const, sessionId: 'none', via: 'bearer' as const };
        assert.throws(() => later.disableTotp(actor, { security_token: proof }), (e: { code?: string }) => e.code === 'security_token_invalid');
      });

      test('turning TOTP off needs a proof, deletes the recovery codes, and sign-in needs the password only', async () => {
        await awayFromStepEdge();
        const { c, username } = await member();
        const { secret, codes } = await enrol(c);
        assert.equal(problem(c, await c.post(`${V1}/auth/mfa/totp/disable`, { security_token: 'x' })).code, 'security_token_invalid');
        const proof = await stepUp(c, 'disable_totp', { code: await codeAt(secret, 0) });
        const r = await c.post(`${V1}/auth/mfa/totp/disable`, { security_token: proof });
        const status = data(c, r);
        assert.equal(r.status, 200);
        assert.equal(status.totp_enabled, false);
        assert.equal(status.recovery_codes_remaining, 0);
        assert.deepEqual(status.available_methods, ['password']);
        assert.equal(problem(c, await c.post(`${V1}/auth/mfa/totp/disable`, { security_token: proof })).code, 'totp_not_enabled');
        assert.equal(problem(c, await c.post(`${V1}/auth/mfa/recovery-codes`, { security_token: proof })).code, 'totp_not_enabled');
        const signIn = await c.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false });
        assert.equal(data(c, signIn).requires_mfa, false);
        adopt(c, signIn);
        assert.equal(problem(c, await c.post(`${V1}/auth/security/verify`, { action: 'disable_totp', recovery_code: codes[2]! })).code, 'no_second_factor');
      });

      test("an administrator's access reset clears TOTP and the recovery codes", async () => {
        const { c, username, userId } = await member();
        await enrol(c);
        const reset = data(admin, await admin.post(`${V1}/users/${userId}/reset-access`));
        const signIn = data(c, await c.post(`${V1}/auth/login`, { username, password: reset.temporary_password }, { auth: false }));
        assert.equal(signIn.requires_mfa, false, 'the lost phone is no longer asked for');
        assert.equal(signIn.requires_password_change, true);
        const changed = await c.post(`${V1}/auth/password-change/complete`, { password_change_token: signIn.password_change_token, new_password: PASSWORD });
        adopt(c, changed);
        const status = data(c, await c.get(`${V1}/auth/mfa`));
        assert.equal(status.totp_enabled, false);
        assert.equal(status.recovery_codes_remaining, 0);
      });

      test('100 wrong codes in a row: the rate limiter answers, and then even the right code waits', async () => {
        const ip = variant === 'A' ? '10.27.1.1' : '10.27.1.2';
        const { c, username } = await member(ip);
        const { secret } = await enrol(c);
        const { s } = await challenge(c, username);
        const statuses: number[] = [];
        let last: HttpResult | null = null;
        for (let i = 0; i < 100; i++) {
          last = await verify(c, { mfa_token: s.mfa_token, code: String(100000 + i * 7) });
          const p = problem(c, last);
          assert.ok(['mfa_code_invalid', 'rate_limited'].includes(p.code), p.code);
          statuses.push(last.status);
        }
        assert.equal(statuses[0], 401);
        assert.equal(statuses.filter((x) => x === 429).length, 92, 'the 9th attempt on is refused unchecked (8 failures lock the account)');
        assert.ok(Number(last!.headers.get('retry-after')) > 0);
        const right = await verify(c, { mfa_token: s.mfa_token, code: await codeAt(secret, 0) });
        assert.equal(problem(c, right).code, 'rate_limited');
        // The lockout is the account's: another address is refused too.
        const elsewhere = new Client(srv.url, variant, { 'x-forwarded-for': '10.27.2.2' });
        assert.equal((await verify(elsewhere, { mfa_token: s.mfa_token, code: await codeAt(secret, 0) })).status, 429);
      });
    });
  }

  test('no secret, code or one-time token was ever logged', () => {
    assert.ok(shown.size > 50, `the tests showed ${shown.size} secrets`);
    assert.match(logText, /two-step sign-in turned on/, 'the log was captured');
    assertNothingShown(logText, 'the log');
  });
});
