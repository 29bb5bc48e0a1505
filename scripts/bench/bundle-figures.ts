/**
 * What the web UI's first screens cost in script, read from a real production build (vite's
 * manifest). Used by `npm run bench:bundle` (bundle.ts, which prints the figures) and by
 * test/renderer/bundle-budget.test.ts (which fails above the budget).
 *
 * A first screen is the entry script with everything it imports statically, plus the route chunks
 * the app loads before anything is shown (React.lazy pages, lib/lazy-page.ts) with their static
 * imports. Vite adds a <link rel=modulepreload> for each static import, so this is exactly the set
 * the browser fetches. Sizes are the bytes on disk (raw) and gzipped at level 9 (what a compressing
 * proxy would send; the Hearth server sends them as they are).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build, type Manifest } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The first screens: which lazy chunks (by source file, relative to renderer/) each one needs. */
export const FIRST_SCREENS: Record<string, readonly string[]> = {
  'sign-in': ['src/app/SignedOutApp.tsx'],
  'photos (signed in)': ['src/app/SignedInApp.tsx', 'src/features/library/PhotosPage.tsx'],
};

/** The budget of each first screen, gzipped script bytes (issue 12 point 6). */
export const FIRST_SCREEN_BUDGET_GZIP = 100 * 1024;

export interface ScreenFigures {
  screen: string;
  files: string[];
  /** Sources of FIRST_SCREENS that are no chunk of their own (bundled into the entry, as before the split). */
  notSplit: string[];
  raw: number;
  gzip: number;
}

export interface BundleFigures {
  /** Every script of the build together (what a single-bundle app would load first). */
  all: { files: number; raw: number; gzip: number };
  screens: ScreenFigures[];
}

/** Builds the UI into a temporary folder (renderer/dist is left alone) and returns its manifest's folder. */
export async function buildWithManifest(): Promise<{ outDir: string; manifest: Manifest }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bundle-'));
  await build({
    configFile: path.join(ROOT, 'renderer/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  return { outDir, manifest };
}

function sizes(outDir: string, files: Iterable<string>) {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(outDir, f));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

/** The figures of a build made by buildWithManifest. */
export function figuresOf(outDir: string, manifest: Manifest): BundleFigures {
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)?.[0];
  if (!entry) throw new Error('The build has no entry chunk.');
  const closure = (keys: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      const chunk = manifest[key];
      if (!chunk) throw new Error(`${key} is not a chunk of the build.`);
      seen.add(key);
      for (const i of chunk.imports ?? []) visit(i);
    };
    keys.forEach(visit);
    return [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  };
  const screens = Object.entries(FIRST_SCREENS).map(([screen, lazy]) => {
    const notSplit = lazy.filter((k) => !manifest[k]);
    const files = closure([entry, ...lazy.filter((k) => manifest[k])]);
    return { screen, files, notSplit, ...sizes(outDir, files) };
  });
  const scripts = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  return { all: { files: scripts.length, ...sizes(outDir, scripts) }, screens };
}
