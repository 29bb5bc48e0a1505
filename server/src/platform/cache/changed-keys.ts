/**
 * What changed (asset rowids, or folder keys), by change-journal position, kept in memory for the
 * caches: a value brought up to date at position `seq` needs the keys changed after it. Values
 * remember the `epoch` they were computed in: a new epoch (the catalog tracker lost track of the
 * journal and started over) means "compute again".
 */
let epochs = 0;

export class ChangedKeys<T = number> {
  readonly epoch = ++epochs;
  private entries: { seq: number; keys: T[] }[] = [];
  private total = 0;
  /** The newest position whose keys were dropped to keep this bounded. */
  private dropped = -1;

  constructor(
    /** The position the catalog is at. */
    public seq: number,
    private readonly maxKeys = 200_000,
  ) {}

  /** Keys changed up to position `seq`. */
  push(seq: number, keys: T[]): void {
    if (keys.length > 0) {
      this.entries.push({ seq, keys });
      this.total += keys.length;
      while (this.total > this.maxKeys && this.entries.length > 1) {
        const old = this.entries.shift()!;
        this.total -= old.keys.length;
        this.dropped = old.seq;
      }
    }
    this.seq = seq;
  }

  /** The keys changed after position `seq`; null when that is no longer known. */
  since(seq: number): Set<T> | null {
    const out = new Set<T>();
    if (seq === this.seq) return out;
    if (seq > this.seq || seq < this.dropped) return null;
    for (const e of this.entries) if (e.seq > seq) for (const k of e.keys) out.add(k);
    return out;
  }

  /**
   * A kept value brought up to date: `patch` redoes the keys changed since the value's position and
   * the value moves to the current one. Null (compute again) when the value is of another epoch, the
   * changes are no longer known, or there are more than `limit` of them (recomputing is cheaper).
   */
  patchKept<V extends { epoch: number; seq: number }>(hit: V, limit: number, patch: (changed: Set<T>) => void): V | null {
    if (hit.epoch !== this.epoch) return null;
    const changed = this.since(hit.seq);
    if (!changed || changed.size > limit) return null;
    patch(changed);
    hit.seq = this.seq;
    return hit;
  }
}
