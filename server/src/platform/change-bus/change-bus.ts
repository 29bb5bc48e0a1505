/**
 * The change bus: a small typed in-process bus for what happens to catalog rows ("an asset became ready").
 * (Named "change" so that "event" keeps one meaning in Hearth: a photo event, features/photo-events.)
 *
 * Why in the transaction: a change is emitted inside the transaction that writes the change, and its
 * subscribers run there, synchronously. A subscriber whose work must not be lost (stack detection,
 * next the indexers, people, duplicates, photo events) enqueues a job (platform/jobs): the job row commits
 * with the change or not at all, so a crash can never keep the change and lose the follow-up, or the
 * reverse. The jobs do the slow work later, outside the transaction.
 *
 * Rules for subscribers: be quick (a few statements), write only what belongs with the change, and
 * never throw for an ordinary reason: an exception rolls the whole change back, which is right only
 * when the follow-up could not be recorded.
 */
import type { Db } from '../db/connection.ts';

type Subscriber<C> = { name: string; handle: (change: C) => void };

export class ChangeBus<Changes extends Record<keyof Changes, object>> {
  private readonly subscribers = new Map<keyof Changes, Subscriber<never>[]>();

  constructor(private readonly db: Pick<Db, 'inTransaction'>) {}

  /** Adds a subscriber; `name` says who it is in logs and errors. Subscribers run in the order added. */
  on<K extends keyof Changes>(change: K, name: string, handle: (change: Changes[K]) => void): void {
    const list = (this.subscribers.get(change) ?? []) as Subscriber<Changes[K]>[];
    list.push({ name, handle });
    this.subscribers.set(change, list as Subscriber<never>[]);
  }

  /** Runs every subscriber of `change` now. Must be called inside the transaction that wrote the change. */
  emit<K extends keyof Changes>(change: K, payload: Changes[K]): void {
    if (!this.db.inTransaction) throw new Error(`${String(change)} must be emitted inside the transaction that writes the change`);
    for (const s of (this.subscribers.get(change) ?? []) as Subscriber<Changes[K]>[]) {
      try {
        s.handle(payload);
      } catch (e) {
        throw new Error(`the ${s.name} subscriber of ${String(change)} failed: ${(e as Error).message}`, { cause: e });
      }
    }
  }

  /** Who listens to what (for diagnostics and tests). */
  listeners(): Record<string, string[]> {
    return Object.fromEntries([...this.subscribers].map(([k, v]) => [String(k), v.map((s) => s.name)]));
  }
}
