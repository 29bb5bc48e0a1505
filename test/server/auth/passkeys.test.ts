/**
 * Passkeys over real HTTP and a real SQLite file, in both response variants, with a software
 * authenticator (helpers/soft-authenticator.ts): which addresses can use them, enrolment, sign-in on
 * its own and as the second step after a password, step-up proofs and removal, the access reset, and
 * the wrong answers: another challenge, origin or rp id, no user verification, a counter that went
 * backwards, a ceremony answered twice, another member's passkey.
 *
 * One server for the file, trusting X-Forwarded-* (HEARTH_TRUST_PROXY): each client says which address
 * the "browser" has open (`x-forwarded-proto`, `x-forwarded-host`), as a reverse proxy would.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { relyingPartyAt } from '../../../server/src/features/auth/relying-party.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, V1, adopt, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { SoftPasskey, openAt } from '../helpers/soft-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const at = openAt;

describe('passkeys', () => {
  let srv: TestServer;
  let admin: Client;
  let n = 0;

  before(async () => {
    srv = await startServer({ env: { HEARTH_TRUST_PROXY: 'true' } });
    admin = new Client(srv.url, 'A', at(ORIGIN));
    await registerAdmin(admin);
  });
  after(() => srv.stop({ removeData: true }));

  async function member(variant: 'A' | 'B', ip: string) {
    const c = new Client(srv.url, variant, { 'x-forwarded-for': ip, ...at(ORIGIN) });
    const username = `p${variant.toLowerCase()}${++n}`;
    const signed = await addMember(admin, c, username);
    return { c, username, userId: signed.session.user.user_id as number };
  }

  async function enrol(c: Client, label = 'My phone') {
    const key = new SoftPasskey(ORIGIN);
    const begun = data(c, await c.post(`${V1}/auth/passkeys/enrollment/begin`));
    const r = await c.post(`${V1}/auth/passkeys/enrollment/verify`, { challenge_token: begun.challenge_token, credential: key.create(begun.options), label });
    assert.equal(r.status, 200, r.text);
    const added = data(c, r);
    c.token = added.session.token;
    return { key, added, options: begun.options };
  }

  const beginLogin = async (c: Client, body: Record<string, string>) => data(c, await c.post(`${V1}/auth/passkeys/login/begin`, body, { auth: false }));
  const verifyLogin = (c: Client, challenge_token: string, credential: unknown) =>
    c.post(`${V1}/auth/passkeys/login/verify`, { challenge_token, credential }, { auth: false });

  test('only a secure context with a name can use passkeys: what each address is told, and the ceremony refused elsewhere', async () => {
    assert.deepEqual(relyingPartyAt('https://photos.example.org').unavailableReason, null);
    const cases: [string, boolean, string | null, boolean][] = [
      ['http://localhost:8080', true, null, false],
      ['https://hearth.lan', true, null, false],
      ['http://hearth.lan:8080', false, 'insecure_transport', true],
      ['http://192.168.1.20:8080', false, 'ip_address', true],
      ['https://192.168.1.20', false, 'ip_address', false],
    ];
    for (const [origin, available, reason, insecure] of cases) {
      const c = new Client(srv.url, 'B', at(origin));
      const caps = data(c, await c.get(`${V1}/auth/browser-capabilities`));
      assert.deepEqual(caps, { current_origin: new URL(origin).origin, insecure_transport: insecure, passkey_available: available, passkey_unavailable_reason: reason }, origin);
    }
    const { c } = await member('A', '10.33.0.9');
    const lan = new Client(srv.url, 'A', { ...at('http://192.168.1.20:8080'), authorization: `Bearer ${c.token}` });
    assert.equal(problem(lan, await lan.post(`${V1}/auth/passkeys/enrollment/begin`)).code, 'passkey_unavailable');
    // A page of another origin cannot start a ceremony for this one.
    const elsewhere = await c.post(`${V1}/auth/passkeys/enrollment/begin`, undefined, { headers: { origin: 'https://evil.example' } });
    assert.equal(problem(c, elsewhere).code, 'origin_mismatch');
  });

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: enrol, list, sign in with the passkey alone; the login probe tells passkey, not whether a name exists`, async () => {
      const { c, username } = await member(variant, variant === 'A' ? '10.33.1.1' : '10.33.1.2');
      const out = new Client(srv.url, variant, at(ORIGIN));
      assert.deepEqual(data(out, await out.post(`${V1}/auth/login/options`, { username })), { password: true, passkey: false });
      const { key, added, options } = await enrol(c);
      assert.equal(options.rp.id, 'localhost');
      assert.equal(options.authenticatorSelection.userVerification, 'required');
      assert.equal(added.credential.label, 'My phone');
      assert.equal(added.credential.rp_id, 'localhost');
      assert.equal(typeof added.session.token, 'string');
      const list = data(c, await c.get(`${V1}/auth/passkeys`));
      assert.equal(list.total, 1);
      assert.deepEqual(list.credentials[0].transports, ['internal']);
      const status = data(c, await c.get(`${V1}/auth/mfa`));
      assert.equal(status.passkey_count, 1);
      assert.ok(status.available_methods.includes('passkey'));
      assert.deepEqual(data(out, await out.post(`${V1}/auth/login/options`, { username })), { password: true, passkey: true });
      assert.deepEqual(data(out, await out.post(`${V1}/auth/login/options`, { username: 'nobody-at-all' })), { password: true, passkey: false });
      // The password alone still signs in (a passkey works at its own address only).
      assert.equal(data(out, await out.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false })).requires_mfa, false);

      const begun = await beginLogin(out, { username });
      assert.deepEqual(begun.options.allowCredentials.map((a: { id: string }) => a.id), [key.id]);
      const unknown = await beginLogin(out, { username: 'nobody-at-all' });
      assert.deepEqual(Object.keys(unknown).sort(), Object.keys(begun).sort());
      assert.deepEqual(unknown.options.allowCredentials ?? [], []);
      const signed = adopt(out, await verifyLogin(out, begun.challenge_token, key.get(begun.options)));
      assert.equal(signed.session.user.username, username);
      assert.deepEqual(data(out, await out.get(`${V1}/auth/mfa`)).session.methods, ['passkey']);
      // Discoverable: begun without a name, the passkey says whose it is.
      const anyone = await beginLogin(out, {});
      adopt(out, await verifyLogin(out, anyone.challenge_token, key.get(anyone.options)));
      assert.ok(data(c, await c.get(`${V1}/auth/passkeys`)).credentials[0].last_used_at);
      // The same passkey cannot be added twice.
      const again = data(c, await c.post(`${V1}/auth/passkeys/enrollment/begin`));
      assert.deepEqual(again.options.excludeCredentials.map((e: { id: string }) => e.id), [key.id]);
    });
  }

  test('wrong answers: another challenge, origin or rp id, no user verification, a counter gone backwards, a ceremony answered twice', async () => {
    const { c, username } = await member('B', '10.33.2.1');
    const { key } = await enrol(c);
    const out = new Client(srv.url, 'B', { 'x-forwarded-for': '10.33.2.2', ...at(ORIGIN) });
    const tries: [string, Parameters<SoftPasskey['get']>[1], string][] = [
      ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }, 'passkey_invalid'],
      ['another origin', { origin: 'https://evil.example' }, 'passkey_invalid'],
      ['another rp id', { rpId: 'evil.example' }, 'passkey_invalid'],
      ['no user verification', { userVerified: false }, 'passkey_invalid'],
    ];
    for (const [what, knobs, code] of tries) {
      const begun = await beginLogin(out, { username });
      const r = await verifyLogin(out, begun.challenge_token, key.get(begun.options, knobs));
      assert.equal(r.status, 401, what);
      assert.equal(problem(out, r).code, code, what);
      // The ceremony was spent by the wrong answer.
      const retry = await verifyLogin(out, begun.challenge_token, key.get(begun.options));
      assert.equal(problem(out, retry).code, 'challenge_invalid', `${what}: answered twice`);
    }
    const good = await beginLogin(out, { username });
    adopt(out, await verifyLogin(out, good.challenge_token, key.get(good.options, { counter: 10 })));
    const behind = await beginLogin(out, { username });
    const r = await verifyLogin(out, behind.challenge_token, key.get(behind.options, { counter: 9 }));
    assert.equal(problem(out, r).code, 'passkey_counter');
    // An expired ceremony opens nothing, however right the answer.
    const stale = await beginLogin(out, { username });
    srv.container.db.prepare('UPDATE webauthn_ceremonies SET expires_at = 1 WHERE used_at IS NULL').run();
    assert.equal(problem(out, await verifyLogin(out, stale.challenge_token, key.get(stale.options))).code, 'challenge_invalid');
    // Malformed answers are 4xx, never a 500.
    const junk = await beginLogin(out, { username });
    const bad = await verifyLogin(out, junk.challenge_token, { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: '!!' } });
    assert.equal(bad.status, 401);
    assert.equal((await out.post(`${V1}/auth/passkeys/login/verify`, { challenge_token: junk.challenge_token }, { auth: false })).status, 422);
    // An enrolment answer with another origin is refused, and adds nothing.
    const begun = data(c, await c.post(`${V1}/auth/passkeys/enrollment/begin`));
    const other = new SoftPasskey('https://evil.example');
    const refused = await c.post(`${V1}/auth/passkeys/enrollment/verify`, { challenge_token: begun.challenge_token, credential: other.create(begun.options) });
    assert.equal(problem(c, refused).code, 'passkey_invalid');
    assert.equal(data(c, await c.get(`${V1}/auth/passkeys`)).total, 1);
  });

  test('the second step after a password: a passkey completes the TOTP sign-in, and spends its mfa_token', async () => {
    const { c, username } = await member('A', '10.33.3.1');
    const { key } = await enrol(c);
    // Turn TOTP on (password proof, setup, first code).
    const proof = data(c, await c.post(`${V1}/auth/security/verify`, { action: 'begin_totp_setup', password: PASSWORD })).security_token;
    const setup = data(c, await c.post(`${V1}/auth/mfa/totp/setup`, { security_token: proof }));
    const enabled = data(c, await c.post(`${V1}/auth/mfa/totp/enable`, { setup_token: setup.setup_token, code: await generate({ secret: setup.secret }) }));
    c.token = enabled.session.token;

    const out = new Client(srv.url, 'A', { 'x-forwarded-for': '10.33.3.2', ...at(ORIGIN) });
    const challenge = data(out, await out.post(`${V1}/auth/login`, { username, password: PASSWORD }, { auth: false }));
    assert.equal(challenge.requires_mfa, true);
    assert.ok(challenge.mfa_methods.includes('passkey'));
    const begun = await beginLogin(out, { mfa_token: challenge.mfa_token });
    assert.deepEqual(begun.options.allowCredentials.map((a: { id: string }) => a.id), [key.id]);
    adopt(out, await verifyLogin(out, begun.challenge_token, key.get(begun.options)));
    assert.deepEqual(data(out, await out.get(`${V1}/auth/mfa`)).session.methods, ['password', 'passkey']);
    const reused = await out.post(`${V1}/auth/mfa/verify`, { mfa_token: challenge.mfa_token, recovery_code: enabled.recovery_codes[0] }, { auth: false });
    assert.equal(problem(out, reused).code, 'mfa_token_invalid');
    assert.equal(problem(out, await out.post(`${V1}/auth/passkeys/login/begin`, { mfa_token: 'made-up' }, { auth: false })).code, 'mfa_token_invalid');
  });

  test('removal needs a step-up proof (a passkey can make it), ends the other sessions; another member cannot touch it; a reset clears passkeys', async () => {
    const { c, userId } = await member('B', '10.33.4.1');
    const { key, added } = await enrol(c);
    const second = await enrol(c, 'Laptop');
    const otherDevice = new Client(srv.url, 'B', at(ORIGIN));
    const begun = await beginLogin(otherDevice, {});
    adopt(otherDevice, await verifyLogin(otherDevice, begun.challenge_token, key.get(begun.options)));

    const id = added.credential.passkey_id;
    const stranger = (await member('B', '10.33.4.2')).c;
    assert.equal(problem(stranger, await stranger.req('DELETE', `${V1}/auth/passkeys/${id}`, { json: { security_token: 'x' } })).status, 404);
    assert.equal(problem(c, await c.req('DELETE', `${V1}/auth/passkeys/${id}`, { json: { security_token: 'made-up' } })).code, 'security_token_invalid');

    const step = data(c, await c.post(`${V1}/auth/security/passkey/begin`));
    const proofAnswer = { challenge_token: step.challenge_token, credential: second.key.get(step.options) };
    const proof = data(c, await c.post(`${V1}/auth/security/verify`, { action: 'delete_passkey', passkey: proofAnswer }));
    const again = await c.post(`${V1}/auth/security/verify`, { action: 'delete_passkey', passkey: proofAnswer });
    assert.equal(problem(c, again).code, 'challenge_invalid');
    const removed = data(c, await c.req('DELETE', `${V1}/auth/passkeys/${id}`, { json: { security_token: proof.security_token } }));
    c.token = removed.session.token;
    assert.equal(removed.status.passkey_count, 1);
    assert.equal(problem(c, await c.req('DELETE', `${V1}/auth/passkeys/${second.added.credential.passkey_id}`, { json: { security_token: proof.security_token } })).code, 'security_token_invalid');
    assert.equal((await otherDevice.get(`${V1}/auth/me`)).status, 401, 'the other device was signed out');
    // The removed passkey signs in no more.
    const gone = await beginLogin(otherDevice, {});
    assert.equal(problem(otherDevice, await verifyLogin(otherDevice, gone.challenge_token, key.get(gone.options))).code, 'passkey_invalid');

    const list = data(admin, await admin.get(`${V1}/users?limit=100`)).users.find((u: { user_id: number }) => u.user_id === userId);
    assert.deepEqual(list.stats.second_factors, ['passkey']);
    data(admin, await admin.post(`${V1}/users/${userId}/reset-access`));
    const after = data(admin, await admin.get(`${V1}/users?limit=100`)).users.find((u: { user_id: number }) => u.user_id === userId);
    assert.deepEqual(after.stats.second_factors, []);
    const late = await beginLogin(otherDevice, {});
    assert.equal(problem(otherDevice, await verifyLogin(otherDevice, late.challenge_token, second.key.get(late.options))).code, 'passkey_invalid');
  });
});
