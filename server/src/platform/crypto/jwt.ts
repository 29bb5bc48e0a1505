/** Minimal HS256 JSON Web Tokens (RFC 7519): exactly what we sign, nothing we would have to trust. */
import { hmac, safeEqual } from './keys.ts';

export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signJwt(key: Buffer, claims: JwtClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${HEADER}.${body}.${hmac(key, `${HEADER}.${body}`)}`;
}

/** Returns the claims when the signature is ours and the token has not expired, else null. */
export function verifyJwt(key: Buffer, token: string, nowMs = Date.now()): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, b, s] = parts as [string, string, string];
  if (h !== HEADER || !safeEqual(s, hmac(key, `${h}.${b}`))) return null;
  try {
    const claims = JSON.parse(Buffer.from(b, 'base64url').toString('utf8')) as JwtClaims;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return null;
    return claims;
  } catch {
    return null;
  }
}
