/** Sign-in is rate-limited per account and per address; a lockout answers 429 with Retry-After. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client, startServer } from './helpers/server.ts';
import { PASSWORD, V1, login, problem, registerAdmin } from './helpers/api.ts';
import { FailureLimiter } from '../../server/src/platform/http/rate-limit.ts';

describe('rate limits', () => {
  test('eight wrong passwords lock the account, even for the right password, and not other accounts', async () => {
    const srv = await startServer();
    try {
      await registerAdmin(new Client(srv.url));
      const c = new Client(srv.url);
      for (let i = 0; i < 8; i++) {
        const r = await c.post(`${V1}/auth/login`, { username: 'alice', password: `wrong-${i}` });
        assert.equal(r.status, 401, `attempt ${i + 1}`);
      }
      const locked = await c.post(`${V1}/auth/login`, { username: 'alice', password: PASSWORD });
      assert.equal(locked.status, 429);
      assert.equal(problem(c, locked).code, 'rate_limited');
      const retryAfter = Number(locked.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 300, `Retry-After ${retryAfter}`);
      // Another account from the same address is not locked by alice's lockout.
      const other = await c.post(`${V1}/auth/login`, { username: 'someone-else', password: 'whatever' });
      assert.equal(other.status, 401);
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('the per-address limit engages across many account names', async () => {
    const now = 1_000_000;
    const limiter = new FailureLimiter('login', { windowMs: 60_000, maxPerIp: 5, maxPerSubject: 100, lockoutMs: 60_000 }, () => now);
    for (let i = 0; i < 5; i++) {
      limiter.check('10.0.0.9', `user${i}`);
      limiter.fail('10.0.0.9', `user${i}`);
    }
    assert.throws(() => limiter.check('10.0.0.9', 'fresh-name'), /Too many attempts/);
    assert.doesNotThrow(() => limiter.check('10.0.0.10', 'fresh-name'), 'other addresses are unaffected');
  });

  test('a lockout ends after its time and a success clears the account count', async () => {
    let now = 0;
    const limiter = new FailureLimiter('login', { windowMs: 60_000, maxPerIp: 100, maxPerSubject: 3, lockoutMs: 30_000 }, () => now);
    limiter.fail('1.1.1.1', 'bob');
    limiter.fail('1.1.1.1', 'bob');
    limiter.succeed('bob');
    limiter.fail('1.1.1.1', 'bob');
    assert.doesNotThrow(() => limiter.check('1.1.1.1', 'bob'), 'the success reset the count');
    limiter.fail('1.1.1.1', 'bob');
    limiter.fail('1.1.1.1', 'bob');
    assert.throws(() => limiter.check('1.1.1.1', 'BOB'), /Too many/);
    now += 30_001;
    assert.doesNotThrow(() => limiter.check('1.1.1.1', 'bob'));
  });

  test('register and password-change completion are limited per address too', async () => {
    const srv = await startServer();
    try {
      await registerAdmin(new Client(srv.url));
      const c = new Client(srv.url);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await c.post(`${V1}/auth/password-change/complete`, { password_change_token: `nope-${i}`, new_password: 'long enough password' })).status);
      }
      assert.ok(statuses.slice(0, 8).every((s) => s === 401), statuses.join(','));
      assert.equal(statuses.at(-1), 429);
      await login(new Client(srv.url), 'alice');
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});
