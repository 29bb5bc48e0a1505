/**
 * The session state machine: who is signed in, the access token, and keeping it fresh.
 *
 *   restoring ──(cookie holds a live session)──▶ signed-in ──(sign out / session ended)──▶ signed-out
 *       │                                            ▲                                      │
 *       ├──(no cookie)───────────────────────────────┼──────────────────▶ signed-out ──(sign in)┘
 *       └──(server unreachable)──▶ unreachable ──(retry)──▶ restoring
 *
 * Tokens: the access token (15 minutes) lives only in this module's memory, never in storage, so a
 * script injected into the page cannot lift a long-lived credential from localStorage. The refresh
 * token is an HttpOnly cookie the page never sees; renewing needs the CSRF token bound to it, which
 * the server hands out (GET /auth/csrf) to same-origin callers only.
 *
 * Renewal happens about a minute before expiry, when a business call is answered 401, when the tab
 * becomes visible again after sleeping past the deadline, and when another tab signs in. Every
 * renewal, in every tab, runs under one cross-tab lock, because presenting a refresh token another tab
 * already spent makes the server end every session of the account.
 */
import { AUTH_CALL_TIMEOUT_MS, bareClient } from './bare-client';
import { ApiError, request } from './problem';
import type { Session, User } from './types';
import { withCrossTabLock } from '../lib/cross-tab-lock';
import { announce, onAnnouncement } from '../lib/broadcast';

export type SessionStatus = 'restoring' | 'signed-in' | 'signed-out' | 'unreachable';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** Why the session ended or could not be restored, when the person did not choose it. */
  notice: string | null;
}

type Renewal =
  | { kind: 'renewed'; session: Session }
  /** The server says the session is over (no cookie, revoked, expired, replayed). */
  | { kind: 'ended'; error: ApiError }
  /** Could not find out: network down, server busy. The session may well still be alive. */
  | { kind: 'failed'; error: ApiError };

const LOCK_NAME = 'hearth-refresh';
const REFRESH_AHEAD_MS = 60_000;
const RETRY_AFTER_FAILURE_MS = 30_000;
/** The documented access token lifetime, used when the device clock makes expiresAt unusable. */
const ASSUMED_ACCESS_TTL_MS = 15 * 60_000;

/**
 * How long the new access token lasts by this device's clock. expiresAt is the server's clock; a
 * device whose clock is far off would otherwise refresh in a loop or far too late. A 401 still
 * triggers a refresh if the fallback guess is wrong.
 */
function lifetimeOf(expiresAt: string | null): number {
  const ms = expiresAt ? Date.parse(expiresAt) - Date.now() : Number.NaN;
  return ms > 2 * REFRESH_AHEAD_MS && ms <= 60 * 60_000 ? ms : ASSUMED_ACCESS_TTL_MS;
}

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(0, 'unknown', 'Something went wrong. Try again.');
}

class SessionManager {
  private state: SessionState = { status: 'restoring', user: null, notice: null };
  private readonly listeners = new Set<() => void>();
  private readonly userListeners = new Set<(user: User | null, previous: User | null) => void>();
  private accessToken: string | null = null;
  /** Local-clock times: when to renew ahead of expiry, and when the token stops working. */
  private renewAt = 0;
  private expiresAt = 0;
  private renewal: Promise<Renewal> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private listening = false;

  /**
   * Starts following the tab and the other tabs: from the first restore(), so a page that only
   * loads this module (the public link page, in the same script as the app) never renews a session.
   */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    if (typeof document !== 'undefined') {
      // Timers do not run while a laptop sleeps, and background tabs get throttled.
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible' && this.accessToken && Date.now() >= this.renewAt) void this.renew();
      });
    }
    onAnnouncement((message) => {
      if (message.type === 'signed-out' && this.state.status === 'signed-in') {
        this.end('You signed out in another tab.');
      } else if (message.type === 'signed-in') {
        // Another tab signed in, which replaced the shared cookie (and ended the session it held).
        void this.renew();
      }
    });
  }

  // ------------------------------------------------------------ observing (useSyncExternalStore)

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): SessionState => this.state;

  /** Called when the signed-in user changes: sign-in, sign-out, a renewal returning fresh details. */
  onUserChange(listener: (user: User | null, previous: User | null) => void): () => void {
    this.userListeners.add(listener);
    return () => this.userListeners.delete(listener);
  }

  private set(next: SessionState): void {
    const previous = this.state.user;
    this.state = next;
    for (const l of this.listeners) l();
    if (previous !== next.user) for (const l of this.userListeners) l(next.user, previous);
  }

  // ------------------------------------------------------------ entering and leaving

  /** At start-up: take back the session the refresh cookie holds, if any. */
  async restore(): Promise<void> {
    this.listen();
    if (this.state.status !== 'restoring') this.set({ status: 'restoring', user: null, notice: null });
    await this.renew();
  }

  /** After sign-in, registration, or a password change: the server answered with a fresh session. */
  signedIn(session: Session): void {
    this.adopt(session);
    announce({ type: 'signed-in' });
  }

  async signOut(): Promise<void> {
    const token = this.accessToken;
    this.clearTimer();
    await withCrossTabLock(LOCK_NAME, async () => {
      const signal = AbortSignal.timeout(AUTH_CALL_TIMEOUT_MS);
      // The CSRF token must match the cookie as it is now (another tab may have rotated it); without
      // a cookie the bearer token alone still lets the server end this session.
      const csrf = await request(bareClient.GET('/api/v1/auth/csrf', { signal })).then(
        (r) => r.csrfToken,
        () => undefined,
      );
      const headers: Record<string, string> = {};
      if (csrf) headers['X-CSRF-Token'] = csrf;
      if (token) headers.Authorization = `Bearer ${token}`;
      await request(bareClient.POST('/api/v1/auth/logout', { headers, signal })).catch(() => {
        // Signing out on this device happens regardless; the server session then expires on its own.
      });
    });
    this.end(null);
    announce({ type: 'signed-out' });
  }

  /** Keeps the user details current after the person edits their own profile. */
  updateUser(user: User): void {
    if (this.state.status === 'signed-in') this.set({ ...this.state, user });
  }

  private adopt(session: Session): void {
    if (!session.token) throw new Error('A session without an access token cannot be used to sign in.');
    const lifetime = lifetimeOf(session.expiresAt);
    this.accessToken = session.token;
    this.expiresAt = Date.now() + lifetime;
    this.renewAt = this.expiresAt - REFRESH_AHEAD_MS;
    this.schedule(this.renewAt - Date.now());
    this.set({ status: 'signed-in', user: session.user, notice: null });
  }

  private end(notice: string | null): void {
    this.clearTimer();
    this.accessToken = null;
    this.expiresAt = 0;
    this.renewAt = 0;
    this.set({ status: 'signed-out', user: null, notice });
  }

  // ------------------------------------------------------------ renewal

  /** Renews the session; concurrent callers in this tab share one renewal. */
  renew(): Promise<Renewal> {
    this.renewal ??= withCrossTabLock(LOCK_NAME, () => this.renewHoldingLock())
      .then((outcome) => {
        this.settle(outcome);
        return outcome;
      })
      .finally(() => {
        this.renewal = null;
      });
    return this.renewal;
  }

  private async renewHoldingLock(): Promise<Renewal> {
    const signal = AbortSignal.timeout(AUTH_CALL_TIMEOUT_MS);
    try {
      // Always ask for the CSRF token of the cookie as it is now: while this tab waited for the lock,
      // another tab may have rotated the cookie, and the token from our last session would not match.
      const { csrfToken } = await request(bareClient.GET('/api/v1/auth/csrf', { signal }));
      // No live cookie (a signed-out visitor, or a session ended elsewhere): nothing to renew, and no
      // refresh request that could only fail.
      if (!csrfToken) return { kind: 'ended', error: new ApiError(401, 'session_ended', 'Your session has ended. Sign in again.') };
      const session = await request(
        bareClient.POST('/api/v1/auth/refresh', { params: { header: { 'x-csrf-token': csrfToken } }, signal }),
      );
      return { kind: 'renewed', session };
    } catch (e) {
      const error = asApiError(e);
      return error.status === 401 ? { kind: 'ended', error } : { kind: 'failed', error };
    }
  }

  private settle(outcome: Renewal): void {
    if (outcome.kind === 'renewed') {
      this.adopt(outcome.session);
    } else if (outcome.kind === 'ended') {
      // At start-up "no session" is the normal signed-out case, not news worth a notice.
      const wasSignedIn = this.state.status === 'signed-in';
      this.end(wasSignedIn ? outcome.error.detail : null);
    } else if (this.state.status === 'signed-in') {
      // The token may still be good for a while; try again soon rather than signing out.
      this.schedule(RETRY_AFTER_FAILURE_MS);
    } else if (this.state.status === 'restoring') {
      this.set({ status: 'unreachable', user: null, notice: outcome.error.detail });
    }
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => void this.renew(), Math.max(delayMs, 5_000));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  // ------------------------------------------------------------ for the API client

  /** The token to send now, renewing first if it has (nearly) run out, e.g. after the device slept. */
  async tokenForRequest(): Promise<string | null> {
    if (this.renewal) await this.renewal;
    if (this.accessToken && Date.now() >= this.expiresAt - 5_000) await this.renew();
    return this.accessToken;
  }

  /**
   * A call made with `rejected` was answered 401. Renews once (unless another call already did) and
   * returns the token to retry with, or null when the session is over.
   */
  async tokenAfterRejection(rejected: string): Promise<string | null> {
    if (this.renewal) await this.renewal;
    if (!this.accessToken) return null;
    if (this.accessToken !== rejected) return this.accessToken;
    const outcome = await this.renew();
    return outcome.kind === 'renewed' ? this.accessToken : null;
  }
}

export const session = new SessionManager();
