/**
 * Deleting assets for good: the file leaves the household's folder, then the catalog row goes (with
 * everything kept by asset id, by cascade), its media item is repaired or removed, `asset.deleted` is
 * emitted, and the derivatives and edit sidecar are removed.
 *
 * Why the file first, one asset at a time: the catalog must never lose the row of a file that is still
 * on disk (a scan or the watcher would bring it back as a new photo, and the household would think it
 * gone). So the row is removed only once the file is gone; a file that cannot be removed (read-only
 * folder, permissions, a folder that is offline) keeps its row in the Trash and is reported, per asset,
 * with a stable code. A file already missing from a reachable folder counts as removed. Should the
 * catalog write fail after the file was removed, the row stays in the Trash (restore then answers
 * `original_missing`) and the next attempt finishes it. An asset whose processing is running right now
 * is left for later (`asset_processing`): the run would write its derivatives again.
 *
 * The watcher sees the removal as an unlink of a path the catalog no longer holds and does nothing;
 * the removal and the row's deletion happen in one synchronous step, so no watcher or scan callback can
 * run between them.
 */
import fs from 'node:fs';
import type { Db } from '../../../platform/db/connection.ts';
import { tx } from '../../../platform/db/connection.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { RepositoriesService } from '../../repositories/index.ts';
import { StacksStore } from '../../stacks/index.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import type { AssetRow } from '../assets.store.ts';
import type { DerivativePaths } from '../derivatives.ts';
import { resolveInRepository } from '../ingest/ingest.service.ts';
import { repairMediaItem } from '../pipeline/media-items.ts';
import { sidecarPath } from '../api/sidecar.ts';
import type { TrashStore } from './trash.store.ts';

export type DeletionReason = 'user' | 'retention';

export type DeletionFailureCode = 'repository_unavailable' | 'file_not_deleted' | 'asset_not_in_trash' | 'asset_processing';

export interface DeletionFailure {
  asset_id: string;
  original_filename: string;
  code: DeletionFailureCode;
  message: string;
}

export interface DeletionOutcome {
  deleted: string[];
  failed: DeletionFailure[];
}

export class PermanentDeletion {
  private readonly stacks: StacksStore;

  constructor(
    private readonly db: Db,
    private readonly store: TrashStore,
    private readonly repositories: Pick<RepositoriesService, 'byId' | 'checkReachability'>,
    private readonly derivatives: DerivativePaths,
    private readonly changes: AssetChangeBus,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.stacks = new StacksStore(db);
  }

  /** Deletes each asset for good (only assets still in the Trash); reports each that could not be. */
  run(rows: readonly AssetRow[], reason: DeletionReason): DeletionOutcome {
    const out: DeletionOutcome = { deleted: [], failed: [] };
    // Reachability is checked once per repository and run (a folder on an unplugged disk answers ENOENT
    // for every file: without this check, its rows would go while the files are safe on the disk).
    const reachable = new Map<string, boolean>();
    for (const listed of rows) {
      const row = this.store.current(listed.asset_id);
      if (!row) {
        out.deleted.push(listed.asset_id); // deleted meanwhile (another request, the retention job)
        continue;
      }
      const fail = (code: DeletionFailureCode, message: string) => out.failed.push({ asset_id: row.asset_id, original_filename: row.original_filename, code, message });
      if (!row.is_deleted) {
        fail('asset_not_in_trash', 'It was restored from the Trash meanwhile, so it was kept.');
        continue;
      }
      if (row.state === 'processing') {
        // Its pipeline run would write derivatives again after they were removed: wait for it.
        fail('asset_processing', 'It is still being processed; try again in a moment.');
        continue;
      }
      const repo = this.repositories.byId(row.repository_id);
      if (!reachable.has(row.repository_id)) reachable.set(row.repository_id, this.repositories.checkReachability(row.repository_id)?.status === 'active');
      if (!repo || !reachable.get(row.repository_id)) {
        fail('repository_unavailable', 'Its folder is offline (a disk unplugged or a share not mounted); it stays in the Trash until the folder is back.');
        continue;
      }
      let file: string;
      try {
        file = resolveInRepository(repo.path, row.storage_path);
        fs.unlinkSync(file);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') {
          this.log.warn({ asset_id: row.asset_id, err: code ?? (e as Error).message }, 'file could not be deleted: kept in the Trash');
          fail('file_not_deleted', `Its file could not be removed from the folder (${code ?? 'error'}: the folder may be read-only); it stays in the Trash.`);
          continue;
        }
      }
      this.removeRow(row, reason);
      this.removeLeftovers(repo.path, row.asset_id);
      out.deleted.push(row.asset_id);
    }
    return out;
  }

  /** The catalog side, in one transaction: the row, its media item, the event. */
  private removeRow(row: AssetRow, reason: DeletionReason): void {
    const now = this.now();
    tx(this.db, () => {
      this.store.remove(row.asset_id);
      const item = row.media_item_id;
      if (item) {
        if (this.store.isEmptyItem(item)) {
          const touched = this.stacks.stacksOfItems([item]);
          this.store.removeItem(item);
          this.stacks.normalize(touched, now);
        } else {
          // The partner left in the library (the RAW of a pair, the clip of a live photo) now stands for the item.
          repairMediaItem(this.db, item, now);
        }
      }
      this.changes.emit('asset.deleted', { ...assetRef(row), reason, storage_path: row.storage_path });
    });
  }

  /** Derivatives (a cache in the data folder) and the edit sidecar: nothing depends on them any more. */
  private removeLeftovers(repositoryRoot: string, assetId: string): void {
    for (const p of [this.derivatives.dir(assetId), sidecarPath(repositoryRoot, assetId)]) {
      try {
        fs.rmSync(p, { recursive: true, force: true });
      } catch (e) {
        this.log.warn({ asset_id: assetId, err: (e as Error).message }, 'leftovers of a deleted asset could not be removed');
      }
    }
  }
}
