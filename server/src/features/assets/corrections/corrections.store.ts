/** SQL for corrections of capture times and places (migration 0026). No rules here. */
import type { Db } from '../../../platform/db/connection.ts';
import type { PermittedAssetId } from '../../../platform/access/index.ts';

export type CorrectionKind = 'time' | 'place';

export interface CorrectionRow {
  correction_id: string;
  owner_id: number;
  kind: CorrectionKind;
  created_at: number;
  undone_at: number | null;
}

export class CorrectionsStore {
  constructor(private readonly db: Db) {}

  insert(c: Omit<CorrectionRow, 'undone_at'>, items: { asset_id: string; previous: Record<string, unknown> }[]): void {
    this.db.prepare('INSERT INTO asset_corrections (correction_id, owner_id, kind, created_at) VALUES (@correction_id, @owner_id, @kind, @created_at)').run(c);
    const add = this.db.prepare('INSERT INTO asset_correction_items (correction_id, asset_id, previous) VALUES (?, ?, ?)');
    for (const i of items) add.run(c.correction_id, i.asset_id, JSON.stringify(i.previous));
  }

  byId(id: string): CorrectionRow | undefined {
    return this.db.prepare('SELECT * FROM asset_corrections WHERE correction_id = ?').get(id) as CorrectionRow | undefined;
  }

  /**
   * The items of a correction whose assets no later correction of the same kind (not undone) has changed
   * since: undoing it must not throw away a newer correction.
   */
  undoableItems(c: CorrectionRow): { asset_id: PermittedAssetId; previous: string }[] {
    return this.db
      .prepare(
        `SELECT i.asset_id, i.previous FROM asset_correction_items i
         WHERE i.correction_id = @id AND NOT EXISTS (
           SELECT 1 FROM asset_correction_items j JOIN asset_corrections k ON k.correction_id = j.correction_id
           WHERE j.asset_id = i.asset_id AND k.kind = @kind AND k.undone_at IS NULL AND k.correction_id > @id)`,
      )
      .all({ id: c.correction_id, kind: c.kind }) as { asset_id: PermittedAssetId; previous: string }[];
  }

  markUndone(id: string, at: number): void {
    this.db.prepare('UPDATE asset_corrections SET undone_at = ? WHERE correction_id = ?').run(at, id);
  }
}
