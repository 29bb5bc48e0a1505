/**
 * The secrets of public links:
 * - the key: 128 random bits, base64url (22 characters), shown once when the link is made; only its
 *   SHA-256 is kept (like refresh tokens), so a copy of the catalog opens no link;
 * - the link token: what a visitor holds after the password (or right away when there is none): a
 *   short-lived HS256 token naming the link and the link's version (`updated_at`), so changing the
 *   password, the expiry or revoking the link ends every token given out before;
 * - photo ids: a link never shows catalog asset ids. Each photo of a link is named by its asset id
 *   enciphered with a key of that link (one AES block: a permutation, so it can be read back), so
 *   ids mean nothing outside their link and two links of the same photo name it differently.
 */
import crypto from 'node:crypto';
import { randomToken, sha256 } from '../../platform/crypto/keys.ts';
import { signJwt, verifyJwt } from '../../platform/crypto/jwt.ts';

/** How long a link token lasts: a visit, not a subscription (the page asks again). */
export const LINK_TOKEN_SECONDS = 60 * 60;

export function newLinkKey(): { key: string; hash: string } {
  const key = randomToken(16);
  return { key, hash: sha256(key) };
}

export const keyHash = (key: string) => sha256(key);

export class LinkSecrets {
  constructor(private readonly secret: Buffer) {}

  token(linkId: number, version: number, nowMs = Date.now()): { token: string; expires_at: string } {
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + LINK_TOKEN_SECONDS;
    return { token: signJwt(this.secret, { sub: `link:${linkId}`, v: version, iat, exp }), expires_at: new Date(exp * 1000).toISOString() };
  }

  /** Whether `token` is a live token of this link at this version. */
  verify(token: string, linkId: number, version: number): boolean {
    const claims = verifyJwt(this.secret, token);
    return claims !== null && claims.sub === `link:${linkId}` && claims.v === version;
  }

  photoId(linkId: number, assetId: string): string {
    const c = crypto.createCipheriv('aes-128-ecb', this.photoKey(linkId), null).setAutoPadding(false);
    return Buffer.concat([c.update(Buffer.from(assetId.replace(/-/g, ''), 'hex')), c.final()]).toString('base64url');
  }

  /** The asset id a photo id of this link stands for; null when it is not one. */
  assetId(linkId: number, photoId: string): string | null {
    if (!/^[A-Za-z0-9_-]{22}$/.test(photoId)) return null;
    const d = crypto.createDecipheriv('aes-128-ecb', this.photoKey(linkId), null).setAutoPadding(false);
    const hex = Buffer.concat([d.update(Buffer.from(photoId, 'base64url')), d.final()]).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private photoKey(linkId: number): Buffer {
    return crypto.createHmac('sha256', this.secret).update(`photo-ids:${linkId}`).digest().subarray(0, 16);
  }
}
