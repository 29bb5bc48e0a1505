/**
 * The copies the incremental people pass makes ahead of a photo's write, so that the write does not make them
 * (issue 25, point 4; at 100,000 faces each held one turn of the event loop for 33–70 ms):
 * - the wasm kernel's copy of the faces follows their lineage (the kept components), not the arrays that hold them:
 *   rows moved to larger arrays are not copied into the kernel again;
 * - `fillKernel` copies a large matrix a slice at a time, and a search after it copies nothing and finds what the
 *   exact scan finds;
 * - through FacesStore: `warmFor` moves nearly full arrays to larger ones ahead, and the write that follows grows
 *   nothing and copies only its own faces into the kernel; a group photo's faces, whose neighbours `warmFor` found,
 *   are compared inside the write only with each other; the people stay a rebuild's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FaceMatrix } from '../../../server/src/features/faces/cluster-neighbours.ts';
import { fillKernel, kernelCounts, neighboursOf } from '../../../server/src/features/faces/component-search.ts';
import { FACE_MODEL_ID, FacesStore } from '../../../server/src/features/faces/index.ts';
import { faceOwner } from './face-owner.ts';
import { dot64 } from './exact-components.ts';

const DIMS = 128;
const THRESHOLD = 0.4;

/** Unit vectors in people of 2–20 faces (cosine 0.5–0.9 to their centre), from a fixed seed. */
function faces(count: number, seed: number): Float32Array[] {
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: number[]) => {
    const n = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / n);
  };
  const out: Float32Array[] = [];
  while (out.length < count) {
    const centre = unit(Array.from({ length: DIMS }, gauss));
    for (let k = 0, n = 2 + Math.floor(rnd() * 19); k < n && out.length < count; k++) {
      const a = 0.5 + 0.4 * rnd();
      const noise = unit(Array.from({ length: DIMS }, gauss));
      out.push(unit(Array.from(centre, (x, d) => a * x + Math.sqrt(1 - a * a) * noise[d]!)));
    }
  }
  return out;
}

/** A matrix over new arrays (room for `capacity` rows) holding `vectors`. */
function matrixOf(vectors: Float32Array[], capacity = vectors.length): FaceMatrix {
  const data = new Float32Array(capacity * DIMS);
  vectors.forEach((v, i) => data.set(v, i * DIMS));
  return FaceMatrix.over(data.subarray(0, vectors.length * DIMS), DIMS);
}

const exactNeighbours = (vectors: Float32Array[], v: Float32Array, upTo: number) =>
  vectors.slice(0, upTo).flatMap((w, j) => (dot64(v, w) >= THRESHOLD ? [j] : []));

describe('face clustering: the kernel’s copy follows the faces’ lineage', { timeout: 120_000 }, () => {
  test('rows moved to larger arrays are not copied into the kernel again; only the appended ones are', () => {
    const all = faces(3000, 1);
    const lineage = {};
    const first = matrixOf(all.slice(0, 2500));
    neighboursOf(first, all[0]!, THRESHOLD, first.size, lineage);
    // The same rows and 500 more, in other arrays, as OwnerFaceVectors moves them when they fill up.
    const moved = matrixOf(all, 4000);
    const before = kernelCounts.copiedRows;
    const probe = all[2999]!;
    assert.deepEqual(neighboursOf(moved, probe, THRESHOLD, moved.size, lineage), exactNeighbours(all, probe, 3000));
    assert.equal(kernelCounts.copiedRows - before, 500, 'only the appended rows are copied');
    // Another lineage over the same arrays: nothing of the first is taken for it.
    const again = kernelCounts.copiedRows;
    neighboursOf(moved, probe, THRESHOLD, moved.size, {});
    assert.equal(kernelCounts.copiedRows - again, 3000);
  });

  test('fillKernel copies a slice at a time; a search after it copies nothing and is exact', () => {
    const all = faces(20_000, 2);
    const m = matrixOf(all);
    const lineage = {};
    const before = kernelCounts.copiedRows;
    let calls = 0;
    // A time already past: each call copies one slice and says whether it is done.
    while (!fillKernel(m, lineage, 0)) calls++;
    calls++;
    assert.ok(calls >= 2, `spread over ${calls} calls`);
    assert.equal(kernelCounts.copiedRows - before, 20_000, 'each row copied once');
    assert.equal(fillKernel(m, lineage, 0), true, 'nothing left to copy');
    const after = kernelCounts.copiedRows;
    for (const probe of [all[5]!, all[12_345]!, all[19_999]!]) assert.deepEqual(neighboursOf(m, probe, THRESHOLD, m.size, lineage), exactNeighbours(all, probe, m.size));
    assert.equal(kernelCounts.copiedRows, after, 'the searches copied nothing');
  });
});

describe('face clustering: arrays grown ahead of the write', { timeout: 300_000 }, () => {
  const { h, owner, photo, people } = faceOwner('g');
  const face = (embedding: Float32Array, i: number) => ({ box: { x: (i % 50) / 50, y: 0.1, w: 0.01, h: 0.01 }, landmarks: [] as [number, number][], score: 0.9, embedding });

  test('warmFor moves nearly full arrays ahead; the write grows nothing and copies only its faces into the kernel', async () => {
    const all = faces(3_900, 3);
    const store = new FacesStore(h.db);
    const write = (embeddings: Float32Array[]) => assert.ok(store.replace(photo(), { width: 4000, height: 3000, faces: embeddings.map(face) }, FACE_MODEL_ID));
    // A first photo read inside its write, then one that fills the arrays made for it to within a few rows.
    write(all.slice(0, 1200));
    await store.warmFor(photo(), []);
    write(all.slice(1200, 3800));
    assert.equal(store.vectors.grown.inWrite, 0);
    await store.rebuildOwner(owner); // photos of more faces than one write clusters (INCREMENTAL_CLUSTER_MAX)

    const coming = all.slice(3800, 3900);
    const asset = photo();
    await store.warmFor(asset, coming);
    assert.equal(store.vectors.grown.ahead, 1, 'moved to larger arrays ahead of the write');
    const copied = kernelCounts.copiedRows;
    assert.ok(store.replace(asset, { width: 4000, height: 3000, faces: coming.map(face) }, FACE_MODEL_ID));
    assert.equal(store.vectors.grown.inWrite, 0, 'the write grew nothing');
    assert.equal(kernelCounts.copiedRows - copied, coming.length, 'the write copied only its own faces into the kernel');
    const { ids } = store.vectors.read(owner);
    store.vectors.settle(true);
    assert.equal(ids.length, 3_900);

    const placed = h.db.prepare('SELECT count(*) FROM faces WHERE asset_id = ? AND person_id IS NOT NULL').pluck().get(asset) as number;
    assert.ok(placed > coming.length / 2, `the write's pass placed ${placed} of its ${coming.length} faces`);
    const incremental = people();
    await store.rebuildOwner(owner);
    assert.equal(people(), incremental, 'a rebuild changes nothing');
  });

  test('a group photo’s faces: their neighbours found ahead are not compared again inside the write', async () => {
    const more = faces(4_200, 3).slice(3_900); // of the same people as the faces already there
    const store = new FacesStore(h.db);
    /** Pairs the owner's kept components have compared in `extend` so far. */
    const extended = () => {
      const { components } = store.vectors.read(owner);
      store.vectors.settle(true);
      return components.counts.extended;
    };
    for (let p = 0; p < 20; p++) {
      const group = more.slice(p * 5, p * 5 + 5);
      const asset = photo();
      await store.warmFor(asset, group);
      const before = extended();
      assert.ok(store.replace(asset, { width: 4000, height: 3000, faces: group.map(face) }, FACE_MODEL_ID));
      // Each face is compared only with the photo's faces before it: 0 + 1 + 2 + 3 + 4 pairs.
      assert.equal(extended() - before, 10, `photo ${p}`);
    }
    const incremental = people();
    await store.rebuildOwner(owner);
    assert.equal(people(), incremental, 'a rebuild changes nothing');
  });
});
