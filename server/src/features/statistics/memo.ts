/**
 * Memoised catalog reads: an answer computed from the catalog is kept while what it depends on has
 * not moved, so going back and forth between screens of an idle library costs nothing after the
 * first visit, and a like (from any connection) does not throw away the filter options.
 *
 * "Not moved" is exact, not a time to live: each answer names the kinds of data it reads
 * (platform/cache/change-journal.ts `Dep`), and the catalog tracker counts every change of each
 * kind from the catalog's change journal, whoever wrote it. Kept in the server's memo cache
 * (platform/cache), built once by the container.
 */
import type { Dep } from '../../platform/cache/change-journal.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { CatalogTracker } from '../browse/index.ts';

export interface Memoised {
  value: unknown;
  /** The versions of its dependencies when computed. */
  stamp: string;
  /** Its size as JSON, for the cache's byte budget. */
  chars: number;
}

/** The memo cache's budget (filter options, statistics answers: small answers). */
export const MEMO_CACHE_BYTES = 8 * 1024 * 1024;

export const memoBytes = (m: Memoised) => 100 + 2 * m.chars;

export class CatalogMemo {
  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogTracker,
    private readonly cache: KeptCache<string, Memoised>,
  ) {}

  async get<T>(key: string, deps: readonly Dep[], compute: () => T): Promise<T> {
    await this.catalog.ready();
    // One read transaction: the journal and the answer come from one snapshot.
    return this.db.transaction(() => {
      const stamp = this.catalog.current().v.of(deps);
      const kept = this.cache.get(
        key,
        (hit) => (hit.stamp === stamp ? hit : null),
        () => {
          const value = compute();
          return { value, stamp, chars: JSON.stringify(value)?.length ?? 0 };
        },
      );
      return kept.value as T;
    })();
  }

  /**
   * As `get`, for answers computed asynchronously (from facts that may first be read in slices).
   * The stamp is taken before computing: an answer that saw later changes is kept under the older
   * stamp, so the next request computes it again (never a stale answer kept as current).
   */
  async getAsync<T>(key: string, deps: readonly Dep[], compute: () => Promise<T>): Promise<T> {
    await this.catalog.ready();
    const { stamp, kept } = this.db.transaction(() => {
      const stamp = this.catalog.current().v.of(deps);
      return { stamp, kept: this.cache.lookup(key, (hit) => (hit.stamp === stamp ? hit : null)) };
    })();
    if (kept) return kept.value as T;
    const value = await compute();
    this.cache.put(key, { value, stamp, chars: JSON.stringify(value)?.length ?? 0 });
    return value;
  }
}
