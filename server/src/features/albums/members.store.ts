/** SQL of album members (migration 0014). No rules here (see members.service.ts). */
import type { Db } from '../../platform/db/connection.ts';

export type MemberRole = 'viewer' | 'contributor';

export interface AlbumMemberRow {
  album_id: number;
  user_id: number;
  role: MemberRole;
  added_at: number;
}

export class AlbumMembersStore {
  constructor(private readonly db: Db) {}

  /** The members of an album, in the order they were added. */
  list(albumId: number): AlbumMemberRow[] {
    return this.db.prepare('SELECT * FROM album_members WHERE album_id = ? ORDER BY added_at, user_id').all(albumId) as AlbumMemberRow[];
  }

  get(albumId: number, userId: number): AlbumMemberRow | undefined {
    return this.db.prepare('SELECT * FROM album_members WHERE album_id = ? AND user_id = ?').get(albumId, userId) as AlbumMemberRow | undefined;
  }

  insert(albumId: number, userId: number, role: MemberRole, now: number): void {
    this.db.prepare('INSERT INTO album_members (album_id, user_id, role, added_at) VALUES (?, ?, ?, ?)').run(albumId, userId, role, now);
  }

  setRole(albumId: number, userId: number, role: MemberRole): void {
    this.db.prepare('UPDATE album_members SET role = ? WHERE album_id = ? AND user_id = ?').run(role, albumId, userId);
  }

  delete(albumId: number, userId: number): void {
    this.db.prepare('DELETE FROM album_members WHERE album_id = ? AND user_id = ?').run(albumId, userId);
  }
}
