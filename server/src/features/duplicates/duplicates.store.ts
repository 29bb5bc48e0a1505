/** SQL for duplicate groups (migration 0020) and the metadata a merge unions. No rules here. */
import type { AccessScope, Permitted } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { DetectedGroup, DetectionItem, GroupMethod } from './detect.ts';

export type GroupStatus = 'pending' | 'merged' | 'dismissed';
export type MemberRole = 'keeper' | 'candidate' | 'duplicate';

export interface GroupRow {
  group_id: string;
  owner_id: number;
  repository_id: string;
  status: GroupStatus;
  method: GroupMethod;
  detection_version: string;
  member_key: string;
  recommended_keeper_asset_id: string | null;
  keeper_asset_id: string | null;
  merge_policy: string | null;
  detected_at: number;
  resolved_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface MemberRow {
  group_id: string;
  asset_id: string;
  role: MemberRole;
  position: number;
  file_size: number;
}

export interface EdgeRow {
  group_id: string;
  asset_id_a: string;
  asset_id_b: string;
  method: 'exact' | 'phash';
  distance: number;
  confidence: number;
}

export interface GroupFilter {
  repositoryId?: string;
  status?: GroupStatus;
}

/** How many members of group `g` are in the library (not in the Trash). */
const LIVE_MEMBERS = `(SELECT count(*) FROM duplicate_group_members lm JOIN assets la ON la.asset_id = lm.asset_id WHERE lm.group_id = g.group_id AND la.is_deleted = 0)`;

export const memberKey = (assetIds: readonly string[]) => [...assetIds].sort().join(',');

export class DuplicatesStore {
  constructor(private readonly db: Db) {}

  // ------------------------------------------------------------------ detection

  /**
   * One page of the assets of a repository detection looks at (not in the Trash), of one owner or all,
   * after `afterRowid` in rowid order: read in pages so a large library does not hold the event loop
   * (the caller yields between pages).
   */
  detectionItems(repositoryId: string, ownerId: number | null, afterRowid: number, limit: number): (DetectionItem & { rowid: number })[] {
    return this.db
      .prepare(
        `SELECT a.rowid, a.asset_id, a.owner_id, a.type, a.hash, a.file_size, a.phash, a.phash_windows, a.phash_version, a.media_item_id, sm.stack_id,
                a.width, a.height, a.rating, coalesce(a.taken_time, a.upload_time) AS capture_time, a.taken_time,
                nullif(trim(coalesce(json_extract(a.specific_metadata, '$.camera_make'), '') || ' ' ||
                            coalesce(json_extract(a.specific_metadata, '$.camera_model'), '')), '') AS camera
         FROM assets a LEFT JOIN stack_members sm ON sm.media_item_id = a.media_item_id
         WHERE a.rowid > @after AND a.repository_id = @repo AND a.is_deleted = 0 AND (@owner IS NULL OR a.owner_id = @owner)
         ORDER BY a.rowid LIMIT @limit`,
      )
      .all({ repo: repositoryId, owner: ownerId, after: afterRowid, limit }) as (DetectionItem & { rowid: number })[];
  }

  /** asset → the resolved (merged or dismissed) groups it is a member of, in a repository. */
  resolvedMemberships(repositoryId: string, ownerId: number | null): Map<string, string[]> {
    const rows = this.db
      .prepare(
        `SELECT m.asset_id, m.group_id FROM duplicate_groups g JOIN duplicate_group_members m ON m.group_id = g.group_id
         WHERE g.repository_id = @repo AND g.status != 'pending' AND (@owner IS NULL OR g.owner_id = @owner)`,
      )
      .all({ repo: repositoryId, owner: ownerId }) as { asset_id: string; group_id: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) {
      const list = out.get(r.asset_id);
      if (list) list.push(r.group_id);
      else out.set(r.asset_id, [r.group_id]);
    }
    return out;
  }

  /** Pending groups of a repository (of one owner or all) by member key → group id. */
  pendingByKey(repositoryId: string, ownerId: number | null): Map<string, string> {
    const rows = this.db
      .prepare(`SELECT group_id, member_key FROM duplicate_groups WHERE repository_id = @repo AND status = 'pending' AND (@owner IS NULL OR owner_id = @owner)`)
      .all({ repo: repositoryId, owner: ownerId }) as { group_id: string; member_key: string }[];
    return new Map(rows.map((r) => [r.member_key, r.group_id]));
  }

  deleteGroups(groupIds: readonly string[]): void {
    const del = this.db.prepare('DELETE FROM duplicate_groups WHERE group_id = ?');
    for (const id of groupIds) del.run(id);
  }

  /** Writes a detected group: a new row, or (same members as before) the same id with its evidence renewed. */
  saveDetected(groupId: string, existing: boolean, repositoryId: string, version: string, g: DetectedGroup, now: number): void {
    const keeper = g.members[0]!.asset_id;
    if (existing) {
      this.db
        .prepare('UPDATE duplicate_groups SET method = ?, detection_version = ?, recommended_keeper_asset_id = ?, updated_at = ? WHERE group_id = ?')
        .run(g.method, version, keeper, now, groupId);
      this.db.prepare('DELETE FROM duplicate_group_members WHERE group_id = ?').run(groupId);
      this.db.prepare('DELETE FROM duplicate_group_edges WHERE group_id = ?').run(groupId);
    } else {
      this.db
        .prepare(
          `INSERT INTO duplicate_groups (group_id, owner_id, repository_id, status, method, detection_version, member_key,
             recommended_keeper_asset_id, keeper_asset_id, merge_policy, detected_at, resolved_at, created_at, updated_at)
           VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, NULL, NULL, ?, NULL, ?, ?)`,
        )
        .run(groupId, g.owner_id, repositoryId, g.method, version, memberKey(g.members.map((m) => m.asset_id)), keeper, now, now, now);
    }
    const member = this.db.prepare('INSERT INTO duplicate_group_members (group_id, asset_id, role, position, file_size) VALUES (?, ?, ?, ?, ?)');
    g.members.forEach((m, i) => member.run(groupId, m.asset_id, i === 0 ? 'keeper' : 'candidate', i, m.file_size));
    const edge = this.db.prepare('INSERT INTO duplicate_group_edges (group_id, asset_id_a, asset_id_b, method, distance, confidence) VALUES (?, ?, ?, ?, ?, ?)');
    for (const e of g.edges) edge.run(groupId, e.asset_id_a, e.asset_id_b, e.method, e.distance, e.confidence);
  }

  markDetected(repositoryId: string, ownerIds: readonly number[], now: number): void {
    const up = this.db.prepare(
      'INSERT INTO duplicate_detections (repository_id, owner_id, detected_at) VALUES (?, ?, ?) ON CONFLICT (repository_id, owner_id) DO UPDATE SET detected_at = excluded.detected_at',
    );
    for (const o of ownerIds) up.run(repositoryId, o, now);
  }

  /** Owners with assets (in the library) in a repository. */
  ownersIn(repositoryId: string): number[] {
    return this.db.prepare('SELECT DISTINCT owner_id FROM assets WHERE repository_id = ? AND is_deleted = 0').pluck().all(repositoryId) as number[];
  }

  // ------------------------------------------------------------------ reads

  byId(groupId: Permitted<'duplicate_group'>): GroupRow | undefined {
    return this.db.prepare('SELECT * FROM duplicate_groups WHERE group_id = ?').get(groupId) as GroupRow | undefined;
  }

  list(scope: AccessScope<'duplicate_group'>, f: GroupFilter, limit: number, offset: number): { rows: GroupRow[]; total: number } {
    // A pending group is listed while at least two of its photos are in the library (one sent to the Trash by
    // hand since detection leaves nothing to merge); resolved groups stay as the record of what was decided.
    const where = `${scope.sql} AND g.status = @status AND (@repo IS NULL OR g.repository_id = @repo)
      AND (g.status != 'pending' OR ${LIVE_MEMBERS} >= 2)`;
    const params = { ...scope.params, status: f.status ?? 'pending', repo: f.repositoryId ?? null };
    const total = this.db.prepare(`SELECT count(*) FROM duplicate_groups g WHERE ${where}`).pluck().get(params) as number;
    const rows = this.db
      .prepare(`SELECT g.* FROM duplicate_groups g WHERE ${where} ORDER BY coalesce(g.resolved_at, g.detected_at) DESC, g.group_id LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit, offset }) as GroupRow[];
    return { rows, total };
  }

  members(groupIds: readonly string[]): MemberRow[] {
    if (!groupIds.length) return [];
    return this.db
      .prepare('SELECT m.* FROM json_each(?) j CROSS JOIN duplicate_group_members m ON m.group_id = j.value ORDER BY m.group_id, m.position')
      .all(JSON.stringify(groupIds)) as MemberRow[];
  }

  edges(groupIds: readonly string[]): EdgeRow[] {
    if (!groupIds.length) return [];
    return this.db
      .prepare('SELECT e.* FROM json_each(?) j CROSS JOIN duplicate_group_edges e ON e.group_id = j.value ORDER BY e.group_id, e.asset_id_a, e.asset_id_b')
      .all(JSON.stringify(groupIds)) as EdgeRow[];
  }

  /** The summary's counts over the caller's groups (one repository or all). */
  summary(scope: AccessScope<'duplicate_group'>, repositoryId: string | null) {
    const params = { ...scope.params, repo: repositoryId };
    const counts = this.db
      .prepare(
        `SELECT g.status, count(*) AS n FROM duplicate_groups g
         WHERE ${scope.sql} AND (@repo IS NULL OR g.repository_id = @repo) AND (g.status != 'pending' OR ${LIVE_MEMBERS} >= 2) GROUP BY g.status`,
      )
      .all(params) as { status: GroupStatus; n: number }[];
    // Pending members still in the library; recoverable: all but the recommended keeper of each group.
    const assets = this.db
      .prepare(
        `SELECT count(*) AS pending_assets,
                coalesce(sum(m.asset_id != g.recommended_keeper_asset_id), 0) AS recoverable_assets,
                coalesce(sum(CASE WHEN m.asset_id != g.recommended_keeper_asset_id THEN a.file_size ELSE 0 END), 0) AS recoverable_bytes
         FROM duplicate_groups g JOIN duplicate_group_members m ON m.group_id = g.group_id JOIN assets a ON a.asset_id = m.asset_id
         WHERE ${scope.sql} AND g.status = 'pending' AND a.is_deleted = 0 AND (@repo IS NULL OR g.repository_id = @repo) AND ${LIVE_MEMBERS} >= 2`,
      )
      .get(params) as { pending_assets: number; recoverable_assets: number; recoverable_bytes: number };
    const last = this.db
      .prepare(`SELECT max(detected_at) FROM duplicate_detections WHERE owner_id = @access_user AND (@repo IS NULL OR repository_id = @repo)`)
      .pluck()
      .get(params) as number | null;
    const by = Object.fromEntries(counts.map((c) => [c.status, c.n])) as Partial<Record<GroupStatus, number>>;
    return { pending: by.pending ?? 0, merged: by.merged ?? 0, dismissed: by.dismissed ?? 0, ...assets, last_detected_at: last };
  }

  // ------------------------------------------------------------------ resolution

  resolve(groupId: string, status: 'merged' | 'dismissed', keeperAssetId: string | null, policy: object | null, now: number): void {
    this.db
      .prepare('UPDATE duplicate_groups SET status = ?, keeper_asset_id = ?, merge_policy = ?, resolved_at = ?, updated_at = ? WHERE group_id = ?')
      .run(status, keeperAssetId, policy ? JSON.stringify(policy) : null, now, now, groupId);
  }

  setRoles(groupId: string, keeperAssetId: string, duplicateIds: readonly string[]): void {
    this.db.prepare("UPDATE duplicate_group_members SET role = CASE WHEN asset_id = ? THEN 'keeper' WHEN role = 'keeper' THEN 'candidate' ELSE role END WHERE group_id = ?").run(keeperAssetId, groupId);
    const dup = this.db.prepare("UPDATE duplicate_group_members SET role = 'duplicate' WHERE group_id = ? AND asset_id = ?");
    for (const id of duplicateIds) dup.run(groupId, id);
  }

  /** Puts the keeper into every album a duplicate is in (at the album's end); answers how many entries were added. */
  unionAlbums(keeperId: string, duplicateIds: readonly string[], addedBy: number, now: number): number {
    const albums = this.db
      .prepare(
        `SELECT DISTINCT aa.album_id FROM json_each(?) j JOIN album_assets aa ON aa.asset_id = j.value
         WHERE NOT EXISTS (SELECT 1 FROM album_assets k WHERE k.album_id = aa.album_id AND k.asset_id = ?) ORDER BY aa.album_id`,
      )
      .pluck()
      .all(JSON.stringify(duplicateIds), keeperId) as number[];
    const add = this.db.prepare(
      `INSERT INTO album_assets (album_id, asset_id, position, added_at, added_by)
       VALUES (@album, @asset, (SELECT coalesce(max(position) + 1, 0) FROM album_assets WHERE album_id = @album), @now, @by)`,
    );
    const touch = this.db.prepare('UPDATE albums SET updated_at = ? WHERE album_id = ?');
    for (const album of albums) {
      add.run({ album, asset: keeperId, now, by: addedBy });
      touch.run(now, album);
    }
    return albums.length;
  }

  /** Copies the duplicates' tags the keeper lacks (with their source: a person's tag stays a person's). */
  unionTags(keeperId: string, duplicateIds: readonly string[], now: number): number {
    return this.db
      .prepare(
        `INSERT INTO asset_tags (asset_id, tag_id, source, confidence, created_at)
         SELECT ?, t.tag_id, t.source, t.confidence, ? FROM json_each(?) j JOIN asset_tags t ON t.asset_id = j.value
         WHERE true ORDER BY (t.source = 'manual') DESC, t.confidence DESC
         ON CONFLICT (asset_id, tag_id) DO NOTHING`,
      )
      .run(keeperId, now, JSON.stringify(duplicateIds)).changes;
  }
}
