/**
 * The in-memory passes of the vector index (binary-codes.ts) on their own, against cosines computed here in JS,
 * on a seeded clustered set of 30k vectors held in memory (no SQLite: the exact re-rank is vector-index.test.ts's):
 * - a broad filter goes through the Hamming scan with a pool far smaller than the library, and still hands the
 *   int8 pass the true nearest;
 * - a selective filter is listed from its assets and scored whole: nothing of the true top is lost;
 * - a bitmap at any byte offset (the 4-byte walk and the byte walk) gives the same answer;
 * - only allowed, live assets come back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BinaryCodes } from '../../../server/src/features/semantic/vector-index/binary-codes.ts';
import { SCORE_ALL_UP_TO } from '../../../server/src/features/semantic/vector-index/chooser.ts';
import { clusteredQueries, clusteredSet, DIMS } from '../../../scripts/bench/search/clustered-vectors.ts';
import { everything, seededShare } from './catalog.ts';

const set = clusteredSet({ vectors: 30_000, seed: 3 });

function codesOf(): BinaryCodes {
  const centre = new Float32Array(DIMS);
  for (let i = 0; i < 1024; i++) for (let j = 0; j < DIMS; j++) centre[j]! += set.vectors[i * DIMS + j]! / 1024;
  const codes = new BinaryCodes(centre);
  for (let i = 0; i < set.assetOf.length; i++) codes.add(set.assetOf[i]! + 1, set.vectors.subarray(i * DIMS, (i + 1) * DIMS));
  return codes;
}

/** The exact top-k allowed assets (best frame each) by cosine, in JS. */
function exactTop(q: Float32Array, allowed: Uint8Array, k: number, skip = new Set<number>()): number[] {
  const best = new Map<number, number>();
  for (let i = 0; i < set.assetOf.length; i++) {
    const r = set.assetOf[i]! + 1;
    if (allowed[r] !== 1 || skip.has(r)) continue;
    let dot = 0;
    for (let j = 0; j < DIMS; j++) dot += q[j]! * set.vectors[i * DIMS + j]!;
    if (dot > (best.get(r) ?? -2)) best.set(r, dot);
  }
  return [...best.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k).map((e) => e[0]);
}

function contiguous(from: number, count: number): Uint8Array {
  const a = new Uint8Array(set.assets + 1);
  a.fill(1, from, from + count);
  return a;
}

const codes = codesOf();
const queries = clusteredQueries(set, 16, 4);

test('a broad filter: the Hamming scan prunes to a small pool and still keeps the true nearest', () => {
  for (const allowed of [everything(set), seededShare(set, 0.7)]) {
    let allowedVectors = -1;
    let found = 0;
    for (const q of queries) {
      // 400 codes to the int8 pass: about a seventieth of the library.
      const got = codes.candidates(q, allowed, () => 400, 40);
      allowedVectors = got.allowedVectors;
      assert.equal(new Set(got.rowids).size, got.rowids.length);
      for (const r of got.rowids) assert.equal(allowed[r], 1, `rowid ${r} is not allowed`);
      const truth = exactTop(q, allowed, 10);
      found += truth.filter((r) => got.rowids.includes(r)).length / truth.length;
    }
    assert.ok(allowedVectors > SCORE_ALL_UP_TO, 'the filter is broad enough for the scan');
    assert.ok(found / queries.length >= 0.9, `recall@10 in the 40 candidates: ${(found / queries.length).toFixed(3)}`);
  }
});

test('a selective filter is scored whole: the true top 20 are all among the candidates', () => {
  const allowed = contiguous(5_000, 600);
  for (const q of queries) {
    const got = codes.candidates(q, allowed, () => 1, 40);
    assert.ok(got.allowedVectors <= SCORE_ALL_UP_TO && got.allowedVectors >= 600, `${got.allowedVectors} vectors listed`);
    for (const r of got.rowids) assert.equal(allowed[r], 1);
    const truth = exactTop(q, allowed, 20);
    for (const r of truth) assert.ok(got.rowids.includes(r), `rowid ${r} of the true top 20 is missing`);
  }
});

test('a bitmap at an odd byte offset or of odd length answers as its aligned copy; rowids past its end are not allowed', () => {
  for (const make of [() => contiguous(8_000, 300), () => seededShare(set, 0.5)]) {
    const aligned = make();
    const backing = new Uint8Array(aligned.length + 3);
    backing.set(aligned, 1);
    const odd = backing.subarray(1, 1 + aligned.length);
    assert.equal(odd.byteOffset % 4, 1);
    for (const q of queries.slice(0, 4)) {
      assert.deepEqual(codes.candidates(q, odd, () => 400, 40), codes.candidates(q, aligned, () => 400, 40));
      const short = aligned.subarray(0, 8_150);
      for (const r of codes.candidates(q, short, () => 400, 40).rowids) assert.ok(r < 8_150);
    }
  }
});

test('a removed asset never comes back, from either path', () => {
  const c = codesOf();
  for (const allowed of [everything(set), contiguous(2_000, 500)]) {
    const q = queries[0]!;
    const first = c.candidates(q, allowed, () => 400, 5).rowids[0]!;
    c.remove(first);
    const after = c.candidates(q, allowed, () => 400, 40).rowids;
    assert.ok(!after.includes(first));
    assert.ok(after.slice(0, 5).includes(exactTop(q, allowed, 1, new Set([first]))[0]!), 'the next nearest takes its place');
  }
});
