/** SQL for sessions, refresh tokens and password-change tokens (all tokens stored as hashes). */
import type { Db } from '../../platform/db/connection.ts';

export interface SessionRow {
  session_id: string;
  user_id: number;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
  /** JSON array of how the session was signed in (`password`, `totp`, `recovery_code`); null before migration 0032. */
  auth_methods: string | null;
}

export interface RefreshRow {
  token_hash: string;
  session_id: string;
  issued_at: number;
  expires_at: number;
  used_at: number | null;
}

export class AuthStore {
  constructor(private readonly db: Db) {}

  createSession(s: {
    session_id: string;
    user_id: number;
    now: number;
    expires_at: number;
    user_agent: string | null;
    ip: string | null;
    auth_methods: readonly string[];
  }): void {
    this.db
      .prepare(
        `INSERT INTO sessions (session_id, user_id, created_at, last_used_at, expires_at, user_agent, ip, auth_methods)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.session_id, s.user_id, s.now, s.now, s.expires_at, s.user_agent, s.ip, JSON.stringify(s.auth_methods));
  }

  session(id: string): SessionRow | undefined {
    return this.db.prepare('SELECT * FROM sessions WHERE session_id = ?').get(id) as SessionRow | undefined;
  }

  touchSession(id: string, now: number, expiresAt: number): void {
    this.db.prepare('UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE session_id = ?').run(now, expiresAt, id);
  }

  revokeSession(id: string, reason: string, now: number): void {
    this.db
      .prepare('UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE session_id = ? AND revoked_at IS NULL')
      .run(now, reason, id);
  }

  /** Revokes every live session of a user (and with it their refresh and access tokens). */
  revokeAllSessions(userId: number, reason: string, now: number): number {
    return this.db
      .prepare('UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND revoked_at IS NULL')
      .run(now, reason, userId).changes;
  }

  /** Revokes every live session of a user but `keep` (signing out the other devices). */
  revokeOtherSessions(userId: number, keep: string, reason: string, now: number): number {
    return this.db
      .prepare('UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND session_id <> ? AND revoked_at IS NULL')
      .run(now, reason, userId, keep).changes;
  }

  insertRefresh(r: { token_hash: string; session_id: string; now: number; expires_at: number }): void {
    this.db
      .prepare('INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(r.token_hash, r.session_id, r.now, r.expires_at);
  }

  refresh(hash: string): RefreshRow | undefined {
    return this.db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?').get(hash) as RefreshRow | undefined;
  }

  /** Marks a refresh token used; false when another request used it first. */
  markRefreshUsed(hash: string, now: number): boolean {
    return this.db.prepare('UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(now, hash).changes === 1;
  }

  insertPasswordChangeToken(hash: string, userId: number, expiresAt: number): void {
    this.db.prepare('DELETE FROM password_change_tokens WHERE user_id = ?').run(userId);
    this.db
      .prepare('INSERT INTO password_change_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)')
      .run(hash, userId, expiresAt);
  }

  /** Consumes a password-change token; returns its user when it was valid and unused. */
  consumePasswordChangeToken(hash: string, now: number): number | null {
    const row = this.db
      .prepare('SELECT user_id FROM password_change_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
      .get(hash, now) as { user_id: number } | undefined;
    if (!row) return null;
    this.db.prepare('UPDATE password_change_tokens SET used_at = ? WHERE token_hash = ?').run(now, hash);
    return row.user_id;
  }

  /** Housekeeping: drop sessions and tokens that can no longer be used. */
  prune(now: number): void {
    const weekAgo = now - 7 * 24 * 3600 * 1000;
    this.db.prepare('DELETE FROM sessions WHERE (revoked_at IS NOT NULL AND revoked_at < ?) OR expires_at < ?').run(weekAgo, weekAgo);
    this.db.prepare('DELETE FROM password_change_tokens WHERE expires_at < ?').run(now);
  }
}
