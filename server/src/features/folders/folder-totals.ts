/**
 * Per-folder totals of one owner in one repository, kept current instead of counted again.
 *
 * Counting a whole repository reads every file of it (1M files: about 1.5 s), and the root listing
 * needs all of it. So the counts of every folder (its own files, not below) are counted once and
 * kept; afterwards only the folders the catalog's change log names (browse.versions.ts 'f': a
 * file came, went, moved, or changed type, state, time or trash state) are counted again, each
 * one an index range over that folder's files. A listing is then a roll-up in memory over the
 * kept rows. They start over when another connection wrote, or more changed than the log keeps.
 */
import type { Db } from '../../platform/db/connection.ts';
import { currentCatalog, folderKey } from '../browse/index.ts';
import { FoldersStore, type FolderAggRow } from './folders.store.ts';

/** Past this many changed folders of one repository, counting everything again is cheaper. */
const RECOUNT_LIMIT = 2_000;
/** (repository, owner) pairs kept. */
const KEPT = 16;

interface Kept {
  epoch: number;
  seq: number;
  /** By folder path: the folder's own live files. */
  rows: Map<string, FolderAggRow>;
}

const perConnection = new WeakMap<Db, FolderTotals>();

/** The totals kept for this catalog connection (services are made per request; the totals outlive them). */
export function folderTotals(db: Db): FolderTotals {
  let t = perConnection.get(db);
  if (!t) perConnection.set(db, (t = new FolderTotals(db)));
  return t;
}

export class FolderTotals {
  private readonly kept = new Map<string, Kept>();
  private readonly store: FoldersStore;

  /** A fresh set that keeps nothing yet (tests compare against it); the server uses `folderTotals(db)`. */
  constructor(private readonly db: Db) {
    this.store = new FoldersStore(db);
  }

  /** Whether the counts of this owner in this repository are kept (read, and not dropped since). */
  keeps(repositoryId: string, ownerId: number): boolean {
    return this.kept.has(folderKey(repositoryId, ownerId, ''));
  }

  /** Every folder of the repository holding some of the owner's live files, with its own counts. */
  of(repositoryId: string, ownerId: number): Map<string, FolderAggRow> {
    const { st } = currentCatalog(this.db);
    const journal = st.folders;
    const id = folderKey(repositoryId, ownerId, '');
    const hit = this.kept.get(id);
    if (hit) {
      this.kept.delete(id);
      const changed = hit.epoch === journal.epoch ? journal.since(hit.seq) : null;
      const mine = changed ? [...changed].filter((k) => k.startsWith(id)).map((k) => k.slice(id.length)) : null;
      if (mine && mine.length <= RECOUNT_LIMIT) {
        for (const folder of mine) {
          const row = this.store.folders(repositoryId, ownerId, { kind: 'exact', path: folder })[0];
          if (row) hit.rows.set(folder, row);
          else hit.rows.delete(folder);
        }
        hit.seq = journal.seq;
        return this.keep(id, hit).rows;
      }
    }
    const rows = new Map(this.store.folders(repositoryId, ownerId, { kind: 'subtree', path: '' }).map((r) => [r.folder_path, r]));
    return this.keep(id, { epoch: journal.epoch, seq: journal.seq, rows }).rows;
  }

  private keep(id: string, k: Kept): Kept {
    this.kept.set(id, k);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return k;
  }
}
