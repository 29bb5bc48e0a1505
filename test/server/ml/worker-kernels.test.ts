/**
 * The tensor kernels (adapters/ml/tensor-kernels.ts) are written once and reach the inference worker as their
 * source text. That holds only while each stays self-contained: this bundles the worker's program the way the
 * server bundle does (esbuild, minified, and with keepNames, which injects `__name(…)` calls into any inner named
 * function) and runs the kernels taken out of that text against the same functions imported here.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { build } from 'esbuild';
import { ctcGreedySteps, expandPixelPlanes } from '../../../server/src/adapters/ml/tensor-kernels.ts';

const root = path.resolve(import.meta.dirname, '../../..');

async function bundledWorkerSource(): Promise<string> {
  const entry = `import { INFERENCE_WORKER_SOURCE } from './server/src/adapters/ml/inference-worker.ts'; module.exports = INFERENCE_WORKER_SOURCE;`;
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
  });
  const mod = { exports: '' as unknown };
  new Function('module', 'require', out.outputFiles[0]!.text)(mod, () => ({}));
  return mod.exports as string;
}

describe('tensor kernels shared with the inference worker', () => {
  test('the bundled worker program carries kernels that run alone and agree with the server-side ones', async () => {
    const source = await bundledWorkerSource();
    const m = source.match(/const expandPixelPlanes = ([\s\S]*?);\nconst ctcGreedySteps = ([\s\S]*?);\n/);
    assert.ok(m, 'the worker binds both kernels from their source text');
    const workerExpand = new Function(`return (${m[1]})`)() as typeof expandPixelPlanes;
    const workerCtc = new Function(`return (${m[2]})`)() as typeof ctcGreedySteps;

    // Two 3-byte pixels in a 2×2 tensor (BGR → RGB planes, mean/scale per plane, right column and bottom row padding).
    const px = Uint8Array.of(10, 20, 30, 200, 100, 50);
    const pixels = { width: 2, height: 1, order: [2, 1, 0], scale: [0.5, 1, 2], offset: [1, 0, 3] };
    const dims = [1, 3, 2, 2];
    const expected = [14, 24, 0, 0, 20, 100, 0, 0, 17, 397, 0, 0];
    assert.deepEqual(Array.from(workerExpand(px, dims, pixels)), expected);
    assert.deepEqual(Array.from(expandPixelPlanes(px, dims, pixels)), expected);

    // [N=1, T=3, C=3]: the first most likely class wins a tie; class 2 is the space.
    const probs = Float32Array.of(0.1, 0.7, 0.2, 0.4, 0.4, 0.2, 0.1, 0.1, 0.8);
    for (const run of [workerCtc, ctcGreedySteps]) {
      const r = run(probs, [1, 3, 3], 2);
      assert.deepEqual(Array.from(r.best), [1, 0, 2]);
      assert.deepEqual(Array.from(r.bestP), [0.7, 0.4, 0.8].map(Math.fround));
      assert.deepEqual(Array.from(r.spaceP), [0.2, 0.2, 0.8].map(Math.fround));
      assert.deepEqual(Array.from(run(probs, [1, 3, 3], -1).spaceP), [0, 0, 0], 'no space class: 0');
    }
  });
});
