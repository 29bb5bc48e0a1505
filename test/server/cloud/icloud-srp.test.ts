/**
 * The SRP-6a arithmetic of the iCloud sign-in: the RFC 5054 Appendix B vector (SHA-1, 1024-bit group, the
 * identity in x) checks the building blocks; a vector from the SRP library icloudpd signs in with checks
 * Apple's variant of the proofs; a server side written here (S = (A·v^u)^b) checks that Apple's
 * variant (SHA-256, 2048-bit group, no identity in x, PBKDF2 password key) gives the proofs a server that
 * holds the verifier expects, for both password protocols, and different ones for a wrong password. Then the
 * provider signs in over HTTP to a loopback idmsa written here, which checks M1 and M2 as Apple does (the
 * recorded exchanges cannot: their server values are sanitised).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ICloudProvider } from '../../../server/src/adapters/cloud/icloud/index.ts';
import { ProviderError } from '../../../server/src/adapters/cloud/provider.ts';
import {
  APPLE_SRP,
  answerChallenge,
  bigFromBytes,
  bytesFromBig,
  clientSecret,
  multiplier,
  passwordKey,
  privateKey,
  proofs,
  publicEphemeral,
  scrambler,
  serverPublic,
  serverSecret,
  startClient,
  verifier,
  type SrpParams,
} from '../../../server/src/adapters/cloud/icloud/srp.ts';

const hex = (s: string) => BigInt('0x' + s.replace(/\s+/g, ''));

const RFC_1024: SrpParams = {
  group: {
    N: hex(
      'EEAF0AB9ADB38DD69C33F80AFA8FC5E86072618775FF3C0B9EA2314C9C256576D674DF7496EA81D3383B4813D692C6E0E0D5D8E250B98BE48E495C1D6089DAD1' +
        '5DC7D7B46154D6B6CE8EF4AD69B15D4982559B297BCF1885C529F566660E57EC68EDBC3C05726CC02FD4CBF4976EAA9AFD5138FE8376435B9FC61D2FC0EB06E3',
    ),
    g: 2n,
  },
  hash: 'sha1',
  identityInX: true,
};

describe('SRP-6a: RFC 5054 Appendix B', () => {
  const salt = Buffer.from('BEB25379D1A8581EB5A727673A2441EE', 'hex');
  const a = hex('60975527 035CF2AD 1989806F 0407210B C81EDC04 E2762A56 AFD529DD DA2D4393');
  const b = hex('E487CB59 D31AC550 471E81F0 0F6928E0 1DDA08E9 74A004F4 9E61F5D1 05284D20');
  const x = privateKey(RFC_1024, salt, 'alice', Buffer.from('password123'));
  const v = verifier(RFC_1024, x);
  const A = publicEphemeral(RFC_1024, a);
  const B = serverPublic(RFC_1024, b, v);
  const S = hex(
    'B0DC82BA BCF30674 AE450C02 87745E79 90A3381F 63B387AA F271A10D 233861E3 59B48220 F7C4693C 9AE12B0A 6F67809F 0876E2D0 13800D6C' +
      '41BB59B6 D5979B5C 00A172B4 A2A5903A 0BDCAF8A 709585EB 2AFAFA8F 3499B200 210DCC1F 10EB3394 3CD67FC8 8A2F39A4 BE5BEC4E C0A3212D' +
      'C346D7E4 74B29EDE 8A469FFE CA686E5A',
  );

  test('k, x, v, A, B and u are the published values', () => {
    assert.equal(multiplier(RFC_1024), hex('7556AA04 5AEF2CDD 07ABAF0F 665C3E81 8913186F'));
    assert.equal(x, hex('94B7555A ABE9127C C58CCF49 93DB6CF8 4D16C124'));
    assert.equal(
      v,
      hex(
        '7E273DE8 696FFC4F 4E337D05 B4B375BE B0DDE156 9E8FA00A 9886D812 9BADA1F1 822223CA 1A605B53 0E379BA4 729FDC59 F105B478 7E5186F5' +
          'C671085A 1447B52A 48CF1970 B4FB6F84 00BBF4CE BFBB1681 52E08AB5 EA53D15C 1AFF87B2 B9DA6E04 E058AD51 CC72BFC9 033B564E 26480D78' +
          'E955A5E2 9E7AB245 DB2BE315 E2099AFB',
      ),
    );
    assert.equal(
      A,
      hex(
        '61D5E490 F6F1B795 47B0704C 436F523D D0E560F0 C64115BB 72557EC4 4352E890 3211C046 92272D8B 2D1A5358 A2CF1B6E 0BFCF99F 921530EC' +
          '8E393561 79EAE45E 42BA92AE ACED8251 71E1E8B9 AF6D9C03 E1327F44 BE087EF0 6530E69F 66615261 EEF54073 CA11CF58 58F0EDFD FE15EFEA' +
          'B349EF5D 76988A36 72FAC47B 0769447B',
      ),
    );
    assert.equal(
      B,
      hex(
        'BD0C6151 2C692C0C B6D041FA 01BB152D 4916A1E7 7AF46AE1 05393011 BAF38964 DC46A067 0DD125B9 5A981652 236F99D9 B681CBF8 7837EC99' +
          '6C6DA044 53728610 D0C6DDB5 8B318885 D7D82C7F 8DEB75CE 7BD4FBAA 37089E6F 9C6059F3 88838E7A 00030B33 1EB76840 910440B1 B27AAEAE' +
          'EB4012B7 D7665238 A8E3FB00 4B117B58',
      ),
    );
    assert.equal(scrambler(RFC_1024, A, B), hex('CE38B959 3487DA98 554ED47D 70A7AE5F 462EF019'));
  });

  test('the client and the server reach the published premaster secret', () => {
    assert.equal(clientSecret(RFC_1024, { a, A }, B, x), S);
    assert.equal(serverSecret(RFC_1024, A, B, b, v), S);
  });
});

describe("SRP-6a: Apple's variant, a vector from icloudpd's SRP library", () => {
  // Computed with the Python `srp` 1.0.22 that icloudpd pins (rfc5054_enable, no_username_in_x, SHA256,
  // NG_2048), given a = 0x1f1f…1f (256 bytes), B = g^123456789 mod N, identity "Anna@Example.com", the
  // password "pässword", 1000 PBKDF2 rounds and a salt whose first byte is zero (hashed as the bytes it is).
  const salt = Buffer.from('00a1b2c3d4e5f60718293a4b5c6d7e8f', 'hex');
  const a = bigFromBytes(Buffer.alloc(256, 0x1f));
  const B = verifier(APPLE_SRP, 123456789n);
  const expected = {
    s2k: ['f8f8f29df4b83263d01cc99c5b24800b69fda5141f3264a1850b7bcc73de0744', '6e8c008f19a856a9f7c4d73b6d40c554ba1afb80365f566f63cffa73eca9f8dc'],
    s2k_fo: ['fb4729e08185d29dc4a411721d8748e3a5c976352e09089e537c880457a7e591', '976e5b2cf383e3eb0cb75e805fe129ee7d23e508ec44d9eba5503388366fff5f'],
  };
  for (const protocol of ['s2k', 's2k_fo'] as const) {
    test(`${protocol}: M1 and M2 are the reference implementation's`, () => {
      const answer = answerChallenge(APPLE_SRP, startClient(APPLE_SRP, a), 'Anna@Example.com', salt, B, passwordKey('pässword', protocol, salt, 1000));
      assert.deepEqual([answer!.m1.toString('hex'), answer!.m2.toString('hex')], expected[protocol]);
    });
  }
});

describe("SRP-6a: Apple's variant against a server side", () => {
  for (const protocol of ['s2k', 's2k_fo'] as const) {
    test(`${protocol}: the client's M1 and M2 are what a server holding the verifier computes`, () => {
      const identity = 'jdoe@example.com';
      const password = 'correct horse battery staple';
      const salt = crypto.randomBytes(16);
      const iterations = 1000;
      // The server side: what Apple stores at enrolment, and its ephemeral pair.
      const key = passwordKey(password, protocol, salt, iterations);
      const v = verifier(APPLE_SRP, privateKey(APPLE_SRP, salt, identity, key));
      const b = bigFromBytes(crypto.randomBytes(32));
      const B = serverPublic(APPLE_SRP, b, v);
      const client = startClient(APPLE_SRP);
      const answer = answerChallenge(APPLE_SRP, client, identity, salt, B, passwordKey(password, protocol, salt, iterations));
      assert.ok(answer);
      const expected = proofs(APPLE_SRP, identity, salt, client.A, B, serverSecret(APPLE_SRP, client.A, B, b, v));
      assert.equal(answer.m1.toString('hex'), expected.m1.toString('hex'));
      assert.equal(answer.m2.toString('hex'), expected.m2.toString('hex'));
      assert.equal(answer.m1.length, 32);

      const wrong = answerChallenge(APPLE_SRP, client, identity, salt, B, passwordKey(password + '!', protocol, salt, iterations));
      assert.notEqual(wrong!.m1.toString('hex'), expected.m1.toString('hex'));
    });
  }

  test('the password key: PBKDF2-SHA256 over SHA-256(password) (s2k) or its hex string (s2k_fo)', () => {
    const salt = Buffer.from('salt-of-sixteen!');
    const digest = crypto.createHash('sha256').update('pässword').digest();
    assert.deepEqual(passwordKey('pässword', 's2k', salt, 5), crypto.pbkdf2Sync(digest, salt, 5, 32, 'sha256'));
    assert.deepEqual(passwordKey('pässword', 's2k_fo', salt, 5), crypto.pbkdf2Sync(Buffer.from(digest.toString('hex')), salt, 5, 32, 'sha256'));
  });

  test('a server value B ≡ 0 (mod N) is refused rather than answered', () => {
    const client = startClient(APPLE_SRP);
    assert.equal(answerChallenge(APPLE_SRP, client, 'x@example.com', Buffer.from('s'), APPLE_SRP.group.N, Buffer.alloc(32)), null);
    assert.equal(bytesFromBig(0n).length, 1);
  });
});

/** A loopback idmsa + setup that knows one account's verifier and checks the client's proofs. */
async function appleLikeServer(identity: string, password: string, protocol: 's2k' | 's2k_fo') {
  const salt = crypto.randomBytes(16);
  const iterations = 2000;
  const v = verifier(APPLE_SRP, privateKey(APPLE_SRP, salt, identity, passwordKey(password, protocol, salt, iterations)));
  const seen: { path: string; body: string }[] = [];
  let pending: { A: bigint; b: bigint; B: bigint } | null = null;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.push({ path, body: raw });
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, string>;
      if (path === '/appleauth/auth/signin/init') {
        const b = bigFromBytes(crypto.randomBytes(32));
        const B = serverPublic(APPLE_SRP, b, v);
        pending = { A: bigFromBytes(Buffer.from(body.a!, 'base64')), b, B };
        return json(200, { iteration: iterations, salt: salt.toString('base64'), protocol, b: bytesFromBig(B).toString('base64'), c: 'c-1' }, { scnt: 'scnt-x' });
      }
      if (path === '/appleauth/auth/signin/complete' && pending) {
        const want = proofs(APPLE_SRP, identity, salt, pending.A, pending.B, serverSecret(APPLE_SRP, pending.A, pending.B, pending.b, v));
        const ok = body.c === 'c-1' && body.m1 === want.m1.toString('base64') && body.m2 === want.m2.toString('base64');
        return ok ? json(200, { authType: 'non-sa' }, { 'X-Apple-Session-Token': 'session-x', 'X-Apple-ID-Account-Country': 'USA' }) : json(401, { serviceErrors: [{ code: '-20101' }] });
      }
      if (path === '/appleauth/auth/signin') return json(401, {});
      if (path === '/setup/ws/1/accountLogin') {
        return json(200, { dsInfo: { dsid: '1', hsaVersion: 1 }, hsaTrustedBrowser: true, webservices: { ckdatabasews: { url: 'http://127.0.0.1:9', status: 'active' } } });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    seen,
    endpoints: { auth: { com: `${base}/appleauth/auth`, cn: `${base}/appleauth/auth` }, setup: { com: `${base}/setup/ws/1`, cn: `${base}/setup/ws/1` } },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SRP-6a: signing in to a server that checks the proofs', () => {
  for (const protocol of ['s2k', 's2k_fo'] as const) {
    test(`${protocol}: the right password connects, a wrong one is auth_failed`, async () => {
      const server = await appleLikeServer('anna@example.com', 'Zürich-2024!', protocol);
      try {
        const icloud = new ICloudProvider({ endpoints: server.endpoints });
        const ok = await icloud.signIn({ username: 'anna@example.com', password: 'Zürich-2024!', domain: 'com' }, AbortSignal.timeout(20_000));
        assert.equal(ok.status, 'connected');
        assert.equal((ok.state.session as { auth: { sessionToken: string } }).auth.sessionToken, 'session-x');
        assert.equal(server.seen.some((r) => r.path === '/appleauth/auth/signin'), false, 'no password fallback when SRP succeeds');

        await assert.rejects(
          icloud.signIn({ username: 'anna@example.com', password: 'zürich-2024!', domain: 'com' }, AbortSignal.timeout(20_000)),
          (e: unknown) => e instanceof ProviderError && e.code === 'auth_failed' && !e.message.includes('zürich'),
        );
        assert.equal(server.seen.filter((r) => r.path === '/setup/ws/1/accountLogin').length, 1);
      } finally {
        await server.close();
      }
    });
  }
});
