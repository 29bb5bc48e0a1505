/**
 * `npm start`: build what changed, then become the server.
 *
 *   1. the web UI (renderer/ → renderer/dist, Vite) and the server (server/src → server/dist/main.js,
 *      scripts/build-server.ts) are built only when their inputs changed since the last build (a hash of
 *      the sources in a stamp file, scripts/build-stamp.ts): the first start builds both (~20–40 s), later
 *      starts only compare file sizes and times (and read the files when those changed);
 *   2. this process then replaces itself with `node server/dist/main.js` (execve), so what runs is npm and
 *      the server, without a wrapper process in between; where execve is missing (Windows) the server runs
 *      as a child that gets the signals and whose exit code this process exits with.
 *
 * The server's environment gets two glibc allocator settings, each unless it is set already (other C
 * libraries ignore them). Measured after uploading the corpus (372 files), the server's memory 10 s / 60 s
 * after the queue went idle (scripts/bench/footprint.ts; V8's heap was 24–29 MB of it throughout):
 *   - neither: 311 MB at 10 s (one run);
 *   - MALLOC_ARENA_MAX=2: 236 / 214 MB. glibc otherwise gives each thread that allocates (libvips' workers,
 *     the libuv pool, worker threads) an arena of its own, up to 8 per core, and keeps what they freed;
 *   - and MALLOC_MMAP_THRESHOLD_=131072: 183 / 147 MB. libvips' image buffers (larger than 128 KiB) are then
 *     always mapped on their own and given back when freed; by default glibc raises that threshold after the
 *     first large free, so later buffers come from the heap, which keeps them.
 * Ingest with both, scripts/bench/ingest.ts (two rounds each, on a machine other processes kept busy): Hearth
 * 110–113 ms of CPU per file against 93–99 ms without, but vipsthumbnail in the same runs also went from 44 to
 * 53–55 ms, so the ratio to it stayed the same (0.46–0.49 against 0.49); peak RSS of that process 282 MB
 * against 661 MB. No clear cost, then, within that noise.
 *
 * The server's V8 gets a small young generation (`--max-semi-space-size`, MiB; V8's default lets it grow to tens of
 * MiB and keeps it once grown). With 1 MiB, measured with scripts/bench/footprint.ts on the built server, after
 * the corpus (372 files): 168 MB at 10 s idle and 127 MB at 70 s, against 201 and 137 MB without; empty, 96
 * against 104 MB. It is 2 MiB now: 1 MiB meant so many scavenges under browsing that they held the event loop
 * (the figures, and what 2 and 4 MiB measured: server/src/config/process-launch.ts).
 *
 * The old generation grows by half between full collections (`--heap-growing-percent=50`; why and what it
 * measured: server/src/config/process-launch.ts).
 *
 * And `--expose-gc`, so that the server can run one full collection when it let go of something large while
 * idle (the inference workers ended, the spare upload blocks dropped: server/src/platform/cache/give-back-
 * memory.ts). An idle server allocates nearly nothing, so V8 otherwise never collects what the work left,
 * nor frees the native memory its dead objects hold. Measured with the face pipeline and OCR on 18 corpus
 * photos: 150 MB 3 s after the inference workers ended, 100 MB after the collection.
 *
 * The tree after work, `npx tsx scripts/bench/footprint.ts --modes npm --starts 0` (busy 2-core machine, load
 * 11–18), with the inference workers as child processes (server/src/adapters/ml/inference-runner.ts): after the
 * corpus with the models on, 275–280 MB at 60 s (npm 62 + server 211–216: ~140 MB anonymous, 75 MB
 * file-backed) against 341 MB with worker threads (server 277: 178 + 99); after a mixed load of 100 photos
 * and 1,000 queries and a people rebuild, 247 MB (server 184) against 316 MB. npm's process (62 MB) stays
 * beside the server for as long as `npm start` runs (see footprint.ts, withoutNpm).
 * Then with glibc's free pages handed back when the server gives back memory (server/src/platform/cache/
 * native-heap.ts), after every quiet spell of the job queue, and the places gazetteer let go when unused:
 * 200–233 MB after the corpus in three runs (server 136–169 MB) against 265–267 MB in three runs before
 * (server 202–204 MB) the same afternoon, and 215 MB after the mixed load of 100 photos in two runs (server
 * 151–152 MB).
 *
 * Runs under plain `node` (type stripping) so that starting needs neither tsx nor a build of this file:
 * no TypeScript-only syntax here.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkBuild } from './build-stamp.ts';
import { buildServer, prebuildPlaces, SERVER_ENTRY, SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from './build-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const UI_DIST = path.join(ROOT, 'renderer/dist');
const UI_STAMP = path.join(UI_DIST, '.build-stamp');
/** The UI's inputs: its sources, config and public files, and the installed packages (through the lock file). */
const UI_INPUTS = ['renderer', 'package-lock.json'];

function buildUiIfChanged(): void {
  const check = checkBuild(UI_STAMP, ROOT, UI_INPUTS, ['dist', 'node_modules']);
  if (check.current && fs.existsSync(path.join(UI_DIST, 'index.html'))) return;
  console.log('building the web UI (its sources changed since the last build)…');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('the web UI did not build; see above');
    process.exit(r.status ?? 1);
  }
  check.record(); // vite empties renderer/dist first, so the stamp is written after it
}

buildUiIfChanged();
if ((await buildServer({ ifChanged: true, quiet: true })) === 'built') console.log('built the server (server/dist)');
prebuildPlaces(); // once per install (a file check at later starts)

const env = { ...SERVER_MALLOC_ENV, ...process.env };
if (typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...SERVER_NODE_FLAGS, SERVER_ENTRY], env);
} else {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
