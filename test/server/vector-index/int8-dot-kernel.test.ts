/**
 * The WebAssembly SIMD dot kernel of binary-codes.ts (int8-dot-kernel.ts) against a plain JS dot product: seeded
 * random int8 vectors and i16 queries including the extremes (±127 × ±32767 in every lane, the overflow bound),
 * slots listed out of order and repeated, and a batch of zero length that must write nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wasmMemory } from '../../../server/src/platform/wasm.ts';
import { DOT_DIMS, int8Dots, PREFETCH_AHEAD } from '../../../server/src/features/semantic/vector-index/int8-dot-kernel.ts';
import { seededRandom } from '../../shared/seeded-random.ts';

test('the SIMD kernel gives the JS dot product of each listed int8 vector with the i16 query', () => {
  const vectors = 300;
  const QUERY = 0;
  const SLOTS = 1024;
  const OUT = 8192;
  const BASE = 65536;
  const memory = wasmMemory(Math.ceil((BASE + vectors * DOT_DIMS) / 65536));
  const dots = int8Dots(memory);
  const random = seededRandom(7);
  const i8 = new Int8Array(memory.buffer, BASE, vectors * DOT_DIMS);
  for (let s = 0; s < vectors; s++) {
    for (let j = 0; j < DOT_DIMS; j++) {
      // slot 0 all +127, slot 1 all -127 (the largest sums either way), the rest random in [-127, 127]
      i8[s * DOT_DIMS + j] = s === 0 ? 127 : s === 1 ? -127 : Math.floor(random() * 255) - 127;
    }
  }
  const reference = (query: Int16Array, slot: number) => {
    let sum = 0;
    for (let j = 0; j < DOT_DIMS; j++) sum += query[j]! * i8[slot * DOT_DIMS + j]!;
    return sum;
  };
  const queries = [
    Int16Array.from({ length: DOT_DIMS }, () => Math.floor(random() * 65535) - 32767),
    new Int16Array(DOT_DIMS).fill(32767),
    new Int16Array(DOT_DIMS).fill(-32767),
    Int16Array.from({ length: DOT_DIMS }, (_, j) => (j % 2 === 0 ? 1 : -1) * (j + 1)),
  ];
  const listed = [5, 0, 1, 299, 42, 42, 150, ...Array.from({ length: 100 }, () => Math.floor(random() * vectors))];
  for (const [qi, query] of queries.entries()) {
    new Int16Array(memory.buffer, QUERY, DOT_DIMS).set(query);
    // the kernel touches PREFETCH_AHEAD slots past the list: they must be valid slots (here the last one)
    new Int32Array(memory.buffer, SLOTS, listed.length + PREFETCH_AHEAD).set([...listed, ...new Array(PREFETCH_AHEAD).fill(vectors - 1)]);
    const out = new Int32Array(memory.buffer, OUT, listed.length + 1);
    out.fill(-1);
    dots(BASE, SLOTS, listed.length, QUERY, OUT);
    for (const [i, slot] of listed.entries()) assert.equal(out[i], reference(query, slot), `query ${qi}, slot ${slot}`);
    assert.equal(out[listed.length], -1, 'nothing written past the listed slots');
    dots(BASE, SLOTS, 0, QUERY, OUT + listed.length * 4);
    assert.equal(out[listed.length], -1, 'an empty batch writes nothing');
  }
  assert.equal(reference(queries[1]!, 0), 32767 * 127 * DOT_DIMS);
});
