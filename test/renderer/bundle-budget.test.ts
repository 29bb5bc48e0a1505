/**
 * The web UI's weight (issue 12 point 6): a real production build (vite, into a temporary folder)
 * whose first screens' scripts are summed from its manifest and gzipped (scripts/bench/bundle-figures.ts).
 *
 * - Both first screens, sign-in and Photos for a signed-in person, are held to the budget:
 *   100 kB gzipped. That takes Preact's implementation of React's API (renderer/vite.config.ts): with
 *   React 19's react-dom (~63 kB gzipped alone) Photos measured 126.3 kB.
 * - React's own runtime is not in the build: a forgotten alias would bring react-dom back without
 *   failing anything else.
 * - Route splitting itself: the heavy parts (map with its world outline, administration, upload
 *   queue, the viewer) are not in any first screen.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Manifest } from 'vite';
import { buildWithManifest, figuresOf, FIRST_SCREEN_BUDGET_GZIP, FIRST_SCREENS, type BundleFigures } from '../../scripts/bench/bundle-figures.ts';

let outDir = '';
let manifest: Manifest;
let figures: BundleFigures;

before(async () => {
  ({ outDir, manifest } = await buildWithManifest());
  figures = figuresOf(outDir, manifest);
});
after(() => fs.rmSync(outDir, { recursive: true, force: true }));

const screen = (name: string) => figures.screens.find((s) => s.screen === name)!;
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

test('every page of a first screen is a script of its own (route splitting)', () => {
  for (const [name, lazy] of Object.entries(FIRST_SCREENS)) {
    assert.deepEqual(screen(name).notSplit, [], `${name}: ${lazy.join(', ')} should each be a lazy chunk`);
  }
});

test('each first screen loads at most 100 kB of gzipped script', () => {
  for (const name of Object.keys(FIRST_SCREENS)) {
    const s = screen(name);
    assert.ok(s.gzip <= FIRST_SCREEN_BUDGET_GZIP, `${name} loads ${kB(s.gzip)} gzipped (${s.files.join(', ')})`);
  }
});

test('the build holds no React runtime, only Preact in its place', () => {
  const sources = Object.keys(manifest).join('\n');
  const scripts = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  const text = scripts.map((f) => fs.readFileSync(path.join(outDir, f), 'utf8')).join('\n');
  assert.doesNotMatch(sources, /node_modules\/react-dom\//);
  // react-dom's production build names itself in its error decoder's address.
  assert.doesNotMatch(text, /react\.dev\/errors/, 'react-dom (or react) is bundled');
});

test('the heavy pages are left out of both first screens', () => {
  const heavy = ['src/features/map/MapPage.tsx', 'src/features/admin/AdminPage.tsx', 'src/features/upload/UploadPage.tsx', 'src/features/upload/upload-queue.ts', 'src/photos/Viewer.tsx', 'src/photos/SelectionBar.tsx'];
  for (const source of heavy) {
    const chunk = manifest[source];
    assert.ok(chunk, `${source} is a chunk of its own`);
    for (const s of figures.screens) assert.ok(!s.files.includes(chunk.file), `${source} (${chunk.file}) is loaded by the first screen ${s.screen}`);
  }
});
