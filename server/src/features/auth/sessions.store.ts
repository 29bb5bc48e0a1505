/** SQL for the list of signed-in devices: a user's live sessions (revocation itself is AuthStore's). */
import type { Db } from '../../platform/db/connection.ts';

export interface LiveSessionRow {
  session_id: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
  auth_methods: string | null;
}

const COLUMNS = 'session_id, created_at, last_used_at, expires_at, user_agent, ip, auth_methods';

export class SessionsStore {
  constructor(private readonly db: Db) {}

  /** Sessions not revoked and not expired, the most recently used first (the sessions_user index finds them). */
  live(userId: number, now: number): LiveSessionRow[] {
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY last_used_at DESC, created_at DESC`)
      .all(userId, now) as LiveSessionRow[];
  }

  /** One live session of this user; undefined for another user's, an ended one, or none. */
  liveOne(userId: number, sessionId: string, now: number): LiveSessionRow | undefined {
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM sessions WHERE session_id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?`)
      .get(sessionId, userId, now) as LiveSessionRow | undefined;
  }
}
