/**
 * SQL of albums and their ordered membership. No rules here (see albums.service.ts).
 *
 * Positions are stored 0..n-1 without gaps over every member of an album, those in the Trash
 * included. Writes keep them so; a member removed behind the album's back (an asset purged for good:
 * `ON DELETE CASCADE`) can leave a gap, so reads number the members with row_number() and every
 * membership write first closes gaps (`normalise`).
 */
import type { PermittedAlbumId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { AssetRow } from '../assets/index.ts';

export type AlbumType = 'regular' | 'bio';

export interface AlbumRow {
  album_id: number;
  owner_id: number;
  album_name: string;
  album_type: AlbumType;
  description: string | null;
  cover_asset_id: string | null;
  created_at: number;
  updated_at: number;
}

/** An album with what its listing shows, computed over the visible members (not in the Trash, in scope). */
export interface AlbumListRow extends AlbumRow {
  /** The caller's role in it: 'owner', or their member role. */
  role: 'owner' | 'viewer' | 'contributor';
  /** How many members it is shared with (besides the owner). */
  member_count: number;
  asset_count: number;
  /** The cover, when it is visible in scope. */
  visible_cover_id: string | null;
  /** The first visible member by position. */
  first_asset_id: string | null;
}

export interface MemberAssetRow extends AssetRow {
  added_at: number;
  added_by: number | null;
  position: number;
}

export interface AlbumOfAssetRow extends AlbumListRow {
  added_at: number;
  position: number;
}

/** Members visible in a listing: not in the Trash, and of the repository when one is given. */
const VISIBLE = `a.is_deleted = 0 AND (@repo IS NULL OR a.repository_id = @repo)`;

const LIST_COLUMNS = `
  al.*,
  CASE WHEN al.owner_id = @user THEN 'owner'
       ELSE coalesce((SELECT m.role FROM album_members m WHERE m.album_id = al.album_id AND m.user_id = @user), 'viewer') END AS role,
  (SELECT count(*) FROM album_members m WHERE m.album_id = al.album_id) AS member_count,
  (SELECT count(*) FROM album_assets aa JOIN assets a ON a.asset_id = aa.asset_id
    WHERE aa.album_id = al.album_id AND ${VISIBLE}) AS asset_count,
  (SELECT a.asset_id FROM assets a WHERE a.asset_id = al.cover_asset_id AND ${VISIBLE}) AS visible_cover_id,
  (SELECT aa.asset_id FROM album_assets aa JOIN assets a ON a.asset_id = aa.asset_id
    WHERE aa.album_id = al.album_id AND ${VISIBLE} ORDER BY aa.position, aa.added_at, aa.asset_id LIMIT 1) AS first_asset_id`;

/** Members of one album numbered 0..n-1 in album order (over all members, Trash included). */
const RANKED = `SELECT asset_id, added_at, added_by, row_number() OVER (ORDER BY position, added_at, asset_id) - 1 AS position
  FROM album_assets WHERE album_id = @album`;

export class AlbumsStore {
  constructor(private readonly db: Db) {}

  byId(albumId: PermittedAlbumId): AlbumRow | undefined {
    return this.db.prepare('SELECT * FROM albums WHERE album_id = ?').get(albumId) as AlbumRow | undefined;
  }

  /** One album with its listing columns, as `userId` sees it (their role). */
  listRow(albumId: number, userId: number, repo: string | null): AlbumListRow | undefined {
    return this.db.prepare(`SELECT ${LIST_COLUMNS} FROM albums al WHERE al.album_id = @album`).get({ album: albumId, repo, user: userId }) as
      | AlbumListRow
      | undefined;
  }

  /**
   * The albums a user owns or is a member of, most recently changed first; with a repository, only
   * albums holding a visible asset of it.
   */
  list(userId: number, repo: string | null, limit: number, offset: number): { rows: AlbumListRow[]; total: number } {
    const where = `al.album_id IN (SELECT album_id FROM albums WHERE owner_id = @user UNION ALL SELECT album_id FROM album_members WHERE user_id = @user)
      AND (@repo IS NULL OR EXISTS (
      SELECT 1 FROM album_assets aa JOIN assets a ON a.asset_id = aa.asset_id WHERE aa.album_id = al.album_id AND ${VISIBLE}))`;
    const params = { user: userId, repo, limit, offset };
    const total = (this.db.prepare(`SELECT count(*) AS n FROM albums al WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT ${LIST_COLUMNS} FROM albums al WHERE ${where} ORDER BY al.updated_at DESC, al.album_id DESC LIMIT @limit OFFSET @offset`)
      .all(params) as AlbumListRow[];
    return { rows, total };
  }

  /** The albums a user owns (not those shared with them), oldest first: their names, for albums named by a source. */
  owned(ownerId: number): Pick<AlbumRow, 'album_id' | 'album_name'>[] {
    return this.db.prepare('SELECT album_id, album_name FROM albums WHERE owner_id = ? ORDER BY album_id').all(ownerId) as Pick<AlbumRow, 'album_id' | 'album_name'>[];
  }

  insert(a: { owner_id: number; album_name: string; album_type: AlbumType; description: string | null }, now: number): number {
    const r = this.db
      .prepare(
        `INSERT INTO albums (owner_id, album_name, album_type, description, cover_asset_id, created_at, updated_at)
         VALUES (@owner_id, @album_name, @album_type, @description, NULL, @now, @now)`,
      )
      .run({ ...a, now });
    return Number(r.lastInsertRowid);
  }

  update(albumId: number, fields: Partial<Pick<AlbumRow, 'album_name' | 'album_type' | 'description' | 'cover_asset_id'>>, now: number): void {
    const cols = Object.keys(fields);
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = @now'];
    this.db.prepare(`UPDATE albums SET ${sets.join(', ')} WHERE album_id = @album`).run({ ...fields, now, album: albumId });
  }

  touch(albumId: number, now: number): void {
    this.db.prepare('UPDATE albums SET updated_at = ? WHERE album_id = ?').run(now, albumId);
  }

  delete(albumId: number): void {
    this.db.prepare('DELETE FROM albums WHERE album_id = ?').run(albumId);
  }

  /** Members in album order; `includeDeleted` adds those in the Trash. Positions are album positions. */
  members(albumId: number, opts: { includeDeleted: boolean; repo: string | null }): MemberAssetRow[] {
    return this.db
      .prepare(
        `SELECT a.*, r.added_at, r.added_by, r.position FROM (${RANKED}) r JOIN assets a ON a.asset_id = r.asset_id
          WHERE (@deleted = 1 OR a.is_deleted = 0) AND (@repo IS NULL OR a.repository_id = @repo)
          ORDER BY r.position`,
      )
      .all({ album: albumId, deleted: opts.includeDeleted ? 1 : 0, repo: opts.repo }) as MemberAssetRow[];
  }

  /** The albums a user owns or is a member of that hold an asset, with the asset's place in each. */
  albumsOfAsset(userId: number, assetId: string): AlbumOfAssetRow[] {
    return this.db
      .prepare(
        `WITH ranked AS (
           SELECT album_id, asset_id, added_at,
                  row_number() OVER (PARTITION BY album_id ORDER BY position, added_at, asset_id) - 1 AS position
             FROM album_assets WHERE album_id IN (SELECT album_id FROM album_assets WHERE asset_id = @asset))
         SELECT ${LIST_COLUMNS}, r.added_at, r.position
           FROM ranked r JOIN albums al ON al.album_id = r.album_id
          WHERE r.asset_id = @asset
            AND (al.owner_id = @user OR EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = al.album_id AND m.user_id = @user))
          ORDER BY al.album_name COLLATE NOCASE, al.album_id`,
      )
      .all({ asset: assetId, user: userId, repo: null }) as AlbumOfAssetRow[];
  }

  /** Renumbers the members 0..n-1 in their current order when a gap crept in. */
  normalise(albumId: number): void {
    const s = this.db.prepare('SELECT count(*) AS n, coalesce(max(position), -1) AS top FROM album_assets WHERE album_id = ?').get(albumId) as {
      n: number;
      top: number;
    };
    if (s.top === s.n - 1) {
      const dup = this.db.prepare('SELECT 1 FROM album_assets WHERE album_id = ? GROUP BY position HAVING count(*) > 1 LIMIT 1').get(albumId);
      if (!dup) return;
    }
    this.db
      .prepare(
        `WITH ranked AS (${RANKED})
         UPDATE album_assets SET position = ranked.position FROM ranked
          WHERE album_assets.album_id = @album AND album_assets.asset_id = ranked.asset_id AND album_assets.position <> ranked.position`,
      )
      .run({ album: albumId });
  }

  memberCount(albumId: number): number {
    return (this.db.prepare('SELECT count(*) AS n FROM album_assets WHERE album_id = ?').get(albumId) as { n: number }).n;
  }

  positionOf(albumId: number, assetId: string): number | undefined {
    const r = this.db.prepare('SELECT position FROM album_assets WHERE album_id = ? AND asset_id = ?').get(albumId, assetId) as
      | { position: number }
      | undefined;
    return r?.position;
  }

  /** Inserts at `position` (0..n), shifting the members from there one place back; added by the album's owner unless told. */
  insertAt(albumId: number, assetId: string, position: number, now: number, addedBy: number | null = null): void {
    this.db.prepare('UPDATE album_assets SET position = position + 1 WHERE album_id = ? AND position >= ?').run(albumId, position);
    this.db
      .prepare(
        `INSERT INTO album_assets (album_id, asset_id, position, added_at, added_by)
         VALUES (@album, @asset, @position, @now, coalesce(@by, (SELECT owner_id FROM albums WHERE album_id = @album)))`,
      )
      .run({ album: albumId, asset: assetId, position, now, by: addedBy });
  }

  /** Who added an entry (null: not a member, or the account is gone). */
  addedBy(albumId: number, assetId: string): number | null | undefined {
    const r = this.db.prepare('SELECT added_by FROM album_assets WHERE album_id = ? AND asset_id = ?').get(albumId, assetId) as
      | { added_by: number | null }
      | undefined;
    return r === undefined ? undefined : r.added_by;
  }

  /** The entries a member added, in album order (they leave with the member). */
  addedByUser(albumId: number, userId: number): string[] {
    return this.db.prepare('SELECT asset_id FROM album_assets WHERE album_id = ? AND added_by = ? ORDER BY position').pluck().all(albumId, userId) as string[];
  }

  /** Removes a member and closes the gap it leaves. */
  removeAt(albumId: number, assetId: string, position: number): void {
    this.db.prepare('DELETE FROM album_assets WHERE album_id = ? AND asset_id = ?').run(albumId, assetId);
    this.db.prepare('UPDATE album_assets SET position = position - 1 WHERE album_id = ? AND position > ?').run(albumId, position);
  }

  /** Moves a member from `from` to `to`; the members in between shift by one. */
  move(albumId: number, assetId: string, from: number, to: number): void {
    if (from === to) return;
    if (from < to) {
      this.db.prepare('UPDATE album_assets SET position = position - 1 WHERE album_id = ? AND position > ? AND position <= ?').run(albumId, from, to);
    } else {
      this.db.prepare('UPDATE album_assets SET position = position + 1 WHERE album_id = ? AND position >= ? AND position < ?').run(albumId, to, from);
    }
    this.db.prepare('UPDATE album_assets SET position = ? WHERE album_id = ? AND asset_id = ?').run(to, albumId, assetId);
  }

  /** Photos of an album that can get species recognition: not in the Trash, not failed, no predictions yet. */
  photosLackingSpecies(albumId: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT a.asset_id FROM album_assets aa JOIN assets a ON a.asset_id = aa.asset_id
          WHERE aa.album_id = ? AND a.type = 'PHOTO' AND a.is_deleted = 0 AND a.state <> 'failed'
            AND NOT EXISTS (SELECT 1 FROM species_predictions sp WHERE sp.asset_id = a.asset_id)
          ORDER BY aa.position`,
      )
      .all(albumId) as { asset_id: string }[];
    return rows.map((r) => r.asset_id);
  }

  hasSpecies(assetId: string): boolean {
    return this.db.prepare('SELECT 1 FROM species_predictions WHERE asset_id = ? LIMIT 1').get(assetId) !== undefined;
  }
}
