/**
 * What changed (asset rowids, or folder keys), by change-journal position, kept in memory for the
 * caches: a value brought up to date at position `seq` needs the keys changed after it. Values
 * remember the `epoch` they were computed in: a new epoch (the catalog tracker lost track of the
 * journal and started over) means "compute again".
 *
 * Each key carries the kinds of data that changed (a `Dep` bit set, platform/cache/change-journal.ts):
 * a cache asks only for the kinds it reads (`since(seq, care)`), so a like from any connection does
 * not make the map or the statistics read that row again.
 */
let epochs = 0;

/** Every kind of change: what a key pushed without its kinds stands for. */
export const ANY_CHANGE = -1;

export class ChangedKeys<T = number> {
  readonly epoch = ++epochs;
  private entries: { seq: number; keys: T[]; kinds: number[] | undefined }[] = [];
  private total = 0;
  /** The newest position whose keys were dropped to keep this bounded. */
  private dropped = -1;

  /** The position this epoch started at: nothing before it is known. */
  readonly start: number;

  constructor(
    /** The position the catalog is at. */
    public seq: number,
    private readonly maxKeys = 200_000,
  ) {
    this.start = seq;
  }

  /** Keys changed up to position `seq`, each with the kinds of its change (`kinds[i]`; none: any kind). */
  push(seq: number, keys: T[], kinds?: number[]): void {
    if (keys.length > 0) {
      this.entries.push({ seq, keys, kinds });
      this.total += keys.length;
      while (this.total > this.maxKeys && this.entries.length > 1) {
        const old = this.entries.shift()!;
        this.total -= old.keys.length;
        this.dropped = old.seq;
      }
    }
    this.seq = seq;
  }

  /**
   * The keys changed after position `seq` in any of the kinds `care` names (a `Dep` bit set; default
   * every kind); null when that is not known: a position ahead of this one, one whose keys were
   * dropped, or one older than the epoch's start (a value read in a snapshot before the tracker
   * started over: the keys changed before the start were never recorded here, so a set would be partial).
   */
  since(seq: number, care = ANY_CHANGE): Set<T> | null {
    const out = new Set<T>();
    if (seq === this.seq) return out;
    if (seq > this.seq || seq < this.dropped || seq < this.start) return null;
    for (const e of this.entries) {
      if (e.seq <= seq) continue;
      if (e.kinds === undefined || care === ANY_CHANGE) for (const k of e.keys) out.add(k);
      else for (let i = 0; i < e.keys.length; i++) if (e.kinds[i]! & care) out.add(e.keys[i]!);
    }
    return out;
  }

  /**
   * A kept value brought up to date: `patch` redoes the keys changed since the value's position and
   * the value moves to the current one. Null (compute again) when the value is of another epoch, the
   * changes are no longer known, or there are more than `limit` of them (recomputing is cheaper).
   * Only changes of the kinds in `care` count (default every kind).
   */
  patchKept<V extends { epoch: number; seq: number }>(hit: V, limit: number, patch: (changed: Set<T>) => void, care = ANY_CHANGE): V | null {
    if (hit.epoch !== this.epoch) return null;
    const changed = this.since(hit.seq, care);
    if (!changed || changed.size > limit) return null;
    if (changed.size > 0) patch(changed);
    hit.seq = this.seq;
    return hit;
  }
}
