/**
 * Backfill of pHashes: brings every stored pHash to the current recipe (adapters/media/phash.ts
 * PHASH_VERSION). Two cases, one pass:
 * - hashes of an older recipe (migration 0029 marked every hash stored before it as version 1): the
 *   whole-frame pHash, and for photos the nine window pHashes, are recomputed and marked current. Until then
 *   detection leaves them out (features/duplicates/detect.ts), so the backfill queues a detection of every
 *   repository it changed when it ends.
 * - photos with a current pHash and no window hashes (catalogued before migration 0028): their windows.
 * Both are taken from the small thumbnail, the picture ingest hashes (fitted inside PHASH_EDGE): decoding its
 * WebP costs a few ms where the original would cost a RAW or HEIC decode, and gives what ingest would give but
 * for the WebP encoding (0–2 bits; phash.test.ts measures it). A video's small thumbnail is its poster's, so
 * videos are recomputed the same way (their whole-frame pHash only, as ingest keeps). An asset whose thumbnail
 * is missing or damaged is left as it is (detection compares it by content only) and tried again at the next
 * start. Queued at start when anything is pending (container.ts); runs in pages, yielding between assets so
 * the server keeps answering, and reports its progress on the job. Resumable: what is done no longer matches
 * the query, so a run cut short (restart, crash) continues where it stopped.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { PHASH_VERSION, phashesFromRaw } from '../../adapters/media/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { AssetsStore } from '../assets/index.ts';

const PAGE = 200;
// The two cases, each matching its partial index (migrations 0028 and 0029): one query with OR between them
// scanned every asset, at every start.
const STALE = `phash IS NOT NULL AND phash_version < ${PHASH_VERSION}`;
const NO_WINDOWS = `type = 'PHOTO' AND phash IS NOT NULL AND phash_windows IS NULL`;

export interface PhashBackfillResult {
  computed: number;
  skipped: number;
  /** Repositories with a recomputed hash (the caller queues their detection). */
  repositories: string[];
}

interface Row {
  rowid: number;
  asset_id: string;
  repository_id: string;
  type: string;
  phash_version: number;
}

export class PhashBackfill {
  constructor(
    private readonly db: Db,
    /** The hashes are columns of the assets table: written by its store. */
    private readonly assets: Pick<AssetsStore, 'setPhashes' | 'addPhashWindows'>,
    private readonly smallThumbnail: (assetId: string) => string,
  ) {}

  /** Whether any pHash is of an older recipe, or any photo lacks its window hashes. */
  pending(): boolean {
    return [STALE, NO_WINDOWS].some((where) => !!this.db.prepare(`SELECT 1 FROM assets WHERE ${where} LIMIT 1`).get());
  }

  async run(signal?: AbortSignal, progress?: (fraction: number, message: string) => void): Promise<PhashBackfillResult> {
    let computed = 0;
    let skipped = 0;
    const repositories = new Set<string>();
    const count = (where: string) => this.db.prepare(`SELECT count(*) FROM assets WHERE ${where}`).pluck().get() as number;
    const total = count(STALE) + count(`${NO_WINDOWS} AND phash_version = ${PHASH_VERSION}`);
    // Pages in index order (equal versions of the stale index are in rowid order; type = 'PHOTO' likewise), so
    // a page is a seek: the rows done no longer match, and the cursor steps over the ones skipped.
    const cols = 'rowid, asset_id, repository_id, type, phash_version';
    const stale = this.db.prepare(`SELECT ${cols} FROM assets WHERE ${STALE} AND (phash_version, rowid) > (?, ?) ORDER BY phash_version, rowid LIMIT ${PAGE}`);
    const noWindows = this.db.prepare(`SELECT ${cols} FROM assets WHERE ${NO_WINDOWS} AND phash_version = ${PHASH_VERSION} AND rowid > ? ORDER BY rowid LIMIT ${PAGE}`);
    const pages: ((after: Row | null) => Row[])[] = [
      (after) => stale.all(after?.phash_version ?? 0, after?.rowid ?? 0) as Row[],
      (after) => noWindows.all(after?.rowid ?? 0) as Row[],
    ];
    // Each write checks that the row is still what was read: ingest may have re-processed it meanwhile.
    for (const page of pages) {
      for (let rows = page(null); rows.length; rows = page(rows[rows.length - 1]!)) {
        for (const r of rows) {
          signal?.throwIfAborted();
          const hashes = await this.fromThumbnail(r.asset_id);
          if (!hashes) skipped++;
          else if (r.phash_version !== PHASH_VERSION) {
            const windows = r.type === 'PHOTO' ? hashes.windows : null;
            if (this.assets.setPhashes(r.asset_id, { phash: hashes.phash, windows }, PHASH_VERSION, r.phash_version)) repositories.add(r.repository_id);
            computed++;
          } else {
            this.assets.addPhashWindows(r.asset_id, hashes.windows, PHASH_VERSION);
            computed++;
          }
          if ((computed + skipped) % 20 === 0) progress?.((computed + skipped) / Math.max(1, total), `${computed + skipped} of ${total} pHashes`);
        }
        await new Promise((res) => setImmediate(res));
      }
    }
    progress?.(1, `${computed} of ${total} pHashes recomputed, ${skipped} without a thumbnail`);
    return { computed, skipped, repositories: [...repositories] };
  }

  /** The current recipe's hashes of an asset's small thumbnail; null when it is missing or damaged. */
  private async fromThumbnail(assetId: string): Promise<{ phash: string; windows: string } | null> {
    const file = this.smallThumbnail(assetId);
    if (!fs.existsSync(file)) return null;
    try {
      const { data, info } = await sharp(file).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      return phashesFromRaw({ data, raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } });
    } catch {
      return null;
    }
  }
}
