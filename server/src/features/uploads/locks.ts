/**
 * In-process concurrency helper of the uploads: a counting semaphore (sessions finished at once). (The lock per
 * content hash of the duplicate check and the commit is the door's: features/intake/keyed-lock.ts.)
 */

/** At most `size` holders at once; the rest wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
