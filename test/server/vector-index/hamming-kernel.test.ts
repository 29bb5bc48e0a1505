/**
 * The two WebAssembly stages of the Hamming pass (hamming-kernel.ts) against a plain JS popcount, on seeded random
 * codes (every bit pattern class: all zeros, all ones, random):
 * - prefix: the prefix distance for allowed codes, the not-allowed mark for the rest, the histogram;
 * - refine: exactly the codes at or under the limit, in slot order, with their full 512-bit distance, the
 *   histogram of those distances, and the count returned; a limit of 0 and a limit above everything.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hammingKernels,
  NOT_ALLOWED,
  PREFIX_BITS,
  PREFIX_BYTES,
  REST_BYTES,
  RESTS_AHEAD,
  wasmMemory,
} from '../../../server/src/features/semantic/vector-index/hamming-kernel.ts';
import { seededRandom } from '../../shared/seeded-random.ts';

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Hamming distance of two byte runs, 32 bits at a time in plain JS. */
function hamming(a: Uint8Array, b: Uint8Array): number {
  const a32 = new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);
  const b32 = new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  let d = 0;
  for (let w = 0; w < a32.length; w++) d += popcount32(a32[w]! ^ b32[w]!);
  return d;
}

test('stage 1 and 2 give the JS popcount distances, marks and histograms, and stage 2 keeps exactly the codes under its limit', () => {
  const n = 3003; // not a multiple of refine's group of 8: the tail is checked too
  const memory = wasmMemory(16);
  const { prefix, refine } = hammingKernels(memory);
  const QUERY = 0;
  const HIST1 = 64;
  const HIST2 = HIST1 + (PREFIX_BITS + 1) * 4 + 4;
  const ROWIDS = 8192;
  const ALLOWED = ROWIDS + n * 4;
  const OUT = (ALLOWED + n + 8 + 7) & ~7;
  const SLOTS = (OUT + n * 2 + 7) & ~7;
  const DISTS = SLOTS + (n + RESTS_AHEAD) * 4;
  const PREFIXES = (DISTS + n * 2 + 7) & ~7;
  const RESTS = PREFIXES + n * PREFIX_BYTES;
  assert.ok(RESTS + n * REST_BYTES < 16 * 65536);
  const u8 = new Uint8Array(memory.buffer);
  const random = seededRandom(42);
  const byte = (i: number) => (i === 0 ? 0 : i === 1 ? 255 : Math.floor(random() * 256));
  for (let i = 0; i < 64; i++) u8[QUERY + i] = Math.floor(random() * 256);
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < PREFIX_BYTES; b++) u8[PREFIXES + i * PREFIX_BYTES + b] = byte(i);
    for (let b = 0; b < REST_BYTES; b++) u8[RESTS + i * REST_BYTES + b] = byte(i);
  }
  const rowids = new Int32Array(memory.buffer, ROWIDS, n);
  for (let i = 0; i < n; i++) rowids[i] = i + 1;
  rowids[5] = 0; // a freed slot: rowid 0, never allowed
  for (let r = 0; r <= n; r++) u8[ALLOWED + r] = r !== 0 && r % 3 !== 0 ? 1 : 0;

  prefix(PREFIXES, n, QUERY, OUT, ROWIDS, ALLOWED, HIST1);

  const out = new Uint16Array(memory.buffer, OUT, n);
  const hist1 = new Uint32Array(memory.buffer, HIST1, PREFIX_BITS + 1);
  const qPrefix = u8.subarray(QUERY, QUERY + PREFIX_BYTES);
  const qRest = u8.subarray(QUERY + PREFIX_BYTES, QUERY + 64);
  const expectHist1 = new Uint32Array(PREFIX_BITS + 1);
  const full: number[] = [];
  let allowedSeen = 0;
  for (let i = 0; i < n; i++) {
    const dp = hamming(u8.subarray(PREFIXES + i * PREFIX_BYTES, PREFIXES + (i + 1) * PREFIX_BYTES), qPrefix);
    const dr = hamming(u8.subarray(RESTS + i * REST_BYTES, RESTS + (i + 1) * REST_BYTES), qRest);
    const isAllowed = u8[ALLOWED + rowids[i]!] === 1;
    full.push(isAllowed ? dp + dr : -1);
    if (isAllowed) {
      assert.equal(out[i], dp, `code ${i}`);
      expectHist1[dp]!++;
      allowedSeen++;
    } else assert.equal(out[i], NOT_ALLOWED, `code ${i} is not allowed`);
  }
  assert.deepEqual([...hist1], [...expectHist1]);
  assert.ok(allowedSeen > 1500 && allowedSeen < n);
  assert.equal(out[5], NOT_ALLOWED);
  assert.equal(full[0], hamming(new Uint8Array(64), u8.subarray(QUERY, QUERY + 64)), 'the all-zero code');

  // The limits: 0 (few or no random codes that near), the median, everything.
  const sorted = [...out].filter((d) => d !== NOT_ALLOWED).sort((a, b) => a - b);
  for (const limit of [0, sorted[Math.floor(sorted.length / 2)]!, PREFIX_BITS]) {
    const hist2 = new Uint32Array(memory.buffer, HIST2, 513);
    hist2.fill(0);
    const m = refine(RESTS, n, QUERY + PREFIX_BYTES, OUT, limit, SLOTS, DISTS, HIST2);
    const expected = full.map((d, slot) => ({ d, slot })).filter((e) => e.d >= 0 && out[e.slot]! <= limit);
    assert.equal(m, expected.length, `count at limit ${limit}`);
    assert.deepEqual([...new Int32Array(memory.buffer, SLOTS, m)], expected.map((e) => e.slot), `slots at limit ${limit}`);
    assert.deepEqual([...new Uint16Array(memory.buffer, DISTS, m)], expected.map((e) => e.d), `distances at limit ${limit}`);
    const expectHist2 = new Uint32Array(513);
    for (const e of expected) expectHist2[e.d]!++;
    assert.deepEqual([...hist2], [...expectHist2], `histogram at limit ${limit}`);
  }
  assert.equal(refine(RESTS, n, QUERY + PREFIX_BYTES, OUT, PREFIX_BITS, SLOTS, DISTS, HIST2), allowedSeen, 'a limit above everything keeps every allowed code');
});
