/**
 * HTTP glue shared by the auth handlers: the refresh cookie (variant A), the session body (both
 * variants) and the client description services need.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../platform/http/context.ts';
import { REFRESH_TTL_MS, type ClientInfo, type IssuedSession, type MfaChallenge, type PasswordChangeRequired } from './auth.service.ts';

export const REFRESH_COOKIE = 'hearth_refresh';
/** The cookie only travels to the auth endpoints that need it. */
const COOKIE_PATH = '/api/v1/auth';

export function clientOf(c: Context<AppEnv>): ClientInfo {
  return { ip: c.get('clientIp'), isLocal: c.get('isLocalRequest'), userAgent: c.req.header('user-agent') ?? null };
}

/** `trustProxy` (the config's): behind a proxy this machine trusts, its `X-Forwarded-Proto` says whether the browser used HTTPS. */
function isHttps(c: Context<AppEnv>, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto') === 'https';
}

export function readRefreshCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, REFRESH_COOKIE);
}

/**
 * Variant A keeps the refresh token in an HttpOnly, SameSite=Strict cookie scoped to the auth path
 * (Secure on HTTPS). Variant B never sets a cookie: the client keeps the token from the body.
 */
export function sessionBody(c: Context<AppEnv>, s: IssuedSession, trustProxy: boolean) {
  const variantB = c.get('variant') === 'B';
  if (!variantB) {
    setCookie(c, REFRESH_COOKIE, s.refreshToken, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: isHttps(c, trustProxy),
      path: COOKIE_PATH,
      maxAge: Math.floor(REFRESH_TTL_MS / 1000),
    });
  }
  return {
    token: s.token,
    expiresAt: s.expiresAt,
    csrfToken: variantB ? null : s.csrfToken,
    user: s.user,
    bootstrap_admin: s.bootstrapAdmin,
    requires_mfa: false,
    mfa_token: null,
    mfa_methods: [] as string[],
    requires_password_change: false,
    password_change_token: null,
    password_change_reason: null,
    ...(variantB ? { refresh_token: s.refreshToken } : {}),
  };
}

export function passwordChangeBody(p: PasswordChangeRequired) {
  return {
    token: null,
    expiresAt: p.expiresAt,
    csrfToken: null,
    user: p.user,
    bootstrap_admin: false,
    requires_mfa: false,
    mfa_token: null,
    mfa_methods: [] as string[],
    requires_password_change: true,
    password_change_token: p.passwordChangeToken,
    password_change_reason: p.reason,
  };
}

/**
 * The second step of a sign-in: no token, no cookie; only the `mfa_token` that verifyMfa takes. `user`
 * is there as in the password-change answer (the schema's, and the password was right), so the
 * second-step screen can greet the member by name.
 */
export function mfaChallengeBody(m: MfaChallenge) {
  return {
    token: null,
    expiresAt: m.expiresAt,
    csrfToken: null,
    user: m.user,
    bootstrap_admin: false,
    requires_mfa: true,
    mfa_token: m.mfaToken,
    mfa_methods: m.methods,
    requires_password_change: false,
    password_change_token: null,
    password_change_reason: null,
  };
}

/** Whichever answer a sign-in step gave: a session, a required password change, or the MFA step. */
export function signInBody(c: Context<AppEnv>, r: IssuedSession | PasswordChangeRequired | MfaChallenge, trustProxy: boolean) {
  if ('mfaToken' in r) return mfaChallengeBody(r);
  if ('passwordChangeToken' in r) return passwordChangeBody(r);
  return sessionBody(c, r, trustProxy);
}

export function clearRefreshCookie(c: Context<AppEnv>, trustProxy: boolean): void {
  deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'Strict', secure: isHttps(c, trustProxy) });
}

/** The refresh token of this request: the cookie in variant A, the body field in variant B. */
export function presentedRefreshToken(c: Context<AppEnv>, body: { refresh_token?: string | undefined } | undefined): string | undefined {
  return c.get('variant') === 'B' ? body?.refresh_token : readRefreshCookie(c);
}
