/**
 * Ground truth for the bench: the exact top-k per allowed asset (best frame), computed in JS over the generated
 * vectors (the same floats the catalog holds). One pass of cosines per query serves every filter.
 */
import { DIMS, type ClusteredSet } from './clustered-vectors.ts';

export function cosinesOf(set: ClusteredSet, q: Float32Array): Float32Array {
  const n = set.assetOf.length;
  const out = new Float32Array(n);
  const v = set.vectors;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    const base = i * DIMS;
    for (let j = 0; j < DIMS; j++) dot += q[j]! * v[base + j]!;
    out[i] = dot;
  }
  return out;
}

/** asset rowids (index + 1) of the k best allowed assets */
export function exactTop(set: ClusteredSet, cosines: Float32Array, allowed: Uint8Array, k: number): number[] {
  const best = new Float32Array(set.assets + 1).fill(-Infinity);
  for (let i = 0; i < cosines.length; i++) {
    const r = set.assetOf[i]! + 1;
    if (allowed[r] === 1 && cosines[i]! > best[r]!) best[r] = cosines[i]!;
  }
  const top: number[] = [];
  for (let r = 1; r <= set.assets; r++) {
    if (best[r] === -Infinity) continue;
    if (top.length < k) {
      top.push(r);
      top.sort((a, b) => best[b]! - best[a]!);
    } else if (best[r]! > best[top[k - 1]!]!) {
      top[k - 1] = r;
      top.sort((a, b) => best[b]! - best[a]!);
    }
  }
  return top;
}

export function recall(got: number[], truth: number[]): number {
  const s = new Set(got);
  return truth.length === 0 ? 1 : truth.filter((r) => s.has(r)).length / truth.length;
}
