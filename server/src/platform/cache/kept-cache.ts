/**
 * The one cache mechanism of the server: answers (or what answers are computed from) kept by key,
 * brought up to date instead of computed again, bounded by bytes, and counted.
 *
 * A cache does not know what "up to date" means: on every `get` the caller's `refresh` gets the kept
 * value and either returns it (unchanged or patched in place: a hit) or null (it cannot be brought
 * up to date: an invalidation, then `compute` runs: a miss). The callers bring values up to date
 * from the catalog's change journal (change-journal.ts, `Journal` below), so a write from another
 * connection patches what it touched and leaves the rest as it was.
 *
 * Bounded by bytes: each value's size is estimated by `sizeOf` (typed arrays exactly, strings and
 * objects roughly) when it is stored and after each refresh; past the budget the least recently
 * used values go (evictions). The counters (entries, bytes, hits, misses, invalidations,
 * evictions, rows read again) are what the runtime diagnostics report for each cache (`CacheRegistry.snapshot`).
 */

import type { ChangedKeys } from './changed-keys.ts';

export interface CacheCounters {
  name: string;
  entries: number;
  bytes: number;
  max_bytes: number;
  hits: number;
  misses: number;
  invalidations: number;
  evictions: number;
  /** Catalog rows read again to bring kept entries up to date (`noteReread`). */
  rows_reread: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

export class KeptCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private bytes = 0;
  private readonly counts = { hits: 0, misses: 0, invalidations: 0, evictions: 0, rows_reread: 0 };

  constructor(
    readonly name: string,
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /**
   * The value kept under `key`, brought up to date by `refresh`, else computed (and kept when it
   * fits the budget).
   */
  get(key: K, refresh: (kept: V) => V | null, compute: () => V): V {
    const hit = this.entries.get(key);
    if (hit) {
      this.drop(key, hit);
      const fresh = refresh(hit.value);
      if (fresh !== null) {
        this.counts.hits++;
        return this.keep(key, fresh);
      }
      this.counts.invalidations++;
    }
    this.counts.misses++;
    return this.keep(key, compute());
  }

  /**
   * The value kept under `key`, brought up to date by `refresh` (a hit), or null: nothing kept, or
   * it could not be brought up to date (then it is dropped: an invalidation). For values computed
   * apart (a few slices at a time, `put`).
   */
  lookup(key: K, refresh: (kept: V) => V | null): V | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.drop(key, hit);
    const fresh = refresh(hit.value);
    if (fresh === null) {
      this.counts.invalidations++;
      return null;
    }
    this.counts.hits++;
    return this.keep(key, fresh);
  }

  /** Keeps a value computed apart (a miss). */
  put(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.counts.misses++;
    this.keep(key, value);
  }

  /** The value kept under `key` as it is (no refresh, not counted): for tests and diagnostics. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /**
   * A kept value brought up to date by reading again the rows changed since it was made, in the
   * kinds of change `care` names (ChangedKeys.patchKept); the rows are counted as read again. Null:
   * compute it again.
   */
  patchRows<H extends V & { epoch: number; seq: number }>(hit: H, rows: ChangedKeys<number>, limit: number, care: number, reread: (changed: Set<number>) => void): H | null {
    return rows.patchKept(
      hit,
      limit,
      (changed) => {
        this.counts.rows_reread += changed.size;
        reread(changed);
      },
      care,
    );
  }

  /** Forgets every value (counted as invalidations). */
  clear(): void {
    this.counts.invalidations += this.entries.size;
    this.entries.clear();
    this.bytes = 0;
  }

  counters(): CacheCounters {
    return { name: this.name, entries: this.entries.size, bytes: this.bytes, max_bytes: this.maxBytes, ...this.counts };
  }

  private keep(key: K, value: V): V {
    const bytes = Math.max(64, Math.round(this.sizeOf(value)));
    // A value larger than the whole budget is served, not kept.
    if (bytes > this.maxBytes) return value;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (k === key) continue;
      this.drop(k, e);
      this.counts.evictions++;
    }
    return value;
  }

  private drop(key: K, e: Entry<V>): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}

/** Every cache of the server, for the runtime diagnostics. */
export class CacheRegistry {
  private readonly caches: KeptCache<unknown, unknown>[] = [];

  create<K, V>(name: string, maxBytes: number, sizeOf: (value: V) => number): KeptCache<K, V> {
    const cache = new KeptCache<K, V>(name, maxBytes, sizeOf);
    this.caches.push(cache as KeptCache<unknown, unknown>);
    return cache;
  }

  snapshot(): CacheCounters[] {
    return this.caches.map((c) => c.counters());
  }
}
