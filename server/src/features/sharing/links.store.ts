/** SQL of public links (migration 0014). No rules here (see links.service.ts). */
import type { PermittedAlbumId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';

export interface ShareLinkRow {
  link_id: number;
  key_hash: string;
  created_by: number;
  album_id: number | null;
  title: string | null;
  expires_at: number | null;
  password_hash: string | null;
  allow_download: number;
  revoked_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A link with what its owner's list shows. */
export interface ShareLinkListRow extends ShareLinkRow {
  album_name: string | null;
  asset_count: number;
}

/**
 * What a link shows, with each asset's place (`pos`): the maker's assets not in the Trash, of the
 * album or of the selection. The arguments are SQL expressions (parameters, or a link row's columns).
 */
const linkAssets = (album: string, maker: string, link: string) => `
  SELECT a.asset_id, aa.position AS pos FROM album_assets aa JOIN assets a ON a.asset_id = aa.asset_id
   WHERE ${album} IS NOT NULL AND aa.album_id = ${album} AND a.owner_id = ${maker} AND a.is_deleted = 0
  UNION ALL
  SELECT a.asset_id, s.position AS pos FROM share_link_assets s JOIN assets a ON a.asset_id = s.asset_id
   WHERE ${album} IS NULL AND s.link_id = ${link} AND a.owner_id = ${maker} AND a.is_deleted = 0`;

const LIST_COLUMNS = `l.*, al.album_name, (SELECT count(*) FROM (${linkAssets('l.album_id', 'l.created_by', 'l.link_id')})) AS asset_count`;

export class ShareLinksStore {
  constructor(private readonly db: Db) {}

  byId(id: number): ShareLinkRow | undefined {
    return this.db.prepare('SELECT * FROM share_links WHERE link_id = ?').get(id) as ShareLinkRow | undefined;
  }

  byKeyHash(hash: string): ShareLinkRow | undefined {
    return this.db.prepare('SELECT * FROM share_links WHERE key_hash = ?').get(hash) as ShareLinkRow | undefined;
  }

  listRow(id: number): ShareLinkListRow | undefined {
    return this.db.prepare(`SELECT ${LIST_COLUMNS} FROM share_links l LEFT JOIN albums al ON al.album_id = l.album_id WHERE l.link_id = ?`).get(id) as
      | ShareLinkListRow
      | undefined;
  }

  list(userId: number): ShareLinkListRow[] {
    return this.db
      .prepare(`SELECT ${LIST_COLUMNS} FROM share_links l LEFT JOIN albums al ON al.album_id = l.album_id WHERE l.created_by = ? ORDER BY l.created_at DESC, l.link_id DESC`)
      .all(userId) as ShareLinkListRow[];
  }

  insert(
    l: { key_hash: string; created_by: number; album_id: PermittedAlbumId | null; title: string | null; expires_at: number | null; password_hash: string | null; allow_download: number },
    assetIds: readonly string[],
    now: number,
  ): number {
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO share_links (key_hash, created_by, album_id, title, expires_at, password_hash, allow_download, revoked_at, created_at, updated_at)
           VALUES (@key_hash, @created_by, @album_id, @title, @expires_at, @password_hash, @allow_download, NULL, @now, @now)`,
        )
        .run({ ...l, now }).lastInsertRowid,
    );
    const add = this.db.prepare('INSERT INTO share_link_assets (link_id, asset_id, position) VALUES (?, ?, ?)');
    assetIds.forEach((a, i) => add.run(id, a, i));
    return id;
  }

  update(id: number, fields: Partial<Pick<ShareLinkRow, 'title' | 'expires_at' | 'password_hash' | 'allow_download' | 'revoked_at'>>, now: number): void {
    const cols = Object.keys(fields);
    // updated_at is the link's version: tokens given out before any change stop working.
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = max(@now, updated_at + 1)'];
    this.db.prepare(`UPDATE share_links SET ${sets.join(', ')} WHERE link_id = @id`).run({ ...fields, now, id });
  }

  delete(id: number): void {
    this.db.prepare('DELETE FROM share_links WHERE link_id = ?').run(id);
  }

  /** The asset ids a link shows, in album (or selection) order. */
  assetIds(l: ShareLinkRow): string[] {
    return this.db
      .prepare(
        `SELECT x.asset_id FROM (${linkAssets('@album', '@maker', '@link')}) x ORDER BY x.pos, x.asset_id`,
      )
      .pluck()
      .all({ album: l.album_id, maker: l.created_by, link: l.link_id }) as string[];
  }
}
