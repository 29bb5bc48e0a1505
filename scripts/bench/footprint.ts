/**
 * `npm run bench:ingest`, part 2: what running Hearth costs a household machine, measured on the process
 * tree a user gets, not on the server alone.
 *
 *   - cold start: from spawning the command to the first answer of `GET /api/v1/health`, on a data folder
 *     that already exists (the usual start: the catalog is there, the UI and server are already built).
 *     Each way of starting is started once first (which builds what needs building and creates the data
 *     folder), then `--starts` more times; the report gives every time and the best. Targets: ≤ 1 s for the
 *     built server (`node server/dist/main.js`, what a service manager or the desktop shell runs), ≤ 1.5 s
 *     for `npm start`.
 *   - idle memory, empty: the resident memory of the whole process tree (`npm start`: npm, the shell, and
 *     the server; scripts/bench/process-tree.ts) 5 s after the first answer of the last start, when the
 *     start-up warm-up is over. Target ≤ 200 MB.
 *   - idle memory after the corpus: `npm start` again, every media file of the corpus (/work/shared/corpus:
 *     JPEG, HEIC, RAW, PNG, videos) uploaded through the API (uploadAsset, two at a time, as the web client
 *     does), the job queue left to finish (thumbnails, metadata, video posters and transcodes in ffmpeg child
 *     processes), then 10 s and 70 s of rest. Target ≤ 200 MB.
 *
 * Ways of starting (`--modes npm,built,serve`, default `npm,built`):
 *   npm     `npm start` (scripts/start.ts: builds the UI and the server only if their sources changed, then
 *           replaces itself with the built server)
 *   built   `node server/dist/main.js` (run `npm run build:server` first; the allocator settings and V8 flag `npm start` sets)
 *   serve   `npm run serve` (the server's TypeScript through tsx, for development)
 * `--server-env K=V` (repeatable) adds to the environment of every start, e.g. MALLOC_ARENA_MAX=16 (glibc's
 * default on 2 cores) to see what the launcher's setting changes. `--no-corpus` skips the corpus part.
 *
 *   npx tsx scripts/bench/footprint.ts [--modes npm,built] [--starts 3] [--no-corpus] [--server-env K=V]…
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describeTree, processTree, treeTotals } from './process-tree.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORPUS = path.resolve(ROOT, '../shared/corpus');
const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const STARTS = Number(opt('--starts') ?? 3);
const MODES = (opt('--modes') ?? 'npm,built').split(',') as Mode[];
const EXTRA_ENV = Object.fromEntries(argv.flatMap((a, i) => (a === '--server-env' && argv[i + 1]?.includes('=') ? [argv[i + 1]!.split(/=(.*)/s).slice(0, 2)] : [])));
const NODE = path.join(ROOT, 'node_modules/.bin/node');

type Mode = 'npm' | 'built' | 'serve';

const COMMANDS: Record<Mode, { label: string; cmd: string; args: string[]; env?: Record<string, string> }> = {
  npm: { label: 'npm start', cmd: 'npm', args: ['start', '--silent'] },
  // What scripts/start.ts sets for the server it starts (see there); a service unit would set the same.
  built: { label: 'node server/dist/main.js', cmd: NODE, args: ['--max-semi-space-size=1', 'server/dist/main.js'], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } },
  serve: { label: 'npm run serve (tsx)', cmd: 'npm', args: ['run', '--silent', 'serve'] },
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-footprint-'));
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) killTree(c, 'SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The whole group: `npm start` is npm → sh → server, and npm does not always pass a signal on. */
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* already gone */
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  killTree(child, 'SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)])) {
    // npm may exit before the server it started: wait for the port's owner too (next start reuses the folder).
    await sleep(300);
  } else killTree(child, 'SIGKILL');
  running.delete(child);
}

interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first answer of /api/v1/health. */
  ms: number;
}

async function start(mode: Mode, dataDir: string): Promise<Started> {
  const port = await freePort();
  const { cmd, args, env } = COMMANDS[mode];
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd: ROOT,
    detached: true, // its own process group, so the whole tree can be stopped
    env: { ...process.env, ...env, ...EXTRA_ENV, HEARTH_PORT: String(port), HEARTH_HOST: '127.0.0.1', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${COMMANDS[mode].label} exited (${child.exitCode}):\n${output}`);
    const ok = await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);
    if (ok) return { child, url, ms: performance.now() - t0 };
    if (performance.now() - t0 > 300_000) throw new Error(`${COMMANDS[mode].label} did not answer in 5 min:\n${output}`);
    await sleep(10);
  }
}

async function api<T = any>(url: string, method: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  const r = await fetch(url, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw Object.assign(new Error(`${method} ${url}: ${r.status} ${text}`), { status: r.status, text });
  return JSON.parse(text) as T;
}

function corpusFiles(): string[] {
  const out: string[] = [];
  for (const dir of fs.readdirSync(CORPUS)) {
    const d = path.join(CORPUS, dir);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d)) if (!/\.(json|md)$/i.test(f) && fs.statSync(path.join(d, f)).isFile()) out.push(path.join(d, f));
  }
  return out.sort();
}

/** Uploads every corpus file, two at a time; counts the answers by kind. */
async function uploadCorpus(url: string, token: string): Promise<Record<string, number>> {
  const files = corpusFiles();
  const counts: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++]!;
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync(f)]), path.basename(f));
      const kind = await api<{ status: string }>(`${url}/api/v1/uploads/files`, 'POST', token, form).then(
        (r) => r.status,
        (e: { status?: number; text?: string }) => `${e.status ?? 'error'} ${/"code":"([^"]+)"/.exec(e.text ?? '')?.[1] ?? ''}`.trim(),
      );
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
  };
  await Promise.all([worker(), worker()]);
  return counts;
}

async function waitForIdleQueue(url: string, token: string): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    const s = await api<{ running: number; available: number; retryable: number }>(`${url}/api/v1/jobs/stats`, 'GET', token);
    quiet = s.running === 0 && s.available === 0 && s.retryable === 0 ? quiet + 1 : 0;
    await sleep(1000);
  }
}

const fmtMs = (ms: number) => (ms / 1000).toFixed(2);
const serverOf = (tree: ReturnType<typeof processTree>) => tree.at(-1)!;

async function measureMode(mode: Mode): Promise<string[]> {
  const label = COMMANDS[mode].label;
  const dataDir = path.join(work, `data-${mode}`);
  const first = await start(mode, dataDir); // builds what needs building, creates the data folder
  await stop(first.child);
  const times: number[] = [];
  let last: Started | null = null;
  for (let i = 0; i < STARTS; i++) {
    if (last) await stop(last.child);
    last = await start(mode, dataDir);
    times.push(last.ms);
  }
  await sleep(5000);
  const tree = processTree(last!.child.pid!);
  await stop(last!.child);
  const best = Math.min(...times);
  return [
    `${label}: first start ${fmtMs(first.ms)} s (builds what changed, new data folder); later starts to the first API answer ${times.map(fmtMs).join(', ')} s, best ${fmtMs(best)} s`,
    `${' '.repeat(label.length)}  idle, empty catalog: ${describeTree(tree)}`,
  ];
}

async function measureCorpus(mode: Mode): Promise<string[]> {
  const label = COMMANDS[mode].label;
  const dataDir = path.join(work, `data-corpus-${mode}`);
  const s = await start(mode, dataDir);
  try {
    const session = await api<{ token: string }>(`${s.url}/api/v1/auth/register`, 'POST', null, { username: 'bench', password: 'bench password 123', display_name: 'Bench' });
    const t0 = performance.now();
    const counts = await uploadCorpus(s.url, session.token);
    await waitForIdleQueue(s.url, session.token);
    const secs = (performance.now() - t0) / 1000;
    const pad = ' '.repeat(label.length);
    const out = [`${label} after the corpus (${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}; uploaded and processed in ${secs.toFixed(0)} s):`];
    // 10 s: the queue is idle; 70 s: also past the idle timeouts of the worker threads (30 s) and the upload
    // blocks kept for the next upload (60 s, features/intake/sink.ts).
    for (const [wait, at] of [[10_000, 10], [60_000, 70]] as const) {
      await sleep(wait);
      const tree = processTree(s.child.pid!);
      out.push(`${pad}  idle ${at} s later: ${describeTree(tree)}; the server alone ${serverOf(tree).rssMb.toFixed(0)} MB; target ≤ 200 MB for the tree: ${treeTotals(tree).rssMb <= 200 ? 'met' : 'NOT met'}`);
    }
    return out;
  } finally {
    await stop(s.child);
  }
}

const lines: string[] = [];
const extra = Object.keys(EXTRA_ENV).length ? ` with ${Object.entries(EXTRA_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
console.log(`footprint${extra} (${os.availableParallelism()} CPUs; load average ${os.loadavg()[0]!.toFixed(1)})`);
for (const mode of MODES) {
  const out = await measureMode(mode);
  out.forEach((l) => console.log(l));
  lines.push(...out);
}
if (!argv.includes('--no-corpus')) {
  const out = await measureCorpus(MODES[0]!);
  out.forEach((l) => console.log(l));
  lines.push(...out);
}
process.exit(0);
