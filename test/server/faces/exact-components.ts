/**
 * The definition of the incremental pass's components, scanned plainly, for the tests of the faster searches
 * (dot-kernel.test.ts, face-components.test.ts): float64 sums of float32 products, as FaceMatrix.sim sums them.
 */

/** The dot product of two embeddings, summed in float64 in index order. */
export function dot64(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}

/** The rows linked to `seeds` through pairs with a dot ≥ `threshold`, sorted. */
export function exactComponents(vectors: Float32Array[], seeds: number[], threshold: number): number[] {
  const reached = new Set(seeds);
  const queue = [...seeds];
  for (let q = 0; q < queue.length; q++) {
    for (let j = 0; j < vectors.length; j++) {
      if (reached.has(j) || dot64(vectors[queue[q]!]!, vectors[j]!) < threshold) continue;
      reached.add(j);
      queue.push(j);
    }
  }
  return [...reached].sort((a, b) => a - b);
}
