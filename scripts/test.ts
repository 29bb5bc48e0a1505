/**
 * `npm test`: everything, in order, on a fresh machine of ours.
 *   1. system packages the tests need (Debian chromium, ffmpeg, rclone): installed when missing and we can
 *   2. lint (eslint.config.js: the TypeScript rules and the layer rules that keep features apart)
 *      and 3. type check (server, scripts, tests, renderer), side by side
 *   4. build the web UI (the server and the browser tests serve it)
 *   5. template data folders: the data-only server tests' household and corpus media, ingested once
 *      (test/template/build.ts, cached in .tmp/template)
 *   6. server tests: node:test over real HTTP, real SQLite (test/server), the web UI's pure
 *      modules (test/renderer) and the desktop app's main process (test/electron), two files at a
 *      time, the longest first
 *   7. the server bundle (server/dist, when server/src changed), which the browser tests' servers run
 *   8. browser tests: Playwright in Debian chromium (test/e2e)
 * Every test process and server hashes passwords at scrypt's lowest cost (HEARTH_TEST_CHEAP_PASSWORDS).
 * Ends with each phase's wall time, the 10 slowest server files and browser specs (also written to
 * .tmp/test-phases.json), then one line `N passed, N failed` for CI. `--server` or `--e2e` runs only that part; paths
 * after it pick server test files by prefix (`npm run test:server -- test/server/media`).
 *
 * Where the time went (measured 2026-11, issue 11 follow-up; the 2-core machine was shared, load 9–16,
 * so CPU seconds are the firm figures and wall seconds only compare runs made side by side):
 * - The server suite took ~14.8 min on a quiet machine while its tests' own durations summed to
 *   ~10.7 min, i.e. ~19 of its ~30 lane-minutes were outside any test.
 * - Most of that was processes staying alive after their last test: a file whose server hashed a
 *   file (scans, the watcher, indexFile) kept its process for ~30 s more, idle (access.test.ts alone:
 *   tests 4 s, process 39 s). The hashing worker (server/src/features/intake/file-hasher.ts) is
 *   unref()'d before its 'message' listener is added, which refs it again, and it is only terminated
 *   by its 30 s idle timer (container.close() does not stop it). `forceExit` ends each file's process
 *   once its tests and `after` hooks are done. Of 49 files timed one at a time before and with the
 *   runner below after (same load), their process time summed 3093 s before and 2242 s after.
 * - Whole server suite back to back, 583 tests passing in both: `node --test` as before 21.2 min
 *   (load 5–7), this runner 9.7 min (load 0.3–5; CPU 694 s against 893 s), its two lanes ending
 *   within a second of each other.
 * - Start of a server test file: ~2.2 s CPU to load the server graph under tsx (~1.0 s when
 *   prebundled by esbuild: not worth a bundle per file), ~0.6 s for the hashing worker to load,
 *   ~0.5 s for the OpenAPI document, its schemas and two scrypt sign-ups. Importing
 *   test/server/media/corpus.ts also started ffmpeg and ffprobe (~0.45 s CPU) in ~50 files: now
 *   asked only by the precondition test. Merging small files would save the ~3 s start per file
 *   merged (about 10 s of wall per 7 files on two lanes): not done, the files stay small and apart.
 * - Longest files (tests' own time): library/corpus-ingest (~150 s quiet), crash/kill-during-ingest,
 *   browse/query-model, library/crash-ingest, assets/processing-given-up: real ingest, transcodes and
 *   crash rounds, kept as they are. Run first, so no lane waits alone on one of them at the end.
 * - lint and the type check: ~50 s of CPU each, single-threaded, one after the other: now side by
 *   side. The UI build: ~3 s of CPU.
 * - Not done: the browser tests beside the server suite (both load the two cores fully; the e2e
 *   timeouts were not made for that), `--experimental-test-isolation=none` (tests set process.env
 *   for their own server: FFPROBE_PATH, HEARTH_UPLOAD_IDLE_TIMEOUT_S).
 *
 * Issue 26 (measured 2026-11 on the shared 2-core machine, load 8–15; CPU figures are the firm ones):
 * - Password hashes: scrypt N=2^15 costs ~182 ms of CPU a hash, N=2^10 ~4.5 ms. The suite signs up or
 *   changes a password ~230 times in server files and ~80 in the specs' servers: ~55 s of CPU, now ~1.5.
 *   On for every test process and server (HEARTH_TEST_CHEAP_PASSWORDS); passwords.test.ts keeps the real cost.
 * - A spec's server from the bundle: ~4.3 s to HEARTH_READY against ~9.9 s under tsx (4 starts each,
 *   alternating, load ~14); ~21 starts a run.
 * - Templates (test/template): a recipe of 5–21 JPEGs builds in ~5 s, with HEIC, MOV, RAW and MP4 in
 *   ~17–20 s; side by side, a migrated file ran 3–7 s quicker than its original (camera-make 28 / 34 s,
 *   folders 34 / 38 s) or no quicker (places 59 / 57, map-points 77 / 76): in these files the queries and
 *   the geocoder, not the ingest, take the time. One build serves every file of a recipe and every later
 *   run until a source changes.
 * - Measured, not adopted: NODE_COMPILE_CACHE for the test processes saves ~0.25 s of CPU of the ~3.5 s
 *   that loading the server graph under tsx costs (~7%, inside the noise of one run): ~45 s of CPU over
 *   185 files. Merging the 52 files under 5 s (104 s together) into about 8 would save ~44 starts of
 *   ~3.5 s CPU: ~150 s of CPU, ~75 s of wall on two lanes, at the price of files that no longer stand
 *   alone. Running the browser tests beside the server suite's tail: the two lanes, longest first, end
 *   within a second of each other (945 / 945 s over the last full run's times), so there is no idle
 *   tail to fill; both phases already keep both cores busy.
 *
 * Issue 26, second round (2026-11-30, same machine, loaded by other work: CPU seconds are the firm figures):
 * - The whole `.ci/run` (npm ci, lint, type check, UI build, templates, 1,201 server and 104 browser tests) used
 *   3,146 s of CPU (user+sys of the whole process tree), 2,842 s on a quiet machine: on two cores no run can
 *   take less than ~24 min until the tests' own work shrinks. The levers of this file (templates, cheap hashes, bundle, two workers,
 *   forceExit) take the start-up and the runner's waste; what is left is the tests' work itself (real ingest,
 *   transcodes, crash rounds, chromium rendering every screen a spec walks).
 * - Browser: a failure trace's screencast cost ~1.5 s of CPU a test (trash.spec: 22-26 s with it, 18-19 s
 *   without): traces keep DOM snapshots, not frames. timeline-100k and a11y now run side by side after the rest.
 * - Measured, not adopted: signing in through the API instead of the sign-in page, and starting six more specs
 *   from templates (branch i26/i): within the noise (±4-8 s of CPU a spec) except live-raw (33 → 23 s), whose files
 *   go through HEIF decoding and transcodes; and a template only moves that ingest into the serial template phase.
 *   `prefers-reduced-motion` for every spec: no difference (60.2 / 59.9 s of CPU over trash + albums-edit).
 *   The test client reading the committed OpenAPI document instead of asking each server for it (~0.5 s of CPU
 *   a server to generate): no difference visible over four files. TMPDIR on tmpfs (no fsync): none visible.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run as runTests } from 'node:test';
import { spec, tap as tapReporter } from 'node:test/reporters';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const args = new Set(process.argv.slice(2));
// Paths after the flags pick server test files by prefix: `npm run test:server -- test/server/media`.
const picked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const only = args.has('--server') ? 'server' : args.has('--e2e') ? 'e2e' : 'all';

let passed = 0;
let failed = 0;
const failures: string[] = [];

function run(cmd: string, argv: string[], opts: SpawnSyncOptions = {}): number {
  console.log(`\n$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
}

/** Like run(), but beside other work: the output is kept and printed in one block at the end. */
function runCaptured(cmd: string, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      console.log(`\n$ ${cmd} ${argv.join(' ')}`);
      process.stdout.write(Buffer.concat(out));
      resolve(code ?? 1);
    });
  });
}

function step(name: string, ok: boolean): void {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

function has(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

function ensureSystemPackages(): void {
  const missing = [
    ['chromium', '/usr/bin/chromium'],
    ['ffmpeg', 'ffmpeg'],
    // The WebDAV import tests run against `rclone serve webdav` on loopback.
    ['rclone', 'rclone'],
  ].filter(([, bin]) => (bin!.startsWith('/') ? !fs.existsSync(bin!) : !has(bin!)));
  if (missing.length === 0) return;
  const names = missing.map(([pkg]) => pkg!);
  const canApt = has('apt-get') && process.getuid?.() === 0;
  if (!canApt) {
    console.warn(`! missing system packages: ${names.join(', ')} (install them, e.g. apt-get install ${names.join(' ')})`);
    return;
  }
  console.log(`installing ${names.join(', ')} from Debian`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * The server and renderer test files, each in its own process (node:test's run(), the same runner as
 * `node --test`, which inherits tsx from this process), two at a time, the longest first so the two
 * lanes end together. `forceExit`: a file's process ends when its last test and `after` hook are done,
 * instead of staying alive until every timer and worker of the server it started has gone idle (see
 * the measurements at the top of this file).
 */
async function serverTests(): Promise<void> {
  const tap = path.join(tmp, 'server-tests.tap');
  // test/renderer: the web UI's pure modules (layout, formatting), run by node like the server's.
  // test/electron: the desktop app's main process with Electron's GUI faked (Electron cannot start here).
  const files = ['test/server', 'test/renderer', 'test/electron'].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join(dir, f))
      .filter((f) => picked.length === 0 || picked.some((p) => f.startsWith(path.normalize(p)))),
  );
  const ordered = longestFirst(files);
  console.log(`\n$ node --test (${ordered.length} files, 2 at a time, longest first)`);
  const events = runTests({ files: ordered.map((f) => path.join(root, f)), concurrency: 2, forceExit: true });
  const toSpec = new PassThrough({ objectMode: true });
  const toTap = new PassThrough({ objectMode: true });
  const seconds = new Map<string, number>();
  events.on('data', (e: { type: string; data: { name?: string; nesting?: number; file?: string; details?: { duration_ms?: number } } }) => {
    // A file's own completion: nesting 0 and named by the file (its tests are named by their titles).
    if (e.type === 'test:complete' && e.data.nesting === 0 && e.data.file && e.data.name && e.data.file.endsWith(e.data.name)) {
      seconds.set(path.relative(root, e.data.file), (e.data.details?.duration_ms ?? 0) / 1000);
    }
  });
  events.pipe(toSpec);
  events.pipe(toTap);
  await Promise.all([
    pipeline(toSpec, new spec(), process.stdout, { end: false }),
    pipeline(toTap.compose(tapReporter as (source: AsyncIterable<unknown>) => AsyncGenerator<string>), fs.createWriteStream(tap)),
  ]);
  reportFileTimes(seconds);
  lastRunSeconds = seconds;
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const pass = Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  const fail = Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0);
  const cancelled = Number(/^# cancelled (\d+)/m.exec(text)?.[1] ?? 0);
  passed += pass;
  failed += fail + cancelled;
  if (fail + cancelled > 0) failures.push(`server tests (${fail + cancelled})`);
  if (pass === 0 && fail + cancelled === 0) step('server test run', false);
}

const TIMES = path.join(tmp, 'server-test-times.json');
/** This run's seconds per server file (for the closing summary). */
let lastRunSeconds = new Map<string, number>();

/**
 * Seconds per file in a full run on the shared 2-core machine (2025-11, load 6–12): the files over
 * 30 s. Only their order counts; the others took 4–30 s each.
 */
const SLOW_FILES: Record<string, number> = {
  'test/server/library/corpus-ingest.test.ts': 193,
  'test/server/library/crash-ingest.test.ts': 135,
  'test/server/browse/query-model.test.ts': 100,
  'test/server/crash/kill-during-ingest.test.ts': 67,
  'test/server/assets/processing-given-up.test.ts': 55,
  'test/server/crash/interrupted-processing.test.ts': 43,
  'test/server/assets/motion-photos.test.ts': 41,
  'test/server/assets/video-capture-time.test.ts': 41,
  'test/server/access/permission-matrix.test.ts': 39,
  'test/server/folders/folder-totals.test.ts': 37,
  'test/server/repositories/copy-while-registering.test.ts': 32,
  'test/server/auth.test.ts': 32,
  'test/server/browse/query-filters.test.ts': 31,
};

/**
 * Files by their time in the last run here (.tmp/server-test-times.json), else by SLOW_FILES (a
 * fresh clone); files timed by neither follow, by name.
 */
function longestFirst(files: string[]): string[] {
  const last = lastTimes();
  const known = (f: string) => last[f] ?? SLOW_FILES[f.split(path.sep).join('/')] ?? 0;
  return [...files].sort((a, b) => known(b) - known(a) || a.localeCompare(b));
}

function lastTimes(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TIMES, 'utf8')) as Record<string, number>;
  } catch {
    return {}; // first run here: SLOW_FILES
  }
}

/** Prints the slowest files and keeps every file's time for the next run's order. */
function reportFileTimes(seconds: Map<string, number>): void {
  if (seconds.size === 0) return;
  const all = { ...lastTimes(), ...Object.fromEntries(seconds) };
  fs.writeFileSync(TIMES, JSON.stringify(Object.fromEntries(Object.entries(all).sort((a, b) => b[1] - a[1])), null, 1));
  const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`\nslowest test files (all ${seconds.size} in ${path.relative(root, TIMES)}):`);
  for (const [f, s] of slowest) console.log(`  ${s.toFixed(1).padStart(6)} s  ${f}`);
}

const E2E_REPORT = path.join(tmp, 'e2e-report.json');

function e2eTests(): void {
  const report = E2E_REPORT;
  fs.rmSync(report, { force: true });
  const status = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  if (!fs.existsSync(report)) {
    step('browser tests (no report)', false);
    return;
  }
  const stats = JSON.parse(fs.readFileSync(report, 'utf8')).stats as { expected: number; unexpected: number; flaky: number; skipped: number };
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected + stats.skipped;
  if (stats.unexpected + stats.skipped > 0) failures.push(`browser tests (${stats.unexpected + stats.skipped})`);
  if (status !== 0 && stats.unexpected === 0) step('browser test run', false);
}

/** Wall seconds per phase, in the order they ran: printed at the end and kept in .tmp/test-phases.json. */
const phases: { phase: string; seconds: number }[] = [];
async function phase<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    phases.push({ phase: name, seconds: (performance.now() - started) / 1000 });
  }
}

const runStarted = performance.now();
await phase('packages', ensureSystemPackages);
if (only === 'all') {
  // Early and on its own: a broken layer boundary fails the run even when every test passes.
  // Side by side: each is one single-threaded process of about 50 s of CPU, so together they take
  // the time of one on two cores. Each one's output is printed whole when it ends.
  const [lint, typecheck] = await phase('lint ∥ typecheck', () =>
    Promise.all([runCaptured('npm', ['run', '--silent', 'lint']), runCaptured('npm', ['run', '--silent', 'typecheck'])]),
  );
  step('lint', lint === 0);
  step('typecheck', typecheck === 0);
}
await phase('UI build', () => step('build web UI', run('npm', ['run', '--silent', 'build:ui']) === 0));
// From here on every test process and the servers they start hash passwords at scrypt's lowest cost
// (platform/crypto/passwords.ts); the tests of hashing itself set their own. After the UI build on
// purpose: NODE_ENV=test would change what Vite builds.
process.env.NODE_ENV = 'test';
process.env.HEARTH_TEST_CHEAP_PASSWORDS = '1';
if (only !== 'e2e') {
  // The data-only tests' household and corpus media, ingested once (test/template/build.ts; cached in
  // .tmp/template while its sources do not change). A run of picked files skips it: a test builds the
  // template it needs on first use.
  if (picked.length === 0) await phase('template', () => step('template data folders', run('npx', ['tsx', 'test/template/build.ts']) === 0));
  await phase('server suites', serverTests);
}
if (only !== 'server') {
  // The browser specs' servers run the bundle (test/e2e/child-server.ts): built when server/src changed.
  const bundled = await phase('server build', () => run('npm', ['run', '--silent', 'build:server', '--', '--if-changed']) === 0);
  step('build server', bundled);
  if (bundled) process.env.HEARTH_E2E_BUNDLE = '1';
  await phase('e2e', e2eTests);
}
reportPhases();

if (failures.length) console.log(`\nfailed: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/**
 * Where this run's time went: each phase's wall time, the slowest server files and browser specs. The
 * same figures go to .tmp/test-phases.json, so two runs can be compared without reading their logs.
 */
function reportPhases(): void {
  const total = (performance.now() - runStarted) / 1000;
  const servers = slowest(lastRunSeconds, 10);
  const specs = slowest(specSeconds(), 10);
  console.log('\nphases (wall):');
  for (const p of phases) console.log(`  ${p.seconds.toFixed(1).padStart(7)} s  ${p.phase}`);
  console.log(`  ${total.toFixed(1).padStart(7)} s  total`);
  if (servers.length) {
    console.log('slowest server files:');
    for (const [f, s] of servers) console.log(`  ${s.toFixed(1).padStart(7)} s  ${f}`);
  }
  if (specs.length) {
    console.log('slowest browser specs:');
    for (const [f, s] of specs) console.log(`  ${s.toFixed(1).padStart(7)} s  ${f}`);
  }
  const record = { at: new Date().toISOString(), only, picked, total, phases, slowestServerFiles: Object.fromEntries(servers), slowestSpecs: Object.fromEntries(specs) };
  fs.writeFileSync(path.join(tmp, 'test-phases.json'), JSON.stringify(record, null, 1));
}

function slowest(seconds: Map<string, number>, n: number): [string, number][] {
  return [...seconds].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/**
 * Seconds per spec file from this run's Playwright JSON report: the sum of its tests' durations (every
 * attempt), which is the spec's share of the workers' time, its own server's start included
 * (withOwnServer starts it in a beforeAll, which Playwright counts in the first test).
 */
function specSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  if (only === 'server' || !fs.existsSync(E2E_REPORT)) return out;
  interface Suite {
    file?: string;
    suites?: Suite[];
    specs?: { file: string; tests: { results: { duration: number }[] }[] }[];
  }
  const walk = (s: Suite): void => {
    for (const sp of s.specs ?? []) {
      const ms = sp.tests.flatMap((t) => t.results).reduce((a, r) => a + r.duration, 0);
      out.set(sp.file, (out.get(sp.file) ?? 0) + ms / 1000);
    }
    for (const child of s.suites ?? []) walk(child);
  };
  try {
    for (const s of (JSON.parse(fs.readFileSync(E2E_REPORT, 'utf8')) as { suites?: Suite[] }).suites ?? []) walk(s);
  } catch {
    // an unreadable report is already counted as a failure by e2eTests()
  }
  return out;
}
