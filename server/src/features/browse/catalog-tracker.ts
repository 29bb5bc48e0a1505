/**
 * The catalog as every cache over it sees it: the catalog shape (browse.shape.ts) and what changed,
 * kept current from the catalog's change journal (platform/cache/change-journal.ts). One tracker per
 * catalog connection, built once by the container and shared by the browse lists, the map index,
 * the statistics facts and the folder totals: one reader of the journal, whose changes every cache
 * then takes at its own pace (`ChangedKeys.since`).
 *
 * Because the journal is written by triggers in the catalog, a write by another connection, a
 * worker thread or another process arrives here as the rows it touched, exactly like a write of
 * the server's own: the shape patches those items and stacks, and the caches re-check those rows.
 * Only a gap in the journal (pruned past the tracker's position, or more changes at once than
 * worth applying one by one) rebuilds the shape and starts every cache over (a new epoch).
 *
 * Call `current()` inside a read transaction: the journal and what the caller then reads come from
 * one snapshot.
 */
import type { Db } from '../../platform/db/connection.ts';
import { ChangeJournalReader, depBits, type Dep } from '../../platform/cache/change-journal.ts';
import { ChangedKeys } from '../../platform/cache/changed-keys.ts';
import { CatalogShape } from './browse.shape.ts';
import { BrowseStore } from './browse.store.ts';

const SHAPE = depBits(['shape']);

export interface CatalogState {
  shape: CatalogShape;
  /** Asset rowids whose row, standing (browse.shape.ts) or links changed. */
  rows: ChangedKeys<number>;
  /** Folders whose summary changed (`folderKey`), for features/folders. */
  folders: ChangedKeys<string>;
}

export interface Versions {
  /** A string that changes when any of these dependencies moved (or the tracker started over). */
  of(deps: readonly Dep[]): string;
}

export interface TrackerCounters {
  /** The journal position the caches are at. */
  position: number | null;
  /** Times the tracker started over (the first build included). */
  rebuilds: number;
  /** Journal reads that brought changes. */
  updates: number;
}

export class CatalogTracker {
  private readonly reader: ChangeJournalReader;
  private readonly store: BrowseStore;
  private state: CatalogState | null = null;
  private moved = new Map<Dep, number>();
  private generation = 0;
  private readonly counts = { rebuilds: 0, updates: 0 };

  constructor(private readonly db: Db) {
    this.reader = new ChangeJournalReader(db);
    this.store = new BrowseStore(db);
  }

  /** The catalog state, brought up to date with the journal. */
  current(): { st: CatalogState; v: Versions } {
    const changes = this.reader.read();
    let st = this.state;
    if (!st || changes.gap) {
      st = this.state = { shape: CatalogShape.build(this.db), rows: new ChangedKeys(changes.seq), folders: new ChangedKeys<string>(changes.seq) };
      this.moved = new Map();
      this.generation++;
      this.counts.rebuilds++;
    } else if (changes.seq !== st.rows.seq) {
      this.counts.updates++;
      for (const [d, n] of changes.moved) this.moved.set(d, (this.moved.get(d) ?? 0) + n);
      // Each changed row with the kinds of its change: files whose standing the shape redid count as
      // 'shape' changes; assets named by id (links, trash state) are grouped by kinds to find their rows.
      const touched = st.shape.patch(this.db, changes);
      const keys = [...changes.rows, ...touched];
      const kinds = [...changes.rowKinds, ...touched.map(() => SHAPE)];
      const byKinds = new Map<number, string[]>();
      changes.assets.forEach((id, i) => {
        const k = changes.assetKinds[i]!;
        const ids = byKinds.get(k);
        if (ids) ids.push(id);
        else byKinds.set(k, [id]);
      });
      for (const [k, ids] of byKinds) {
        for (const rowid of this.store.rowidsOf(ids)) {
          keys.push(rowid);
          kinds.push(k);
        }
      }
      st.rows.push(changes.seq, keys, kinds);
      st.folders.push(changes.seq, changes.folders);
    }
    const gen = this.generation;
    const moved = this.moved;
    return { st, v: { of: (deps) => `${gen}:${deps.map((d) => moved.get(d) ?? 0).join('.')}` } };
  }

  counters(): TrackerCounters {
    return { position: this.reader.seq, ...this.counts };
  }
}
