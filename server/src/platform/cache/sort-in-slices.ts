/**
 * Sorting inside sliced work (a generator that yields where its caller may give the event loop a turn): see
 * features/faces/cluster.ts and features/photo-events/segmentation.ts.
 */

/**
 * `items` sorted by `cmp` (a stable merge sort), yielding whenever `slice` says a slice is over: sorting 100k
 * rows with a comparator in one go holds the event loop for about a tenth of a second on a loaded machine.
 * Runs of 1024 are sorted by Array.prototype.sort, then merged pairwise, a bounded number of steps at a time.
 */
export function* sortInSlices<T>(items: T[], cmp: (a: T, b: T) => number, slice: () => Generator<void, void>): Generator<void, T[]> {
  const RUN = 1024;
  let src = items.slice();
  for (let s = 0; s < src.length; s += RUN) {
    const run = src.slice(s, s + RUN).sort(cmp);
    for (let k = 0; k < run.length; k++) src[s + k] = run[k]!;
    yield* slice();
  }
  let dst = new Array<T>(src.length);
  for (let width = RUN; width < src.length; width *= 2) {
    for (let lo = 0; lo < src.length; lo += 2 * width) {
      const mid = Math.min(lo + width, src.length), hi = Math.min(lo + 2 * width, src.length);
      let a = lo, b = mid, o = lo;
      while (a < mid && b < hi) {
        // Ties take the left run's item first: stable, as Array.prototype.sort is.
        dst[o++] = cmp(src[b]!, src[a]!) < 0 ? src[b++]! : src[a++]!;
        if ((o & 1023) === 0) yield* slice();
      }
      while (a < mid) dst[o++] = src[a++]!;
      while (b < hi) dst[o++] = src[b++]!;
      yield* slice();
    }
    [src, dst] = [dst, src];
  }
  return src;
}
