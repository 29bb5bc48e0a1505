/**
 * The names the door is placing files at right now or placed them at moments ago, per repository, so that the
 * repository's watcher passes over the `add` its own commit causes (features/repositories/watcher.ts).
 *
 * Why: every file an import or an upload commits into a watched repository was also seen by the watcher, which held
 * it until its size and mtime had been still for the stability period (a stat every poll) and then admitted it again
 * in place, to find it catalogued already. During a WebDAV import that was a tenth of the server thread
 * (scripts/bench/import.ts, a CPU profile of the run), and it competes with the import itself.
 *
 * Rules, so that nothing a person writes is ever passed over:
 * - a name is noted when the door reserves it, before the file can appear there (so the event cannot come first);
 *   the names tried and not used are forgotten when the commit has its name, all of them when it fails, and the
 *   committed one when the door takes the file back out (not catalogued: unsupported, or the write failed);
 * - a name is passed over once: the first `add` takes the note. Every later event at that name (a `change`, or an
 *   `add` after an unlink) finds no note and is handled as any other;
 * - a note no event came for (the repository is not watched, or the watcher dropped the event) is forgotten after
 *   `ttlMs`; the periodic scan reconciles whatever a watcher misses, as it always does.
 */
export class OwnCommits {
  private readonly notes = new Map<string, number>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The door reserved `relPath` in the repository: its file may appear there at any moment. */
  note(repositoryId: string, relPath: string): void {
    this.prune();
    const k = key(repositoryId, relPath);
    this.notes.delete(k); // to the end: the map stays in order of expiry, so pruning stops at the first live note
    this.notes.set(k, this.now() + this.ttlMs);
  }

  /** A name reserved and then not used (the commit took another, or failed). */
  forget(repositoryId: string, relPath: string): void {
    this.notes.delete(key(repositoryId, relPath));
  }

  /** Whether the file that appeared at `relPath` is the door's own commit; true only once per note. */
  take(repositoryId: string, relPath: string): boolean {
    const k = key(repositoryId, relPath);
    const until = this.notes.get(k);
    if (until === undefined) return false;
    this.notes.delete(k);
    return until >= this.now();
  }

  get size(): number {
    return this.notes.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [k, until] of this.notes) {
      if (until >= now) return;
      this.notes.delete(k);
    }
  }
}

const key = (repositoryId: string, relPath: string) => `${repositoryId}\0${relPath.replace(/\\/g, '/')}`;
