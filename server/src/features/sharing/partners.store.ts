/** SQL of partner shares (migration 0014). No rules here (see partners.service.ts). */
import { prepared } from '../../platform/db/prepared.ts';
import type { Db } from '../../platform/db/connection.ts';

export interface PartnerShareRow {
  share_id: number;
  owner_id: number;
  partner_id: number;
  shared_from: number | null;
  show_in_timeline: number;
  created_at: number;
  updated_at: number;
}

/** What a member's timeline takes from someone who shares with them. */
export interface ReceivedShare {
  owner_id: number;
  shared_from: number | null;
  show_in_timeline: boolean;
}

export class PartnerSharesStore {
  constructor(private readonly db: Db) {}

  byId(id: number): PartnerShareRow | undefined {
    return this.db.prepare('SELECT * FROM partner_shares WHERE share_id = ?').get(id) as PartnerShareRow | undefined;
  }

  between(ownerId: number, partnerId: number): PartnerShareRow | undefined {
    return this.db.prepare('SELECT * FROM partner_shares WHERE owner_id = ? AND partner_id = ?').get(ownerId, partnerId) as PartnerShareRow | undefined;
  }

  given(ownerId: number): PartnerShareRow[] {
    return this.db.prepare('SELECT * FROM partner_shares WHERE owner_id = ? ORDER BY created_at, share_id').all(ownerId) as PartnerShareRow[];
  }

  received(partnerId: number): PartnerShareRow[] {
    return this.db.prepare('SELECT * FROM partner_shares WHERE partner_id = ? ORDER BY created_at, share_id').all(partnerId) as PartnerShareRow[];
  }

  /** The shares a member receives, by sharer (the timeline reads this on every request: one index range). */
  receivedBy(partnerId: number): ReceivedShare[] {
    return (
      prepared(this.db, 'SELECT owner_id, shared_from, show_in_timeline FROM partner_shares WHERE partner_id = ? ORDER BY owner_id').all(partnerId) as {
        owner_id: number;
        shared_from: number | null;
        show_in_timeline: number;
      }[]
    ).map((r) => ({ owner_id: r.owner_id, shared_from: r.shared_from, show_in_timeline: r.show_in_timeline === 1 }));
  }

  insert(ownerId: number, partnerId: number, sharedFrom: number | null, now: number): number {
    return Number(
      this.db
        .prepare('INSERT INTO partner_shares (owner_id, partner_id, shared_from, show_in_timeline, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)')
        .run(ownerId, partnerId, sharedFrom, now, now).lastInsertRowid,
    );
  }

  update(id: number, fields: { shared_from?: number | null; show_in_timeline?: number }, now: number): void {
    const cols = Object.keys(fields);
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = @now'];
    this.db.prepare(`UPDATE partner_shares SET ${sets.join(', ')} WHERE share_id = @id`).run({ ...fields, now, id });
  }

  delete(id: number): void {
    this.db.prepare('DELETE FROM partner_shares WHERE share_id = ?').run(id);
  }
}
