/**
 * One computation per key at a time: callers asking for a key whose value is being computed share
 * that computation (a burst of first requests reads an owner's rows once, not once per request).
 */
export class SingleFlight<K, V> {
  private readonly running = new Map<K, Promise<V>>();

  run(key: K, compute: () => Promise<V>): Promise<V> {
    let p = this.running.get(key);
    if (!p) {
      p = compute().finally(() => this.running.delete(key));
      this.running.set(key, p);
    }
    return p;
  }
}
