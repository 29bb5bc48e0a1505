/**
 * Signed-in devices over real HTTP, in both response variants: a member's list (this device marked, browser
 * and system read from the user agent, address, how each signed in), signing out one device (its refresh and
 * its access token stop at once, the others live), signing out every other, another member's sessions
 * answering 404, the administrator's list and sign-outs for a member (403 for anyone else), bad ids.
 *
 * One server for the file. It trusts X-Forwarded-For (HEARTH_TRUST_PROXY) so each device signs in from an
 * address of its own, as phones and laptops on a household network do.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseUserAgent } from '../../../server/src/features/auth/user-agent.ts';
import { Client, type TestServer, startServer } from '../helpers/server.ts';
import { PASSWORD, V1, addMember, adopt, data, problem, registerAdmin, type Signed } from '../helpers/api.ts';

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  safariIpad: 'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  chromeIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  hearthApp: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) hearth/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36',
};

test('browser and system are read from the common user agents; anything else is Unknown', () => {
  const seen = Object.fromEntries(Object.entries(UA).map(([k, ua]) => [k, parseUserAgent(ua)]));
  assert.deepEqual(seen, {
    chromeWindows: { browser: 'Chrome', browser_version: '131', system: 'Windows' },
    edgeWindows: { browser: 'Edge', browser_version: '131', system: 'Windows' },
    firefoxLinux: { browser: 'Firefox', browser_version: '133', system: 'Linux' },
    firefoxAndroid: { browser: 'Firefox', browser_version: '133', system: 'Android' },
    safariMac: { browser: 'Safari', browser_version: '18', system: 'macOS' },
    safariIphone: { browser: 'Safari', browser_version: '18', system: 'iOS' },
    safariIpad: { browser: 'Safari', browser_version: '17', system: 'iPadOS' },
    chromeIphone: { browser: 'Chrome', browser_version: '131', system: 'iOS' },
    samsung: { browser: 'Samsung Internet', browser_version: '26', system: 'Android' },
    chromeAndroid: { browser: 'Chrome', browser_version: '131', system: 'Android' },
    chromeOs: { browser: 'Chrome', browser_version: '131', system: 'ChromeOS' },
    hearthApp: { browser: 'Hearth app', browser_version: '33', system: 'macOS' },
  });
  for (const odd of [null, '', 'curl/8.5.0', 'Wget/1.21']) assert.deepEqual(parseUserAgent(odd), { browser: 'Unknown', browser_version: null, system: 'Unknown' });
});

describe('signed-in devices', () => {
  let srv: TestServer;
  let admin: Client;

  before(async () => {
    srv = await startServer({ env: { HEARTH_TRUST_PROXY: 'true' } });
    admin = new Client(srv.url);
    await registerAdmin(admin);
  });
  after(() => srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    describe(`variant ${variant}`, () => {
      let n = 0;
      const net = variant === 'A' ? '10.28.1' : '10.28.2';
      /** The administrator, speaking this variant. */
      const adminHere = () => Object.assign(new Client(srv.url, variant), { token: admin.token });

      interface Device {
        c: Client;
        signed: Signed;
        sessionId: string;
        ip: string;
      }

      /** A browser of its own (user agent, address) signed in as `username`. */
      async function device(username: string, ua: string): Promise<Device> {
        const ip = `${net}.${++n}`;
        const c = new Client(srv.url, variant, { 'user-agent': ua, 'x-forwarded-for': ip });
        const signed = adopt(c, await c.post(`${V1}/auth/login`, { username, password: PASSWORD }));
        return { c, signed, ip, sessionId: await currentId(c) };
      }

      /** A new member with a first device; the household's invite code opens registration. */
      async function member(ua = UA.chromeWindows): Promise<{ username: string; userId: number; first: Device }> {
        const username = `s${variant.toLowerCase()}${++n}`;
        const ip = `${net}.${++n}`;
        const c = new Client(srv.url, variant, { 'user-agent': ua, 'x-forwarded-for': ip });
        const signed = await addMember(admin, c, username);
        return { username, userId: signed.session.user.user_id, first: { c, signed, ip, sessionId: await currentId(c) } };
      }

      async function list(c: Client, path = `${V1}/auth/sessions`) {
        const r = await c.get(path);
        assert.equal(r.status, 200, r.text);
        return data(c, r).sessions as {
          session_id: string;
          current: boolean;
          browser: string;
          browser_version: string | null;
          system: string;
          ip: string | null;
          created_at: string;
          last_used_at: string;
          auth_methods: string[];
        }[];
      }

      async function currentId(c: Client): Promise<string> {
        const mine = (await list(c)).filter((s) => s.current);
        assert.equal(mine.length, 1, 'exactly one session is this device');
        return mine[0]!.session_id;
      }

      /** Trades the device's refresh token (cookie in A, body in B) for a new session answer. */
      async function refresh(d: Device) {
        return d.c.post(`${V1}/auth/refresh`, variant === 'B' ? { refresh_token: d.signed.refreshToken } : undefined, {
          headers: variant === 'A' ? { 'x-csrf-token': d.signed.session.csrfToken } : {},
        });
      }

      async function stillIn(d: Pick<Device, 'c'>): Promise<boolean> {
        const r = await d.c.get(`${V1}/auth/me`);
        if (r.status === 401) return false;
        assert.equal(r.status, 200, r.text);
        return true;
      }

      test('the list shows every live session, this device marked, browser, system and address read from its sign-in', async () => {
        const { username, first } = await member(UA.chromeWindows);
        const phone = await device(username, UA.safariIphone);
        const tablet = await device(username, UA.samsung);
        const sessions = await list(first.c);
        assert.equal(sessions.length, 3);
        const byId = new Map(sessions.map((s) => [s.session_id, s]));
        assert.deepEqual(
          [first, phone, tablet].map((d) => {
            const s = byId.get(d.sessionId)!;
            return [s.browser, s.system, s.ip, s.current, s.auth_methods];
          }),
          [
            ['Chrome', 'Windows', first.ip, true, ['password']],
            ['Safari', 'iOS', phone.ip, false, ['password']],
            ['Samsung Internet', 'Android', tablet.ip, false, ['password']],
          ],
        );
        for (const s of sessions) assert.ok(!Number.isNaN(Date.parse(s.created_at)) && !Number.isNaN(Date.parse(s.last_used_at)));
        // Newest use first: the first device signed in first and has not refreshed since.
        const used = sessions.map((s) => Date.parse(s.last_used_at));
        assert.deepEqual(used, [...used].sort((a, b) => b - a));
        assert.equal(sessions.at(-1)!.session_id, first.sessionId);
        // A refresh is a use: the phone moves to the top.
        await new Promise((r) => setTimeout(r, 5));
        const renewed = await refresh(phone);
        assert.equal(renewed.status, 200, renewed.text);
        assert.equal((await list(first.c))[0]!.session_id, phone.sessionId);
        // The same list from the phone marks the phone.
        assert.deepEqual((await list(phone.c)).filter((s) => s.current).map((s) => s.session_id), [phone.sessionId]);
      });

      test('signing out one device ends its refresh and its access token at once; the others live', async () => {
        const { username, first } = await member();
        const phone = await device(username, UA.chromeAndroid);
        const laptop = await device(username, UA.firefoxLinux);
        assert.ok(await stillIn(phone));
        const r = await first.c.req('DELETE', `${V1}/auth/sessions/${phone.sessionId}`);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(data(first.c, r), { revoked: 1 });

        assert.equal(await stillIn(phone), false, 'the access token stopped working');
        const again = await refresh(phone);
        assert.equal(again.status, 401, again.text);
        assert.equal(problem(phone.c, again).code, 'session_ended');
        assert.ok(await stillIn(first));
        assert.ok(await stillIn(laptop));
        assert.equal((await refresh(laptop)).status, 200);
        assert.deepEqual((await list(first.c)).map((s) => s.session_id).sort(), [first.sessionId, laptop.sessionId].sort());

        // An ended session is gone: 404, not a second success.
        const twice = await first.c.req('DELETE', `${V1}/auth/sessions/${phone.sessionId}`);
        assert.equal(problem(first.c, twice).code, 'session_not_found');
        assert.equal(twice.status, 404);
        // This device is logout's: the list's own entry is refused, and nothing ends.
        const own = await first.c.req('DELETE', `${V1}/auth/sessions/${first.sessionId}`);
        assert.equal(own.status, 409);
        assert.equal(problem(first.c, own).code, 'current_session');
        assert.ok(await stillIn(first));
      });

      test('signing out every other device keeps this one', async () => {
        const { username, first } = await member();
        const others = [await device(username, UA.safariMac), await device(username, UA.edgeWindows), await device(username, UA.hearthApp)];
        const r = await others[0]!.c.post(`${V1}/auth/sessions/revoke-others`);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(data(others[0]!.c, r), { revoked: 3 });
        assert.ok(await stillIn(others[0]!));
        assert.equal((await refresh(others[0]!)).status, 200, 'this device still refreshes');
        for (const d of [first, others[1]!, others[2]!]) {
          assert.equal(await stillIn(d), false);
          assert.equal((await refresh(d)).status, 401);
        }
        assert.deepEqual((await list(others[0]!.c)).map((s) => s.session_id), [others[0]!.sessionId]);
        // Nothing left to end: 0, not an error.
        assert.deepEqual(data(others[0]!.c, await others[0]!.c.post(`${V1}/auth/sessions/revoke-others`)), { revoked: 0 });
      });

      test("one member neither sees nor ends another's sessions: 404 as if there were none", async () => {
        const a = await member();
        const b = await member();
        const bList = await list(b.first.c);
        assert.ok(!bList.some((s) => s.session_id === a.first.sessionId));
        const r = await b.first.c.req('DELETE', `${V1}/auth/sessions/${a.first.sessionId}`);
        assert.equal(r.status, 404);
        assert.equal(problem(b.first.c, r).code, 'session_not_found');
        // The same answer as for an id that never existed.
        const none = await b.first.c.req('DELETE', `${V1}/auth/sessions/${crypto.randomUUID()}`);
        assert.equal(problem(b.first.c, none).code, 'session_not_found');
        assert.ok(await stillIn(a.first));
        // A member's "every other" is their own: a's session lives on.
        await b.first.c.post(`${V1}/auth/sessions/revoke-others`);
        assert.ok(await stillIn(a.first));
        // The administrators' operations answer a member 403.
        for (const [method, path] of [
          ['GET', `${V1}/users/${a.userId}/sessions`],
          ['DELETE', `${V1}/users/${a.userId}/sessions/${a.first.sessionId}`],
          ['DELETE', `${V1}/users/${a.userId}/sessions`],
        ] as const) {
          const refused = await b.first.c.req(method, path);
          assert.equal(refused.status, 403, `${method} ${path}`);
          assert.equal(problem(b.first.c, refused).code, 'admin_only');
        }
        assert.ok(await stillIn(a.first));
      });

      test("the administrator lists a member's sessions and signs out one of them, or all", async () => {
        const { username, userId, first } = await member(UA.firefoxAndroid);
        const phone = await device(username, UA.safariIpad);
        const laptop = await device(username, UA.chromeOs);
        const ad = adminHere();
        const listed = await list(ad, `${V1}/users/${userId}/sessions`);
        assert.deepEqual(listed.map((s) => s.session_id).sort(), [first.sessionId, phone.sessionId, laptop.sessionId].sort());
        assert.ok(listed.every((s) => !s.current), "none of them is the administrator's device");
        assert.deepEqual(listed.find((s) => s.session_id === phone.sessionId)!.system, 'iPadOS');

        const one = await ad.req('DELETE', `${V1}/users/${userId}/sessions/${phone.sessionId}`);
        assert.equal(one.status, 200, one.text);
        assert.equal(await stillIn(phone), false);
        assert.ok(await stillIn(first));

        // The administrator's own session is not one of the member's.
        const adminSession = (await list(ad)).find((s) => s.current)!.session_id;
        const notTheirs = await ad.req('DELETE', `${V1}/users/${userId}/sessions/${adminSession}`);
        assert.equal(problem(ad, notTheirs).code, 'session_not_found');
        assert.ok(await stillIn({ c: ad }));

        const all = await ad.req('DELETE', `${V1}/users/${userId}/sessions`);
        assert.equal(all.status, 200, all.text);
        assert.deepEqual(data(ad, all), { revoked: 2 });
        for (const d of [first, laptop]) {
          assert.equal(await stillIn(d), false);
          assert.equal((await refresh(d)).status, 401);
        }
        assert.deepEqual(await list(ad, `${V1}/users/${userId}/sessions`), []);
        // The member signs in again as usual.
        const back = await device(username, UA.chromeWindows);
        assert.ok(await stillIn(back));
      });

      test('bad ids are 4xx problems', async () => {
        const { userId, first } = await member();
        const ad = adminHere();
        const cases: [Client, string, string, number][] = [
          [first.c, 'DELETE', `${V1}/auth/sessions/not-a-session`, 422],
          [first.c, 'DELETE', `${V1}/auth/sessions/${'x'.repeat(300)}`, 422],
          [ad, 'GET', `${V1}/users/abc/sessions`, 422],
          [ad, 'GET', `${V1}/users/-1/sessions`, 422],
          [ad, 'GET', `${V1}/users/99999/sessions`, 404],
          [ad, 'DELETE', `${V1}/users/99999/sessions`, 404],
          [ad, 'DELETE', `${V1}/users/${userId}/sessions/nope`, 422],
          [ad, 'DELETE', `${V1}/users/${userId}/sessions/${crypto.randomUUID()}`, 404],
        ];
        for (const [c, method, path, status] of cases) {
          const r = await c.req(method, path);
          assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
          const p = problem(c, r);
          if (status === 404) assert.ok(['user_not_found', 'session_not_found'].includes(p.code), p.code);
        }
        // Anonymous: 401 from every one of them.
        const anon = new Client(srv.url, variant);
        for (const [method, path] of [
          ['GET', `${V1}/auth/sessions`],
          ['POST', `${V1}/auth/sessions/revoke-others`],
          ['DELETE', `${V1}/auth/sessions/${first.sessionId}`],
          ['GET', `${V1}/users/${userId}/sessions`],
        ] as const) {
          const r = await anon.req(method, path);
          assert.equal(r.status, 401, `${method} ${path}`);
          problem(anon, r);
        }
        assert.ok(await stillIn(first));
      });
    });
  }
});
