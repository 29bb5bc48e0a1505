/**
 * SQL of stacks (presentation groups of media items). No rules here beyond keeping a stack's shape
 * valid (`normalize`): positions 0..n-1, a cover that is a member, no stack of fewer than 2 members.
 *
 * A detected stack (one with a `group_key`) that falls below 2 members keeps its row without members:
 * that remembers that the burst was taken apart, so detection run again does not bring it back.
 * Such rows are invisible (every read goes through stack_members).
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';

export interface StackRow {
  stack_id: string;
  owner_id: number;
  stack_kind: 'burst' | 'manual';
  group_key: string | null;
  cover_media_item_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface MemberRow {
  stack_id: string;
  media_item_id: string;
  position: number;
  primary_asset_id: string;
}

/** Where a media item sits in its stack (for asset and gallery views). */
export interface StackRef {
  stack_id: string;
  stack_kind: 'burst' | 'manual';
  /** Members in the library (not in the Trash). */
  stack_size: number;
  is_cover: boolean;
}

/** A member is listed while its media item has at least one file in the library. */
const IN_LIBRARY = `EXISTS (SELECT 1 FROM media_item_components c JOIN assets a ON a.asset_id = c.asset_id
  WHERE c.media_item_id = m.media_item_id AND a.is_deleted = 0)`;

export class StacksStore {
  constructor(private readonly db: Db) {}

  byId(stackId: string): StackRow | undefined {
    return this.db.prepare('SELECT * FROM stacks WHERE stack_id = ?').get(stackId) as StackRow | undefined;
  }

  byGroupKey(key: string): StackRow | undefined {
    return this.db.prepare('SELECT * FROM stacks WHERE group_key = ?').get(key) as StackRow | undefined;
  }

  /** The stack a media item belongs to. */
  stackOfItem(mediaItemId: string): StackRow | undefined {
    return this.db
      .prepare('SELECT s.* FROM stack_members sm JOIN stacks s ON s.stack_id = sm.stack_id WHERE sm.media_item_id = ?')
      .get(mediaItemId) as StackRow | undefined;
  }

  stacksOfItems(mediaItemIds: readonly string[]): string[] {
    if (mediaItemIds.length === 0) return [];
    // Kept prepared: every file ingest processes asks this (media-items.ts writeItem).
    return prepared(this.db, 'SELECT DISTINCT stack_id FROM stack_members WHERE media_item_id IN (SELECT value FROM json_each(?))')
      .pluck(true)
      .all(JSON.stringify(mediaItemIds)) as string[];
  }

  /** Members by position; `libraryOnly` leaves out items whose files are all in the Trash. */
  members(stackId: string, libraryOnly: boolean): MemberRow[] {
    return this.db
      .prepare(
        `SELECT m.stack_id, m.media_item_id, m.position, mi.primary_asset_id
         FROM stack_members m JOIN media_items mi ON mi.media_item_id = m.media_item_id
         WHERE m.stack_id = ? ${libraryOnly ? `AND ${IN_LIBRARY}` : ''} ORDER BY m.position, m.media_item_id`,
      )
      .all(stackId) as MemberRow[];
  }

  create(row: StackRow): void {
    this.db
      .prepare(
        `INSERT INTO stacks (stack_id, owner_id, stack_kind, group_key, cover_media_item_id, created_at, updated_at)
         VALUES (@stack_id, @owner_id, @stack_kind, @group_key, @cover_media_item_id, @created_at, @updated_at)`,
      )
      .run(row);
  }

  /** Puts items at the end of a stack (an item in another stack is moved). */
  append(stackId: string, mediaItemIds: readonly string[], now: number): void {
    const next = (this.db.prepare('SELECT coalesce(max(position) + 1, 0) FROM stack_members WHERE stack_id = ?').pluck().get(stackId) as number) ?? 0;
    const put = this.db.prepare(
      `INSERT INTO stack_members (stack_id, media_item_id, position) VALUES (?, ?, ?)
       ON CONFLICT (media_item_id) DO UPDATE SET stack_id = excluded.stack_id, position = excluded.position`,
    );
    mediaItemIds.forEach((id, i) => put.run(stackId, id, next + i));
    this.touch(stackId, now);
  }

  /** Chooses the cover (null: the first member stands for the stack). */
  setCover(stackId: string, mediaItemId: string | null, now: number): void {
    this.db.prepare('UPDATE stacks SET cover_media_item_id = ?, updated_at = ? WHERE stack_id = ?').run(mediaItemId, now, stackId);
  }

  /** Deletes a stack and its memberships (the items stay). */
  remove(stackId: string): void {
    this.db.prepare('DELETE FROM stacks WHERE stack_id = ?').run(stackId);
  }

  removeMember(mediaItemId: string): void {
    this.db.prepare('DELETE FROM stack_members WHERE media_item_id = ?').run(mediaItemId);
  }

  touch(stackId: string, now: number): void {
    this.db.prepare('UPDATE stacks SET updated_at = ? WHERE stack_id = ?').run(now, stackId);
  }

  /** When an item merges into another that is in no stack, the survivor takes its place. */
  transferMembership(fromItem: string, toItem: string): void {
    if (this.db.prepare('SELECT 1 FROM stack_members WHERE media_item_id = ?').get(toItem)) return;
    this.db.prepare('UPDATE stack_members SET media_item_id = ? WHERE media_item_id = ?').run(toItem, fromItem);
  }

  /**
   * Restores the shape of these stacks: positions compacted, a cover that left repaired (back to
   * "first member"), fewer than 2 members dissolved (manual stacks deleted, detected ones kept as
   * empty rows, see the module comment). Returns how many dissolved.
   */
  normalize(stackIds: readonly string[], now: number): number {
    let dissolved = 0;
    for (const id of new Set(stackIds)) {
      const stack = this.byId(id);
      if (!stack) continue;
      const ids = this.db.prepare('SELECT media_item_id, position FROM stack_members WHERE stack_id = ? ORDER BY position, media_item_id').all(id) as {
        media_item_id: string;
        position: number;
      }[];
      if (ids.length < 2) {
        if (ids.length === 0 && stack.cover_media_item_id === null && stack.group_key !== null) continue; // already dissolved
        this.db.prepare('DELETE FROM stack_members WHERE stack_id = ?').run(id);
        if (stack.group_key === null) this.remove(id);
        else this.setCover(id, null, now);
        dissolved++;
        continue;
      }
      let changed = false;
      const setPos = this.db.prepare('UPDATE stack_members SET position = ? WHERE stack_id = ? AND media_item_id = ?');
      ids.forEach((m, i) => {
        if (m.position !== i) {
          setPos.run(i, id, m.media_item_id);
          changed = true;
        }
      });
      if (stack.cover_media_item_id !== null && !ids.some((m) => m.media_item_id === stack.cover_media_item_id)) {
        this.setCover(id, null, now);
        changed = true;
      }
      if (changed) this.touch(id, now);
    }
    return dissolved;
  }

  /** Stacks of an owner (all owners when null) that hold a member with a file in the repository. */
  stacksInRepository(repositoryId: string, ownerId: number | null): string[] {
    return this.db
      .prepare(
        `SELECT DISTINCT sm.stack_id FROM stack_members sm
         JOIN media_item_components c ON c.media_item_id = sm.media_item_id
         JOIN assets a ON a.asset_id = c.asset_id
         WHERE a.repository_id = @repo AND (@owner IS NULL OR a.owner_id = @owner)`,
      )
      .pluck()
      .all({ repo: repositoryId, owner: ownerId }) as string[];
  }

  /** Where each of these media items sits in a stack; items in no stack are absent from the map. */
  refs(mediaItemIds: readonly string[]): Map<string, StackRef> {
    const out = new Map<string, StackRef>();
    if (mediaItemIds.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT sm.media_item_id, s.stack_id, s.stack_kind, s.cover_media_item_id,
           (SELECT count(*) FROM stack_members m WHERE m.stack_id = s.stack_id AND ${IN_LIBRARY}) AS stack_size,
           (SELECT m.media_item_id FROM stack_members m WHERE m.stack_id = s.stack_id ORDER BY m.position LIMIT 1) AS first_item
         FROM stack_members sm JOIN stacks s ON s.stack_id = sm.stack_id
         WHERE sm.media_item_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(mediaItemIds)) as {
      media_item_id: string;
      stack_id: string;
      stack_kind: 'burst' | 'manual';
      cover_media_item_id: string | null;
      stack_size: number;
      first_item: string;
    }[];
    for (const r of rows) {
      out.set(r.media_item_id, {
        stack_id: r.stack_id,
        stack_kind: r.stack_kind,
        stack_size: r.stack_size,
        is_cover: (r.cover_media_item_id ?? r.first_item) === r.media_item_id,
      });
    }
    return out;
  }
}
