/**
 * A lock per key, in this process: the door's duplicate check and commit of one content (repository, hash) run one
 * at a time, so two sources bringing the same bytes at once end with one stored copy per owner.
 */
/** One holder at a time per key (in this process): `await lock.run(key, fn)`. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
