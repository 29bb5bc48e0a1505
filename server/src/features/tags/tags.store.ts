/** SQL of tags (shared names) and asset_tags (per-asset links). No rules here. */
import type { PermittedAssetId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';

export const TAG_SOURCES = ['manual', 'zeroshot', 'bioclip', 'metadata'] as const;
export type TagSource = (typeof TAG_SOURCES)[number];

export interface TagLinkRow {
  tag_id: number;
  tag_name: string;
  source: TagSource;
  confidence: number;
}

export interface TagSummaryRow {
  tag_id: number;
  tag_name: string;
  source: TagSource;
  asset_count: number;
  cover_asset_id: string;
  last_used_at: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export class TagsStore {
  constructor(private readonly db: Db) {}

  linksOf(assetId: PermittedAssetId): TagLinkRow[] {
    return this.db
      .prepare(
        `SELECT t.tag_id, t.tag_name, at.source, at.confidence FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id
         WHERE at.asset_id = ? ORDER BY t.tag_name COLLATE NOCASE, t.tag_id`,
      )
      .all(assetId) as TagLinkRow[];
  }

  link(assetId: PermittedAssetId, tagId: number): TagLinkRow | undefined {
    return this.db
      .prepare(
        `SELECT t.tag_id, t.tag_name, at.source, at.confidence FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id
         WHERE at.asset_id = ? AND at.tag_id = ?`,
      )
      .get(assetId, tagId) as TagLinkRow | undefined;
  }

  /** The tag with this name (case-insensitive), created if missing. */
  resolve(name: string, now: number): number {
    this.db.prepare('INSERT INTO tags (tag_name, created_at) VALUES (?, ?) ON CONFLICT (tag_name) DO NOTHING').run(name, now);
    return this.db.prepare('SELECT tag_id FROM tags WHERE tag_name = ?').pluck().get(name) as number;
  }

  /** Links (or re-links) a tag; an existing link takes the new source and confidence. */
  upsertLink(assetId: PermittedAssetId, tagId: number, source: TagSource, confidence: number, now: number): void {
    this.db
      .prepare(
        `INSERT INTO asset_tags (asset_id, tag_id, source, confidence, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (asset_id, tag_id) DO UPDATE SET source = excluded.source, confidence = excluded.confidence, created_at = excluded.created_at
         WHERE asset_tags.source != excluded.source OR asset_tags.confidence != excluded.confidence`,
      )
      .run(assetId, tagId, source, confidence, now);
  }

  unlink(assetId: PermittedAssetId, tagId: number): boolean {
    return this.db.prepare('DELETE FROM asset_tags WHERE asset_id = ? AND tag_id = ?').run(assetId, tagId).changes > 0;
  }

  /** Drops a tag name nobody uses any more. */
  dropIfUnused(tagId: number): void {
    this.db.prepare('DELETE FROM tags WHERE tag_id = ? AND NOT EXISTS (SELECT 1 FROM asset_tags WHERE tag_id = ?)').run(tagId, tagId);
  }

  summaries(
    f: { ownerId: number; repositoryId?: string | undefined; source?: TagSource | undefined; q?: string | undefined },
    limit: number,
    offset: number,
  ): { rows: TagSummaryRow[]; total: number } {
    // Which assets count (also for the cover), then which links.
    const assetParts = ['a.owner_id = @owner', 'a.is_deleted = 0'];
    const linkParts: string[] = [];
    const params: Record<string, unknown> = { owner: f.ownerId, limit, offset };
    if (f.repositoryId !== undefined) {
      assetParts.push('a.repository_id = @repo');
      params.repo = f.repositoryId;
    }
    if (f.source !== undefined) {
      linkParts.push('at.source = @source');
      params.source = f.source;
    }
    if (f.q) {
      linkParts.push("t.tag_name LIKE @q ESCAPE '\\'");
      params.q = `%${escapeLike(f.q)}%`;
    }
    const assetsSql = assetParts.join(' AND ');
    const where = [assetsSql, ...linkParts].join(' AND ');
    const from = 'FROM asset_tags at JOIN assets a ON a.asset_id = at.asset_id JOIN tags t ON t.tag_id = at.tag_id';
    const { limit: _l, offset: _o, ...countParams } = params;
    const total = this.db.prepare(`SELECT count(*) FROM (SELECT 1 ${from} WHERE ${where} GROUP BY at.tag_id, at.source)`).pluck().get(countParams) as number;
    const rows = this.db
      .prepare(
        `WITH page AS (
           SELECT at.tag_id, t.tag_name, at.source, count(*) AS asset_count, max(at.created_at) AS last_used_at
           ${from} WHERE ${where} GROUP BY at.tag_id, at.source
           ORDER BY asset_count DESC, t.tag_name COLLATE NOCASE, at.tag_id, at.source LIMIT @limit OFFSET @offset)
         SELECT page.*, (SELECT a.asset_id FROM asset_tags at JOIN assets a ON a.asset_id = at.asset_id
             WHERE at.tag_id = page.tag_id AND at.source = page.source AND ${assetsSql}
             ORDER BY a.best_time DESC, a.asset_id LIMIT 1) AS cover_asset_id
         FROM page ORDER BY asset_count DESC, tag_name COLLATE NOCASE, tag_id, source`,
      )
      .all(params) as TagSummaryRow[];
    return { rows, total };
  }

  /** The caller's tags (on assets in the library) whose names contain `q`, names starting with it first. */
  search(ownerId: number, q: string, limit: number): { tag_id: number; tag_name: string; asset_count: number }[] {
    return this.db
      .prepare(
        `SELECT t.tag_id, t.tag_name, count(DISTINCT at.asset_id) AS asset_count
         FROM asset_tags at JOIN assets a ON a.asset_id = at.asset_id JOIN tags t ON t.tag_id = at.tag_id
         WHERE a.owner_id = @owner AND a.is_deleted = 0 AND (@q = '' OR t.tag_name LIKE @like ESCAPE '\\')
         GROUP BY t.tag_id
         ORDER BY (@q != '' AND t.tag_name LIKE @prefix ESCAPE '\\') DESC, asset_count DESC, t.tag_name COLLATE NOCASE, t.tag_id
         LIMIT @limit`,
      )
      .all({ owner: ownerId, q, like: `%${escapeLike(q)}%`, prefix: `${escapeLike(q)}%`, limit }) as { tag_id: number; tag_name: string; asset_count: number }[];
  }
}
