/**
 * Knowing when a file has stopped being written: its size and mtime stay the same for a quiet period.
 *
 * A copy, a download or a camera import writes a file in pieces, sometimes with pauses; reading it
 * before the last piece hashes and decodes half a photo. Both the watcher (for every file event) and
 * the scanner (for files modified moments ago) wait for the file to be quiet first. mtime is compared
 * as well as size, so a file rewritten in place at the same size still counts as changing.
 */
import fs from 'node:fs';
import { errnoCode } from './paths.ts';

const signature = (s: fs.Stats) => `${s.size}:${s.mtimeMs}`;

/** How often a waiting file is looked at again: often enough to be prompt, rarely enough to be cheap. */
export function pollIntervalFor(quietMs: number): number {
  return Math.max(20, Math.min(250, Math.round(quietMs / 5)));
}

export type QuietResult = { quiet: true; stats: fs.Stats } | { quiet: false; why: 'gone' | 'still-changing' };

/**
 * Resolves once `abs` has kept its size and mtime for `quietMs` (and its mtime is at least that old,
 * so a write that finished just before the first look also counts), or with why not: the file went
 * away, or it was still changing after `maxWaitMs`.
 */
export async function waitForQuietFile(abs: string, quietMs: number, maxWaitMs: number, signal?: AbortSignal): Promise<QuietResult> {
  const poll = pollIntervalFor(quietMs);
  const started = Date.now();
  let last: string | null = null;
  let quietSince = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    let st: fs.Stats;
    try {
      st = await fs.promises.stat(abs);
    } catch (e) {
      if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return { quiet: false, why: 'gone' };
      throw e;
    }
    const now = Date.now();
    const sig = signature(st);
    if (sig !== last) {
      last = sig;
      quietSince = now;
    }
    // An mtime in the future (clock skew on a share) cannot say how old the write is: rely on the wait.
    const writtenAgo = st.mtimeMs <= now ? now - st.mtimeMs : 0;
    if (now - quietSince >= quietMs || (now - quietSince >= poll && writtenAgo >= quietMs)) return { quiet: true, stats: st };
    if (now - started >= maxWaitMs) return { quiet: false, why: 'still-changing' };
    await new Promise((r) => setTimeout(r, poll));
  }
}

/** True when a file modified at `mtimeMs` may still be being written (modified within `quietMs`). */
export function recentlyWritten(mtimeMs: number, quietMs: number, now = Date.now()): boolean {
  return mtimeMs > now - quietMs;
}

interface Pending {
  type: string;
  last: string | null;
  quietSince: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Holds back file events until each file is quiet, then reports the first event type it saw (an
 * `add` followed by `change`s is reported as one `add`). `inFlight` counts the files still held: a
 * caller that must not act while a write may be about to show up (the watcher applying removals,
 * which could be the first half of a move) waits for it to be 0.
 */
export class WriteSettler {
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(
    private readonly o: {
      quietMs: number;
      /** Absolute path of a watched key. */
      resolve: (key: string) => string;
      /** The file is quiet: report it. Not called for keys held with `report: false`. */
      settled: (type: string, key: string) => void;
      /** The file went away while held (its removal is reported separately). */
      gone?: (key: string) => void;
    },
  ) {}

  get inFlight(): number {
    return this.pending.size;
  }

  /** A write was seen on `key`: (re)start its quiet period. */
  touch(type: string, key: string): void {
    if (this.closed) return;
    const p = this.pending.get(key);
    if (p) {
      if (type === 'add') p.type = 'add';
      p.quietSince = Date.now();
      return;
    }
    const entry: Pending = { type, last: null, quietSince: Date.now(), timer: null };
    this.pending.set(key, entry);
    this.schedule(key, entry);
  }

  /** Stops holding `key` without reporting it (it was removed). */
  drop(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    this.pending.delete(key);
  }

  close(): void {
    this.closed = true;
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    this.pending.clear();
  }

  private schedule(key: string, p: Pending): void {
    p.timer = setTimeout(() => void this.look(key, p), pollIntervalFor(this.o.quietMs));
    p.timer.unref();
  }

  private async look(key: string, p: Pending): Promise<void> {
    p.timer = null;
    let st: fs.Stats | null = null;
    try {
      st = await fs.promises.stat(this.o.resolve(key));
    } catch {
      st = null;
    }
    if (this.closed || this.pending.get(key) !== p) return;
    if (!st) {
      this.pending.delete(key);
      this.o.gone?.(key);
      return;
    }
    const now = Date.now();
    const sig = signature(st);
    if (sig !== p.last) {
      p.last = sig;
      p.quietSince = now;
    }
    if (now - p.quietSince >= this.o.quietMs) {
      this.pending.delete(key);
      this.o.settled(p.type, key);
      return;
    }
    this.schedule(key, p);
  }
}
