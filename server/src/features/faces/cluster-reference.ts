/**
 * The all-pairs form of the clustering (cluster.ts's doc): every core check and every "nearest placed face"
 * scans every face, O(n²) reads of 128-d vectors. Kept as the plain reference the indexed clustering is tested
 * against (test/server/faces/cluster-index.test.ts) and as the baseline `npm run bench:faces` extrapolates.
 */
import type { ClusterFace, ClusterOptions } from './cluster.ts';

export function clusterFacesAllPairs(faces: ClusterFace[], opts: ClusterOptions = {}): Map<number, number> {
  const threshold = opts.threshold ?? 0.4;
  const minPoints = opts.minPoints ?? 2;
  const n = faces.length;
  const dims = n ? faces[0]!.embedding.length : 0;
  const m = new Float32Array(n * dims);
  faces.forEach((f, i) => m.set(f.embedding, i * dims));
  const sim = (i: number, j: number) => {
    let s = 0;
    const a = i * dims, b = j * dims;
    for (let k = 0; k < dims; k++) s += m[a + k]! * m[b + k]!;
    return s;
  };
  const group = new Int32Array(n);
  const placed: number[] = [];
  faces.forEach((f, i) => {
    if (f.fixed != null) {
      group[i] = f.fixed;
      placed.push(i);
    }
  });
  const order = faces.map((_, i) => i).filter((i) => group[i] === 0).sort((a, b) => faces[b]!.score - faces[a]!.score || faces[a]!.id - faces[b]!.id);
  const neighbours = new Int32Array(n);
  const enough = minPoints - 1;
  for (const i of order) {
    let c = 0;
    for (let j = 0; j < n && c < enough; j++) if (j !== i && sim(i, j) >= threshold) c++;
    neighbours[i] = c;
  }
  let next = -1;
  const nearestPlaced = (i: number): number => {
    let best = -1, bestSim = threshold;
    const rejects = faces[i]!.rejects;
    for (const j of placed) {
      const s = sim(i, j);
      if (s >= bestSim && !(rejects?.has(group[j]!))) {
        best = j;
        bestSim = s;
      }
    }
    return best;
  };
  const deferred: number[] = [];
  for (const i of order) {
    if (neighbours[i]! + 1 < minPoints) {
      deferred.push(i);
      continue;
    }
    const j = nearestPlaced(i);
    group[i] = j >= 0 ? group[j]! : next--;
    placed.push(i);
  }
  for (const i of deferred) {
    const j = nearestPlaced(i);
    if (j >= 0) group[i] = group[j]!;
  }
  const out = new Map<number, number>();
  faces.forEach((f, i) => {
    if (group[i] !== 0) out.set(f.id, group[i]!);
  });
  return out;
}
