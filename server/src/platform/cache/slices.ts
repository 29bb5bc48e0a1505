/**
 * Long computations in slices, so that no request waits behind one for long: `inSlices` calls a
 * step with a batch size, yields to the event loop between steps (setImmediate: pending I/O and
 * requests run first), and sizes the batches so that each step takes about `budgetMs`.
 *
 * Why not one statement: better-sqlite3 is synchronous, and reading a million rows at once holds
 * the event loop for seconds. Callers read by key ranges in separate statements; a value read that
 * way spans several snapshots, so they note the change-journal position before the first slice
 * and bring the result up to date from there afterwards (rows changed meanwhile are read again).
 */

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SliceOptions {
  /** The first batch size. */
  first?: number;
  /** The time one step should take (ms); batches grow or shrink towards it. */
  budgetMs?: number;
  /** Awaited before each step with its batch size (e.g. to make room for it a turn at a time). */
  before?: (size: number) => Promise<void>;
}

/** Runs `step(size)` until it returns false, yielding between steps. */
export async function inSlices(step: (size: number) => boolean, opts: SliceOptions = {}): Promise<void> {
  const budget = opts.budgetMs ?? 15;
  let size = opts.first ?? 4096;
  for (;;) {
    if (opts.before) await opts.before(size);
    const started = performance.now();
    const more = step(size);
    const ms = performance.now() - started;
    if (!more) return;
    if (ms < budget / 2) size = Math.min(size * 2, 1 << 20);
    else if (ms > budget) size = Math.max(256, Math.floor((size * budget) / ms));
    await nextTurn();
  }
}

/**
 * Turns of the event loop inside long synchronous passes: `if (pace.due()) await pace.turn()` once per item,
 * or `await pace.drive(generator)` for work written as a generator that yields where a turn may be given
 * (e.g. features/photo-events/reconcile.ts, features/faces/faces.store.ts planGroups). One slice runs at most about
 * `sliceMs` between two turns (its last item finishes first).
 */
export class Pace {
  private start = performance.now();

  constructor(private readonly sliceMs: number) {}

  /** Whether the current slice has run its time. */
  due(): boolean {
    return performance.now() - this.start >= this.sliceMs;
  }

  /** A turn of the event loop (pending I/O and requests first); the next slice starts after it. */
  async turn(): Promise<void> {
    await nextTurn();
    this.start = performance.now();
  }

  /** Runs a generator to its end, giving the event loop a turn at a yield whenever the slice is over. */
  async drive<T>(steps: Generator<void, T>): Promise<T> {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (this.due()) await this.turn();
    }
  }
}
