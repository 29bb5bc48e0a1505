/**
 * SQL of the filter options (the statistics themselves count facts kept in memory, owner-facts.ts).
 * Filter options walk assets_owner_make / assets_owner_camera / assets_owner_lens one distinct value at a time (a skip
 * scan: one seek per camera, not one row per photo).
 */
import type { Db } from '../../platform/db/connection.ts';

export class StatisticsStore {
  constructor(private readonly db: Db) {}

  /**
   * Distinct values of an indexed metadata column among the owner's live assets: a skip scan over
   * (owner_id, column) that seeks to the next distinct value, then keeps values with at least one
   * asset not in the Trash.
   */
  distinct(ownerId: number, column: 'camera_make' | 'camera_model' | 'lens_model'): string[] {
    return this.db
      .prepare(
        `WITH RECURSIVE v(m) AS (
           SELECT (SELECT min(${column}) FROM assets WHERE owner_id = @owner AND ${column} IS NOT NULL)
           UNION ALL
           SELECT (SELECT min(${column}) FROM assets WHERE owner_id = @owner AND ${column} > v.m) FROM v WHERE v.m IS NOT NULL)
         SELECT m FROM v WHERE m IS NOT NULL
           AND EXISTS (SELECT 1 FROM assets x WHERE x.owner_id = @owner AND x.${column} = v.m AND x.is_deleted = 0)`,
      )
      .pluck()
      .all({ owner: ownerId }) as string[];
  }

  /**
   * The make recorded with each camera model among the owner's live assets: the first live asset of
   * the model that has a make (one seek on assets_owner_camera per model; a model belongs to one
   * maker, so any of its files tells the make). null when no file of the model records a make.
   */
  makesOfModels(ownerId: number, models: readonly string[]): Map<string, string | null> {
    const stmt = this.db
      .prepare(
        `SELECT camera_make FROM assets INDEXED BY assets_owner_camera
         WHERE owner_id = @owner AND camera_model = @model AND is_deleted = 0 AND camera_make IS NOT NULL LIMIT 1`,
      )
      .pluck();
    return new Map(models.map((model) => [model, (stmt.get({ owner: ownerId, model }) as string | undefined) ?? null]));
  }
}
