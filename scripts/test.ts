/**
 * `npm test`: everything, in order, on a fresh machine of ours.
 *   1. system packages the tests need (Debian chromium, ffmpeg): installed when missing and we can
 *   2. lint (eslint.config.js: the TypeScript rules and the layer rules that keep features apart)
 *   3. type check (server, scripts, tests, renderer)
 *   4. build the web UI (the server and the browser tests serve it)
 *   5. server tests: node:test over real HTTP, real SQLite (test/server), and the web UI's pure
 *      modules (test/renderer)
 *   6. browser tests: Playwright in Debian chromium (test/e2e)
 * Ends with one line `N passed, N failed` for CI. `--server` or `--e2e` runs only that part.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const args = new Set(process.argv.slice(2));
const only = args.has('--server') ? 'server' : args.has('--e2e') ? 'e2e' : 'all';

let passed = 0;
let failed = 0;
const failures: string[] = [];

function run(cmd: string, argv: string[], opts: SpawnSyncOptions = {}): number {
  console.log(`\n$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
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

function serverTests(): void {
  const tap = path.join(tmp, 'server-tests.tap');
  // test/renderer: the web UI's pure modules (layout, formatting), run by node like the server's.
  const files = ['test/server', 'test/renderer']
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.join(dir, f)),
    )
    .sort();
  const status = run('node', [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ]);
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const pass = Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  const fail = Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0);
  const cancelled = Number(/^# cancelled (\d+)/m.exec(text)?.[1] ?? 0);
  passed += pass;
  failed += fail + cancelled;
  if (fail + cancelled > 0) failures.push(`server tests (${fail + cancelled})`);
  if (status !== 0 && fail + cancelled === 0) step('server test run', false);
}

function e2eTests(): void {
  const report = path.join(tmp, 'e2e-report.json');
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

ensureSystemPackages();
if (only === 'all') {
  // Early and on its own: a broken layer boundary fails the run even when every test passes.
  step('lint', run('npm', ['run', '--silent', 'lint']) === 0);
  step('typecheck', run('npm', ['run', '--silent', 'typecheck']) === 0);
}
step('build web UI', run('npm', ['run', '--silent', 'build:ui']) === 0);
if (only !== 'e2e') serverTests();
if (only !== 'server') e2eTests();

if (failures.length) console.log(`\nfailed: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
