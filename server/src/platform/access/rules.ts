/**
 * Who may do what, per kind, as one SQL condition on a row of the kind's table. The condition serves
 * both questions the access layer answers: "which of these ids" (`idsSql`: the permitted ids among a
 * JSON array of candidates, one query whatever the batch size) and "which rows may a list show"
 * (`Access.scope`: the same condition put into a store's own list query).
 *
 * The rules (the household's sharing, migration 0014):
 * - Assets: the owner may do everything. Others only read, and only what is not in the owner's Trash:
 *   a partner the owner shares with (everything, or taken — else uploaded — from the share's date
 *   on), and the owner and members of an album holding the asset while its owner belongs to that
 *   album too (as its owner, or a member who contributed it). Likes and ratings are each reader's
 *   own (asset_user_marks), so reading is enough to like. Nobody else changes an asset, trashes it
 *   or makes it their avatar; administrators get no exception (an administrator manages the
 *   server, not the members' pictures).
 * - Albums: the owner may do everything; members read it; contributors also `contribute` (add their
 *   own assets, take out what they added). Only the owner changes, shares or deletes it.
 * - Upload sessions, upload receipts, share links, duplicate groups and corrections of capture times and
 *   places: their owner (maker) only.
 * - People (face clusters) and faces: their owner only. Sharing a photo shares the photo, not what the
 *   owner's library made of it: a partner or a shared album's viewer sees the picture (and its owner's
 *   face boxes are not in it: the faces of an asset are listed for its owner only), never the owner's
 *   clusters or the names the owner gave them. The reader's own faces in the same photo (a partner who
 *   also holds a copy) are the reader's, in the reader's own copy. A name is something one member wrote
 *   about someone; showing it to another would publish it.
 * - Duplicate groups: their owner only, though the photos may be shared: resolving duplicates trashes
 *   files, which only their owner does.
 * - Photo events: their owner only. An event is the owner's library cut into days and trips; a partner
 *   who sees the photos builds their own events from what they see, and a shared album is its own story.
 * - Cloud connections (credentials) and import runs: their owner only, administrators included. An administrator
 *   lists every member's connections (features/cloud-import), but a connection is the member's account at a
 *   provider and a run's report names the member's files: neither is acted on or read by anyone else.
 * - Takeout uploads (parts of a Google export streaming in from the browser): their owner only; a part names
 *   the member's Google account and holds their photos.
 * - Places are not a kind here: a place is geography (place-id.ts), and what a member sees of one is a
 *   query over the reader's own photos (place-list.service.ts), so another member's place answers 404
 *   `place_not_found` because the reader has no photo there, not because of a rule.
 * - Host actions (a member's request that the home machine open a folder): their owner only. An administrator
 *   lists every member's (features/host-actions) but opens and acts only on their own, as with cloud connections.
 * - Partner shares: both sides read and change them (which side may change what: features/sharing).
 * - A public link's holder reads the link's assets that are still its maker's and not in the Trash:
 *   for an album link, the maker's own assets in the album (contributors shared theirs with the
 *   album's members, not with the public); for a selection, the assets chosen (LINK_ASSETS).
 * - The assistant's threads (with their refs and runs), pins and effects (features/agent): their owner only,
 *   administrators included. A thread is one member's conversation; its refs are snapshots of what that member
 *   could see when a tool made them (re-checked through the asset rule whenever they are read or committed).
 * A refused id that the actor may still read answers 403 (access.ts); one it may not read, 404.
 *
 * Every EXISTS below is a key lookup (the access test checks the plan of every rule). The inner
 * aliases (p, aa, al, o, m) must not be the alias a store gives the outer row.
 */
import type { AccessKind, Permission } from './permitted.ts';

interface Rule {
  table: string;
  idColumn: string;
  /** The condition on a row (its table named `alias`) that permits it to the user bound as `@access_user`. */
  where: Record<Permission, (alias: string) => string>;
}

const ownerIs = (alias: string) => `${alias}.owner_id = @access_user`;

const owned = (table: string, idColumn: string): Rule => ({ table, idColumn, where: { read: ownerIs, contribute: ownerIs, change: ownerIs, own: ownerIs } });

/**
 * Someone else's asset the actor may read: shared by a partner, or in an album where both its owner
 * (the album's owner, or a member who contributed it) and the actor (the album's owner or a member)
 * belong. A photo whose owner left the album is no longer shared through it.
 */
const sharedAsset = (a: string) => `${a}.is_deleted = 0 AND (
  EXISTS (SELECT 1 FROM partner_shares p WHERE p.owner_id = ${a}.owner_id AND p.partner_id = @access_user
          AND (p.shared_from IS NULL OR coalesce(${a}.taken_time, ${a}.upload_time) >= p.shared_from))
  OR EXISTS (SELECT 1 FROM album_assets aa CROSS JOIN albums al ON al.album_id = aa.album_id WHERE aa.asset_id = ${a}.asset_id
          AND (al.owner_id = ${a}.owner_id OR EXISTS (SELECT 1 FROM album_members o WHERE o.album_id = aa.album_id AND o.user_id = ${a}.owner_id))
          AND (al.owner_id = @access_user OR EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = aa.album_id AND m.user_id = @access_user))))`;

const assetRule: Rule = {
  table: 'assets',
  idColumn: 'asset_id',
  where: { read: (a) => `${ownerIs(a)} OR (${sharedAsset(a)})`, contribute: ownerIs, change: ownerIs, own: ownerIs },
};

const member = (a: string, roles: string) =>
  `${ownerIs(a)} OR EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = ${a}.album_id AND m.user_id = @access_user AND m.role IN (${roles}))`;

const albumRule: Rule = {
  table: 'albums',
  idColumn: 'album_id',
  where: { read: (a) => member(a, `'viewer', 'contributor'`), contribute: (a) => member(a, `'contributor'`), change: ownerIs, own: ownerIs },
};

const bothSides = (a: string) => `${a}.owner_id = @access_user OR ${a}.partner_id = @access_user`;
const madeBy = (a: string) => `${a}.created_by = @access_user`;

export const RULES: Record<AccessKind, Rule> = {
  asset: assetRule,
  album: albumRule,
  upload_session: owned('upload_sessions', 'session_id'),
  upload_receipt: owned('upload_receipts', 'receipt_id'),
  partner_share: { table: 'partner_shares', idColumn: 'share_id', where: { read: bothSides, contribute: bothSides, change: bothSides, own: bothSides } },
  share_link: { table: 'share_links', idColumn: 'link_id', where: { read: madeBy, contribute: madeBy, change: madeBy, own: madeBy } },
  duplicate_group: owned('duplicate_groups', 'group_id'),
  asset_correction: owned('asset_corrections', 'correction_id'),
  person: owned('people', 'person_id'),
  face: owned('faces', 'face_id'),
  photo_event: owned('photo_events', 'event_id'),
  cloud_credential: owned('cloud_credentials', 'credential_id'),
  import_run: owned('import_runs', 'run_id'),
  takeout_upload: owned('takeout_uploads', 'upload_id'),
  host_action: owned('host_actions', 'action_id'),
  agent_thread: owned('agent_threads', 'thread_id'),
  agent_pin: owned('agent_pins', 'pin_id'),
  agent_effect: owned('agent_effects', 'effect_id'),
};

/**
 * For test/server/access/rules-are-needed.test.ts only: puts `where` in place of a kind's rule for every
 * permission (the test passes `() => '1=1'` to show that the matrix's judge then lets a foreign member
 * through) and gives back the call that restores it. Access prepares its statements by their SQL, so the
 * swap takes effect at the next check. Not exported by the access layer's index: no feature can reach it.
 */
export function swapRuleForTest(kind: AccessKind, where: (alias: string) => string): () => void {
  const before = RULES[kind];
  RULES[kind] = { ...before, where: { read: where, contribute: where, change: where, own: where } };
  return () => {
    RULES[kind] = before;
  };
}

/** Selects `id` among `json_each(@ids)` permitted to `@access_user`. */
export function idsSql(kind: AccessKind, permission: Permission): string {
  const { table, idColumn, where } = RULES[kind];
  // CROSS JOIN keeps the candidates as the outer loop: one key lookup per id. A plain JOIN lets SQLite
  // walk the owner's index instead, which reads all of an owner's rows (100k photos: every thumbnail
  // request read 100k index entries). The access test checks the plan of every rule.
  return `SELECT t.${idColumn} AS id FROM json_each(@ids) j CROSS JOIN ${table} t ON t.${idColumn} = j.value WHERE ${where[permission]('t')}`;
}

/** Selects `id` among `json_each(@ids)` that the holder of link `@link` (made by `@maker`, of album `@album` or null) may read. */
export const LINK_ASSETS = `SELECT t.asset_id AS id FROM json_each(@ids) j CROSS JOIN assets t ON t.asset_id = j.value
  WHERE t.owner_id = @maker AND t.is_deleted = 0 AND (
  CASE WHEN @album IS NULL THEN EXISTS (SELECT 1 FROM share_link_assets s WHERE s.link_id = @link AND s.asset_id = t.asset_id)
       ELSE EXISTS (SELECT 1 FROM album_assets aa WHERE aa.album_id = @album AND aa.asset_id = t.asset_id) END)`;
