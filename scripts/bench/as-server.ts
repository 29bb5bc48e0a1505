/**
 * Runs a bench script in a Node process launched the way the server is (config/process-launch.ts: its V8 flags
 * and allocator settings), for the benches that run the server inside their own process and measure its event
 * loop (bench:faces, bench:events): stalls and GC pauses are then those of the collector a household's server
 * has (its young generation, the old generation growing by half), not tsx's defaults.
 *
 * `--built`: the script and the server's code in it run bundled, as `npm start` and the desktop app run them
 * (scripts/build-server.ts: the same esbuild options, the server's workers and migrations beside the bundle, in
 * a temporary folder under node_modules/.cache), under plain `node`. Under tsx the main isolate's heap also holds every module's
 * transpiled source and source map, and a major GC's marking pause grows with that heap. The script must have
 * no top-level await (the bundle is CommonJS, as the server's).
 *
 *   tsx scripts/bench/as-server.ts [--built] <bench script> [args…]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/src/config/process-launch.ts';

const argv = process.argv.slice(2);
const built = argv[0] === '--built';
const [script, ...args] = built ? argv.slice(1) : argv;
if (!script) {
  console.error('usage: tsx scripts/bench/as-server.ts [--built] <bench script> [args…]');
  process.exit(2);
}

/** The bundled script and the server's workers and migrations beside it, in a fresh folder; returns the entry. */
async function bundle(dir: string): Promise<string> {
  const { buildServer, serverBundleOptions } = await import('../build-server.ts');
  const { build } = await import('esbuild');
  await buildServer({ outDir: dir, quiet: true });
  const entry = path.join(dir, 'bench.js');
  await build({ ...serverBundleOptions(true), entryPoints: [path.resolve(script!)], outfile: entry });
  return entry;
}

// Inside the project (under node_modules/.cache, which git ignores): the packages left outside the bundle load from
// the project's node_modules, as server/dist's do.
const cache = path.resolve(import.meta.dirname, '../../node_modules/.cache');
if (built) fs.mkdirSync(cache, { recursive: true });
const dir = built ? fs.mkdtempSync(path.join(cache, 'hearth-bench-built-')) : null;
try {
  const entry = dir ? await bundle(dir) : null;
  const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...(entry ? [entry] : ['--import', 'tsx', script]), ...args], { stdio: 'inherit', env: { ...process.env, ...SERVER_MALLOC_ENV } });
  if (run.error) {
    console.error(`bench: could not start ${script}: ${run.error.message}`);
    process.exitCode = 1;
  } else process.exitCode = run.status ?? 1;
} finally {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
