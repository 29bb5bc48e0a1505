/**
 * Memoised catalog reads: a browse-side answer is kept while the catalog has not changed, so going
 * back and forth between folders, the map and the statistics of an idle library costs nothing after
 * the first visit.
 *
 * "Not changed" is exact, not a time to live: the key carries the connection's `total_changes()`
 * (every row inserted, updated or deleted through the app's single connection; all of Hearth's
 * writes go through it) and `PRAGMA data_version` (moves when another connection or process
 * commits). Any write, anywhere, makes every older entry unreachable. While the library is being
 * imported the jobs write constantly and the memo simply misses.
 */
import type { Db } from '../../platform/db/connection.ts';

const MAX_ENTRIES = 128;

class Memo {
  private readonly entries = new Map<string, unknown>();
  private version = '';
  private readonly versionStmt;

  constructor(private readonly db: Db) {
    this.versionStmt = db.prepare('SELECT total_changes()').pluck();
  }

  private current(): string {
    return `${this.versionStmt.get() as number}:${this.db.pragma('data_version', { simple: true }) as number}`;
  }

  get<T>(key: string, compute: () => T): T {
    const v = this.current();
    if (v !== this.version) {
      this.entries.clear();
      this.version = v;
    }
    if (this.entries.has(key)) {
      const hit = this.entries.get(key) as T;
      // Refresh its place in the LRU order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    // Computing reads only; if it somehow wrote, do not keep a value keyed to the old version.
    if (this.current() !== v) return value;
    this.entries.set(key, value);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

const memos = new WeakMap<Db, Memo>();

/** The memo of this catalog connection. */
export function catalogMemo(db: Db): Memo {
  let m = memos.get(db);
  if (!m) memos.set(db, (m = new Memo(db)));
  return m;
}
