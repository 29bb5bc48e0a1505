/**
 * Password hashing at its real cost (the suite's runner lowers it for every other test: see
 * server/src/platform/crypto/passwords.ts): the stored format, verification, and the test-only cheap
 * setting refused where it could weaken real accounts, and honoured by a test server that asks for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/src/config/env.ts';
import { DEFAULT_SCRYPT_N, hashPassword, setScryptCost, TEST_SCRYPT_N, verifyPassword } from '../../server/src/platform/crypto/passwords.ts';
import { login, registerAdmin } from './helpers/api.ts';
import { Client, startServer } from './helpers/server.ts';

test('a new hash carries scrypt N=2^15, r=8, p=1, a 16-byte salt and a 32-byte key', async () => {
  const stored = await hashPassword('correct horse battery staple');
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  assert.deepEqual([scheme, n, r, p, rest.length], ['scrypt', '32768', '8', '1', 0]);
  assert.equal(DEFAULT_SCRYPT_N, 32768);
  assert.equal(Buffer.from(salt!, 'base64').length, 16);
  assert.equal(Buffer.from(key!, 'base64').length, 32);
  assert.notEqual(await hashPassword('correct horse battery staple'), stored, 'each hash has its own salt');
});

test('the password verifies; another one, a changed hash and a foreign format do not', async () => {
  const stored = await hashPassword('Grandma’s 80th');
  assert.equal(await verifyPassword('Grandma’s 80th', stored), true);
  // NFKC: the same password typed with a compatibility form (fullwidth digits) is the same password.
  assert.equal(await verifyPassword('Grandma’s ８０th', stored), true);
  assert.equal(await verifyPassword('grandma’s 80th', stored), false);
  const parts = stored.split('$');
  const key = Buffer.from(parts[5]!, 'base64');
  key[0] = key[0]! ^ 1;
  assert.equal(await verifyPassword('Grandma’s 80th', [...parts.slice(0, 5), key.toString('base64')].join('$')), false);
  assert.equal(await verifyPassword('Grandma’s 80th', 'bcrypt$2b$10$abc'), false);
});

test('a hash made at the test cost verifies by its own N, and the default cost comes back', async () => {
  setScryptCost(TEST_SCRYPT_N);
  try {
    const cheap = await hashPassword('pw-cheap');
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyPassword('pw-cheap', cheap), true);
  } finally {
    setScryptCost(DEFAULT_SCRYPT_N);
  }
  assert.match(await hashPassword('pw'), /^scrypt\$32768\$8\$1\$/);
  assert.throws(() => setScryptCost(2 ** 9), RangeError, 'below the floor');
  assert.throws(() => setScryptCost(3000), RangeError, 'not a power of two');
});

test('HEARTH_TEST_CHEAP_PASSWORDS is refused outside NODE_ENV=test, with its name in the message', () => {
  for (const NODE_ENV of [undefined, 'production', 'development']) {
    assert.throws(
      () => loadConfig({ HEARTH_DATA_DIR: '/tmp/unused', HEARTH_TEST_CHEAP_PASSWORDS: '1', NODE_ENV }),
      (e: unknown) => e instanceof ConfigError && /HEARTH_TEST_CHEAP_PASSWORDS="1": only for the test suite/.test(e.message),
    );
  }
  assert.equal(loadConfig({ HEARTH_DATA_DIR: '/tmp/unused', HEARTH_TEST_CHEAP_PASSWORDS: '1', NODE_ENV: 'test' }).testCheapPasswords, true);
  assert.equal(loadConfig({ HEARTH_DATA_DIR: '/tmp/unused', NODE_ENV: 'production' }).testCheapPasswords, false);
});

test('a test server asked for cheap hashes stores N=2^10 and still signs in; the cost is put back after', async () => {
  const srv = await startServer({ env: { NODE_ENV: 'test', HEARTH_TEST_CHEAP_PASSWORDS: '1' } });
  try {
    const c = new Client(srv.url);
    await registerAdmin(c);
    const stored = srv.container.db.prepare('SELECT password_hash FROM users').pluck().get() as string;
    assert.match(stored, /^scrypt\$1024\$8\$1\$/);
    assert.equal((await login(new Client(srv.url), 'alice')).session.user.username, 'alice');
  } finally {
    await srv.stop({ removeData: true });
    setScryptCost(DEFAULT_SCRYPT_N);
  }
  assert.match(await hashPassword('pw'), /^scrypt\$32768\$/);
});
