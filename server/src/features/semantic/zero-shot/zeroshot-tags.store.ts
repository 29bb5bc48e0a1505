/**
 * The classifier's tags in the catalog's tags (migration 0005: `tags`, `asset_tags` with a `source`). Only links
 * with source `zeroshot` are ever written or removed here: a tag a person gave (`manual`), or one from the file's
 * keywords (`metadata`), stays exactly as it is, even when the classifier gives the same tag name (the link then
 * keeps its source; a person who removed a zeroshot tag by hand gets it back only at a reindex).
 */
import type { Db } from '../../../platform/db/connection.ts';

export class ZeroShotTagStore {
  constructor(private readonly db: Db) {}

  /** Replaces the asset's zeroshot tags by `tags` (one transaction). */
  replace(assetId: string, tags: readonly { tag: string; confidence: number }[], now = Date.now()): void {
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM asset_tags WHERE asset_id = ? AND source = 'zeroshot'`).run(assetId);
      const name = this.db.prepare('INSERT INTO tags (tag_name, created_at) VALUES (?, ?) ON CONFLICT (tag_name) DO NOTHING');
      const id = this.db.prepare('SELECT tag_id FROM tags WHERE tag_name = ?').pluck();
      const link = this.db.prepare(
        `INSERT INTO asset_tags (asset_id, tag_id, source, confidence, created_at) VALUES (?, ?, 'zeroshot', ?, ?)
         ON CONFLICT (asset_id, tag_id) DO NOTHING`,
      );
      for (const t of tags) {
        name.run(t.tag, now);
        link.run(assetId, id.get(t.tag) as number, Math.min(1, Math.max(0, t.confidence)), now);
      }
    })();
  }

  /** The asset's zeroshot tags, by name. */
  of(assetId: string): { tag: string; confidence: number }[] {
    return this.db
      .prepare(`SELECT t.tag_name AS tag, at.confidence FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id WHERE at.asset_id = ? AND at.source = 'zeroshot' ORDER BY t.tag_name`)
      .all(assetId) as { tag: string; confidence: number }[];
  }

  /** Removes every zeroshot tag link (a semantic reset). Tag names stay: they are shared with people's tags. */
  wipe(): void {
    this.db.prepare(`DELETE FROM asset_tags WHERE source = 'zeroshot'`).run();
  }
}
