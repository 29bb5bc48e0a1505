/**
 * SRP-6a as Apple's web sign-in speaks it (idmsa `signin/init` / `signin/complete`).
 *
 * Apple's variant is RFC 5054 (2048-bit group, SHA-256, padded k and u) as the Python `srp` package 1.0.22
 * used by icloudpd computes it, which Apple's server accepts: the identity is left out of x
 * (x = H(s | H(":" | P))), the salt and the inner digest of x are hashed as the bytes they are, and the
 * numbers A, B and S in their minimal big-endian form (leading zero bytes dropped) where not padded.
 * P is not the password itself but a PBKDF2-SHA256 key derived from it (`passwordKey`).
 *
 * Plain BigInt arithmetic: no native addon, and the exponentiations are a few per sign-in.
 */
import crypto from 'node:crypto';

export interface SrpGroup {
  N: bigint;
  g: bigint;
}

/** RFC 5054 Appendix A, 2048-bit group. */
export const RFC5054_2048: SrpGroup = {
  N: BigInt(
    '0xAC6BDB41324A9A9BF166DE5E1389582FAF72B6651987EE07FC3192943DB56050A37329CBB4A099ED8193E0757767A13DD52312AB4B03310DCD7F48A9DA04FD50' +
      'E8083969EDB767B0CF6095179A163AB3661A05FBD5FAAAE82918A9962F0B93B855F97993EC975EEAA80D740ADBF4FF747359D041D5C33EA71D281E446B14773B' +
      'CA97B43A23FB801676BD207A436C6481F1D2B9078717461A5B9D32E688F87748544523B524B0D57D5EA77A2775D2ECFA032CFBDBF52FB3786160279004E57AE6' +
      'AF874E7303CE53299CCC041C7BC308D82A5698F3A8D0C38271AE35F8E9DBFBB694B5C803D89F7AE435DE236D525F54759B65E372FCD68EF20FA7111F9E4AFF73',
  ),
  g: 2n,
};

export type SrpHash = 'sha256' | 'sha1';

/** The numbers a sign-in needs besides the group: which hash, and whether the identity goes into x. */
export interface SrpParams {
  group: SrpGroup;
  hash: SrpHash;
  /** Apple: false (x = H(s | H(":" | P))). RFC 5054: true (x = H(s | H(I ":" P))). */
  identityInX: boolean;
}

export const APPLE_SRP: SrpParams = { group: RFC5054_2048, hash: 'sha256', identityInX: false };

export function bigFromBytes(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt('0x' + Buffer.from(b).toString('hex'));
}

/** Minimal big-endian bytes (no leading zeros; 0 → one zero byte, as Python's long_to_bytes). */
export function bytesFromBig(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.from(hex, 'hex');
}

function padded(n: bigint, width: number): Buffer {
  const b = bytesFromBig(n);
  return b.length >= width ? b : Buffer.concat([Buffer.alloc(width - b.length), b]);
}

function hash(alg: SrpHash, ...parts: Uint8Array[]): Buffer {
  const h = crypto.createHash(alg);
  for (const p of parts) h.update(p);
  return h.digest();
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = ((base % mod) + mod) % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

const widthOf = (p: SrpParams) => bytesFromBig(p.group.N).length;

/** k = H(N | PAD(g)). */
export function multiplier(p: SrpParams): bigint {
  return bigFromBytes(hash(p.hash, bytesFromBig(p.group.N), padded(p.group.g, widthOf(p))));
}

/** x = H(s | H(I ":" P)), I empty in Apple's variant. */
export function privateKey(p: SrpParams, salt: Uint8Array, identity: string, password: Uint8Array): bigint {
  const inner = hash(p.hash, Buffer.from(p.identityInX ? identity : '', 'utf8'), Buffer.from(':'), password);
  return bigFromBytes(hash(p.hash, salt, inner));
}

export function verifier(p: SrpParams, x: bigint): bigint {
  return modPow(p.group.g, x, p.group.N);
}

/** u = H(PAD(A) | PAD(B)). */
export function scrambler(p: SrpParams, A: bigint, B: bigint): bigint {
  const w = widthOf(p);
  return bigFromBytes(hash(p.hash, padded(A, w), padded(B, w)));
}

export function publicEphemeral(p: SrpParams, a: bigint): bigint {
  return modPow(p.group.g, a, p.group.N);
}

/** A client's secret and public ephemeral values. */
export interface SrpClientStart {
  a: bigint;
  A: bigint;
}

export function startClient(p: SrpParams, a = bigFromBytes(crypto.randomBytes(32))): SrpClientStart {
  return { a, A: publicEphemeral(p, a) };
}

/** The client's premaster secret S = (B - k·g^x)^(a + u·x) mod N. */
export function clientSecret(p: SrpParams, start: SrpClientStart, B: bigint, x: bigint): bigint {
  const { N, g } = p.group;
  const u = scrambler(p, start.A, B);
  const base = (((B - multiplier(p) * modPow(g, x, N)) % N) + N) % N;
  return modPow(base, start.a + u * x, N);
}

/** The server's premaster secret S = (A·v^u)^b mod N: for checking the client side against. */
export function serverSecret(p: SrpParams, A: bigint, B: bigint, b: bigint, v: bigint): bigint {
  const { N } = p.group;
  return modPow((A * modPow(v, scrambler(p, A, B), N)) % N, b, N);
}

/** B = k·v + g^b mod N. */
export function serverPublic(p: SrpParams, b: bigint, v: bigint): bigint {
  const { N, g } = p.group;
  return (multiplier(p) * v + modPow(g, b, N)) % N;
}

export interface SrpProofs {
  /** The client's proof M1 = H(H(N) xor H(PAD(g)) | H(I) | s | A | B | K). */
  m1: Buffer;
  /** What the server would answer, M2 = H(A | M1 | K). Apple asks the client to send it too. */
  m2: Buffer;
}

/** M1 and M2 for a session key K = H(S). */
export function proofs(p: SrpParams, identity: string, salt: Uint8Array, A: bigint, B: bigint, S: bigint): SrpProofs {
  const K = hash(p.hash, bytesFromBig(S));
  const hN = hash(p.hash, bytesFromBig(p.group.N));
  const hg = hash(p.hash, padded(p.group.g, widthOf(p)));
  const nXorG = Buffer.alloc(hN.length);
  for (let i = 0; i < hN.length; i++) nXorG[i] = hN[i]! ^ hg[i]!;
  const m1 = hash(p.hash, nXorG, hash(p.hash, Buffer.from(identity, 'utf8')), salt, bytesFromBig(A), bytesFromBig(B), K);
  return { m1, m2: hash(p.hash, bytesFromBig(A), m1, K) };
}

/** The client's whole answer to Apple's challenge: refuses a B that would make the secret guessable. */
export function answerChallenge(p: SrpParams, start: SrpClientStart, identity: string, salt: Uint8Array, B: bigint, password: Uint8Array): SrpProofs | null {
  if (B % p.group.N === 0n || scrambler(p, start.A, B) === 0n) return null;
  const x = privateKey(p, salt, identity, password);
  return proofs(p, identity, salt, start.A, B, clientSecret(p, start, B, x));
}

/** Apple's protocols: s2k hashes the password to bytes, s2k_fo to its hex string, then PBKDF2-SHA256. */
export type ApplePasswordProtocol = 's2k' | 's2k_fo';

export function passwordKey(password: string, protocol: ApplePasswordProtocol, salt: Uint8Array, iterations: number): Buffer {
  const digest = crypto.createHash('sha256').update(password, 'utf8').digest();
  const material = protocol === 's2k_fo' ? Buffer.from(digest.toString('hex'), 'utf8') : digest;
  return crypto.pbkdf2Sync(material, salt, iterations, 32, 'sha256');
}
