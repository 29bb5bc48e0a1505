/**
 * A small typed in-process event bus for what happens to catalog rows ("an asset became ready").
 *
 * Why in the transaction: an event is emitted inside the transaction that writes the change, and its
 * subscribers run there, synchronously. A subscriber whose work must not be lost (stack detection,
 * next the indexers, people, duplicates, events) enqueues a job (platform/jobs): the job row commits
 * with the change or not at all, so a crash can never keep the change and lose the follow-up, or the
 * reverse. The jobs do the slow work later, outside the transaction.
 *
 * Rules for subscribers: be quick (a few statements), write only what belongs with the change, and
 * never throw for an ordinary reason: an exception rolls the whole change back, which is right only
 * when the follow-up could not be recorded.
 */
import type { Db } from '../db/connection.ts';

type Subscriber<E> = { name: string; handle: (event: E) => void };

export class EventBus<Events extends Record<keyof Events, object>> {
  private readonly subscribers = new Map<keyof Events, Subscriber<never>[]>();

  constructor(private readonly db: Pick<Db, 'inTransaction'>) {}

  /** Adds a subscriber; `name` says who it is in logs and errors. Subscribers run in the order added. */
  on<K extends keyof Events>(event: K, name: string, handle: (event: Events[K]) => void): void {
    const list = (this.subscribers.get(event) ?? []) as Subscriber<Events[K]>[];
    list.push({ name, handle });
    this.subscribers.set(event, list as Subscriber<never>[]);
  }

  /** Runs every subscriber of `event` now. Must be called inside the transaction that wrote the change. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    if (!this.db.inTransaction) throw new Error(`${String(event)} must be emitted inside the transaction that writes the change`);
    for (const s of (this.subscribers.get(event) ?? []) as Subscriber<Events[K]>[]) {
      try {
        s.handle(payload);
      } catch (e) {
        throw new Error(`the ${s.name} subscriber of ${String(event)} failed: ${(e as Error).message}`, { cause: e });
      }
    }
  }

  /** Who listens to what (for diagnostics and tests). */
  listeners(): Record<string, string[]> {
    return Object.fromEntries([...this.subscribers].map(([k, v]) => [String(k), v.map((s) => s.name)]));
  }
}
