/**
 * Password hashing with scrypt (memory-hard, built into Node: no native addon to compile).
 * Format: `scrypt$N$r$p$salt_b64$hash_b64`, so parameters can be raised later and old hashes still
 * verify. N=2^15, r=8 uses 32 MiB per hash: about 0.1 s here, expensive enough for an attacker with a
 * stolen catalog, cheap enough for a household's logins.
 *
 * The test suite signs up a few hundred accounts; at 0.1 s each that is tens of seconds of CPU spent on
 * nothing a test asserts. `setScryptCost` lowers N for new hashes, only when the suite asks for it
 * (HEARTH_TEST_CHEAP_PASSWORDS=1 with NODE_ENV=test, refused otherwise by config/env.ts). Verification
 * reads N from the stored hash, so it is the same code either way; test/server/passwords.test.ts checks
 * the real cost.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string | Buffer,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** N for every new hash outside the test suite. */
export const DEFAULT_SCRYPT_N = 2 ** 15;
/** The lowest N setScryptCost accepts (1 MiB per hash at r=8), and the one the test suite uses. */
export const TEST_SCRYPT_N = 2 ** 10;
let N = DEFAULT_SCRYPT_N;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/** Sets N for the hashes made from now on: a power of two, at least TEST_SCRYPT_N. */
export function setScryptCost(n: number): void {
  if (!Number.isInteger(n) || n < TEST_SCRYPT_N || (n & (n - 1)) !== 0) {
    throw new RangeError(`scrypt cost must be a power of two of at least ${TEST_SCRYPT_N}, not ${n}`);
  }
  N = n;
  dummy = null; // the dummy hash must cost what a real account's does
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, hashB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real account. */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return dummy;
}
