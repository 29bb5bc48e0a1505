/**
 * Reads the catalog's change journal (migration 0012_change_journal.sql): what changed since the
 * reader's last position, whoever wrote it (this connection, another one, a worker thread or
 * another process), because the catalog's own triggers write the journal in the writer's
 * transaction.
 *
 * A reader keeps one position (the last seq it read). Reading again gives the entries after it,
 * grouped by kind, plus how often each dependency moved; `gap` says the journal no longer reaches
 * back to the position (pruned past it, or more changes than worth reading one by one): the caller
 * starts over from the current position. Read it inside the same read transaction as the data the
 * caller then reads, so that both come from one snapshot.
 *
 * One reader per connection and consumer group: two readers each keep their own position (reading
 * never consumes entries), so nothing is lost either way; the server keeps exactly one
 * (features/browse/catalog-tracker.ts) and fans changes out to every cache.
 */
import type { Db } from '../db/connection.ts';

/** The kinds of data a change can touch; bit i of `deps` in the journal is DEPS[i]. */
export const DEPS = [
  'rows',
  'trash',
  'shape',
  'media',
  'time',
  'type',
  'liked',
  'rating',
  'meta',
  'gps',
  'name',
  'path',
  'albums',
  'tags',
  /** A tag itself renamed or deleted. */
  'tag_names',
  /** An album deleted or given to another owner. */
  'album_owners',
  /** Photo events' membership or redirects (features/photo-events): one entry per publish or correction. */
  'events',
  /** A face placed with a person or taken from one (features/faces). */
  'people',
] as const;
export type Dep = (typeof DEPS)[number];

/** The bit set of some kinds of change (as the journal's `deps` column writes them). */
export const depBits = (deps: readonly Dep[]): number => deps.reduce((bits, d) => bits | (1 << DEPS.indexOf(d)), 0);

export interface JournalChanges {
  /** The journal no longer reaches back to the reader's position: start over (every other field is empty). */
  gap: boolean;
  /** The position after these changes (the reader's new position). */
  seq: number;
  /** Asset rowids ('r'). */
  rows: number[];
  /** The kinds of change of each of `rows` (a `Dep` bit set, OR-ed over its entries). */
  rowKinds: number[];
  /** Asset ids ('a': album and tag links, trash state). */
  assets: string[];
  /** The kinds of change of each of `assets`. */
  assetKinds: number[];
  /** Media item ids ('i'). */
  items: string[];
  /** Stack ids ('s'). */
  stacks: string[];
  /** Folder keys ('f', `folderKey`). */
  folders: string[];
  /** How many changes touched each dependency. */
  moved: Map<Dep, number>;
}

/** The key the journal uses for a folder of one owner in one repository. */
export const folderKey = (repositoryId: string, ownerId: number, folderPath: string) => `${repositoryId}\x1f${ownerId}\x1f${folderPath}`;

/** Past this many changes at once, starting over is cheaper than applying them one by one. */
export const JOURNAL_READ_LIMIT = 50_000;

export class ChangeJournalReader {
  /** The last seq read; null before the first read. */
  private position: number | null = null;
  private readonly newest;
  private readonly oldest;
  private readonly after;

  constructor(db: Db, readonly limit = JOURNAL_READ_LIMIT) {
    this.newest = db.prepare('SELECT coalesce(max(seq), 0) FROM change_journal').pluck();
    this.oldest = db.prepare('SELECT min(seq) FROM change_journal').pluck();
    this.after = db.prepare('SELECT seq, kind, key, deps FROM change_journal WHERE seq > ? ORDER BY seq LIMIT ?').raw();
  }

  get seq(): number | null {
    return this.position;
  }

  /** Starts over: the position becomes the journal's newest seq (read in the caller's snapshot). */
  reset(): number {
    this.position = this.newest.get() as number;
    return this.position;
  }

  /**
   * Where the reader stands against the journal (in the caller's snapshot): `lost` when it never
   * read or the journal no longer reaches back to it (pruned past it, or went back: a catalog
   * restored from a backup); else how many changes it is `behind`.
   */
  status(): { lost: boolean; behind: number } {
    const from = this.position;
    const oldest = this.oldest.get() as number | null;
    const newest = this.newest.get() as number;
    if (from === null || (oldest !== null && oldest > from + 1) || newest < from) return { lost: true, behind: 0 };
    return { lost: false, behind: newest - from };
  }

  /** Moves the position to `seq` (a position read in another snapshot: a value read there follows the journal from it). */
  moveTo(seq: number): void {
    this.position = seq;
  }

  /**
   * The changes since the last read (or a gap: the first read is one too). With `upTo`, at most
   * that many changes are read and more of them is no gap (the rest comes with the next read).
   */
  read(upTo?: number): JournalChanges {
    const out: JournalChanges = { gap: false, seq: this.position ?? 0, rows: [], rowKinds: [], assets: [], assetKinds: [], items: [], stacks: [], folders: [], moved: new Map() };
    const from = this.position;
    const oldest = this.oldest.get() as number | null;
    const newest = this.newest.get() as number;
    // Nothing read yet, pruned past us, or the journal went back (a catalog restored from a backup).
    if (from === null || (oldest !== null && oldest > from + 1) || newest < from || (upTo === undefined && newest - from > this.limit)) {
      out.gap = true;
      out.seq = this.reset();
      return out;
    }
    if (newest === from) return out;
    const rows = new Map<number, number>();
    const assets = new Map<string, number>();
    const sets = { i: new Set<string>(), s: new Set<string>(), f: new Set<string>() };
    let last = from;
    let mask = 0;
    const counts = new Array<number>(DEPS.length).fill(0);
    for (const [seq, kind, key, deps] of this.after.all(from, upTo ?? this.limit + 1) as [number, string, string | number | null, number][]) {
      last = seq;
      if (deps !== 0) {
        mask |= deps;
        for (let b = 0; b < DEPS.length; b++) if (deps & (1 << b)) counts[b]!++;
      }
      if (key === null) continue;
      if (kind === 'r') rows.set(Number(key), (rows.get(Number(key)) ?? 0) | deps);
      else if (kind === 'a') assets.set(String(key), (assets.get(String(key)) ?? 0) | deps);
      else if (kind === 'i' || kind === 's' || kind === 'f') sets[kind].add(String(key));
    }
    out.seq = this.position = last;
    out.rows = [...rows.keys()];
    out.rowKinds = [...rows.values()];
    out.assets = [...assets.keys()];
    out.assetKinds = [...assets.values()];
    out.items = [...sets.i];
    out.stacks = [...sets.s];
    out.folders = [...sets.f];
    if (mask !== 0) DEPS.forEach((d, b) => counts[b] && out.moved.set(d, counts[b]!));
    return out;
  }
}
