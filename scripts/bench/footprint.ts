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
 *   - memory after the corpus, with the shipped models on (faces and text recognition, from ../shared/models
 *     as the tests use them: HEARTH_MODELS_DIR): `npm start` again, every media file of the corpus
 *     (/work/shared/corpus: JPEG, HEIC, RAW, PNG, videos) uploaded through the API (uploadAsset, two at a
 *     time, as the web client does), the job queue left to finish (thumbnails, metadata, video posters and
 *     transcodes in ffmpeg child processes, faces, text), then the tree's RSS 10 s, 30 s and 60 s after the
 *     work ended. Target ≤ 250 MB within 60 s (issue 25): the inference workers (child processes) release
 *     their models and end after HEARTH_ML_IDLE_S (30 s) without work. Each figure is given for the whole tree
 *     and without npm's process (what a service manager or the desktop shell runs; see withoutNpm).
 *   - memory after a mixed load (`--files N`, default 1000; 0 skips it): N distinct photos made from the
 *     corpus JPEGs (each re-encoded by sharp with its own crop and JPEG quality, in a temporary folder, so
 *     no two have the same bytes) uploaded with the models on, while 10 × N queries run beside them (four at
 *     a time: searchAssets with words, a camera or a year; queryAssets as the timeline pages through by date
 *     and as a metadata filter by camera make), then a people rebuild (rebuildPeopleClusters), then the
 *     tree's RSS 10 s, 30 s and 60 s after the work ended. Target ≤ 250 MB within 60 s.
 *   For both: the peak RSS of the tree while the work ran (sampled every 250 ms), the settings that bound it
 *   (inference threads and their onnxruntime threads, job queue concurrency, OCR batch size, idle release
 *   time), and what the server holds at each point (anonymous memory, file-backed pages such as the
 *   catalog's memory map, threads, inference workers alive) so that what did not come back can be named.
 *
 * Ways of starting (`--modes npm,built,serve`, default `npm,built`):
 *   npm     `npm start` (scripts/start.ts: builds the UI and the server only if their sources changed, then
 *           replaces itself with the built server)
 *   built   `node server/dist/main.js` (run `npm run build:server` first; the allocator settings and V8 flag `npm start` sets)
 *   serve   `npm run serve` (the server's TypeScript through tsx, for development)
 * `--server-env K=V` (repeatable) adds to the environment of every start, e.g. MALLOC_ARENA_MAX=16 (glibc's
 * default on 2 cores) to see what the launcher's setting changes, or HEARTH_ML_WORKERS=1 to see the peak
 * with fewer inference threads. `--no-corpus` skips the corpus part, `--files 0` the mixed load,
 * `--starts 0` the cold starts. The memory parts run the first of `--modes`.
 *
 *   npx tsx scripts/bench/footprint.ts [--modes npm,built] [--starts 3] [--no-corpus] [--files 1000] [--server-env K=V]…
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describeTree, processTree, treeTotals } from './process-tree.ts';
import { DEFAULT_IDLE_MS } from '../../server/src/adapters/ml/index.ts';
import { OCR_PARAMS } from '../../server/src/features/ocr/params.ts';
import { jobQueues } from '../../server/src/jobs.ts';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../build-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORPUS = path.resolve(ROOT, '../shared/corpus');
/** The verified models the tests use (faces, OCR); HEARTH_SHARED_MODELS points elsewhere. */
const MODELS = process.env.HEARTH_SHARED_MODELS ?? path.resolve(ROOT, '../shared/models');
const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const STARTS = Number(opt('--starts') ?? 3);
const FILES = Number(opt('--files') ?? 1000);
const QUERIES = Number(opt('--queries') ?? FILES * 10);
const MODES = (opt('--modes') ?? 'npm,built').split(',') as Mode[];
const EXTRA_ENV = Object.fromEntries(argv.flatMap((a, i) => (a === '--server-env' && argv[i + 1]?.includes('=') ? [argv[i + 1]!.split(/=(.*)/s).slice(0, 2)] : [])));
const NODE = path.join(ROOT, 'node_modules/.bin/node');

type Mode = 'npm' | 'built' | 'serve';

const COMMANDS: Record<Mode, { label: string; cmd: string; args: string[]; env?: Record<string, string> }> = {
  npm: { label: 'npm start', cmd: 'npm', args: ['start', '--silent'] },
  // What scripts/start.ts sets for the server it starts (see there); a service unit would set the same.
  built: { label: 'node server/dist/main.js', cmd: NODE, args: [...SERVER_NODE_FLAGS, 'server/dist/main.js'], env: SERVER_MALLOC_ENV },
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

async function start(mode: Mode, dataDir: string, serverEnv: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const { cmd, args, env } = COMMANDS[mode];
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd: ROOT,
    detached: true, // its own process group, so the whole tree can be stopped
    env: { ...process.env, ...env, ...serverEnv, ...EXTRA_ENV, HEARTH_PORT: String(port), HEARTH_HOST: '127.0.0.1', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn' },
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

const BENCH_USER = { username: 'bench', password: 'bench password 123' };
/**
 * Access tokens last 15 minutes and a run with the models on outlives them: a 401 signs the bench
 * account in again and retries once. Keyed by the first token, which the callers keep passing.
 */
const renewed = new Map<string, string>();

async function api<T = any>(url: string, method: string, token: string | null, body?: unknown): Promise<T> {
  const send = (bearer: string | null) => {
    const headers: Record<string, string> = {};
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    return fetch(url, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) });
  };
  let r = await send(token ? (renewed.get(token) ?? token) : null);
  if (r.status === 401 && token) {
    const login = await fetch(`${new URL(url).origin}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_USER) });
    if (login.ok) {
      renewed.set(token, ((await login.json()) as { token: string }).token);
      r = await send(renewed.get(token)!);
    }
  }
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

/** Uploads the files, two at a time; counts the answers by kind. */
async function uploadCorpus(url: string, token: string, files: string[]): Promise<Record<string, number>> {
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
/** The server: the last node process that is not an inference worker (`node -e …`, its children). */
const serverOf = (tree: ReturnType<typeof processTree>) => tree.findLast((p) => p.command.startsWith('node') && !p.command.includes(' -e ')) ?? tree.at(-1)!;
/**
 * The tree without `npm start`'s npm process (and its shell), as a service manager or `node server/dist/main.js`
 * runs it. npm stays resident beside the server for as long as it runs: it waits for its script to end, and
 * what a household expects of `npm start` is a foreground server that Ctrl-C stops, which needs npm there
 * to pass the signal and report the exit. Nothing of ours runs in npm (it loads before our code), so its
 * ~60 MB cannot be made smaller from here; the report shows the tree both with it and without it.
 */
function withoutNpm(tree: ReturnType<typeof processTree>): ReturnType<typeof processTree> {
  const kept = new Set([serverOf(tree).pid]);
  for (const p of tree) if (kept.has(p.ppid)) kept.add(p.pid); // parents come before their children
  return tree.filter((p) => kept.has(p.pid));
}

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

/** What the server process holds, from /proc/<pid>/status: anonymous memory, file-backed pages, threads. */
function serverMemory(pid: number): string {
  let status = '';
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 'gone';
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  const mb = (kb: number) => (kb / 1024).toFixed(0);
  return `anonymous ${mb(field('RssAnon'))} MB, file-backed ${mb(field('RssFile'))} MB, shared ${mb(field('RssShmem'))} MB, ${field('Threads')} threads`;
}

/**
 * Samples the tree's RSS every 250 ms until stopped; the highest total is the peak. A node process with the
 * command line of its parent is the server forking to start ffmpeg, caught before its exec: its RSS is the
 * server's pages shared copy-on-write, counted twice, so it is left out (it showed as a second 477 MB
 * "server"). Two inference workers (`node -e …`, children of the server) share a command line but are two
 * processes: both count.
 */
function peakSampler(pid: number): { stop: () => { rssMb: number; at: string } } {
  let peak = { rssMb: 0, at: '' };
  const timer = setInterval(() => {
    const all = processTree(pid);
    const tree = all.filter((p) => !p.command.startsWith('node') || all.find((q) => q.pid === p.ppid)?.command !== p.command);
    const { rssMb } = treeTotals(tree);
    if (rssMb > peak.rssMb) peak = { rssMb, at: describeTree(tree) };
  }, 250);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

interface MlDiagnostics {
  max_workers: number;
  workers: number;
  intra_op_threads: number;
  models_loaded: { model_id: string }[];
}

const mlOf = (url: string, token: string) => api<{ ml: MlDiagnostics }>(`${url}/api/v1/runtime/diagnostics`, 'GET', token).then((d) => d.ml);

/** The settings that bound the peak, as this server runs them. */
async function settings(url: string, token: string): Promise<string> {
  const ml = await mlOf(url, token);
  const env = { ...process.env, ...EXTRA_ENV };
  const queues = jobQueues();
  const idleS = env.HEARTH_ML_IDLE_S ? Number(env.HEARTH_ML_IDLE_S) : DEFAULT_IDLE_MS / 1000;
  return (
    `settings: inference workers ${ml.max_workers - 1} for indexing + 1 for queries (HEARTH_ML_WORKERS=${env.HEARTH_ML_WORKERS ?? 'cores'}), ` +
    `${ml.intra_op_threads} onnxruntime thread(s) each; models released after ${idleS} s idle (HEARTH_ML_IDLE_S); ` +
    `job queues ${Object.entries(queues).map(([q, c]) => `${q} ${c.concurrency}`).join(', ')} at once; OCR batch ${OCR_PARAMS.rec.batchSize} lines`
  );
}

/** The tree's RSS 10, 30 and 60 s after the work ended (`ended`: performance.now() then). */
async function afterWork(s: Started, token: string, ended: number, pad: string): Promise<string[]> {
  const out: string[] = [];
  for (const at of [10, 30, 60]) {
    await sleep(Math.max(0, ended + at * 1000 - performance.now()));
    const tree = processTree(s.child.pid!);
    const server = serverOf(tree);
    const ml = await mlOf(s.url, token);
    const met = treeTotals(tree).rssMb <= 250 ? 'met' : 'NOT met';
    const bare = withoutNpm(tree);
    out.push(
      `${pad}  ${at} s after: ${describeTree(tree)}; the server ${server.rssMb.toFixed(0)} MB (${serverMemory(server.pid)}; ` +
        `${ml.workers} inference worker(s), ${ml.models_loaded.length} model(s) loaded)` +
        (bare.length < tree.length ? `; without the npm parent ${treeTotals(bare).rssMb.toFixed(0)} MB` : '') +
        (at === 60 ? `; target ≤ 250 MB for the whole tree within 60 s: ${met}` : ''),
    );
  }
  return out;
}

const MODELS_ENV = { HEARTH_MODELS_DIR: MODELS };

async function measureCorpus(mode: Mode): Promise<string[]> {
  const label = COMMANDS[mode].label;
  const dataDir = path.join(work, `data-corpus-${mode}`);
  const s = await start(mode, dataDir, MODELS_ENV);
  try {
    const session = await api<{ token: string }>(`${s.url}/api/v1/auth/register`, 'POST', null, { ...BENCH_USER, display_name: 'Bench' });
    const pad = ' '.repeat(label.length);
    const t0 = performance.now();
    const peak = peakSampler(s.child.pid!);
    const counts = await uploadCorpus(s.url, session.token, corpusFiles());
    await waitForIdleQueue(s.url, session.token);
    const ended = performance.now() - 3000; // waitForIdleQueue saw the queue idle three times a second apart
    const top = peak.stop();
    const secs = (ended - t0) / 1000;
    const out = [
      `${label} after the corpus, models on (${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}; uploaded and processed in ${secs.toFixed(0)} s):`,
      `${pad}  ${await settings(s.url, session.token)}`,
      `${pad}  peak while working: ${top.at}`,
      ...(await afterWork(s, session.token, ended, pad)),
    ];
    return out;
  } finally {
    await stop(s.child);
  }
}

/** `n` distinct photos made from the corpus JPEGs: each its own crop (80–100 %) and JPEG quality (60–94). */
async function makePhotos(n: number): Promise<string[]> {
  const dir = path.join(work, 'mixed');
  fs.mkdirSync(dir, { recursive: true });
  const sources = corpusFiles().filter((f) => /\/(faces|labelled|ocr|exif)\/[^/]+\.jpe?g$/i.test(f));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const src = sources[i % sources.length]!;
    const file = path.join(dir, `mixed_${String(i).padStart(5, '0')}.jpg`);
    try {
      const img = sharp(src, { failOn: 'none' }).rotate();
      const { width = 0, height = 0 } = await img.metadata();
      const keep = 0.8 + ((i * 7) % 21) / 100;
      const w = Math.max(16, Math.floor(width * keep));
      const h = Math.max(16, Math.floor(height * keep));
      await img
        .extract({ left: Math.floor((width - w) * ((i % 5) / 4)), top: Math.floor((height - h) * ((i % 3) / 2)), width: Math.min(w, width), height: Math.min(h, height) })
        .jpeg({ quality: 60 + (i % 35) })
        .toFile(file);
      out.push(file);
    } catch {
      // a damaged corpus file (there are some on purpose): the next source stands in
      n++;
    }
  }
  return out;
}

/** Runs `total` read queries, `parallel` at a time, until done: the searches and lists a household makes. */
async function runQueries(url: string, token: string, total: number, parallel: number): Promise<{ done: number; failed: number }> {
  const words = ['beach', 'dog', 'sunset', 'text', 'canon', 'nikon', '2009', 'photos from 2012', 'portrait', 'street sign'];
  const makes = ['Canon', 'NIKON CORPORATION', 'Apple', 'SONY'];
  let next = 0;
  let failed = 0;
  const one = (i: number): Promise<unknown> => {
    switch (i % 4) {
      case 0:
        return api(`${url}/api/v1/assets/search`, 'POST', token, { query: words[i % words.length], pagination: { limit: 50 } });
      case 1: // the timeline, paging down by date
        return api(`${url}/api/v1/assets/query`, 'POST', token, { sort_by: 'date_captured', pagination: { limit: 100, offset: (i * 37) % 1000 } });
      case 2: // metadata search: a camera make as a filter
        return api(`${url}/api/v1/assets/query`, 'POST', token, { filter: { camera_make: makes[i % makes.length] }, pagination: { limit: 100 } });
      default:
        return api(`${url}/api/v1/assets/search`, 'POST', token, { query: `${words[(i * 3) % words.length]} ${makes[i % makes.length]}`, sort_by: 'date_captured' });
    }
  };
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await one(i).catch(() => failed++);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { done: total, failed };
}

async function measureMixed(mode: Mode): Promise<string[]> {
  const label = COMMANDS[mode].label;
  const photos = await makePhotos(FILES);
  const dataDir = path.join(work, `data-mixed-${mode}`);
  const s = await start(mode, dataDir, MODELS_ENV);
  try {
    const session = await api<{ token: string }>(`${s.url}/api/v1/auth/register`, 'POST', null, { ...BENCH_USER, display_name: 'Bench' });
    const token = session.token;
    const pad = ' '.repeat(label.length);
    const t0 = performance.now();
    const peak = peakSampler(s.child.pid!);
    const [counts, queries] = await Promise.all([uploadCorpus(s.url, token, photos), runQueries(s.url, token, QUERIES, 4)]);
    await waitForIdleQueue(s.url, token);
    const indexed = performance.now();
    await api(`${s.url}/api/v1/people/rebuild`, 'POST', token).catch((e: { status?: number }) => {
      if (e.status !== 409) throw e; // 409: a rebuild is already running (the indexing asked for one)
    });
    while ((await api<{ running: boolean }>(`${s.url}/api/v1/people/rebuild`, 'GET', token)).running) await sleep(250);
    await waitForIdleQueue(s.url, token);
    const ended = performance.now() - 3000;
    const top = peak.stop();
    const people = await api<{ items?: unknown[]; data?: unknown[] }>(`${s.url}/api/v1/people?limit=200`, 'GET', token).catch(() => null);
    const out = [
      `${label} after a mixed load, models on: ${photos.length} distinct photos (${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}) ` +
        `with ${queries.done} queries beside them (${queries.failed} failed), indexed in ${((indexed - t0) / 1000).toFixed(0)} s, ` +
        `then a people rebuild (${((ended - indexed) / 1000).toFixed(0)} s${people ? `, ${(people.items ?? people.data ?? []).length} people listed` : ''}):`,
      `${pad}  ${await settings(s.url, token)}`,
      `${pad}  peak while working: ${top.at}`,
      ...(await afterWork(s, token, ended, pad)),
    ];
    return out;
  } finally {
    await stop(s.child);
  }
}

const missing = [
  [CORPUS, 'the test media corpus'],
  [MODELS, 'the verified models (faces, OCR)'],
].filter(([dir]) => !fs.existsSync(dir!));
if (missing.length) {
  console.error(`footprint: ${missing.map(([dir, what]) => `${what} is not at ${dir}`).join('; ')}. Put them there (or set HEARTH_SHARED_MODELS for the models), then run again.`);
  process.exit(2);
}

const extra = Object.keys(EXTRA_ENV).length ? ` with ${Object.entries(EXTRA_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
console.log(`footprint${extra} (${os.availableParallelism()} CPUs; load average ${os.loadavg()[0]!.toFixed(1)})`);
const say = (lines: string[]) => lines.forEach((l) => console.log(l));
try {
  if (STARTS > 0) for (const mode of MODES) say(await measureMode(mode));
  if (!argv.includes('--no-corpus')) say(await measureCorpus(MODES[0]!));
  if (FILES > 0) say(await measureMixed(MODES[0]!));
} catch (e) {
  // A server that would not start or answer: its message (and output) says why, a stack trace would not.
  console.error(`footprint: stopped: ${(e as Error).message}`);
  process.exit(1);
}
process.exit(0);
