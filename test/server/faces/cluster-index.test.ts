/**
 * The indexed face clustering (cluster.ts, cluster-neighbours.ts) against the plain all-pairs reference
 * (cluster-reference.ts): the neighbour lists of the exact scan and of the HNSW index (re-checked exactly), and
 * the groups, with fixed faces, "not this person" rejections, min sizes 2 and 3, and identities large enough
 * that the first lists are cut short. Synthetic 128-d unit vectors (identity centre + noise), deterministic.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterFaces, clusterFacesAllPairs, clusterFacesIndexed, type ClusterFace } from '../../../server/src/features/faces/index.ts';
import { ExactNeighbours, FaceMatrix, HnswNeighbours } from '../../../server/src/features/faces/cluster-neighbours.ts';

const THRESHOLD = 0.4;

/** `n` faces in identities of `perIdentity`, noise `spread` (0.65: same person ≈ 0.7 cosine, like the corpus). */
function synthetic(n: number, perIdentity: number, seed = 7, spread = 0.65): ClusterFace[] {
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: Float32Array) => {
    let s = 0;
    for (const x of v) s += x * x;
    const norm = Math.sqrt(s) || 1;
    return v.map((x) => x / norm);
  };
  const out: ClusterFace[] = [];
  let centre = new Float32Array(128);
  for (let i = 0; i < n; i++) {
    if (i % perIdentity === 0) centre = unit(Float32Array.from({ length: 128 }, gauss));
    const noise = unit(Float32Array.from({ length: 128 }, gauss));
    // Every 7th face a lone stranger (noise), so groups, border faces and noise all occur.
    const v = i % 7 === 3 ? noise : unit(centre.map((x, k) => x + spread * noise[k]!));
    out.push({ id: i + 1, score: Math.round((0.8 + rnd() * 0.2) * 1000) / 1000, embedding: v });
  }
  return out;
}

/** A plain reference list: every other face at cosine ≥ threshold, nearest first (ties: lower row). */
function plainNeighbours(faces: ClusterFace[], i: number): number[] {
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k]!, 0);
  return faces
    .map((f, j) => ({ j, s: dot(faces[i]!.embedding, f.embedding) }))
    .filter(({ j, s }) => j !== i && s >= THRESHOLD)
    .sort((a, b) => b.s - a.s || a.j - b.j)
    .map(({ j }) => j);
}

/** Some faces placed by a member (fixed, person ids 1000+) and some rejecting the group they would join. */
function withCorrections(faces: ClusterFace[]): ClusterFace[] {
  return faces.map((f, i) => (i % 53 === 0 ? { ...f, fixed: 1000 + Math.floor(i / 200) } : i % 41 === 5 ? { ...f, rejects: new Set([1000 + Math.floor(i / 200)]) } : f));
}

const sameGroups = (a: Map<number, number>, b: Map<number, number>) => assert.deepEqual([...a].sort((x, y) => x[0] - y[0]), [...b].sort((x, y) => x[0] - y[0]));

describe('face clustering at scale: neighbour lists and groups vs the all-pairs reference', { timeout: 600_000 }, () => {
  test('the exact scan lists every neighbour within the threshold, nearest first, cut at k with `more`', () => {
    const faces = synthetic(600, 40);
    const m = new FaceMatrix(faces.map((f) => f.embedding));
    const src = new ExactNeighbours(m, THRESHOLD);
    let cut = 0;
    for (let i = 0; i < faces.length; i += 7) {
      const want = plainNeighbours(faces, i);
      const full = src.query(i, faces.length);
      assert.deepEqual([...full.ids], want, `face ${i}`);
      assert.equal(full.more, false);
      const short = src.query(i, 4);
      assert.deepEqual([...short.ids], want.slice(0, 4));
      assert.equal(short.more, want.length > 4);
      if (short.more) cut++;
    }
    assert.ok(cut > 10, `lists were cut short: ${cut}`);
  });

  test('the HNSW lists hold exact similarities, within the threshold, with recall ≥ 0.99 of the exact lists', async () => {
    const faces = synthetic(4000, 50);
    const m = new FaceMatrix(faces.map((f) => f.embedding));
    const exact = new ExactNeighbours(m, THRESHOLD);
    const hnsw = await HnswNeighbours.build(m, THRESHOLD, { threads: 1, pause: async () => {} });
    let found = 0, wanted = 0;
    const rows = Array.from({ length: 200 }, (_, x) => x * 20);
    const lists = hnsw.queryMany(rows, 16);
    rows.forEach((i, x) => {
      const got = lists[x]!;
      for (let y = 0; y < got.ids.length; y++) {
        assert.equal(got.sims[y], Math.fround(m.sim(i, got.ids[y]!)), 're-checked exactly');
        assert.ok(got.sims[y]! >= THRESHOLD);
        if (y) assert.ok(got.sims[y]! <= got.sims[y - 1]!, 'nearest first');
      }
      const want = exact.query(i, 16);
      const have = new Set(got.ids);
      wanted += want.ids.length;
      found += [...want.ids].filter((j) => have.has(j)).length;
    });
    const recall = found / wanted;
    console.log(`HNSW neighbour-list recall vs exact (200 faces of 4000, k 16): ${recall.toFixed(4)} (${found}/${wanted})`);
    assert.ok(wanted > 1000, `the sample has neighbours: ${wanted}`);
    assert.ok(recall >= 0.99, `recall ${recall}`);
  });

  for (const minPoints of [2, 3]) {
    test(`min size ${minPoints}: the list-based clustering gives the all-pairs groups (fixed faces, rejections, identities of 10 and of 300)`, async () => {
      for (const perIdentity of [10, 300]) {
        const faces = withCorrections(synthetic(1500, perIdentity, 11 + perIdentity));
        const want = clusterFacesAllPairs(faces, { minPoints });
        assert.ok(new Set(want.values()).size > 3 && want.size < faces.length, 'groups and noise both occur');
        sameGroups(clusterFaces(faces, { minPoints }), want);
        sameGroups(await clusterFacesIndexed(faces, { minPoints, neighbours: 'exact' }), want);
      }
    });
  }

  test('through the HNSW index the groups equal the all-pairs groups on 4000 faces', async () => {
    const faces = withCorrections(synthetic(4000, 50, 3));
    const want = clusterFacesAllPairs(faces);
    const got = await clusterFacesIndexed(faces, { neighbours: 'hnsw', threads: 1 });
    sameGroups(got, want);
    console.log(`4000 faces: ${new Set(got.values()).size} groups, ${got.size} faces clustered, identical to all pairs`);
  });

  test('the event loop keeps turning while the index clusters', async () => {
    const faces = synthetic(6000, 50, 5);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const groups = await clusterFacesIndexed(faces, { neighbours: 'hnsw', threads: 1 });
      assert.ok(groups.size > 0);
    } finally {
      clearInterval(timer);
    }
    assert.ok(turns >= 5, `timers ran during the clustering: ${turns}`);
  });
});
