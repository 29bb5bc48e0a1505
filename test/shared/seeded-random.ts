/**
 * Seeded pseudo-random numbers (mulberry32) for tests and benchmarks that build data at random but
 * must build the same data every run: the synthetic timeline, the layout tests, bench:query's
 * catalogs (which are cached by generation, so this sequence must not change).
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
