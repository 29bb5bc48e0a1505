/**
 * The WebAssembly scan of binary-codes.ts against a plain JS popcount: distances, the not-allowed mark, the
 * histogram, on seeded random codes (every bit pattern class: all zeros, all ones, random).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hammingScan } from '../../../server/src/features/semantic/vector-index/hamming-kernel.ts';
import { wasmMemory } from '../../../server/src/platform/wasm.ts';
import { seededRandom } from '../../shared/seeded-random.ts';

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

test('the scan gives the JS popcount distance for allowed codes, 0xFFFF for the rest, and counts them', () => {
  const n = 3000;
  const memory = wasmMemory(8);
  const scan = hammingScan(memory);
  const QUERY = 0;
  const HIST = 64;
  const ROWIDS = 4096;
  const ALLOWED = ROWIDS + n * 4;
  const OUT = ALLOWED + n + 8;
  const CODES = OUT + n * 2 + 8 - ((OUT + n * 2) % 8);
  const u8 = new Uint8Array(memory.buffer);
  const random = seededRandom(42);
  for (let i = 0; i < 64; i++) u8[QUERY + i] = Math.floor(random() * 256);
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < 64; b++) u8[CODES + i * 64 + b] = i === 0 ? 0 : i === 1 ? 255 : Math.floor(random() * 256);
  }
  const rowids = new Int32Array(memory.buffer, ROWIDS, n);
  for (let i = 0; i < n; i++) rowids[i] = i + 1;
  rowids[5] = 0; // a freed slot: rowid 0, never allowed
  for (let r = 0; r <= n; r++) u8[ALLOWED + r] = r !== 0 && r % 3 !== 0 ? 1 : 0;

  scan(CODES, n, QUERY, OUT, ROWIDS, ALLOWED, HIST);

  const out = new Uint16Array(memory.buffer, OUT, n);
  const hist = new Uint32Array(memory.buffer, HIST, 513);
  const q32 = new Uint32Array(memory.buffer, QUERY, 16);
  const expectHist = new Uint32Array(513);
  let allowedSeen = 0;
  for (let i = 0; i < n; i++) {
    const c32 = new Uint32Array(memory.buffer, CODES + i * 64, 16);
    let d = 0;
    for (let w = 0; w < 16; w++) d += popcount32(c32[w]! ^ q32[w]!);
    const isAllowed = u8[ALLOWED + rowids[i]!] === 1;
    if (isAllowed) {
      assert.equal(out[i], d, `code ${i}`);
      expectHist[d]!++;
      allowedSeen++;
    } else assert.equal(out[i], 0xffff, `code ${i} is not allowed`);
  }
  assert.deepEqual([...hist], [...expectHist]);
  assert.ok(allowedSeen > 1500 && allowedSeen < n);
  assert.equal(out[5], 0xffff);
});
