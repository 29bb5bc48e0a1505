/**
 * Who may do what, per kind, as SQL over the catalog. Each rule selects the permitted ids among a JSON
 * array of candidates (`json_each(?)`), so a batch of ids costs one query whatever its size.
 *
 * The rules (the household's sharing, migration 0013):
 * - Assets: the owner may do everything. Others only read, and only what is not in the owner's Trash:
 *   a partner the owner shares with (everything, or taken — else uploaded — from the share's date
 *   on), and the owner and members of an album holding the asset while its owner belongs to that
 *   album too (as its owner, or a member who contributed it). Likes and ratings are each reader's own (asset_user_marks), so reading is enough
 *   to like. Nobody else changes an asset, trashes it or makes it their avatar; administrators get
 *   no exception (an administrator manages the server, not the members' pictures).
 * - Albums: the owner may do everything; members read it; contributors also `contribute` (add their
 *   own assets, take out what they added). Only the owner changes, shares or deletes it.
 * - Upload sessions and share links: their owner (maker) only.
 * - Partner shares: both sides read and change them (which side may change what: features/sharing).
 * - A public link's holder reads the link's assets that are still its maker's and not in the Trash:
 *   for an album link, the maker's own assets in the album (contributors shared theirs with the
 *   album's members, not with the public); for a selection, the assets chosen (LINK_ASSETS).
 * A refused id that the actor may still read answers 403 (access.ts); one it may not read, 404.
 */
import type { AccessKind, Permission } from './permitted.ts';

interface Rule {
  /** Selects `id` among `json_each(:ids)` permitted to `:user`. */
  sql: Record<Permission, string>;
}

// CROSS JOIN keeps the candidates as the outer loop: one key lookup per id. A plain JOIN lets SQLite
// walk the owner's index instead, which reads all of an owner's rows (100k photos: every thumbnail
// request read 100k index entries). Every EXISTS below is a key lookup too (the access test checks
// the plan of every rule).
const candidates = (table: string, idColumn: string) => `SELECT t.${idColumn} AS id FROM json_each(:ids) j CROSS JOIN ${table} t ON t.${idColumn} = j.value`;

const owned = (table: string, idColumn: string): Rule => {
  const sql = `${candidates(table, idColumn)} WHERE t.owner_id = :user`;
  return { sql: { read: sql, contribute: sql, change: sql, own: sql } };
};

/**
 * Someone else's asset the actor may read: shared by a partner, or in an album where both its owner
 * (the album's owner, or a member who contributed it) and the actor (the album's owner or a member)
 * belong. A photo whose owner left the album is no longer shared through it.
 */
const SHARED_ASSET = `t.is_deleted = 0 AND (
  EXISTS (SELECT 1 FROM partner_shares p WHERE p.owner_id = t.owner_id AND p.partner_id = :user
          AND (p.shared_from IS NULL OR coalesce(t.taken_time, t.upload_time) >= p.shared_from))
  OR EXISTS (SELECT 1 FROM album_assets aa CROSS JOIN albums al ON al.album_id = aa.album_id WHERE aa.asset_id = t.asset_id
          AND (al.owner_id = t.owner_id OR EXISTS (SELECT 1 FROM album_members o WHERE o.album_id = aa.album_id AND o.user_id = t.owner_id))
          AND (al.owner_id = :user OR EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = aa.album_id AND m.user_id = :user))))`;

const assetRule = (): Rule => {
  const own = `${candidates('assets', 'asset_id')} WHERE t.owner_id = :user`;
  return { sql: { read: `${own} OR (${SHARED_ASSET})`, contribute: own, change: own, own } };
};

const albumRule = (): Rule => {
  const own = `${candidates('albums', 'album_id')} WHERE t.owner_id = :user`;
  const member = (roles: string) =>
    `${own} OR EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = t.album_id AND m.user_id = :user AND m.role IN (${roles}))`;
  return { sql: { read: member(`'viewer', 'contributor'`), contribute: member(`'contributor'`), change: own, own } };
};

const bothSides = (): Rule => {
  const sql = `${candidates('partner_shares', 'share_id')} WHERE t.owner_id = :user OR t.partner_id = :user`;
  return { sql: { read: sql, contribute: sql, change: sql, own: sql } };
};

const madeBy = (): Rule => {
  const sql = `${candidates('share_links', 'link_id')} WHERE t.created_by = :user`;
  return { sql: { read: sql, contribute: sql, change: sql, own: sql } };
};

export const RULES: Record<AccessKind, Rule> = {
  asset: assetRule(),
  album: albumRule(),
  upload_session: owned('upload_sessions', 'session_id'),
  partner_share: bothSides(),
  share_link: madeBy(),
};

/** Selects `id` among `json_each(:ids)` that the holder of link `:link` (made by `:maker`, of album `:album` or null) may read. */
export const LINK_ASSETS = `${candidates('assets', 'asset_id')} WHERE t.owner_id = :maker AND t.is_deleted = 0 AND (
  CASE WHEN :album IS NULL THEN EXISTS (SELECT 1 FROM share_link_assets s WHERE s.link_id = :link AND s.asset_id = t.asset_id)
       ELSE EXISTS (SELECT 1 FROM album_assets aa WHERE aa.album_id = :album AND aa.asset_id = t.asset_id) END)`;
