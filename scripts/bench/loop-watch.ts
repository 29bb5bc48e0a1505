/**
 * What a household feels while a long job runs in the server (issue 25 point 4), shared by bench:faces (people
 * rebuild), bench:events (events rebuild) and the scan bench:
 *
 * - `LoopWatch`: the longest time the event loop was held. Two measures, both printed: perf_hooks'
 *   monitorEventLoopDelay at a 1 ms resolution (its max), and a 1 ms setInterval whose drift (the gap between
 *   two firings minus the interval) is the wait any timer or request saw. The larger of the two is "the longest
 *   stall"; the target is ≤ 50 ms. Beside it, the longest garbage-collection pause of this isolate (perf_hooks
 *   'gc' entries: a major GC of a heap holding every face's embedding was most of the stalls left in round one),
 *   with the number of GCs and their total time, so a stall can be told apart from a pause. And where the main
 *   thread was during the longest stall (Linux: /proc/thread-self/schedstat and, with kernel.task_delayacct on,
 *   its block-I/O wait): on a core (the server's own work), waiting for a core (the machine's other threads and
 *   processes), waiting on the disk (a read or write of the catalog that the page cache did not absorb), or else
 *   asleep; plus the most CPU the main thread used in any one stall. Two cores shared with the browsing client and
 *   V8's helpers stretch a 15 ms turn to 30-50 ms, and this VM pages out page cache idle for a minute (DAMON), so a
 *   catalog read after an idle spell waits on the disk: the split says which of those a long stall was.
 * - `Browsing`: a person browsing the library over real HTTP against the same server while the job runs:
 *   the timeline's buckets (queryAssets/years), one bucket's assets (queryAssets for a year), the people list
 *   and one photo's info (getAsset), one after another as a person clicks, timed until the whole answer has
 *   arrived. The same requests measured idle first, so the two p95s stand side by side.
 *
 * The client runs in a process of its own (a small plain-JavaScript child, `BROWSER` below), as a person's
 * browser does: until round three it shared this process with the server, so the stalls and GC pauses
 * measured here were partly its own (its fetch machinery and the parsed answers of ~1400 requests lived in the
 * server's heap; issue 25 point 3). The server's event loop is what the stall measures; the answer times are
 * what the person waits, server's loop included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer, type Container } from '../../server/src/container.ts';
import { createApp } from '../../server/src/app.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { hashPassword } from '../../server/src/platform/crypto/passwords.ts';
import { CLOCK_TICKS } from './process-tree.ts';

export class LoopWatch {
  private readonly histogram = monitorEventLoopDelay({ resolution: 1 });
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private drift = 0;
  private gc = { longestMs: 0, count: 0, totalMs: 0, longestKind: '' };
  private observer: PerformanceObserver | null = null;
  private heapTimer: NodeJS.Timeout | null = null;
  private heapPeak = 0;
  private clocks: ThreadClocks | null = null;
  private split: StallSplit | null = null;
  private mostCpuMs = 0;
  private readonly diskAccounted = delayAccounting();

  start(): this {
    collectBenchGarbage();
    this.gc = { longestMs: 0, count: 0, totalMs: 0, longestKind: '' };
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gc.count++;
        this.gc.totalMs += e.duration;
        if (e.duration > this.gc.longestMs) {
          this.gc.longestMs = e.duration;
          this.gc.longestKind = GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'unknown';
        }
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
    // The main isolate's heap (live objects and garbage not yet collected), sampled every 50 ms: a figure that
    // does not stretch with the machine's load as the pauses do, though it counts churn as well as what a GC keeps.
    this.heapPeak = process.memoryUsage().heapUsed;
    this.heapTimer = setInterval(() => (this.heapPeak = Math.max(this.heapPeak, process.memoryUsage().heapUsed)), 50);
    this.histogram.reset();
    this.histogram.enable();
    this.last = performance.now();
    this.drift = 0;
    this.clocks = threadClocks();
    this.split = null;
    this.mostCpuMs = 0;
    this.timer = setInterval(() => {
      const now = performance.now();
      const gap = now - this.last;
      this.drift = Math.max(this.drift, gap - 1);
      this.account(gap);
      this.last = now;
    }, 1);
    return this;
  }

  /** Where the main thread spent the gap that just ended; kept when it is the longest so far. One read of /proc a tick. */
  private account(gapMs: number): void {
    const before = this.clocks;
    const after = (this.clocks = before && threadClocks());
    if (!before || !after) return;
    const onCpuMs = (after.onCpuNs - before.onCpuNs) / 1e6;
    if (gapMs > 2) this.mostCpuMs = Math.max(this.mostCpuMs, onCpuMs);
    if (this.split && gapMs <= this.split.wallMs) return;
    this.split = {
      wallMs: gapMs,
      onCpuMs,
      waitingForCpuMs: (after.waitNs - before.waitNs) / 1e6,
      diskMs: this.diskAccounted ? (after.blkioTicks - before.blkioTicks) * (1000 / CLOCK_TICKS) : null,
      mostCpuMs: 0,
    };
  }

  /** Stops watching; the longest stall (ms) by each measure and the larger of the two, and the GC pauses. */
  stop(): Stall {
    this.histogram.disable();
    this.observer?.disconnect();
    if (this.heapTimer) clearInterval(this.heapTimer);
    if (this.timer) clearInterval(this.timer);
    const now = performance.now();
    this.drift = Math.max(this.drift, now - this.last - 1);
    this.account(now - this.last);
    const histogramMs = this.histogram.max / 1e6;
    const split = this.split && { ...this.split, mostCpuMs: this.mostCpuMs };
    return { histogramMs, driftMs: this.drift, longestMs: Math.max(histogramMs, this.drift), split, gc: { ...this.gc, heapPeakMb: this.heapPeak / 1e6 } };
  }
}

/**
 * A full GC of this isolate before a watch starts: the bench's own setup (100k synthetic faces or photos built and
 * written) leaves tens of MB of garbage that a server never has, and its collection fell inside the watched job
 * (a 757 ms "reduce" GC at the start of a people rebuild in round four). Collected first, it is not counted
 * against the job. `gc` is exposed for this call only if the process was not started with --expose-gc.
 */
function collectBenchGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

export interface Stall {
  histogramMs: number;
  driftMs: number;
  longestMs: number;
  /** Where the main thread was during the longest gap between two timer firings (null where /proc is not there). */
  split?: StallSplit | null;
  /** This isolate's garbage collections while watched: the longest pause, how many, their total (ms). */
  gc?: { longestMs: number; count: number; totalMs: number; heapPeakMb?: number; longestKind?: string };
}

/** The main thread's time during a stall by where it was (ms); `diskMs` null when delay accounting is off. */
export interface StallSplit {
  wallMs: number;
  onCpuMs: number;
  waitingForCpuMs: number;
  diskMs: number | null;
  /** The most CPU the main thread used in any one stall over 1 ms: the longest of the server's own turns, stretched by nothing. */
  mostCpuMs: number;
}

/** The main thread's scheduler clocks (ns on a core, ns runnable but waiting) and its block-I/O wait (clock ticks). */
interface ThreadClocks {
  onCpuNs: number;
  waitNs: number;
  blkioTicks: number;
}

function threadClocks(): ThreadClocks | null {
  try {
    const [on, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    // delayacct_blkio_ticks is field 42 of stat(5); after "(comm)" it is at index 39.
    const blkio = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[39]);
    return { onCpuNs: on!, waitNs: wait!, blkioTicks: blkio };
  } catch {
    return null;
  }
}

/** Whether the kernel accounts block-I/O waits per task (kernel.task_delayacct, off by default). */
function delayAccounting(): boolean {
  try {
    return fs.readFileSync('/proc/sys/kernel/task_delayacct', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/** perf_hooks' NODE_PERFORMANCE_GC_* kinds: which collection the longest pause was. */
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental marking', 8: 'weak callbacks' };

export interface BenchServer {
  base: string;
  container: Container;
  close(): Promise<void>;
}

/** The real server (container + app + HTTP on loopback) over an existing data folder, in this process. */
export async function startBenchServer(dataDir: string): Promise<BenchServer> {
  const config = loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent', HEARTH_ML_DEFAULT_ON: 'false' });
  const container = createContainer(config, createLogger('silent'));
  const app = createApp(container);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    container,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await container.close();
    },
  };
}

export const BENCH_PASSWORD = 'bench password 1';

/**
 * A running server on a fresh temporary data folder for benches that write catalog rows without files: its job
 * runner is stopped (the media pipeline would only find the files missing; the bench runs the work it measures
 * itself), and an administrator `bench` exists. `close` stops it and removes the folder.
 */
export async function startRowsOnlyServer(prefix: string): Promise<BenchServer & { owner: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const server = await startBenchServer(dataDir);
  await server.container.jobRunner.stop();
  const password_hash = await hashPassword(BENCH_PASSWORD);
  const owner = server.container.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash, role: 'admin', now: Date.now() }).user_id;
  return {
    ...server,
    owner,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signIn(base: string, username: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

interface Step {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * The browsing process: `node -e BROWSER '<{base, token, steps}>'`, driven over IPC. Says `{ready}` first; then
 * `{cmd: 'idle', rounds}` (one untimed warm pass, then `rounds` timed passes) or `{cmd: 'browse'}` (passes until
 * `{cmd: 'stop'}`) answer `{times}`: per step, the milliseconds until its whole answer had arrived.
 */
const BROWSER = `
const { base, steps, login } = JSON.parse(process.argv[1]);
let { token } = JSON.parse(process.argv[1]);
const send = (s) =>
  fetch(base + '/api/v1' + s.path, {
    method: s.method,
    headers: { authorization: 'Bearer ' + token, ...(s.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: s.body !== undefined ? JSON.stringify(s.body) : undefined,
  });
// An access token lasts 15 minutes: a long run signs in again (untimed) when the server says it expired, as the
// web app refreshes its session.
const renew = async () => {
  const r = await fetch(base + '/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(login) });
  if (r.status !== 200) throw new Error('signing in again failed: ' + r.status);
  token = (await r.json()).token;
};
const call = async (s) => {
  let t = performance.now();
  let r = await send(s);
  if (r.status === 401 && login) {
    await r.text();
    await renew();
    t = performance.now();
    r = await send(s);
  }
  const text = await r.text();
  const ms = performance.now() - t;
  if (r.status !== 200) throw new Error(s.method + ' ' + s.path + ': ' + r.status + ' ' + text.slice(0, 300));
  return ms;
};
let stop = false;
process.on('message', async (m) => {
  try {
    const times = steps.map(() => []);
    if (m.cmd === 'stop') return void (stop = true);
    if (m.cmd === 'idle') {
      for (const s of steps) await call(s);
      for (let r = 0; r < m.rounds; r++) for (const [i, s] of steps.entries()) times[i].push(await call(s));
    } else {
      while (!stop) for (const [i, s] of steps.entries()) if (!stop) times[i].push(await call(s));
    }
    process.send({ times });
  } catch (e) {
    process.send({ error: String((e && e.message) || e) });
  }
});
process.send({ ready: true });
`;

const p95 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]! : NaN);

/** A person browsing: the four requests above, in turn, as fast as the answers come (one at a time). */
export class Browsing {
  private constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly steps: Step[],
    /** How the browsing process signs in again when the token expires (runs longer than its 15 minutes). */
    private readonly login?: { username: string; password: string },
  ) {}

  /** The steps for `token`'s library: a year that has photos, and one of its photos. */
  static async prepare(base: string, token: string, login?: { username: string; password: string }): Promise<Browsing> {
    const b = new Browsing(base, token, [], login);
    const years = (await b.call({ name: '', method: 'POST', path: '/assets/query/years', body: {} })).body as { years: { year: number }[] };
    const year = years.years[Math.floor(years.years.length / 2)]?.year ?? new Date().getUTCFullYear();
    const bucket = { filter: { date: { from: `${year}-01-01`, to: `${year}-12-31` } }, pagination: { limit: 200 } };
    const page = (await b.call({ name: '', method: 'POST', path: '/assets/query', body: bucket })).body as { items: { media_item: { primary_asset: { asset_id: string } } }[] };
    const assetId = page.items[0]?.media_item.primary_asset.asset_id;
    if (!assetId) throw new Error(`no photo in ${year} to open`);
    return new Browsing(base, token, [
      { name: 'timeline buckets', method: 'POST', path: '/assets/query/years', body: {} },
      { name: "a bucket's assets", method: 'POST', path: '/assets/query', body: bucket },
      { name: 'people list', method: 'GET', path: '/people?limit=50' },
      { name: "an asset's info", method: 'GET', path: `/assets/${assetId}` },
    ], login);
  }

  private async call(s: Step): Promise<{ ms: number; body: unknown }> {
    const send = () =>
      fetch(`${this.base}/api/v1${s.path}`, {
        method: s.method,
        headers: { authorization: `Bearer ${this.token}`, ...(s.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: s.body !== undefined ? JSON.stringify(s.body) : undefined,
      });
    const t = performance.now();
    // A kept-alive connection the server closed while this process's loop was busy (bench:import builds its zips
    // and runs unzip synchronously between two requests) fails the first request sent on it: sent once more on a
    // new connection, as a browser does. These are reads: sending one twice changes nothing.
    const r = await send().catch((e: Error & { cause?: { code?: string } }) => {
      if (e.cause?.code === 'UND_ERR_SOCKET') return send();
      throw e;
    });
    const text = await r.text();
    const ms = performance.now() - t;
    if (r.status !== 200) throw new Error(`${s.method} ${s.path}: ${r.status} ${text.slice(0, 300)}`);
    return { ms, body: JSON.parse(text) };
  }

  /** `rounds` passes over the steps with nothing else running (the first pass warms the caches, untimed). */
  async idle(rounds: number): Promise<number[][]> {
    const browser = this.browser();
    try {
      const done = browser.reply();
      browser.child.send({ cmd: 'idle', rounds });
      return await done;
    } finally {
      browser.child.kill();
    }
  }

  /** Passes over the steps (from the browsing process) until `job` settles; its result and the times. */
  async during<T>(job: Promise<T>): Promise<{ result: T; times: number[][] }> {
    const browser = this.browser();
    try {
      await browser.ready;
      const done = browser.reply();
      browser.child.send({ cmd: 'browse' });
      const result = await job.finally(() => browser.child.send({ cmd: 'stop' }));
      return { result, times: await done };
    } finally {
      browser.child.kill();
    }
  }

  /** A browsing process for this person's steps (plain `node`: no TypeScript loader to start). */
  private browser(): { child: ChildProcess; ready: Promise<void>; reply: () => Promise<number[][]> } {
    const child = spawn(process.execPath, ['-e', BROWSER, JSON.stringify({ base: this.base, token: this.token, steps: this.steps, login: this.login })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
    const reply = () =>
      new Promise<number[][]>((resolve, reject) => {
        const onMessage = (m: { times?: number[][]; error?: string }) => {
          if (m.error) reject(new Error(`the browsing process failed: ${m.error}`));
          else if (m.times) resolve(m.times);
          else return;
          child.off('message', onMessage);
        };
        child.on('message', onMessage);
        child.once('exit', (code) => reject(new Error(`the browsing process stopped (exit code ${code})`)));
      });
    return { child, ready, reply };
  }

  /** The two p95s side by side, per request and over all of them. */
  report(idle: number[][], during: number[][]): string {
    const rows = this.steps.map((s, i) => `    ${s.name.padEnd(18)} p95 idle ${p95(idle[i]!).toFixed(1).padStart(6)} ms   during ${p95(during[i]!).toFixed(1).padStart(6)} ms   (${during[i]!.length} requests during)`);
    rows.push(`    ${'all four'.padEnd(18)} p95 idle ${p95(idle.flat()).toFixed(1).padStart(6)} ms   during ${p95(during.flat()).toFixed(1).padStart(6)} ms`);
    return rows.join('\n');
  }
}

/** One line for a stall: both measures and whether it meets the target. */
export function stallLine(what: string, s: Stall, target = 50): string {
  // The collector's settings change the pauses: say which ones ran (scripts/bench/as-server.ts gives the server's).
  const flags = process.execArgv.filter((f) => /^--(max-semi-space-size|heap-growing-percent|max-old-space-size)/.test(f)).join(' ') || "V8's defaults";
  const gc = s.gc ? `\n  longest GC pause during ${what}: ${s.gc.longestMs.toFixed(0)} ms, ${s.gc.longestKind ?? '?'} (${s.gc.count} GCs, ${s.gc.totalMs.toFixed(0)} ms in all, main isolate, ${flags}; its heap, garbage included, peaked at ${s.gc.heapPeakMb?.toFixed(0) ?? '?'} MB)` : '';
  const sp = s.split;
  const split = sp
    ? `\n  the longest gap between two timer firings (${sp.wallMs.toFixed(0)} ms), by where the main thread was: on a core ${sp.onCpuMs.toFixed(0)} ms, waiting for a core ${sp.waitingForCpuMs.toFixed(0)} ms, ` +
      `${sp.diskMs === null ? 'waiting on the disk not known (kernel.task_delayacct is off)' : `waiting on the disk ${sp.diskMs.toFixed(0)} ms`}, else asleep ${Math.max(0, sp.wallMs - sp.onCpuMs - sp.waitingForCpuMs - (sp.diskMs ?? 0)).toFixed(0)} ms; ` +
      `the most CPU of the main thread in any one gap: ${sp.mostCpuMs.toFixed(0)} ms`
    : '';
  return `  longest event-loop stall during ${what}: ${s.longestMs.toFixed(0)} ms (monitorEventLoopDelay max ${s.histogramMs.toFixed(0)} ms, timer drift max ${s.driftMs.toFixed(0)} ms; target ≤ ${target} ms: ${s.longestMs <= target ? 'met' : 'NOT met'})${split}${gc}`;
}
