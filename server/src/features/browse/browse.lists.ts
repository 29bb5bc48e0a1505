/**
 * Computed lists and keeping them current.
 *
 * A list is the ordered rowids of the rows a query shows. Computing it walks every matching index
 * entry (browse.store.ts `matching`), so it is kept, per query, in the server's list cache
 * (platform/cache, built once by the container) and brought up to date instead of computed again:
 * - nothing it depends on moved (catalog-tracker.ts `Versions`): it is still exact (liking a photo
 *   leaves the timeline alone, whichever connection wrote the like);
 * - some rows changed (a new file, a file into the Trash, a like when the list filters on likes):
 *   those rows leave the list, the ones that still match go back in at their place in the list
 *   order (`listOrder`), and the totals and stack rows are counted again from the list;
 * - more changed than that is worth, the tracker started over, a tag or album was renamed or
 *   deleted: it is computed again.
 * Rows whose sort key ties to the millisecond keep the order they had when they were placed (a
 * fresh computation could order such a tie differently; pages of one list never do).
 *
 * Computing a list never holds the event loop (issue 11: at most 50 ms at 1M): the matching rows
 * are read on a worker thread in one snapshot (platform/cache/snapshot-worker.ts; a sorting query
 * does all its work before its first row, so it cannot be cut into slices on this thread), the
 * rows that stand for their items are picked a slice per turn, and the list is then brought up to
 * date from the snapshot's journal position like a kept list (`prepare`). Collapsing stacks runs
 * over typed arrays only (`finish`: about 10–30 ms over a million rows).
 */
import type { Dep } from '../../platform/cache/change-journal.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import { SingleFlight } from '../../platform/cache/single-flight.ts';
import type { SnapshotWorker } from '../../platform/cache/snapshot-worker.ts';
import { nextTurn } from '../../platform/cache/slices.ts';
import type { SqlFilter } from './browse.filter.ts';
import type { CatalogShape } from './browse.shape.ts';
import { listOrder, type BrowseStore, type ListOrder, type ListSort } from './browse.store.ts';
import type { CatalogState, Versions } from './catalog-tracker.ts';

export type StackMode = 'collapsed' | 'expanded';

export interface ListResult {
  /** Rowids of the rows of the list, in order. */
  rows: Int32Array;
  items: number;
  files: number;
  /** Matching members per stack, by stacks.rowid (collapsed lists; empty otherwise). */
  matched: Int32Array;
}

export interface KeptList extends ListResult {
  /** Every matching row that stands for its media item, in order (before stacks collapse). */
  listed: Int32Array;
  deps: string;
  coarse: string;
  epoch: number;
  seq: number;
}

const NO_MATCHES = new Int32Array(0);
export const EMPTY: ListResult = { rows: new Int32Array(0), items: 0, files: 0, matched: NO_MATCHES };

/** The list cache's budget: about 16M rows over all lists (a 1M library's timeline is 2–5 MB). */
export const LIST_CACHE_BYTES = 128 * 1024 * 1024;
/** A list is patched when at most this many rows changed and at most this many come back in. */
const PATCH_CHANGED = 50_000;
const PATCH_ADDED = 2_000;
/** Changes that make a list start over rather than re-check rows. */
// 'events': event membership is journalled as a whole (features/photo-events), so lists on an event start over.
const COARSE: Dep[] = ['tag_names', 'album_owners', 'events'];

/** Bytes a kept list holds. */
export function listBytes(list: KeptList): number {
  return 200 + list.listed.byteLength + (list.rows === list.listed ? 0 : list.rows.byteLength) + list.matched.byteLength;
}

/** Reads the tracker's state in one read transaction of the catalog (after `CatalogTracker.ready`). */
export type InSnapshot = <T>(read: (st: CatalogState, v: Versions) => T) => Promise<T>;

export class ListCache {
  /** Lists being computed on the snapshot worker, one computation per list at a time. */
  private readonly computing = new SingleFlight<string, boolean>();

  constructor(
    private readonly store: BrowseStore,
    private readonly cache: KeptCache<string, KeptList>,
    /** Where lists are computed off the event loop; null (a catalog in memory): computed in place. */
    private readonly worker: SnapshotWorker | null = null,
  ) {}

  /** Whether lists can be computed off the event loop (`prepare`). */
  get canPrepare(): boolean {
    return this.worker !== null;
  }

  /** The kept list brought up to date, or null: not kept, or it cannot be brought up to date (compute it: `prepare`). */
  lookup(st: CatalogState, v: Versions, f: SqlFilter, sort: ListSort, mode: StackMode): ListResult | null {
    if (f.none) return EMPTY;
    return this.cache.lookup(keyOf(f, sort, mode), (hit) => this.refresh(hit, st, v, f, sort, mode));
  }

  /** The list, brought up to date or computed in place (holds the event loop while computing: see `prepare`). */
  get(st: CatalogState, v: Versions, f: SqlFilter, sort: ListSort, mode: StackMode): ListResult {
    if (f.none) return EMPTY;
    return this.cache.get(
      keyOf(f, sort, mode),
      (hit) => this.refresh(hit, st, v, f, sort, mode),
      () => this.assemble(st, v, f, mode, this.store.matching(f, sort), v.of(coarseDeps(f))),
    );
  }

  /**
   * Computes the list off the event loop and keeps it: the matching rows are read on the snapshot
   * worker in one snapshot (platform/cache/snapshot-worker.ts), then, in the caller's next read
   * transaction, reduced to the list with the current shape and brought up to date with the rows
   * changed since that snapshot (`ChangedKeys.since`: exact, as a kept list's patch). False when
   * there is no worker, or the list could not be kept (the tracker started over meanwhile, a tag
   * or album was renamed or deleted, too many rows changed): the caller then looks it up again
   * or, after a few tries, computes it in place.
   */
  prepare(f: SqlFilter, sort: ListSort, mode: StackMode, inSnapshot: InSnapshot): Promise<boolean> {
    const worker = this.worker;
    if (!worker || f.none) return Promise.resolve(false);
    const key = keyOf(f, sort, mode);
    return this.computing.run(key, async () => {
      // Noted before the worker's snapshot: a coarse change after it means "compute again".
      const coarse = await inSnapshot((_st, v) => v.of(coarseDeps(f)));
      // A worker that failed (it died, or the file went away) is started again by the next try; the
      // caller computes the list in place after a few.
      const read = await Promise.resolve()
        .then(() => worker.column(this.store.matchingSql(f, sort), f.params))
        .catch(() => null);
      if (!read) return false;
      // The rows that stand for their item, a slice per turn, with the shape as it is meanwhile:
      // a row whose standing changes in between is a changed row (`since` below), redone by `patch`.
      const shape = await inSnapshot((st) => st.shape);
      const listed = await headsOfInSlices(shape, read.values, f);
      return inSnapshot((st, v) => {
        if (st.shape !== shape || v.of(coarseDeps(f)) !== coarse) return false;
        const changed = st.rows.since(read.seq);
        if (!changed || changed.size > PATCH_CHANGED) return false;
        const list: KeptList = { rows: listed, items: 0, files: 0, matched: NO_MATCHES, listed, deps: v.of(f.deps), coarse, epoch: st.rows.epoch, seq: st.rows.seq };
        if (changed.size === 0) Object.assign(list, finish(st.shape, listed, mode));
        else if (!this.patch(st.shape, list, f, sort, mode, changed)) return false;
        this.cache.put(key, list);
        return true;
      });
    });
  }

  /** A list from the matching rows (read at or before the state's position; `prepare` patches the difference). */
  private assemble(st: CatalogState, v: Versions, f: SqlFilter, mode: StackMode, matching: ArrayLike<number>, coarse: string): KeptList {
    const listed = headsOf(st.shape, matching, f);
    return { ...finish(st.shape, listed, mode), listed, deps: v.of(f.deps), coarse, epoch: st.rows.epoch, seq: st.rows.seq };
  }

  private refresh(hit: KeptList, st: CatalogState, v: Versions, f: SqlFilter, sort: ListSort, mode: StackMode): KeptList | null {
    const deps = v.of(f.deps);
    if (hit.epoch !== st.rows.epoch || hit.coarse !== v.of(coarseDeps(f))) return null;
    const changed = hit.deps === deps ? new Set<number>() : st.rows.since(hit.seq);
    if (!changed || changed.size > PATCH_CHANGED) return null;
    if (changed.size > 0 && !this.patch(st.shape, hit, f, sort, mode, changed)) return null;
    hit.deps = deps;
    hit.seq = st.rows.seq;
    return hit;
  }

  /**
   * The changed rows leave the list; those that still match go back in at their place. False when
   * too many come back (computing the list again is then cheaper).
   */
  private patch(shape: CatalogShape, list: KeptList, f: SqlFilter, sort: ListSort, mode: StackMode, changed: Set<number>): boolean {
    const order = listOrder(f.drive, sort);
    const back = this.store
      .recheck(f, order, [...changed])
      .filter((vals) => accepts(shape, f, vals[vals.length - 1] as number));
    if (back.length > PATCH_ADDED) return false;
    const gone = new Uint8Array(shape.nonHead.length);
    for (const r of changed) if (r < gone.length) gone[r] = 1;
    const before = list.listed;
    const kept = new Int32Array(before.length);
    let k = 0;
    for (let i = 0; i < before.length; i++) {
      const r = before[i]!;
      if (gone[r] !== 1) kept[k++] = r;
    }

    const valuesOf = this.store.orderValues(order);
    const memo = new Map<number, unknown[]>();
    const at = (i: number) => {
      const r = kept[i]!;
      let vals = memo.get(r);
      if (!vals) memo.set(r, (vals = valuesOf(r)));
      return vals;
    };
    const listed = new Int32Array(k + back.length);
    let out = 0;
    let from = 0;
    for (const vals of back) {
      // The first kept row that comes after this one (rows of `back` are in list order too).
      let lo = from;
      let hi = k;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(order, at(mid), vals) < 0) lo = mid + 1;
        else hi = mid;
      }
      listed.set(kept.subarray(from, lo), out);
      out += lo - from;
      listed[out++] = vals[vals.length - 1] as number;
      from = lo;
    }
    listed.set(kept.subarray(from, k), out);
    Object.assign(list, finish(shape, listed, mode), { listed });
    return true;
  }
}

/** SQLite's order of two values of a column: NULL, then numbers, then text (BINARY). */
function compareValue(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return -1;
  if (y === null || y === undefined) return 1;
  const nx = typeof x === 'number' || typeof x === 'bigint';
  const ny = typeof y === 'number' || typeof y === 'bigint';
  if (nx && ny) return (x as number) < (y as number) ? -1 : 1;
  if (nx !== ny) return nx ? -1 : 1;
  return String(x) < String(y) ? -1 : 1;
}

function compare(order: ListOrder, a: unknown[], b: unknown[]): number {
  for (let i = 0; i < order.cols.length; i++) {
    const c = compareValue(a[i], b[i]);
    if (c !== 0) return order.desc[i] ? -c : c;
  }
  return 0;
}

const keyOf = (f: SqlFilter, sort: ListSort, mode: StackMode) => JSON.stringify([f.terms, f.params, f.drive, f.stack ?? null, sort, mode]);
const coarseDeps = (f: SqlFilter) => f.deps.filter((d) => COARSE.includes(d));

/** Whether a matching row is a row of the list: it stands for its item, and the stack filter holds. */
function accepts(shape: CatalogShape, f: SqlFilter, r: number): boolean {
  if (!shape.isHead(r)) return false;
  const sf = f.stack;
  if (!sf) return true;
  const slot = shape.stack(r);
  const inStack = slot !== undefined && (sf.kinds === null || sf.kinds.includes(slot.stack.kind));
  return inStack === (sf.membership === 'stacked');
}

/** Rows `headsOf` looks at per turn of the event loop when computing a list apart (a few ms). */
const HEADS_SLICE = 65_536;

/** As `headsOf`, a slice per turn of the event loop. */
async function headsOfInSlices(shape: CatalogShape, matching: Int32Array, f: SqlFilter): Promise<Int32Array> {
  const parts: Int32Array[] = [];
  let n = 0;
  for (let from = 0; from < matching.length; from += HEADS_SLICE) {
    if (from > 0) await nextTurn();
    const part = headsOf(shape, matching.subarray(from, from + HEADS_SLICE), f);
    parts.push(part);
    n += part.length;
  }
  const listed = new Int32Array(n);
  let at = 0;
  for (const p of parts) {
    listed.set(p, at);
    at += p.length;
  }
  return listed;
}

/** The matching rows that are rows of the list, in order. */
export function headsOf(shape: CatalogShape, matching: ArrayLike<number>, f: SqlFilter): Int32Array {
  const { nonHead } = shape;
  const listed = new Int32Array(matching.length);
  let n = 0;
  for (let i = 0; i < matching.length; i++) {
    const r = matching[i]!;
    if (nonHead[r] === 1) continue;
    if (f.stack && !accepts(shape, f, r)) continue;
    listed[n++] = r;
  }
  return listed.slice(0, n);
}

/**
 * Totals and the rows shown: in collapsed mode each stack keeps one row, its cover when the cover
 * matched, else its first matching member by position, at that member's place.
 */
export function finish(shape: CatalogShape, listed: Int32Array, mode: StackMode): ListResult {
  // Typed arrays only (no object per row): this runs over every row of a list (a million at 1M).
  const { extra, slotOf, slotKey, slotRank } = shape;
  const n = listed.length;
  let files = 0;
  let stacked = 0;
  for (let i = 0; i < n; i++) {
    const r = listed[i]!;
    files += 1 + (extra[r] ?? 0);
    if ((slotOf[r] ?? 0) !== 0) stacked++;
  }
  if (mode === 'expanded' || stacked === 0) return { rows: listed, items: n, files, matched: NO_MATCHES };
  // Per stack (by key), how many members matched and the row it shows; the others are hidden.
  const size = shape.maxStackKey + 1;
  const matched = new Int32Array(size);
  const rank = new Int32Array(size).fill(0x7fffffff);
  const row = new Int32Array(size);
  let shown = 0;
  for (let i = 0; i < n; i++) {
    const r = listed[i]!;
    if ((slotOf[r] ?? 0) === 0) continue;
    const key = slotKey[r]!;
    const before = matched[key]!;
    matched[key] = before + 1;
    if (before === 0) shown++;
    const rk = slotRank[r]!;
    if (rk < rank[key]!) {
      rank[key] = rk;
      row[key] = r;
    }
  }
  const rows = new Int32Array(n - stacked + shown);
  let v = 0;
  for (let i = 0; i < n; i++) {
    const r = listed[i]!;
    if ((slotOf[r] ?? 0) === 0 || row[slotKey[r]!] === r) rows[v++] = r;
  }
  return { rows, items: n, files, matched };
}
