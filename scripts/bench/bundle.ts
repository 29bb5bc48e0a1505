/**
 * `npm run bench:bundle`: the script the web UI's first screens load (sign-in; Photos for a signed-in
 * person), raw and gzipped, from a fresh production build (bundle-figures.ts explains what is
 * counted), against the budget of 100 kB gzipped. Exits 1 above the budget.
 */
import fs from 'node:fs';
import { buildWithManifest, figuresOf, FIRST_SCREEN_BUDGET_GZIP } from './bundle-figures.ts';

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const { outDir, manifest } = await buildWithManifest();
try {
  const f = figuresOf(outDir, manifest);
  console.log(`all scripts of the build: ${f.all.files} files, ${kB(f.all.raw)} raw, ${kB(f.all.gzip)} gzipped`);
  let over = false;
  for (const s of f.screens) {
    const ok = s.gzip <= FIRST_SCREEN_BUDGET_GZIP;
    over ||= !ok;
    console.log(`first screen ${s.screen}: ${s.files.length} scripts, ${kB(s.raw)} raw, ${kB(s.gzip)} gzipped (budget ${kB(FIRST_SCREEN_BUDGET_GZIP)}: ${ok ? 'met' : 'OVER'})`);
    for (const file of s.files) console.log(`  ${file}`);
    if (s.notSplit.length) console.log(`  (in the entry, not split: ${s.notSplit.join(', ')})`);
  }
  process.exitCode = over ? 1 : 0;
} finally {
  fs.rmSync(outDir, { recursive: true, force: true });
}
