/**
 * Backfill of window pHashes (migration 0028) for photos catalogued before ingest computed them: each photo
 * with a pHash and no windows gets them from its small thumbnail, the picture its pHash was taken from (the
 * windows then differ from what ingest would give by the WebP encoding only: a bit or two). Photos whose
 * thumbnail is missing are left as they are (detection compares their whole frame as before) and not tried
 * again in the same run. Queued at start when any photo lacks them (container.ts); runs in pages, yielding
 * between photos, so the server keeps answering.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { phashWindowsFromRaw } from '../../adapters/media/index.ts';
import type { Db } from '../../platform/db/connection.ts';

const PAGE = 200;
const MISSING = "type = 'PHOTO' AND phash IS NOT NULL AND phash_windows IS NULL";

export class WindowHashesBackfill {
  constructor(
    private readonly db: Db,
    private readonly smallThumbnail: (assetId: string) => string,
  ) {}

  /** Whether any photo lacks its window hashes. */
  pending(): boolean {
    return !!this.db.prepare(`SELECT 1 FROM assets WHERE ${MISSING} LIMIT 1`).get();
  }

  async run(signal?: AbortSignal): Promise<{ computed: number; skipped: number }> {
    let computed = 0;
    let skipped = 0;
    const page = this.db.prepare(`SELECT rowid, asset_id FROM assets WHERE ${MISSING} AND rowid > ? ORDER BY rowid LIMIT ${PAGE}`);
    const save = this.db.prepare('UPDATE assets SET phash_windows = ? WHERE asset_id = ? AND phash_windows IS NULL');
    for (let after = 0; ; ) {
      const rows = page.all(after) as { rowid: number; asset_id: string }[];
      if (!rows.length) break;
      for (const r of rows) {
        signal?.throwIfAborted();
        const file = this.smallThumbnail(r.asset_id);
        if (!fs.existsSync(file)) {
          skipped++;
          continue;
        }
        try {
          const { data, info } = await sharp(file).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
          save.run(await phashWindowsFromRaw({ data, raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } }), r.asset_id);
          computed++;
        } catch {
          skipped++; // a damaged thumbnail: the photo keeps its whole-frame pHash only
        }
      }
      after = rows[rows.length - 1]!.rowid;
      await new Promise((res) => setImmediate(res));
    }
    return { computed, skipped };
  }
}
