/**
 * The known components kept between incremental passes (face-components.ts): as faces are appended, photo after photo,
 * the components the passes are given are always exactly those a plain scan of every face finds (chains that bridge
 * known components, and pairs a hair either side of the threshold, included); a component once known is not searched
 * again; `searchAhead` searches ahead what a coming face will join, so the pass searches nothing; and a `searchAhead` that
 * ran across a change to the faces keeps nothing of what it found. Through the store: with `warmFor`, the write's
 * pass searches nothing and the people are a rebuild's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FaceMatrix } from '../../../server/src/features/faces/cluster-neighbours.ts';
import { FaceComponents } from '../../../server/src/features/faces/face-components.ts';
import { FACE_MODEL_ID, FacesStore } from '../../../server/src/features/faces/index.ts';
import { faceOwner } from './face-owner.ts';
import { dot64, exactComponents as exactOf } from './exact-components.ts';

const DIMS = 128;
const THRESHOLD = 0.4;

function generator(seed: number) {
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: ArrayLike<number>) => {
    const n = Math.hypot(...Array.from(v));
    return Float32Array.from(v, (x) => x / n);
  };
  const stranger = () => unit(Array.from({ length: DIMS }, gauss));
  /** A face at cosine `a` from `v` (exactly, up to float32 rounding). */
  const at = (v: Float32Array, a: number) => {
    const r = stranger();
    const along = r.reduce((s, x, k) => s + x * v[k]!, 0);
    const u = unit(Array.from(r, (x, k) => x - along * v[k]!));
    return unit(Array.from(v, (x, k) => a * x + Math.sqrt(1 - a * a) * u[k]!));
  };
  return { rnd, stranger, at, unit };
}

/** The definition, scanned plainly. */
const exactComponents = (vectors: Float32Array[], seeds: number[]) => exactOf(vectors, seeds, THRESHOLD);

/**
 * 1,200 faces to start from (strangers, people of 10–40 faces, chains whose links sit within 1e-6 of the threshold),
 * and faces to append later: more of the same people, strangers, and faces that bridge two people.
 */
function library(seed: number) {
  const g = generator(seed);
  const start: Float32Array[] = [];
  const centres: Float32Array[] = [];
  for (let p = 0; p < 30; p++) {
    const c = g.stranger();
    centres.push(c);
    for (let k = 0, n = 10 + Math.floor(g.rnd() * 30); k < n; k++) start.push(g.at(c, 0.75 + 0.2 * g.rnd()));
  }
  for (let c = 0; c < 10; c++) {
    let v = g.stranger();
    for (let k = 0; k < 6; k++) start.push((v = g.at(v, THRESHOLD + (g.rnd() - 0.5) * 2e-6)));
  }
  while (start.length < 1200) start.push(g.stranger());
  // Shuffled, so that people are spread over the rows.
  for (let i = start.length - 1; i > 0; i--) {
    const j = Math.floor(g.rnd() * (i + 1));
    [start[i], start[j]] = [start[j]!, start[i]!];
  }
  const later: Float32Array[] = [];
  const unit = g.unit;
  for (let k = 0; k < 60; k++) {
    const kind = k % 4;
    if (kind === 0) later.push(g.stranger());
    else if (kind === 3) {
      // Halfway between two people: joins their components.
      const [a, b] = [centres[k % 30]!, centres[(k * 7 + 3) % 30]!];
      later.push(unit(Array.from(a, (x, d) => x + b[d]!)));
    } else later.push(g.at(centres[(k * 13) % 30]!, 0.7 + 0.2 * g.rnd()));
  }
  return { start, later, rnd: g.rnd };
}

/** An append-only matrix over one buffer, as the kept copy is (owner-face-vectors.store.ts). */
function growing(capacity: number) {
  const data = new Float32Array(capacity * DIMS);
  const vectors: Float32Array[] = [];
  return {
    vectors,
    push(v: Float32Array) {
      data.set(v, vectors.length * DIMS);
      vectors.push(v);
    },
    matrix: () => FaceMatrix.over(data.subarray(0, vectors.length * DIMS), DIMS),
  };
}

describe('face clustering: the known components', { timeout: 120_000 }, () => {
  test('as faces are appended, the components given are exactly the plain scan’s, and a known one is not searched again', () => {
    const { start, later, rnd } = library(11);
    const lib = growing(start.length + later.length);
    for (const v of start) lib.push(v);
    const c = new FaceComponents(THRESHOLD, lib.vectors.length);
    for (let k = 0; k < later.length; k++) {
      // One face a photo, or a photo of three.
      for (const v of later.slice(k, k % 5 === 0 ? k + 3 : k + 1)) lib.push(v);
      if (k % 5 === 0) k += 2;
      const m = lib.matrix();
      c.extend(m);
      const seeds = [m.size - 1, Math.floor(rnd() * m.size)];
      assert.deepEqual(c.componentsOf(m, seeds), exactComponents(lib.vectors, seeds), `photo ${k}`);
      // One seed's component: searched at most once (several unknown seeds are searched together, and not learnt).
      assert.deepEqual(c.componentsOf(m, [seeds[0]!]), exactComponents(lib.vectors, [seeds[0]!]));
      const searched = c.counts.searched;
      assert.deepEqual(c.componentsOf(m, [seeds[0]!]), exactComponents(lib.vectors, [seeds[0]!]));
      assert.equal(c.counts.searched, searched, `photo ${k}: a component just searched is known`);
    }
    assert.ok(c.known > 20, `components known: ${c.known}`);
    // Every row's component is the plain scan's.
    const m = lib.matrix();
    for (let i = 0; i < m.size; i += 37) assert.deepEqual(c.componentsOf(m, [i]), exactComponents(lib.vectors, [i]), `row ${i}`);
  });

  test('searchAhead searches ahead what a coming face joins: the pass then searches nothing; one across a change keeps nothing', async () => {
    const { start, later } = library(12);
    const lib = growing(start.length + later.length);
    for (const v of start) lib.push(v);
    const c = new FaceComponents(THRESHOLD, lib.vectors.length);
    for (const v of later.slice(0, 20)) {
      await c.searchAhead(lib.matrix(), [v], 5, () => true);
      lib.push(v);
      const m = lib.matrix();
      const searched = c.counts.searched;
      c.extend(m);
      assert.deepEqual(c.componentsOf(m, [m.size - 1]), exactComponents(lib.vectors, [m.size - 1]));
      assert.equal(c.counts.searched, searched, 'nothing searched inside the pass');
    }

    // A searchAhead that yields (a slice of 0 ms) while a face that bridges its component is appended and taken in.
    const bridge = later.find((v, k) => k >= 20 && k % 4 === 3)!;
    const comingTo = lib.vectors.findIndex((v) => dot64(v, bridge) >= THRESHOLD);
    assert.ok(comingTo >= 0);
    const fresh = new FaceComponents(THRESHOLD, lib.vectors.length);
    const running = fresh.searchAhead(lib.matrix(), [bridge], 0, () => true);
    lib.push(bridge);
    fresh.extend(lib.matrix());
    await running;
    const m = lib.matrix();
    assert.deepEqual(fresh.componentsOf(m, [m.size - 1]), exactComponents(lib.vectors, [m.size - 1]));
    assert.deepEqual(fresh.componentsOf(m, [comingTo]), exactComponents(lib.vectors, [comingTo]));
    // And one told it is no longer current stops.
    const stale = new FaceComponents(THRESHOLD, lib.vectors.length);
    await stale.searchAhead(m, [lib.vectors[comingTo]!], 0, () => false);
    assert.equal(stale.known, 0);
  });
});

describe('face clustering: components too large for a write', { timeout: 120_000 }, () => {
  test('a search stops past maxRows faces and marks them large: a pass then gives up at no search, and smaller components stay exact', async () => {
    const { start, later } = library(14);
    const lib = growing(start.length + later.length);
    for (const v of start) lib.push(v);
    const maxRows = 15;
    const c = new FaceComponents(THRESHOLD, lib.vectors.length, maxRows);
    let large = 0;
    for (const [k, v] of later.entries()) {
      const before = c.counts.searched;
      await c.searchAhead(lib.matrix(), [v], 5, () => true);
      const size = lib.vectors.length;
      assert.ok(c.counts.searched - before <= (maxRows + 1) * size, `photo ${k}: a large component is not searched whole`);
      lib.push(v);
      const m = lib.matrix();
      c.extend(m);
      const want = exactComponents(lib.vectors, [m.size - 1]);
      const searched = c.counts.searched;
      assert.deepEqual(c.componentsOf(m, [m.size - 1]), want.length > maxRows ? null : want, `photo ${k}`);
      assert.equal(c.counts.searched, searched, `photo ${k}: nothing searched in the pass`);
      if (want.length > maxRows) large++;
    }
    assert.ok(large >= 10, `faces that joined large components: ${large}`);
    const m = lib.matrix();
    for (let i = 0; i < m.size; i += 37) {
      const want = exactComponents(lib.vectors, [i]);
      assert.deepEqual(c.componentsOf(m, [i]), want.length > maxRows ? null : want, `row ${i}`);
    }
  });
});

describe('face clustering: components made ready before the write', { timeout: 120_000 }, () => {
  const { h, owner, photo, people } = faceOwner('c');
  const face = (embedding: Float32Array, i: number) => ({ box: { x: 0.2 * i, y: 0.1, w: 0.15, h: 0.15 }, landmarks: [] as [number, number][], score: 0.9, embedding });

  test('with warmFor, the write’s pass searches no component, and the people are a rebuild’s', async () => {
    const { start, later } = library(13);
    const store = new FacesStore(h.db);
    assert.ok(store.replace(photo(), { width: 4000, height: 3000, faces: start.map(face) }, FACE_MODEL_ID));
    await store.rebuildOwner(owner); // more faces than one write clusters (INCREMENTAL_CLUSTER_MAX)
    /** Pairs the owner's kept components have searched so far. */
    const searched = () => {
      const { components } = store.vectors.read(owner);
      store.vectors.settle(true);
      return components.counts.searched;
    };
    for (const [k, v] of later.entries()) {
      const asset = photo();
      const faces = k % 6 === 0 ? [v, later[(k + 1) % later.length]!] : [v];
      await store.warmFor(asset, faces);
      const before = searched();
      assert.ok(store.replace(asset, { width: 1000, height: 800, faces: faces.map(face) }, FACE_MODEL_ID));
      assert.equal(searched(), before, `photo ${k}: nothing searched inside the write`);
    }
    assert.ok(searched() > 0, 'warmFor searched them');
    const incremental = people();
    await store.rebuildOwner(owner);
    assert.equal(people(), incremental, 'a rebuild changes nothing');
  });
});
