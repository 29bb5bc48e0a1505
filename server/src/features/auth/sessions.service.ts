/**
 * Signed-in devices: a member lists their live sessions and signs out one or every other; an administrator
 * does the same for a member. Revocation goes through AuthStore, so a revoked session's refresh token is
 * refused (auth.service.ts refresh) and its access token stops at the next request (actorFor checks the
 * session every time): the device is out at once, not in 15 minutes.
 *
 * Ownership: a session is found only with its user's id in the same query, so someone else's session
 * answers 404 exactly like one that does not exist (the access layer's rule, platform/access/access.ts).
 * Sessions are not an access kind there: they are rows of the account, not of the catalog.
 */
import { tx, type Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, NotFound } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { UsersStore } from '../users/index.ts';
import { AuthStore } from './auth.store.ts';
import { SessionsStore, type LiveSessionRow } from './sessions.store.ts';
import { parseUserAgent } from './user-agent.ts';

/** Why a session ended (sessions.revoke_reason), so a later look at the table tells who ended it. */
export const REVOKED_BY_MEMBER = 'signed_out_from_other_device';
export const REVOKED_BY_ADMIN = 'signed_out_by_admin';

const iso = (ms: number) => new Date(ms).toISOString();

export class SessionsService {
  private readonly store: SessionsStore;
  private readonly auth: AuthStore;
  private readonly users: UsersStore;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new SessionsStore(db);
    this.auth = new AuthStore(db);
    this.users = new UsersStore(db);
  }

  listMine(actor: Actor) {
    return this.list(actor.userId, actor.sessionId);
  }

  /** Signs out one of my other devices. The asking session is logout's, which also clears the cookie. */
  revokeMine(actor: Actor, sessionId: string) {
    if (sessionId === actor.sessionId) throw new Conflict('This is the device you are using: sign out instead.', 'current_session');
    this.revokeOne(actor.userId, sessionId, REVOKED_BY_MEMBER);
    this.log.info({ user_id: actor.userId, session_id: sessionId }, 'session signed out by its member');
    return { revoked: 1 };
  }

  /** Signs out every device of mine but this one. */
  revokeMyOthers(actor: Actor) {
    const revoked = this.auth.revokeOtherSessions(actor.userId, actor.sessionId, REVOKED_BY_MEMBER, this.now());
    this.log.info({ user_id: actor.userId, revoked }, 'other sessions signed out by their member');
    return { revoked };
  }

  listFor(actor: Actor, userId: number) {
    this.requireUser(userId);
    return this.list(userId, actor.sessionId);
  }

  revokeOneFor(actor: Actor, userId: number, sessionId: string) {
    this.requireUser(userId);
    if (userId === actor.userId && sessionId === actor.sessionId) throw new Conflict('This is the device you are using: sign out instead.', 'current_session');
    this.revokeOne(userId, sessionId, REVOKED_BY_ADMIN);
    this.log.warn({ by: actor.userId, user_id: userId, session_id: sessionId }, 'session signed out by an administrator');
    return { revoked: 1 };
  }

  /**
   * Signs a member out everywhere. An administrator naming their own account keeps the session asking
   * (ending it would sign them out in the middle of the page that asked).
   */
  revokeAllFor(actor: Actor, userId: number) {
    this.requireUser(userId);
    const now = this.now();
    const revoked =
      userId === actor.userId
        ? this.auth.revokeOtherSessions(userId, actor.sessionId, REVOKED_BY_ADMIN, now)
        : this.auth.revokeAllSessions(userId, REVOKED_BY_ADMIN, now);
    this.log.warn({ by: actor.userId, user_id: userId, revoked }, 'all sessions of a member signed out by an administrator');
    return { revoked };
  }

  private list(userId: number, currentSessionId: string) {
    return { sessions: this.store.live(userId, this.now()).map((row) => view(row, row.session_id === currentSessionId)) };
  }

  private revokeOne(userId: number, sessionId: string, reason: string): void {
    const found = tx(this.db, () => {
      const row = this.store.liveOne(userId, sessionId, this.now());
      if (row) this.auth.revokeSession(row.session_id, reason, this.now());
      return row !== undefined;
    });
    if (!found) throw new NotFound('No such session: it ended already, or it is not one of this account’s.', 'session_not_found');
  }

  private requireUser(userId: number): void {
    if (!this.users.byId(userId)) throw new NotFound('No such user.', 'user_not_found');
  }
}

function view(row: LiveSessionRow, current: boolean) {
  return {
    session_id: row.session_id,
    current,
    ...parseUserAgent(row.user_agent),
    user_agent: row.user_agent,
    ip: row.ip,
    created_at: iso(row.created_at),
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
    // Sessions from before migration 0032 were all signed in by password.
    auth_methods: row.auth_methods ? (JSON.parse(row.auth_methods) as string[]) : ['password'],
  };
}
