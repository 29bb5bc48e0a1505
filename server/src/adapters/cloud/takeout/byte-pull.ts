/**
 * Pull-style reading of a byte stream: take exactly n bytes, or stream the next n bytes chunk by chunk. The tar
 * reader needs both (512-byte headers, bodies of any size) without ever holding a body in memory.
 */
export class BytePull {
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly it: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.it.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, next.value]) : next.value;
    return true;
  }

  /** Exactly n bytes, or null when the stream ends first (a truncated archive). */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffered.length < n) if (!(await this.more())) return null;
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  /** The next n bytes as they arrive; throws when the stream ends first. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffered.length === 0 && !(await this.more())) throw new Error('archive ends inside an entry');
      const piece = this.buffered.subarray(0, Math.min(left, this.buffered.length));
      this.buffered = this.buffered.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  async skip(n: number): Promise<void> {
    for await (const piece of this.chunks(n)) void piece;
  }
}
