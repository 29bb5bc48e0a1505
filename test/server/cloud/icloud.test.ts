/**
 * iCloud sign-in against Apple's recorded answers (icloudpd's cassettes) replayed on loopback: SRP sign-in
 * with and without two-factor authentication, the verification code (right and wrong), the password
 * sign-in fallback, a wrong password, Apple unavailable, reuse of the stored session, and the clear words
 * for web access off, Advanced Data Protection and an account whose codes cannot reach this flow. No
 * password, token or cookie may appear in a thrown error, the public config or a stored secret.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { ICloudProvider } from '../../../server/src/adapters/cloud/icloud/index.ts';
import { ProviderError, type ProviderState, type SignInOutcome } from '../../../server/src/adapters/cloud/provider.ts';
import { ICloudReplay, bodyOf, jsonInteraction, loadCassette, withBody, type Interaction } from '../helpers/icloud-replay.ts';

const NOW = Date.UTC(2026, 10, 30, 9, 0, 0);
const DAY = 24 * 60 * 60 * 1000;
/** Strings from the cassettes and our inputs that must never show in an error or the public config. */
const SECRETS = ['password1', 'bad_password', 'token-1234567890', 'scnt-1234567890', 'sess-1234567890', '2svtoken', 'BST_IAAAAAAABLw', 'websessiontoken'];

const signal = () => AbortSignal.timeout(30_000);
let replay: ICloudReplay | null = null;

afterEach(async () => {
  await replay?.close();
  replay = null;
});

async function provider(interactions: Interaction[]): Promise<{ icloud: ICloudProvider; replay: ICloudReplay }> {
  replay = await ICloudReplay.start(interactions);
  return { icloud: new ICloudProvider({ endpoints: replay.endpoints(), now: () => NOW }), replay };
}

function assertNoSecret(text: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `"${s}" leaked into: ${text}`);
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ProviderError, `not a ProviderError: ${String(e)}`);
    assertNoSecret(`${e.message} ${JSON.stringify(e.details)}`);
    return e;
  }
  assert.fail('expected a rejection');
}

function connected(outcome: SignInOutcome): ProviderState {
  assert.equal(outcome.status, 'connected');
  assertNoSecret(JSON.stringify(outcome.state.publicConfig) + JSON.stringify(outcome.state.secrets));
  assert.deepEqual(outcome.state.secrets, {});
  return outcome.state;
}

const JDOE = { username: 'JDoe@gmail.com', password: 'password1', domain: 'com' };

describe('iCloud sign-in (recorded exchanges)', () => {
  test('an account without two-factor: SRP, repair, accountLogin → connected, the password sent nowhere', async () => {
    const { icloud, replay } = await provider(loadCassette('auth_non_2fa'));
    const state = connected(await icloud.signIn(JDOE, signal()));
    assert.deepEqual(replay.unmatched(), []);
    assert.equal(state.identity, 'jdoe@gmail.com');
    assert.equal(state.displayName, 'JDoe@gmail.com');
    assert.deepEqual(state.publicConfig, { apple_id: 'J•••@gmail.com', domain: 'com' });
    assert.equal(state.sessionExpiresAt, NOW + 90 * DAY);
    const init = JSON.parse(replay.to('/appleauth/auth/signin/init')[0]!.body) as Record<string, unknown>;
    assert.deepEqual(init.protocols, ['s2k', 's2k_fo']);
    assert.equal(init.accountName, 'JDoe@gmail.com');
    assert.ok(Buffer.from(init.a as string, 'base64').length >= 250, 'A is a 2048-bit number');
    const complete = JSON.parse(replay.to('/appleauth/auth/signin/complete')[0]!.body) as Record<string, unknown>;
    assert.equal(complete.c, 'd-123-456789ab-cdef-0123-4567-89abcdef0123:MSA');
    assert.equal(Buffer.from(complete.m1 as string, 'base64').length, 32);
    assert.equal(Buffer.from(complete.m2 as string, 'base64').length, 32);
    assert.equal(replay.to('/appleauth/auth/repair/complete').length, 1);
    const login = JSON.parse(replay.to('/setup/ws/1/accountLogin')[0]!.body) as Record<string, unknown>;
    assert.equal(login.dsWebAuthToken, 'token-1234567890');
    assert.equal(login.accountCountryCode, 'USA');
    for (const r of replay.received) assert.ok(!r.body.includes('password1'), `${r.path} carried the password`);
    const session = state.session as { auth: Record<string, string>; ckdatabasews: string };
    assert.equal(session.auth.scnt, 'scnt-1234567890');
    assert.ok(session.ckdatabasews.startsWith('http://127.0.0.1:'), session.ckdatabasews);
  });

  test('two-factor: challenge with the masked phone, the right code → trusted and connected', async () => {
    const { icloud, replay } = await provider(loadCassette('2fa_flow_valid_code'));
    const first = await icloud.signIn(JDOE, signal());
    assert.equal(first.status, 'challenge_required');
    assert.ok(first.status === 'challenge_required');
    assert.equal(first.challenge.type, 'verification_code');
    assert.deepEqual(first.challenge.params, { delivery: 'device', phone: '+1 (•••) •••-••81' });
    assert.deepEqual(
      first.challenge.fields.map((f) => [f.name, f.type]),
      [['code', 'code']],
    );
    assert.equal(first.state.sessionExpiresAt, null);
    const state = connected(await icloud.verifyChallenge(first.state, { code: '654321' }, signal()));
    assert.deepEqual(replay.unmatched(), []);
    assert.deepEqual(JSON.parse(replay.to('/appleauth/auth/verify/trusteddevice/securitycode')[0]!.body), { securityCode: { code: '654321' } });
    assert.equal(replay.to('/appleauth/auth/2sv/trust').length, 1);
    const logins = replay.to('/setup/ws/1/accountLogin');
    assert.equal(logins.length, 2);
    assert.equal((JSON.parse(logins[1]!.body) as { trustToken: string }).trustToken, '2svtoken-1234567890');
    assert.equal((state.session as { auth: { trustToken: string } }).auth.trustToken, '2svtoken-1234567890');
    assert.equal(state.sessionExpiresAt, NOW + 90 * DAY);
  });

  test('two-factor: a wrong code → auth_failed', async () => {
    const { icloud, replay } = await provider(loadCassette('2fa_flow_invalid_code'));
    const first = await icloud.signIn(JDOE, signal());
    assert.equal(first.status, 'challenge_required');
    const e = await rejection(icloud.verifyChallenge(first.state, { code: '901431' }, signal()));
    assert.equal(e.code, 'auth_failed');
    assert.deepEqual(JSON.parse(replay.to('/appleauth/auth/verify/trusteddevice/securitycode')[0]!.body), { securityCode: { code: '901431' } });
    assert.equal(replay.to('/appleauth/auth/2sv/trust').length, 0);
  });

  test('a code that is not 6 digits is refused before Apple sees it', async () => {
    const { icloud, replay } = await provider(loadCassette('2fa_flow_valid_code'));
    const first = await icloud.signIn(JDOE, signal());
    const e = await rejection(icloud.verifyChallenge(first.state, { code: '12345' }, signal()));
    assert.equal(e.code, 'bad_input');
    assert.equal(e.details.field, 'code');
    assert.equal(replay.to('/appleauth/auth/verify/trusteddevice/securitycode').length, 0);
  });

  test('a wrong password: SRP refused, the password sign-in refused too → auth_failed', async () => {
    const { icloud, replay } = await provider(loadCassette('failed_auth'));
    const e = await rejection(icloud.signIn({ username: 'bad_username', password: 'bad_password', domain: 'com' }, signal()));
    assert.equal(e.code, 'auth_failed');
    assert.deepEqual(replay.unmatched(), []);
    assert.equal(replay.to('/setup/ws/1/accountLogin').length, 0);
  });

  test('Apple answering 503 → service_unavailable, retryable', async () => {
    const { icloud } = await provider(loadCassette('failed_auth_503'));
    const e = await rejection(icloud.signIn({ username: 'whatever_username', password: 'password1', domain: 'com' }, signal()));
    assert.equal(e.code, 'service_unavailable');
    assert.equal(e.retryable, true);
  });

  test('SRP refused, the password sign-in accepted → connected (the password went to idmsa only)', async () => {
    const { icloud, replay } = await provider(loadCassette('fallback_raw_password'));
    const state = connected(await icloud.signIn(JDOE, signal()));
    assert.deepEqual(replay.unmatched(), []);
    assert.equal(state.identity, 'jdoe@gmail.com');
    const carrying = replay.received.filter((r) => r.body.includes('password1'));
    assert.deepEqual(
      carrying.map((r) => [r.host, r.path]),
      [['idmsa.apple.com', '/appleauth/auth/signin']],
    );
  });

  test('reconnect without a password reuses the stored session (validate) → connected, expiry kept', async () => {
    const first = await provider(loadCassette('auth_non_2fa'));
    const signedIn = connected(await first.icloud.signIn(JDOE, signal()));
    await first.replay.close();
    const { icloud, replay } = await provider(loadCassette('successful_auth'));
    const state = connected(await icloud.reconnect(signedIn, {}, signal()));
    assert.deepEqual(replay.unmatched(), []);
    const validate = replay.to('/setup/ws/1/validate');
    assert.equal(validate.length, 1);
    assert.match(String(validate[0]!.headers.cookie), /X-APPLE-WEBAUTH-LOGIN=/);
    assert.equal(state.sessionExpiresAt, signedIn.sessionExpiresAt);
    assert.equal(replay.received.some((r) => r.path.includes('/signin')), false);
  });

  test('reconnect without a password when Apple refuses the session → session_expired', async () => {
    const first = await provider(loadCassette('auth_non_2fa'));
    const signedIn = connected(await first.icloud.signIn(JDOE, signal()));
    await first.replay.close();
    const { icloud, replay } = await provider([
      // (Not 421, Apple's other refusal: fetch repeats a 421 request by itself, which a replay would count twice.)
      jsonInteraction('POST', 'https://setup.icloud.com/setup/ws/1/validate', 401, { error: 'Unauthorized' }),
      jsonInteraction('POST', 'https://setup.icloud.com/setup/ws/1/accountLogin', 401, { error: 'Unauthorized' }),
    ]);
    const e = await rejection(icloud.reconnect(signedIn, {}, signal()));
    assert.equal(e.code, 'session_expired');
    assert.deepEqual(replay.unmatched(), []);
  });

  test('reconnect with a password signs in again, keeping the trust token', async () => {
    const first = await provider(loadCassette('2fa_flow_valid_code'));
    const challenged = await first.icloud.signIn(JDOE, signal());
    const trusted = connected(await first.icloud.verifyChallenge(challenged.state, { code: '654321' }, signal()));
    await first.replay.close();
    const { icloud, replay } = await provider(loadCassette('auth_non_2fa'));
    const again = connected(await icloud.reconnect(trusted, { password: 'password1' }, signal()));
    assert.deepEqual((JSON.parse(replay.to('/appleauth/auth/signin/complete')[0]!.body) as { trustTokens: string[] }).trustTokens, ['2svtoken-1234567890']);
    assert.equal(again.sessionExpiresAt, trusted.sessionExpiresAt, 'the earlier trust still ends when it did');
  });

  test('signing in again when the trust ends within 14 days leaves it behind: no old token or cookies, the code, a new 90 days', async () => {
    const first = await provider(loadCassette('2fa_flow_valid_code'));
    const challenged = await first.icloud.signIn(JDOE, signal());
    const trusted = connected(await first.icloud.verifyChallenge(challenged.state, { code: '654321' }, signal()));
    await first.replay.close();
    // 80 days on: the trust ends in 10.
    const later = NOW + 80 * DAY;
    replay = await ICloudReplay.start(loadCassette('2fa_flow_valid_code'));
    const icloud = new ICloudProvider({ endpoints: replay.endpoints(), now: () => later });
    const again = await icloud.reconnect(trusted, { password: 'password1' }, signal());
    assert.equal(again.status, 'challenge_required');
    const complete = replay.to('/appleauth/auth/signin/complete')[0]!;
    assert.deepEqual((JSON.parse(complete.body) as { trustTokens: string[] }).trustTokens, []);
    assert.equal(complete.headers.cookie, undefined, 'the old cookies stay behind');
    const renewed = connected(await icloud.verifyChallenge(again.state, { code: '654321' }, signal()));
    assert.equal(renewed.sessionExpiresAt, later + 90 * DAY);
    assert.deepEqual(replay.unmatched(), []);
  });

  test('web access off, and Advanced Data Protection, at accountLogin → web_access_off saying how to turn it on', async () => {
    for (const edit of [
      (b: { dsInfo: Record<string, unknown> }) => void (b.dsInfo.isWebAccessAllowed = false),
      (b: { dsInfo: Record<string, unknown>; iCDPEnabled?: boolean }) => void (b.iCDPEnabled = true),
    ]) {
      const cassette = loadCassette('auth_non_2fa');
      cassette[3] = withBody(cassette[3]!, edit);
      const { icloud } = await provider(cassette);
      const e = await rejection(icloud.signIn(JDOE, signal()));
      assert.equal(e.code, 'web_access_off');
      assert.match(e.message, /Access iCloud Data on the Web/);
      await replay!.close();
      replay = null;
    }
  });

  test('codes only for a device this flow cannot use (no trusted phone, no trusted device) → no_code_delivery', async () => {
    const cassette = loadCassette('2fa_flow_valid_code');
    const page = cassette[2]!;
    const html = page.response.body.string!.replace('"hasTrustedDevices":true', '"hasTrustedDevices":false').replace(/"trustedPhoneNumbers":\[[^\]]*\]/, '"trustedPhoneNumbers":[]');
    cassette[2] = { ...page, response: { ...page.response, body: { string: html } } };
    const { icloud } = await provider(cassette);
    const e = await rejection(icloud.signIn(JDOE, signal()));
    assert.equal(e.code, 'no_code_delivery');
  });

  test('no trusted device but a trusted phone: the code is asked for by SMS and posted to the phone endpoint', async () => {
    const cassette = loadCassette('2fa_flow_valid_code');
    const page = cassette[2]!;
    cassette[2] = { ...page, response: { ...page.response, body: { string: page.response.body.string!.replace('"hasTrustedDevices":true', '"hasTrustedDevices":false') } } };
    // The cassettes hold no SMS exchange: Apple's answers to these two calls are added (200, empty JSON).
    const sms = [
      jsonInteraction('PUT', 'https://idmsa.apple.com/appleauth/auth/verify/phone', 200, {}),
      jsonInteraction('POST', 'https://idmsa.apple.com/appleauth/auth/verify/phone/securitycode', 200, {}),
    ];
    const verifyAt = cassette.findIndex((i) => i.request.uri.endsWith('/verify/trusteddevice/securitycode'));
    cassette.splice(verifyAt, 1, sms[1]!);
    cassette.splice(3, 0, sms[0]!);
    const { icloud, replay } = await provider(cassette);
    const first = await icloud.signIn(JDOE, signal());
    assert.ok(first.status === 'challenge_required');
    assert.deepEqual(first.challenge.params, { delivery: 'sms', phone: '+1 (•••) •••-••81' });
    assert.deepEqual(JSON.parse(replay.to('/appleauth/auth/verify/phone')[0]!.body), { phoneNumber: { id: 1 }, mode: 'sms' });
    connected(await icloud.verifyChallenge(first.state, { code: '123456' }, signal()));
    assert.deepEqual(JSON.parse(replay.to('/appleauth/auth/verify/phone/securitycode')[0]!.body), { phoneNumber: { id: 1 }, securityCode: { code: '123456' }, mode: 'sms' });
    assert.deepEqual(replay.unmatched(), []);
  });

  test('mainland China: the .cn services and origin are used, and the state says so', async () => {
    replay = await ICloudReplay.start(loadCassette('auth_non_2fa'));
    const here = replay.endpoints();
    // Only the cn addresses lead to the replay: a request to a com address would fail to connect.
    const icloud = new ICloudProvider({
      endpoints: { auth: { com: 'http://127.0.0.1:1/appleauth/auth', cn: here.auth!.cn }, setup: { com: 'http://127.0.0.1:1/setup/ws/1', cn: here.setup!.cn } },
    });
    const state = connected(await icloud.signIn({ ...JDOE, domain: 'cn' }, signal()));
    assert.equal(state.publicConfig.domain, 'cn');
    const init = replay.to('/appleauth/auth/signin/init')[0]!;
    assert.equal(init.headers.origin, 'https://www.icloud.com.cn');
    assert.equal(init.headers['x-apple-oauth-redirect-uri'], 'https://www.icloud.com.cn');
    assert.deepEqual(replay.unmatched(), []);
  });

  test('missing inputs are refused by field, before any request', async () => {
    const { icloud, replay } = await provider([]);
    assert.equal((await rejection(icloud.signIn({ username: 'a@b.c', password: '', domain: 'com' }, signal()))).details.field, 'password');
    assert.equal((await rejection(icloud.signIn({ username: '', password: 'x', domain: 'com' }, signal()))).details.field, 'username');
    assert.equal((await rejection(icloud.signIn({ username: 'a@b.c', password: 'x', domain: 'de' }, signal()))).details.field, 'domain');
    assert.equal(replay.received.length, 0);
  });

  test('the descriptor: the form, the code field and the promise about the password', () => {
    const d = new ICloudProvider().descriptor;
    assert.equal(d.id, 'icloud');
    assert.deepEqual(
      d.form_fields.map((f) => [f.name, f.type, f.autocomplete ?? null]),
      [
        ['username', 'email', 'username'],
        ['password', 'password', 'current-password'],
        ['domain', 'select', null],
      ],
    );
    assert.deepEqual(d.form_fields[2]!.options, [
      { label: 'Outside mainland China', value: 'com' },
      { label: 'Mainland China', value: 'cn' },
    ]);
    assert.deepEqual(
      d.challenge_fields.map((f) => [f.name, f.type]),
      [['code', 'code']],
    );
    assert.match(d.security_note, /not stored/);
    assert.match(d.security_note, /90 days/);
    assert.match(d.security_note, /[Nn]othing is changed or deleted/);
    assert.equal(bodyOf(jsonInteraction('GET', 'https://x.icloud.com/', 200, { ok: 1 })).ok, 1);
  });
});
