/**
 * Recovery codes: ten per account, shown once, each usable once instead of a TOTP code. Ten characters
 * from an alphabet without look-alikes (50 bits each), shown as `xxxxx-xxxxx`; typed back in any case,
 * with or without the dash or spaces. Stored as an HMAC with a key of the install, so a copied catalog
 * alone cannot be searched for them.
 */
import crypto from 'node:crypto';
import { hmac } from '../../platform/crypto/keys.ts';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // 32 symbols: 5 bits each, no 0/o, 1/l

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = [...crypto.randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** The code as typed, reduced to its ten characters (null when it cannot be one). */
export function normalizeRecoveryCode(typed: string): string | null {
  const s = typed.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z2-9]{10}$/.test(s) ? s : null;
}

export function recoveryCodeHash(key: Buffer, userId: number, normalized: string): string {
  return hmac(key, `hearth.recovery.v1\0${userId}\0${normalized}`);
}
