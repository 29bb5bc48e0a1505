/** SQL for invite links. No rules here: the invites service decides. */
import type { Db } from '../../platform/db/connection.ts';

export interface InviteRow {
  invite_id: number;
  code_hash: string;
  note: string | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: number | null;
  used_by_username: string | null;
}

const SELECT = `SELECT i.*, u.username AS used_by_username FROM invites i LEFT JOIN users u ON u.user_id = i.used_by`;

export class InvitesStore {
  constructor(private readonly db: Db) {}

  insert(i: { codeHash: string; note: string | null; createdBy: number; now: number; expiresAt: number }): InviteRow {
    const info = this.db
      .prepare('INSERT INTO invites (code_hash, note, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(i.codeHash, i.note, i.createdBy, i.now, i.expiresAt);
    return this.byId(Number(info.lastInsertRowid))!;
  }

  byId(id: number): InviteRow | undefined {
    return this.db.prepare(`${SELECT} WHERE i.invite_id = ?`).get(id) as InviteRow | undefined;
  }

  byCodeHash(hash: string): InviteRow | undefined {
    return this.db.prepare(`${SELECT} WHERE i.code_hash = ?`).get(hash) as InviteRow | undefined;
  }

  /** Unused invites (expired ones included, so the list can say so) and those used in the last `usedSince`. */
  list(usedSince: number): InviteRow[] {
    return this.db
      .prepare(`${SELECT} WHERE i.used_at IS NULL OR i.used_at >= ? ORDER BY i.created_at DESC, i.invite_id DESC`)
      .all(usedSince) as InviteRow[];
  }

  /** Marks an invite used, only if nobody used it first; false when it was already used. */
  markUsed(id: number, userId: number, now: number): boolean {
    return this.db.prepare('UPDATE invites SET used_at = ?, used_by = ? WHERE invite_id = ? AND used_at IS NULL').run(now, userId, id).changes === 1;
  }

  delete(id: number): boolean {
    return this.db.prepare('DELETE FROM invites WHERE invite_id = ?').run(id).changes === 1;
  }

  /** Expired, never-used invites older than `before` go: they open nothing. */
  pruneExpired(before: number): void {
    this.db.prepare('DELETE FROM invites WHERE used_at IS NULL AND expires_at < ?').run(before);
  }
}
