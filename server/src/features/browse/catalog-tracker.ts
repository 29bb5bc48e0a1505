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
 * Never holding the event loop (issue 11: at most 50 ms at a time, at 1M files):
 * - `ready()` (await it before the read transaction that calls `current()`) does the long work a
 *   slice per turn: the first build and every rebuild after a gap read the shape in key ranges, all
 *   in one snapshot of a second connection (platform/cache/snapshot-reader.ts), whose journal
 *   position the new state starts at; a journal that is far ahead is applied a chunk per turn.
 *   One rebuild at a time: every request that needs the tracker meanwhile awaits the same one
 *   (the other requests of the server go on). After a rebuild the changes written while it read are
 *   applied in chunks, however many: a busy writer cannot keep the tracker rebuilding forever.
 * - `current()` then finds at most a few changes to apply. Should a writer have squeezed a gap in
 *   between, it rebuilds at once (exact, but blocking; counted as `blocking_rebuilds`).
 *
 * Call `current()` inside a read transaction: the journal and what the caller then reads come from
 * one snapshot.
 */
import type { Db } from '../../platform/db/connection.ts';
import { ChangeJournalReader, depBits, type Dep, type JournalChanges } from '../../platform/cache/change-journal.ts';
import { ChangedKeys } from '../../platform/cache/changed-keys.ts';
import { SingleFlight } from '../../platform/cache/single-flight.ts';
import { nextTurn } from '../../platform/cache/slices.ts';
import { SnapshotReader } from '../../platform/cache/snapshot-reader.ts';
import { CatalogShape } from './browse.shape.ts';
import { BrowseStore } from './browse.store.ts';

const SHAPE = depBits(['shape']);
/**
 * Journal entries applied per turn of the event loop when the tracker is behind (~2.5 ms on a quiet machine), and
 * the most `current()` applies inside a request after `ready()`. 4096 took 20–25 ms each while a people rebuild
 * shared 2 cores, and a request applied two such lots in one turn of the loop, beside the rebuild's own step: the
 * longest stall of the rebuild (issue 25 point 4, tracker-catch-up.test.ts).
 */
const CHUNK = 1024;
/** Rebuilds overtaken by a pruned journal before `ready` gives up slicing (see `ready`). */
const REBUILD_ROUNDS = 3;

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
  /** Of those, rebuilds done at once in a request (a gap between `ready` and `current`; should stay 0). */
  blocking_rebuilds: number;
  /** Journal chunks applied a turn at a time (far behind, or after a rebuild). */
  chunks: number;
  /** A rebuild is reading the shape right now (requests that need it wait; the others are answered). */
  rebuilding: boolean;
  /** Journal reads that brought changes. */
  updates: number;
}

export class CatalogTracker {
  private readonly reader: ChangeJournalReader;
  private readonly store: BrowseStore;
  private readonly snapshots: SnapshotReader | null;
  private readonly rebuilding = new SingleFlight<0, void>();
  private state: CatalogState | null = null;
  private moved = new Map<Dep, number>();
  private generation = 0;
  /** Set by a rebuild until the journal written meanwhile is applied: no gap for being far behind. */
  private catchingUp = false;
  private readonly counts = { rebuilds: 0, blocking_rebuilds: 0, updates: 0, chunks: 0 };
  private rebuildsRunning = 0;

  constructor(private readonly db: Db) {
    this.reader = new ChangeJournalReader(db);
    this.store = new BrowseStore(db);
    this.snapshots = SnapshotReader.for(db);
  }

  /**
   * Brings the state up to date a slice per turn of the event loop, so that the next `current()`
   * (in the caller's read transaction, right after) has at most a few changes to apply. Call it
   * outside a transaction.
   */
  async ready(): Promise<void> {
    for (let rounds = 0; ; ) {
      const need = this.db.transaction(() => this.need())();
      if (need === 'none') return;
      if (need === 'chunk') {
        this.db.transaction(() => this.apply(this.reader.read(CHUNK)))();
        this.counts.chunks++;
        await nextTurn();
        continue;
      }
      // Overtaken again and again (the journal pruned past every rebuild's snapshot: a writer
      // faster than a rebuild): leave it to `current()`, which rebuilds at once.
      if (!this.snapshots || ++rounds > REBUILD_ROUNDS) return;
      await this.rebuilding.run(0, () => this.rebuild(this.snapshots!));
    }
  }

  /** The catalog state, brought up to date with the journal. */
  current(): { st: CatalogState; v: Versions } {
    let st = this.state;
    const changes = this.reader.read(this.catchingUp && st ? Number.MAX_SAFE_INTEGER : undefined);
    if (!st || changes.gap) {
      st = this.install(CatalogShape.build(this.db), changes.seq);
      this.counts.blocking_rebuilds++;
    } else this.apply(changes);
    const gen = this.generation;
    const moved = this.moved;
    return { st, v: { of: (deps) => `${gen}:${deps.map((d) => moved.get(d) ?? 0).join('.')}` } };
  }

  counters(): TrackerCounters {
    return { position: this.reader.seq, ...this.counts, rebuilding: this.rebuildsRunning > 0 };
  }

  close(): void {
    this.snapshots?.close();
  }

  /** What `ready` has to do first (in a read transaction). */
  private need(): 'none' | 'chunk' | 'rebuild' {
    if (!this.state) return 'rebuild';
    const { lost, behind } = this.reader.status();
    if (lost) return 'rebuild';
    if (behind <= CHUNK) {
      this.catchingUp = false;
      return 'none';
    }
    return behind > this.reader.limit && !this.catchingUp ? 'rebuild' : 'chunk';
  }

  /** Reads the shape in one snapshot of the second connection, a slice per turn, and starts a new epoch there. */
  private async rebuild(snapshots: SnapshotReader): Promise<void> {
    this.rebuildsRunning++;
    let built: { shape: CatalogShape; position: number };
    try {
      built = await snapshots.read(async (conn, position) => ({ shape: await CatalogShape.buildInSlices(conn), position }));
    } finally {
      this.rebuildsRunning--;
    }
    const { shape, position } = built;
    this.install(shape, position);
    this.reader.moveTo(position);
    this.catchingUp = true;
  }

  private install(shape: CatalogShape, seq: number): CatalogState {
    this.moved = new Map();
    this.generation++;
    this.counts.rebuilds++;
    return (this.state = { shape, rows: new ChangedKeys(seq), folders: new ChangedKeys<string>(seq) });
  }

  /** Applies journal changes read in the caller's transaction to the state. */
  private apply(changes: JournalChanges): void {
    const st = this.state!;
    if (changes.gap) {
      // Only a read bounded by `upTo` after a prune: start over at once (as `current` would).
      this.install(CatalogShape.build(this.db), changes.seq);
      this.counts.blocking_rebuilds++;
      return;
    }
    if (changes.seq === st.rows.seq) return;
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
}
