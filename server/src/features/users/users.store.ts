/** SQL for user accounts. No rules here: the services decide, this file only reads and writes. */
import type { PermittedAssetId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Role } from '../../platform/http/context.ts';

export interface UserRow {
  user_id: number;
  username: string;
  display_name: string;
  password_hash: string;
  role: Role;
  is_active: number;
  auth_version: number;
  must_change_password: number;
  avatar_asset_id: string | null;
  created_at: number;
  updated_at: number;
  last_login_at: number | null;
}

export interface UserStats {
  active_sessions: number;
}

export class UsersStore {
  constructor(private readonly db: Db) {}

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  countActiveAdmins(): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM users WHERE role = 'admin' AND is_active = 1").get() as { n: number }
    ).n;
  }

  byId(id: number): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE user_id = ?').get(id) as UserRow | undefined;
  }

  byUsername(username: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
  }

  insert(u: { username: string; display_name: string; password_hash: string; role: Role; now: number }): UserRow {
    const info = this.db
      .prepare(
        `INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(u.username, u.display_name, u.password_hash, u.role, u.now, u.now);
    return this.byId(Number(info.lastInsertRowid))!;
  }

  /** Whether this (checked) asset is in the Trash: an avatar is never chosen from there. */
  isInTrash(assetId: PermittedAssetId): boolean {
    return this.db.prepare('SELECT 1 FROM assets WHERE asset_id = ? AND is_deleted = 1').get(assetId) !== undefined;
  }

  update(
    id: number,
    patch: Partial<Pick<UserRow, 'username' | 'display_name' | 'role' | 'is_active' | 'avatar_asset_id' | 'password_hash' | 'must_change_password' | 'last_login_at'>> & {
      bumpAuthVersion?: boolean;
    },
    now: number,
  ): void {
    const { bumpAuthVersion, ...fields } = patch;
    const cols = Object.keys(fields);
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = @now'];
    if (bumpAuthVersion) sets.push('auth_version = auth_version + 1');
    this.db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE user_id = @id`).run({ ...fields, now, id });
  }

  list(limit: number, offset: number): { rows: (UserRow & UserStats)[]; total: number } {
    const rows = this.db
      .prepare(
        `SELECT u.*,
           (SELECT count(*) FROM sessions s
             WHERE s.user_id = u.user_id AND s.revoked_at IS NULL AND s.expires_at > @now) AS active_sessions
         FROM users u ORDER BY u.user_id LIMIT @limit OFFSET @offset`,
      )
      .all({ limit, offset, now: Date.now() }) as (UserRow & UserStats)[];
    return { rows, total: this.count() };
  }
}
