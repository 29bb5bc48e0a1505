/**
 * Accounts and sessions: registration (with the bootstrap rules), sign-in, token issue and rotation,
 * sign-out, password changes, and turning a presented token back into an Actor.
 *
 * Tokens:
 * - access token: HS256 JWT, 15 minutes, carries the session id; checked against the session and the
 *   user's auth_version on every request, so revocation is immediate.
 * - refresh token: 32 random bytes, 30 days, stored hashed, rotated on every use. Presenting an
 *   already-used token is treated as theft: every session of that user is revoked.
 * - media token: HS256 JWT with its own key, 10 minutes, only accepted on media URLs (`?mt=`).
 * - CSRF token (variant A): HMAC of the refresh cookie, so it is bound to that cookie session.
 * - MFA token (`mfa_token`): 32 random bytes, stored hashed, 5 minutes, single use, one account. It is
 *   what a correct password gets when the account has a second factor: it opens verifyMfa and nothing
 *   else (it is no JWT and no refresh token, so no other check accepts it). mfa.service.ts verifies it.
 */
import crypto from 'node:crypto';
import type { SettingsStore } from '../../config/settings.ts';
import type { Access } from '../../platform/access/index.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { signJwt, verifyJwt } from '../../platform/crypto/jwt.ts';
import { hmac, randomToken, safeEqual, sha256, type KeyRing } from '../../platform/crypto/keys.ts';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/crypto/passwords.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Forbidden, Unauthorized } from '../../platform/http/errors.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import type { Logger } from '../../platform/logger.ts';
import { UsersStore, type UserRow, checkAvatar, toUser, type User } from '../users/index.ts';
import { AuthStore } from './auth.store.ts';
import type { SetupCode } from './setup-code.ts';
import type { InvitesService } from './invites.service.ts';
import { MfaStore } from './mfa.store.ts';

export const ACCESS_TTL_MS = 15 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 3600_000;
export const MEDIA_TTL_MS = 10 * 60_000;
export const PASSWORD_CHANGE_TTL_MS = 10 * 60_000;
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;

/** How a session was signed in, kept on the session (getMfaStatus shows it). */
export type AuthMethod = 'password' | 'totp' | 'recovery_code' | 'passkey';

/** Where a request came from, for rate limits and the bootstrap rule. */
export interface ClientInfo {
  ip: string;
  isLocal: boolean;
  userAgent: string | null;
}

/** A signed-in result. `refreshToken` is set into the cookie (A) or returned in the body (B). */
export interface IssuedSession {
  user: User;
  sessionId: string;
  token: string;
  expiresAt: string;
  refreshToken: string;
  csrfToken: string;
  bootstrapAdmin: boolean;
}

/**
 * Why an account must choose a password before it is used. Decision (issue 24): an account that has
 * never been signed into is still on the first password the administrator gave it (createUser), even
 * if the administrator reset it before the member came (the member never had another); one that has
 * been used was reset (resetAccess). last_login_at is written only when a session is issued, so the
 * pending sign-in itself never turns a first password into a reset.
 */
export type PasswordChangeReason = 'first_password' | 'access_reset';

/** A correct password on an account with a second factor: the second step, and no session yet. */
/** What creating an account takes (register, startStagedRegistration). */
export interface RegistrationInput {
  username: string;
  password: string;
  display_name?: string | undefined;
  setup_code?: string | undefined;
  invite_code?: string | undefined;
}

export interface MfaChallenge {
  user: User;
  mfaToken: string;
  expiresAt: string;
  methods: string[];
}

export interface PasswordChangeRequired {
  user: User;
  reason: PasswordChangeReason;
  passwordChangeToken: string;
  expiresAt: string;
}

export class AuthService {
  readonly users: UsersStore;
  readonly store: AuthStore;
  private readonly mfa: MfaStore;
  private readonly accessKey: Buffer;
  private readonly mediaKey: Buffer;
  private readonly csrfKey: Buffer;
  readonly limits = {
    login: new FailureLimiter('login'),
    loginOptions: new FailureLimiter('login_options', { windowMs: 60_000, maxPerIp: 120, maxPerSubject: 1_000_000, lockoutMs: 60_000 }),
    register: new FailureLimiter('register', { windowMs: 60_000, maxPerIp: 10, maxPerSubject: 1_000_000, lockoutMs: 5 * 60_000 }),
    passwordChange: new FailureLimiter('password_change', { windowMs: 60_000, maxPerIp: 10, maxPerSubject: 1_000_000, lockoutMs: 5 * 60_000 }),
    refresh: new FailureLimiter('refresh', { windowMs: 60_000, maxPerIp: 60, maxPerSubject: 1_000_000, lockoutMs: 60_000 }),
  };

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    keys: KeyRing,
    private readonly settings: SettingsStore,
    private readonly setupCode: SetupCode,
    private readonly invites: InvitesService,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.users = new UsersStore(db);
    this.store = new AuthStore(db);
    this.mfa = new MfaStore(db);
    this.accessKey = keys.key('access');
    this.mediaKey = keys.key('media');
    this.csrfKey = keys.key('csrf');
  }

  // ---------------------------------------------------------------- bootstrap and registration

  bootstrapStatus(client: ClientInfo) {
    const bootstrap = this.users.count() === 0;
    const reg = this.settings.section('registration');
    const inviteOpen = reg.mode === 'invite_code' && this.settings.secret('registration.invite_code') !== null;
    return {
      bootstrap_mode: bootstrap,
      next_role: bootstrap ? ('admin' as const) : ('user' as const),
      registration_open: bootstrap || inviteOpen,
      invite_code_required: !bootstrap,
      setup_code_required: bootstrap && !client.isLocal,
      local_request: client.isLocal,
      second_factor_required: !bootstrap && reg.require_second_factor,
    };
  }

  /**
   * Registers an account. The first account becomes the administrator, but only from this machine or
   * with the one-time setup code printed at start, so a stranger on the LAN cannot claim a fresh
   * install. Later accounts need an invite link's code (single-use, open even when registration is
   * closed: features/auth/invites.service.ts) or the administrator's standing invite code (registration
   * is closed otherwise).
   */
  async register(
    input: RegistrationInput,
    client: ClientInfo,
  ): Promise<IssuedSession> {
    this.limits.register.check(client.ip);
    const passwordHash = await hashPassword(input.password);
    const { user, bootstrapAdmin } = tx(this.db, () => this.admit(input, passwordHash, client, this.now(), false));
    return this.issueSession(user!, client, bootstrapAdmin);
  }

  /**
   * Checks that these details may create an account now and creates it, inside the caller's transaction:
   * the first account (on this machine or with the setup code), an invite link (used up here), or the
   * household's invite code; a free name. With `registration.require_second_factor` on, a later account is
   * created only by staged registration (`staged`), whose `alsoInTx` enrols the second factor in the same
   * transaction. `dryRun`: the checks only (startStagedRegistration), nothing written.
   */
  admit(
    input: RegistrationInput,
    passwordHash: string,
    client: ClientInfo,
    now: number,
    staged: boolean,
    alsoInTx?: (user: UserRow) => void,
    dryRun = false,
  ): { user: UserRow | null; bootstrapAdmin: boolean } {
    const bootstrap = this.users.count() === 0;
    if (bootstrap) {
      if (!client.isLocal && !(input.setup_code && this.setupCode.matches(input.setup_code))) {
        this.limits.register.fail(client.ip);
        throw new Forbidden(
          'The first account can only be created on the Hearth machine itself, or with the setup code it printed at start.',
          'setup_code_required',
        );
      }
    }
    const invite = !bootstrap && input.invite_code ? this.invites.find(input.invite_code) : null;
    if (invite && invite.state !== 'pending') {
      this.limits.register.fail(client.ip);
      throw new Forbidden(
        invite.state === 'used'
          ? 'This invite link was already used. Ask the administrator for a new one.'
          : 'This invite link has expired. Ask the administrator for a new one.',
        'invite_expired',
      );
    }
    if (!bootstrap && !invite) {
      const reg = this.settings.section('registration');
      const code = this.settings.secret('registration.invite_code');
      if (reg.mode !== 'invite_code' || code === null) {
        throw new Forbidden('Registration is closed. Ask the administrator for an invite code.', 'registration_closed');
      }
      if (!input.invite_code || !safeEqual(sha256(input.invite_code), sha256(code))) {
        this.limits.register.fail(client.ip);
        throw new Forbidden('That invite code is not right.', 'invite_code_invalid');
      }
    }
    if (!bootstrap && !staged && this.settings.section('registration').require_second_factor) {
      throw new Forbidden(
        'This household asks every new account for a second factor: an authenticator app or a passkey. Continue with the staged registration.',
        'second_factor_required',
      );
    }
    if (this.users.byUsername(input.username)) throw new Conflict('That user name is taken.', 'username_taken');
    if (dryRun) return { user: null, bootstrapAdmin: bootstrap };
    const row = this.users.insert({
      username: input.username,
      display_name: input.display_name ?? input.username,
      password_hash: passwordHash,
      role: bootstrap ? 'admin' : 'user',
      now,
    });
    // In the same transaction: two people opening the same link at once cannot both join.
    if (invite && !this.invites.store.markUsed(invite.row.invite_id, row.user_id, now)) {
      throw new Forbidden('This invite link was already used. Ask the administrator for a new one.', 'invite_expired');
    }
    alsoInTx?.(row);
    if (bootstrap) this.setupCode.consume();
    this.log.info({ user_id: row.user_id, role: row.role, staged }, 'account registered');
    return { user: row, bootstrapAdmin: bootstrap };
  }

  // ---------------------------------------------------------------- sign-in

  /** Never reveals whether an account exists: unknown and inactive names get the same answer. */
  loginOptions(username: string, client: ClientInfo): { password: boolean; passkey: boolean } {
    this.limits.loginOptions.check(client.ip);
    this.limits.loginOptions.fail(client.ip); // counts probes, not just failures
    // As the contract says: passkey true only for an active account with a passkey; never a word on TOTP,
    // and an unknown or inactive name gets the password-only answer.
    const user = this.users.byUsername(username);
    return { password: true, passkey: !!user?.is_active && this.mfa.passkeyCount(user.user_id) > 0 };
  }

  async login(
    input: { username: string; password: string },
    client: ClientInfo,
    replacesRefreshToken?: string,
  ): Promise<IssuedSession | PasswordChangeRequired | MfaChallenge> {
    this.limits.login.check(client.ip, input.username);
    const user = this.users.byUsername(input.username);
    const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
    if (!user || !ok) {
      this.limits.login.fail(client.ip, input.username);
      throw new Unauthorized('Wrong user name or password.', 'invalid_credentials');
    }
    this.limits.login.succeed(input.username);
    if (!user.is_active) throw new Forbidden('This account is disabled. Ask the administrator.', 'account_disabled');
    if (replacesRefreshToken) this.revokeByRefreshToken(replacesRefreshToken, 'replaced_by_login');
    // The second factor comes before a required password change: the change's token signs in too.
    if (this.mfa.totp(user.user_id)) return this.mfaChallenge(user);
    if (user.must_change_password) return this.passwordChangeRequired(user);
    return this.issueSession(user, client, false);
  }

  private mfaChallenge(user: UserRow): MfaChallenge {
    const token = randomToken();
    const now = this.now();
    const expiresAt = now + MFA_CHALLENGE_TTL_MS;
    this.mfa.insertChallenge(sha256(token), user.user_id, now, expiresAt);
    const methods = ['totp'];
    if (this.mfa.recoveryCodeSummary(user.user_id).remaining > 0) methods.push('recovery_code');
    // A passkey completes the second step too (passkeys.service.ts: beginPasskeyLogin with the mfa_token).
    if (this.mfa.passkeyCount(user.user_id) > 0) methods.push('passkey');
    return { user: toUser(user), mfaToken: token, expiresAt: new Date(expiresAt).toISOString(), methods };
  }

  passwordChangeRequired(user: UserRow): PasswordChangeRequired {
    const token = randomToken();
    const expiresAt = this.now() + PASSWORD_CHANGE_TTL_MS;
    this.store.insertPasswordChangeToken(sha256(token), user.user_id, expiresAt);
    return { user: toUser(user), reason: user.last_login_at === null ? 'first_password' : 'access_reset', passwordChangeToken: token, expiresAt: new Date(expiresAt).toISOString() };
  }

  async completePasswordChange(input: { password_change_token: string; new_password: string }, client: ClientInfo): Promise<IssuedSession> {
    this.limits.passwordChange.check(client.ip);
    const passwordHash = await hashPassword(input.new_password);
    const now = this.now();
    const user = tx(this.db, () => {
      const userId = this.store.consumePasswordChangeToken(sha256(input.password_change_token), now);
      if (userId === null) return null;
      this.users.update(userId, { password_hash: passwordHash, must_change_password: 0 }, now);
      this.store.revokeAllSessions(userId, 'password_changed', now);
      return this.users.byId(userId)!;
    });
    if (!user) {
      this.limits.passwordChange.fail(client.ip);
      throw new Unauthorized('This password change link has expired. Sign in again with the temporary password.', 'password_change_token_invalid');
    }
    return this.issueSession(user, client, false);
  }

  // ---------------------------------------------------------------- sessions

  /** A new session (refresh token + access token) for a user who proved who they are by `methods`. */
  issueSession(user: UserRow, client: ClientInfo, bootstrapAdmin: boolean, methods: readonly AuthMethod[] = ['password']): IssuedSession {
    const now = this.now();
    const sessionId = crypto.randomUUID();
    const refreshToken = randomToken();
    tx(this.db, () => {
      this.store.createSession({
        session_id: sessionId,
        user_id: user.user_id,
        now,
        expires_at: now + REFRESH_TTL_MS,
        user_agent: client.userAgent?.slice(0, 300) ?? null,
        ip: client.ip,
        auth_methods: methods,
      });
      this.store.insertRefresh({ token_hash: sha256(refreshToken), session_id: sessionId, now, expires_at: now + REFRESH_TTL_MS });
      this.users.update(user.user_id, { last_login_at: now }, now);
    });
    return this.sessionResult(this.users.byId(user.user_id)!, sessionId, refreshToken, bootstrapAdmin);
  }

  private sessionResult(user: UserRow, sessionId: string, refreshToken: string, bootstrapAdmin: boolean): IssuedSession {
    const now = this.now();
    const exp = now + ACCESS_TTL_MS;
    const token = signJwt(this.accessKey, {
      sub: String(user.user_id),
      sid: sessionId,
      av: user.auth_version,
      jti: randomToken(9),
      iat: Math.floor(now / 1000),
      exp: Math.floor(exp / 1000),
    });
    return {
      user: toUser(user),
      sessionId,
      token,
      expiresAt: new Date(Math.floor(exp / 1000) * 1000).toISOString(),
      refreshToken,
      csrfToken: this.csrfFor(refreshToken),
      bootstrapAdmin,
    };
  }

  csrfFor(refreshToken: string): string {
    return `v1.${hmac(this.csrfKey, `hearth.refresh.csrf.v1\0${refreshToken}`)}`;
  }

  checkCsrf(refreshToken: string, header: string | undefined): void {
    if (!header || !safeEqual(header, this.csrfFor(refreshToken))) {
      throw new Forbidden('Missing or wrong X-CSRF-Token for this session.', 'csrf_invalid');
    }
  }

  /**
   * The CSRF token of a live refresh cookie; null when there is no cookie or its session has ended.
   * "No session" is an answer, not an error (decision, issue 24): every fresh page load asks this
   * before it can know whether the HttpOnly cookie exists, and a signed-out visitor is the normal case.
   */
  csrfForCookie(refreshToken: string | undefined): string | null {
    if (!refreshToken) return null;
    const row = this.store.refresh(sha256(refreshToken));
    const session = row && this.store.session(row.session_id);
    if (!row || row.used_at || !session || session.revoked_at || row.expires_at <= this.now()) return null;
    return this.csrfFor(refreshToken);
  }

  /** Rotates a refresh token. Reuse of a spent token revokes every session of its user. */
  refresh(refreshToken: string | undefined, client: ClientInfo): IssuedSession {
    this.limits.refresh.check(client.ip);
    if (!refreshToken) throw new Unauthorized('No refresh token.', 'no_session');
    const hash = sha256(refreshToken);
    const now = this.now();
    const result = tx(this.db, () => {
      const row = this.store.refresh(hash);
      if (!row) return { error: 'unknown' as const };
      const session = this.store.session(row.session_id)!;
      if (row.used_at !== null) {
        const n = this.store.revokeAllSessions(session.user_id, 'refresh_token_reused', now);
        return { error: 'reused' as const, userId: session.user_id, revoked: n };
      }
      if (session.revoked_at !== null || row.expires_at <= now || session.expires_at <= now) return { error: 'ended' as const };
      const user = this.users.byId(session.user_id)!;
      if (!user.is_active) return { error: 'ended' as const };
      this.store.markRefreshUsed(hash, now);
      const next = randomToken();
      this.store.insertRefresh({ token_hash: sha256(next), session_id: session.session_id, now, expires_at: now + REFRESH_TTL_MS });
      this.store.touchSession(session.session_id, now, now + REFRESH_TTL_MS);
      return { user, sessionId: session.session_id, next };
    });
    if ('error' in result) {
      this.limits.refresh.fail(client.ip);
      if (result.error === 'reused') {
        this.log.warn({ user_id: result.userId, revoked: result.revoked, ip: client.ip }, 'refresh token replayed: all sessions revoked');
        throw new Unauthorized('This session was used elsewhere and has been ended for safety. Sign in again.', 'refresh_token_reused');
      }
      throw new Unauthorized('The session has ended. Sign in again.', 'session_ended');
    }
    return this.sessionResult(result.user, result.sessionId, result.next, false);
  }

  revokeByRefreshToken(refreshToken: string, reason: string): void {
    const row = this.store.refresh(sha256(refreshToken));
    if (row) this.store.revokeSession(row.session_id, reason, this.now());
  }

  logout(refreshToken: string | undefined, actor: Actor | null): void {
    if (refreshToken) this.revokeByRefreshToken(refreshToken, 'logout');
    if (actor) this.store.revokeSession(actor.sessionId, 'logout', this.now());
  }

  // ---------------------------------------------------------------- tokens → actors

  /** Resolves a bearer access token; null when it is bad, expired, or its session was revoked. */
  authenticateAccessToken(token: string): Actor | null {
    const claims = verifyJwt(this.accessKey, token, this.now());
    if (!claims || typeof claims.sid !== 'string') return null;
    return this.actorFor(Number(claims.sub), claims.sid, claims.av, 'bearer');
  }

  async authenticateMediaToken(token: string): Promise<Actor | null> {
    const claims = verifyJwt(this.mediaKey, token, this.now());
    if (!claims || claims.scope !== 'media' || typeof claims.sid !== 'string') return null;
    return this.actorFor(Number(claims.sub), claims.sid, claims.av, 'media_token');
  }

  private actorFor(userId: number, sessionId: string, authVersion: unknown, via: Actor['via']): Actor | null {
    const row = prepared(
      this.db,
        `SELECT u.user_id, u.username, u.role, u.is_active, u.auth_version, s.revoked_at, s.expires_at
         FROM sessions s JOIN users u ON u.user_id = s.user_id
         WHERE s.session_id = ? AND u.user_id = ?`,
      )
      .get(sessionId, userId) as
      | { user_id: number; username: string; role: 'admin' | 'user'; is_active: number; auth_version: number; revoked_at: number | null; expires_at: number }
      | undefined;
    if (!row || row.revoked_at !== null || row.expires_at <= this.now() || !row.is_active || row.auth_version !== authVersion) return null;
    return { userId: row.user_id, username: row.username, role: row.role, sessionId, via };
  }

  mediaToken(actor: Actor): { token: string; expires_at: string } {
    const now = this.now();
    const exp = Math.floor((now + MEDIA_TTL_MS) / 1000);
    const user = this.users.byId(actor.userId)!;
    const token = signJwt(this.mediaKey, {
      sub: String(actor.userId),
      sid: actor.sessionId,
      av: user.auth_version,
      scope: 'media',
      iat: Math.floor(now / 1000),
      exp,
    });
    return { token, expires_at: new Date(exp * 1000).toISOString() };
  }

  // ---------------------------------------------------------------- own account

  me(actor: Actor): User {
    return toUser(this.users.byId(actor.userId)!);
  }

  /** Verifies the current password, sets the new one, ends every session, and signs this device in anew. */
  async changeMyPassword(actor: Actor, input: { current_password: string; new_password: string }, client: ClientInfo): Promise<IssuedSession> {
    this.limits.login.check(client.ip, actor.username);
    const user = this.users.byId(actor.userId)!;
    if (!(await verifyPassword(input.current_password, user.password_hash))) {
      this.limits.login.fail(client.ip, actor.username);
      throw new Forbidden('The current password is not right.', 'wrong_password');
    }
    const hash = await hashPassword(input.new_password);
    const now = this.now();
    tx(this.db, () => {
      this.users.update(user.user_id, { password_hash: hash, must_change_password: 0 }, now);
      this.store.revokeAllSessions(user.user_id, 'password_changed', now);
    });
    this.log.info({ user_id: user.user_id }, 'password changed; all sessions revoked');
    // This device keeps what it proved: a session opened with a second factor stays one.
    return this.issueSession(this.users.byId(user.user_id)!, client, false, this.sessionMethods(actor.sessionId));
  }

  /** How a session was signed in (sessions older than migration 0032: by password). */
  sessionMethods(sessionId: string): AuthMethod[] {
    const raw = this.store.session(sessionId)?.auth_methods;
    return raw ? (JSON.parse(raw) as AuthMethod[]) : ['password'];
  }

  updateMyProfile(actor: Actor, input: { display_name?: string | undefined; avatar_asset_id?: string | null | undefined }): User {
    const patch: Parameters<UsersStore['update']>[1] = {};
    if (input.display_name !== undefined) patch.display_name = input.display_name;
    if (input.avatar_asset_id !== undefined) {
      checkAvatar(this.access, this.users, actor.userId, input.avatar_asset_id);
      patch.avatar_asset_id = input.avatar_asset_id;
    }
    this.users.update(actor.userId, patch, this.now());
    return this.me(actor);
  }
}
