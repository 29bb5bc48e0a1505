/**
 * The incremental people pass's filter (dot-kernel.ts): the wasm kernel's float32 dots agree with a float64 dot
 * product far inside DOT_FILTER_MARGIN, and componentsOf with the kernel finds exactly the faces a plain exact scan
 * finds, on libraries large enough to use it, with many pairs a hair either side of the threshold.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FaceMatrix } from '../../../server/src/features/faces/cluster-neighbours.ts';
import { componentsOf } from '../../../server/src/features/faces/component-search.ts';
import { DOT_FILTER_MARGIN, f32Dots } from '../../../server/src/features/faces/dot-kernel.ts';
import { WASM_PAGE, wasmMemory } from '../../../server/src/platform/wasm.ts';
import { dot64, exactComponents } from './exact-components.ts';

/** A seeded generator: the same vectors every run. */
function generator(seed: number) {
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: number[]) => {
    const n = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / n);
  };
  return { rnd, gauss, unit };
}

describe('face clustering: the dot-product kernel', () => {
  test('its float32 dots are those of a float64 dot product, far inside the filter margin (4, 128 and 512 dims)', () => {
    const { gauss, unit } = generator(11);
    for (const dims of [4, 128, 512]) {
      const n = 300;
      const vectors = Array.from({ length: n }, () => unit(Array.from({ length: dims }, gauss)));
      const memory = wasmMemory(Math.ceil((n * dims * 4 + dims * 4 + n * 8) / WASM_PAGE));
      const dots = f32Dots(memory);
      const data = new Float32Array(memory.buffer, 0, n * dims);
      vectors.forEach((v, i) => data.set(v, i * dims));
      const queryAt = n * dims * 4;
      const slotsAt = queryAt + dims * 4;
      const outAt = slotsAt + n * 4;
      // Every other row, backwards: the slot list is followed, not the rows' order.
      const rows = Array.from({ length: n / 2 }, (_, x) => n - 1 - 2 * x);
      new Int32Array(memory.buffer, slotsAt, rows.length).set(rows);
      new Float32Array(memory.buffer, queryAt, dims).set(vectors[7]!);
      dots(0, slotsAt, rows.length, queryAt, outAt, dims / 4);
      const out = new Float32Array(memory.buffer, outAt, rows.length);
      let worst = 0;
      rows.forEach((r, x) => (worst = Math.max(worst, Math.abs(out[x]! - dot64(vectors[7]!, vectors[r]!)))));
      assert.ok(worst < 1e-5, `${dims} dims: largest difference ${worst}`);
      assert.ok(worst < DOT_FILTER_MARGIN / 100);
    }
  });

  test('componentsOf with the kernel finds what the exact scan finds, pairs a hair either side of the threshold included', () => {
    const { rnd, gauss, unit } = generator(5);
    const dims = 128;
    const threshold = 0.4;
    const vectors: Float32Array[] = [];
    // 3,000 strangers, and 40 chains of faces whose neighbours sit within 1e-6 of the threshold, either side.
    for (let i = 0; i < 3000; i++) vectors.push(unit(Array.from({ length: dims }, gauss)));
    for (let c = 0; c < 40; c++) {
      let v = unit(Array.from({ length: dims }, gauss));
      vectors.push(v);
      for (let k = 0; k < 6; k++) {
        // w = a·v + b·u with u ⟂ v: cos(v, w) = a, set to the threshold ± up to 1e-6.
        const r = unit(Array.from({ length: dims }, gauss));
        const along = dot64(r, v);
        const u = unit(Array.from(r, (x, d) => x - along * v[d]!));
        const a = threshold + (rnd() - 0.5) * 2e-6;
        const w = unit(Array.from(v, (x, d) => a * x + Math.sqrt(1 - a * a) * u[d]!));
        vectors.push(w);
        v = w;
      }
    }
    const m = new FaceMatrix(vectors);
    let linked = 0;
    for (let c = 0; c < 40; c++) {
      const seed = 3000 + c * 7 + (c % 7);
      const found = componentsOf(m, [seed], threshold);
      assert.deepEqual(found, exactComponents(vectors, [seed], threshold), `chain ${c}`);
      if (found!.length > 1) linked++;
    }
    assert.ok(linked >= 10, `some chains hold together across the threshold: ${linked}`);
    // Several seeds at once, and the budget still refuses a search too large.
    const seeds = [3000, 3007, 12, 3140];
    assert.deepEqual(componentsOf(m, seeds, threshold), exactComponents(vectors, seeds, threshold));
    assert.equal(componentsOf(m, [3000], threshold, 100), null);
  });
});
