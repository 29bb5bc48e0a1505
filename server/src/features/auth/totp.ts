/**
 * TOTP (RFC 6238) through otplib: SHA-1, 6 digits, 30-second steps, what every authenticator app
 * speaks. A code is accepted from the step before to the step after the server's (±1 step of clock
 * drift between phone and server); which step matched is returned, so the caller can refuse a code of
 * that step or an earlier one next time (replay).
 */
import { generateSecret, generateURI, verify } from 'otplib';

export const TOTP_ISSUER = 'Hearth';
export const TOTP_PERIOD_S = 30;

/** A new base32 seed of 20 random bytes (160 bits, RFC 4226's recommendation). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, accountName: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountName, secret, period: TOTP_PERIOD_S });
}

/** The time step a code belongs to, or null when it matches none within ±1 step of `nowMs`. */
export async function matchTotpStep(secret: string, typed: string, nowMs: number): Promise<number | null> {
  const code = typed.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const r = await verify({ secret, token: code, epoch: Math.floor(nowMs / 1000), period: TOTP_PERIOD_S, epochTolerance: TOTP_PERIOD_S });
    // otplib types the result as TOTP's or HOTP's; TOTP's carries the step that matched.
    return r.valid && 'timeStep' in r ? r.timeStep : null;
  } catch {
    return null; // a malformed code is a wrong code, never a 500
  }
}
