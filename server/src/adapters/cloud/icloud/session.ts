/**
 * What an iCloud credential keeps between calls (ProviderState.session, sealed at rest by the feature):
 * Apple's cookies, the sign-in headers Apple hands out (scnt, session id, session token, trust token) and
 * the CloudKit address accountLogin gave. No password: signing in again asks the person for it.
 */
import { ProviderError } from '../provider.ts';
import type { StoredCookie } from './cookies.ts';

export type ICloudDomain = 'com' | 'cn';

/** The sign-in headers Apple returns and expects back (pyicloud's HEADER_DATA). */
export interface AppleAuthHeaders {
  scnt?: string;
  sessionId?: string;
  sessionToken?: string;
  accountCountry?: string;
  trustToken?: string;
}

/** Where a pending verification code was sent, to post it to the matching endpoint. */
export interface PendingChallenge {
  delivery: 'device' | 'sms';
  phoneId?: number;
}

export interface ICloudSession {
  domain: ICloudDomain;
  appleId: string;
  /** The OAuth state / clientId Apple saw at sign-in; CloudKit calls carry it too. */
  clientId: string;
  cookies: StoredCookie[];
  auth: AppleAuthHeaders;
  /** The CloudKit database service (webservices.ckdatabasews.url). */
  ckdatabasews?: string;
  dsid?: string;
  /** When Apple last trusted this browser session (2sv/trust), or signed in without one (epoch ms). */
  trustedAt?: number;
  pending?: PendingChallenge;
}

/** About how long Apple keeps a trusted web session (its "trust this browser" promise). */
export const SESSION_DAYS = 90;
export const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

/** Reads a stored session back, refusing a shape this adapter did not write. */
export function readSession(raw: unknown): ICloudSession {
  const s = raw as Partial<ICloudSession> | null;
  if (!s || typeof s !== 'object' || (s.domain !== 'com' && s.domain !== 'cn') || typeof s.appleId !== 'string' || typeof s.clientId !== 'string') {
    throw new ProviderError('session_expired', 'The stored iCloud session is not usable: sign in again with the password.');
  }
  return {
    domain: s.domain,
    appleId: s.appleId,
    clientId: s.clientId,
    cookies: Array.isArray(s.cookies) ? s.cookies : [],
    auth: s.auth && typeof s.auth === 'object' ? { ...s.auth } : {},
    ...(typeof s.ckdatabasews === 'string' ? { ckdatabasews: s.ckdatabasews } : {}),
    ...(typeof s.dsid === 'string' ? { dsid: s.dsid } : {}),
    ...(typeof s.trustedAt === 'number' ? { trustedAt: s.trustedAt } : {}),
    ...(s.pending && (s.pending.delivery === 'device' || s.pending.delivery === 'sms') ? { pending: { ...s.pending } } : {}),
  };
}

/** "anna@example.com" → "a•••@example.com": enough to recognise the account, not to read it out. */
export function maskAppleId(appleId: string): string {
  const at = appleId.lastIndexOf('@');
  if (at <= 0) return appleId.length <= 2 ? '•••' : `${appleId[0]}•••${appleId.slice(-2)}`;
  return `${appleId[0]}•••${appleId.slice(at)}`;
}
