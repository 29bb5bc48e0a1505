/**
 * The vector index (server/src/features/semantic/vector-index) on a real catalog file made by the app's
 * migrations, holding a seeded clustered set of CLIP-like vectors (scripts/bench/search/clustered-vectors.ts):
 * agreement with the exact scan, the `allowed` bitmap, videos' best frame, following the store's changes, a
 * rebuild after reopening, the cosine floor. Changes are written with SQL and handed to `apply` as the semantic
 * store's events would be.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VectorIndex, type VectorHit } from '../../../server/src/features/semantic/vector-index/index.ts';
import { clusteredQueries } from '../../../scripts/bench/search/clustered-vectors.ts';
import { insertAssets } from '../../../scripts/bench/search/vector-catalog.ts';
import { assetIdOf, bitmap, blob, everything, MODEL, near, seededShare, vectorCatalog, vectorOf, type VectorCatalog } from './catalog.ts';

const rowids = (hits: VectorHit[]) => hits.map((h) => h.rowid);

function recallAt(got: VectorHit[], truth: VectorHit[]): number {
  const set = new Set(rowids(got));
  return truth.filter((h) => set.has(h.rowid)).length / truth.length;
}

describe('vector index: agreement with the exact scan at 20k vectors', () => {
  let cat: VectorCatalog;
  let index: VectorIndex;
  before(async () => {
    cat = vectorCatalog(20_000);
    index = await VectorIndex.open(cat.db, MODEL);
  });
  after(() => {
    index.close();
    cat.cleanup();
  });

  test('holds every vector and asset of the model', () => {
    const s = index.stats();
    assert.equal(s.vectors, 20_000);
    assert.equal(s.assets, cat.set.assets);
    assert.ok(s.bytes > 20_000 * 512, 'int8 copies and codes are counted');
    assert.equal(typeof s.kind, 'string');
  });

  for (const [name, make] of [
    ['every asset allowed', (c: VectorCatalog) => everything(c.set)],
    ['30% of assets allowed', (c: VectorCatalog) => seededShare(c.set, 0.3)],
    ['1% of assets allowed', (c: VectorCatalog) => seededShare(c.set, 0.01)],
  ] as const) {
    test(`recall@20 ≥ 0.95 against exactNearest, ${name}; the answer's shape is the exact one's`, () => {
      const allowed = make(cat);
      const queries = clusteredQueries(cat.set, 24);
      let recall = 0;
      for (const q of queries) {
        const exact = index.exactNearest(q, { k: 20, allowed });
        const got = index.nearest(q, { k: 20, allowed });
        assert.equal(exact.length, 20);
        assert.equal(got.length, 20);
        recall += recallAt(got, exact);
        // Best first, one hit per asset, only allowed assets; a hit's cosine is the exact one.
        for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.cosine >= got[i]!.cosine);
        assert.equal(new Set(rowids(got)).size, got.length);
        for (const h of got) assert.equal(allowed[h.rowid], 1);
        const exactByRowid = new Map(exact.map((h) => [h.rowid, h]));
        for (const h of got) {
          const e = exactByRowid.get(h.rowid);
          if (e) {
            assert.ok(Math.abs(e.cosine - h.cosine) < 1e-6);
            assert.equal(e.frameTsMs, h.frameTsMs);
          }
        }
      }
      recall /= queries.length;
      assert.ok(recall >= 0.95, `recall@20 ${recall.toFixed(3)}`);
    });
  }

  test('exactNearest agrees with a cosine computed here in JS', () => {
    const allowed = seededShare(cat.set, 0.3);
    const [q] = clusteredQueries(cat.set, 1, 7);
    const { set } = cat;
    const best = new Map<number, number>();
    for (let i = 0; i < set.assetOf.length; i++) {
      const r = set.assetOf[i]! + 1;
      if (allowed[r] !== 1) continue;
      let dot = 0;
      for (let j = 0; j < 512; j++) dot += q![j]! * set.vectors[i * 512 + j]!;
      best.set(r, Math.max(best.get(r) ?? -2, dot));
    }
    const truth = [...best.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
    const exact = index.exactNearest(q!, { k: 10, allowed });
    assert.deepEqual(rowids(exact), truth.map((t) => t[0]));
    exact.forEach((h, i) => assert.ok(Math.abs(h.cosine - truth[i]![1]) < 1e-5));
  });
});

describe('vector index: ownership, videos, changes, reopening, floor', () => {
  let cat: VectorCatalog;
  let index: VectorIndex;
  const ins = () =>
    cat.db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, ?, ?, 0)');
  before(async () => {
    cat = vectorCatalog(3_000, 21);
    index = await VectorIndex.open(cat.db, MODEL);
  });
  after(() => {
    index.close();
    cat.cleanup();
  });

  /** New assets (owner 1 or a second member) after the set's, with the given frames each. */
  function addAssets(ownerId: number, frames: { ts: number; v: Float32Array }[][]): number[] {
    const first = (cat.db.prepare('SELECT max(rowid) AS m FROM assets').get() as { m: number }).m + 1;
    const repo = (cat.db.prepare('SELECT repository_id FROM repositories LIMIT 1').get() as { repository_id: string }).repository_id;
    insertAssets(cat.db, ownerId, repo, first, frames.length);
    const out: number[] = [];
    frames.forEach((fs, i) => {
      const rowid = first + i;
      for (const f of fs) ins().run(assetIdOf(rowid - 1), MODEL, f.ts, blob(f.v));
      index.apply({ kind: 'replace', assetId: assetIdOf(rowid - 1), assetRowid: rowid, modelId: MODEL, frames: fs.map((f) => ({ frameTsMs: f.ts, vector: f.v })) });
      out.push(rowid);
    });
    return out;
  }

  function otherMember(): number {
    const now = Date.now();
    return Number(
      cat.db
        .prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', ?, ?)")
        .run(`other${now}${Math.random()}`, 'Other', now, now).lastInsertRowid,
    );
  }

  function ownedBy(ownerId: number): Uint8Array {
    const rows = cat.db.prepare('SELECT rowid FROM assets WHERE owner_id = ?').pluck().all(ownerId) as number[];
    return bitmap(Math.max(...rows), rows);
  }

  test("another owner's vectors never come back, even when they are the nearest", () => {
    const q = near(vectorOf(cat.set, 100), 0.3, 99);
    const other = otherMember();
    const theirs = addAssets(other, [0, 1, 2, 3, 4].map((i) => [{ ts: -1, v: near(q, 0.02 * (i + 1), 900 + i) }]));
    const everyone = bitmap(theirs.at(-1)!, Array.from({ length: theirs.at(-1)! }, (_, i) => i + 1));
    // With everyone allowed, their near-copies of the query are the nearest…
    assert.deepEqual(rowids(index.nearest(q, { k: 5, allowed: everyone })).sort(), [...theirs].sort());
    // …and with only owner 1 allowed, none of them comes back, from either method.
    const mine = ownedBy(1);
    for (const hits of [index.nearest(q, { k: 50, allowed: mine }), index.exactNearest(q, { k: 50, allowed: mine })]) {
      assert.equal(hits.length, 50);
      for (const h of hits) assert.ok(!theirs.includes(h.rowid), `rowid ${h.rowid} belongs to the other member`);
    }
    // A bitmap shorter than the rowids (an asset newer than the list) does not allow what it does not cover.
    const short = mine.subarray(0, theirs[0]!);
    for (const h of index.nearest(q, { k: 50, allowed: short })) assert.ok(h.rowid < theirs[0]!);
  });

  test('a video is one hit, at its best frame, and its best frame decides its rank', () => {
    const q = vectorOf(cat.set, 200);
    const frames = [500, 2500, 4500, 6500].map((ts, i) => ({ ts, v: near(q, i === 2 ? 0.01 : 0.6, 700 + i) }));
    const [video] = addAssets(1, [frames]);
    const mine = ownedBy(1);
    for (const hits of [index.nearest(q, { k: 10, allowed: mine }), index.exactNearest(q, { k: 10, allowed: mine })]) {
      assert.equal(hits.filter((h) => h.rowid === video).length, 1);
      assert.equal(hits[0]!.rowid === video || hits[1]!.rowid === video, true, 'the near frame ranks the video at the top');
      assert.equal(hits.find((h) => h.rowid === video)!.frameTsMs, 4500);
      assert.equal(new Set(rowids(hits)).size, hits.length);
    }
    // The video's frames are all held, the asset once.
    const before = index.stats();
    assert.ok(before.vectors >= 3_000 + 4);
  });

  test('apply follows replace, remove and (last) reset; a row deleted without an event never answers', () => {
    const q = near(vectorOf(cat.set, 300), 0.05, 1);
    const mine = () => ownedBy(1);
    const [fresh] = addAssets(1, [[{ ts: -1, v: near(q, 0.01, 2) }]]);
    assert.equal(index.nearest(q, { k: 1, allowed: mine() })[0]!.rowid, fresh);
    const countBefore = index.stats();

    // replace: the asset re-embedded far from the query (rows replaced in one transaction, then the event)
    const far = near(vectorOf(cat.set, 2_000), 0.01, 3);
    cat.db.transaction(() => {
      cat.db.prepare('DELETE FROM semantic_vectors WHERE asset_id = ?').run(assetIdOf(fresh! - 1));
      ins().run(assetIdOf(fresh! - 1), MODEL, -1, blob(far));
    })();
    index.apply({ kind: 'replace', assetId: assetIdOf(fresh! - 1), assetRowid: fresh!, modelId: MODEL, frames: [{ frameTsMs: -1, vector: far }] });
    assert.ok(!rowids(index.nearest(q, { k: 5, allowed: mine() })).includes(fresh!));
    assert.equal(index.nearest(far, { k: 1, allowed: mine() })[0]!.rowid, fresh);
    assert.deepEqual(index.stats().vectors, countBefore.vectors);

    // another model's replace is not ours
    index.apply({ kind: 'replace', assetId: 'x', assetRowid: fresh!, modelId: 'another-model', frames: [{ frameTsMs: -1, vector: q }] });
    assert.deepEqual(index.stats().vectors, countBefore.vectors);

    // remove: the asset deleted for good (its rows cascade away), then the event
    cat.db.prepare('DELETE FROM assets WHERE rowid = ?').run(fresh);
    index.apply({ kind: 'remove', assetId: assetIdOf(fresh! - 1), assetRowid: fresh! });
    assert.ok(!rowids(index.nearest(far, { k: 20, allowed: mine() })).includes(fresh!));
    assert.equal(index.stats().vectors, countBefore.vectors - 1);
    assert.equal(index.stats().assets, countBefore.assets - 1);

    // a row gone without an event (a cascade nobody reported): the index still holds it, but never returns it
    const victim = index.nearest(q, { k: 1, allowed: mine() })[0]!.rowid;
    cat.db.prepare('DELETE FROM assets WHERE rowid = ?').run(victim);
    assert.ok(!rowids(index.nearest(q, { k: 20, allowed: mine() })).includes(victim));
    index.apply({ kind: 'remove', assetId: assetIdOf(victim - 1), assetRowid: victim });
  });

  test('reopening rebuilds the same index from SQLite: same counts, same answers', async () => {
    const queries = clusteredQueries(cat.set, 12, 5);
    const mine = ownedBy(1);
    const answers = queries.map((q) => index.nearest(q, { k: 20, allowed: mine }));
    const stats = index.stats();
    index.close();
    assert.throws(() => index.nearest(queries[0]!, { k: 1, allowed: mine }), /closed/);
    cat.reopen();
    index = await VectorIndex.open(cat.db, MODEL);
    assert.equal(index.stats().vectors, stats.vectors);
    assert.equal(index.stats().assets, stats.assets);
    queries.forEach((q, i) => assert.deepEqual(index.nearest(q, { k: 20, allowed: mine }), answers[i]));
  });

  test('minCosine: nothing below the floor, and a floor above the best gives nothing', () => {
    const allowed = ownedBy(1);
    const [textLike] = clusteredQueries(cat.set, 1, 11);
    const all = index.nearest(textLike!, { k: 30, allowed });
    const floor = all[9]!.cosine;
    const floored = index.nearest(textLike!, { k: 30, allowed, minCosine: floor });
    assert.ok(floored.length >= 10 && floored.length < 30);
    for (const h of floored) assert.ok(h.cosine >= floor);
    assert.deepEqual(floored, all.filter((h) => h.cosine >= floor));
    assert.deepEqual(index.exactNearest(textLike!, { k: 30, allowed, minCosine: floor }), floored);
    assert.deepEqual(index.nearest(textLike!, { k: 30, allowed, minCosine: all[0]!.cosine + 1e-3 }), []);
  });

  test('bad calls are refused with a clear error, k = 0 and an empty bitmap answer nothing', () => {
    const allowed = ownedBy(1);
    const q = vectorOf(cat.set, 1);
    assert.throws(() => index.nearest(new Float32Array(511), { k: 5, allowed }), RangeError);
    assert.throws(() => index.nearest(q, { k: -1, allowed }), RangeError);
    assert.throws(() => index.nearest(q, { k: 5 } as never), TypeError);
    assert.deepEqual(index.nearest(q, { k: 0, allowed }), []);
    assert.deepEqual(index.nearest(q, { k: 5, allowed: new Uint8Array(0) }), []);
  });

  test('reset empties the index; new vectors after it are found again', () => {
    cat.db.prepare('DELETE FROM semantic_vectors').run();
    index.apply({ kind: 'reset' });
    assert.equal(index.stats().vectors, 0);
    assert.equal(index.stats().assets, 0);
    const q = vectorOf(cat.set, 5);
    const everyone = bitmap(10_000, Array.from({ length: 9_999 }, (_, i) => i + 1));
    assert.deepEqual(index.nearest(q, { k: 5, allowed: everyone }), []);
    const [again] = addAssets(1, [[{ ts: -1, v: q }]]);
    assert.deepEqual(rowids(index.nearest(q, { k: 5, allowed: bitmap(again!, [again!]) })), [again]);
  });
});
