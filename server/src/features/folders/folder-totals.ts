/**
 * Per-folder totals of one owner in one repository, kept current instead of counted again.
 *
 * Counting a whole repository reads every file of it (1M files: about 1.5 s), and the root listing
 * needs all of it. So the counts of every folder (its own files, not below) are counted once and
 * kept in the server's folder cache (platform/cache, built once by the container); afterwards only
 * the folders the catalog's change journal names ('f': a file came, went, moved, or changed type,
 * state, time or trash state), whichever connection wrote it, are counted again, each one an index
 * range over that folder's files. A listing is then a roll-up in memory over the kept rows. They
 * start over only after a gap in the journal, or more changed folders than worth recounting.
 *
 * Counting a repository never holds the event loop: `prepare` counts it a slice of folders at a
 * time (in path order, about 15 ms each, platform/cache/slices.ts) from the journal position noted
 * first, and the next `of` brings it up to date like any kept counts.
 */
import type { Db } from '../../platform/db/connection.ts';
import { folderKey } from '../../platform/cache/change-journal.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import { inSlices } from '../../platform/cache/slices.ts';
import type { ChangedKeys } from '../../platform/cache/changed-keys.ts';
import type { CatalogTracker } from '../browse/index.ts';
import { FoldersStore, type FolderAggRow } from './folders.store.ts';

/** Past this many changed folders of one repository, counting everything again is cheaper. */
const RECOUNT_LIMIT = 2_000;
/** The folder cache's budget: about 100k folders. */
export const FOLDER_CACHE_BYTES = 32 * 1024 * 1024;

export interface KeptFolders {
  epoch: number;
  seq: number;
  /** By folder path: the folder's own live files. */
  rows: Map<string, FolderAggRow>;
}

/** Bytes held, roughly: a row of eleven fields and its path, per folder. */
export function foldersBytes(k: KeptFolders): number {
  let n = 100;
  for (const path of k.rows.keys()) n += 300 + 4 * path.length;
  return n;
}

export class FolderTotals {
  private readonly store: FoldersStore;

  /** Repositories (per owner) being counted in slices, one count each at a time. */
  private readonly counting = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogTracker,
    private readonly cache: KeptCache<string, KeptFolders>,
  ) {
    this.store = new FoldersStore(db);
  }

  /** Whether the counts of this owner in this repository are kept (read, and not dropped since). */
  keeps(repositoryId: string, ownerId: number): boolean {
    return this.cache.has(folderKey(repositoryId, ownerId, ''));
  }

  /**
   * Makes sure the counts of this owner in this repository are kept, counting them in slices when
   * they are not (call before `of`, outside a transaction).
   */
  async prepare(repositoryId: string, ownerId: number): Promise<void> {
    // The tracker first: `of` (right after, in the caller's transaction) then never rebuilds it at once.
    await this.catalog.ready();
    const id = folderKey(repositoryId, ownerId, '');
    if (this.cache.has(id)) return;
    let counting = this.counting.get(id);
    if (!counting) {
      counting = (async () => {
        const start = this.db.transaction(() => {
          const journal = this.catalog.current().st.folders;
          return { epoch: journal.epoch, seq: journal.seq };
        })();
        const rows = new Map<string, FolderAggRow>();
        let after: string | null = null;
        await inSlices(
          (size) => {
            const got = this.store.foldersAfter(repositoryId, ownerId, after, size);
            for (const r of got) rows.set(r.folder_path, r);
            after = got.at(-1)?.folder_path ?? after;
            return got.length === size;
          },
          { first: 64 },
        );
        this.cache.put(id, { ...start, rows });
      })().finally(() => this.counting.delete(id));
      this.counting.set(id, counting);
    }
    return counting;
  }

  /** Every folder of the repository holding some of the owner's live files, with its own counts. */
  of(repositoryId: string, ownerId: number): Map<string, FolderAggRow> {
    const journal = this.catalog.current().st.folders;
    const id = folderKey(repositoryId, ownerId, '');
    return this.cache.get(
      id,
      (hit) => this.refresh(hit, journal, repositoryId, ownerId, id),
      () => {
        const rows = new Map(this.store.folders(repositoryId, ownerId, { kind: 'subtree', path: '' }).map((r) => [r.folder_path, r]));
        return { epoch: journal.epoch, seq: journal.seq, rows };
      },
    ).rows;
  }

  /** Kept counts with the changed folders counted again; null when that is not worth it. */
  private refresh(hit: KeptFolders, journal: ChangedKeys<string>, repositoryId: string, ownerId: number, id: string): KeptFolders | null {
    const changed = hit.epoch === journal.epoch ? journal.since(hit.seq) : null;
    const mine = changed ? [...changed].filter((k) => k.startsWith(id)).map((k) => k.slice(id.length)) : null;
    if (!mine || mine.length > RECOUNT_LIMIT) return null;
    for (const folder of mine) {
      const row = this.store.folders(repositoryId, ownerId, { kind: 'exact', path: folder })[0];
      if (row) hit.rows.set(folder, row);
      else hit.rows.delete(folder);
    }
    hit.seq = journal.seq;
    return hit;
  }
}
