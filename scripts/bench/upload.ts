/**
 * `npm run bench:ingest`, part 2: upload throughput over loopback.
 *
 * A generated file (default 1 GiB, an MP4 head and distinct pseudo-random blocks) goes to a
 * real Hearth server started as a child process on a temporary data folder, run as `npm start` runs
 * it: the built server (server/dist, built first when its sources changed) with the same node flags and
 * allocator settings (scripts/build-server.ts). Under tsx (`--tsx`) the server's heap is about twice
 * as large, and every major garbage collection an upload's socket buffers bring costs that much more:
 * the figure would be of the development setup, not of what a household runs.
 *   - chunked: createUploadSession (declaring the chunk size, as the web client does), then chunks
 *     of the server's configured `chunk_size` through batchUploadAssets, `max_concurrent` requests
 *     at a time, until the file is committed;
 *   - single: the whole file in one uploadAsset request.
 * Beside it, the plain loopback copy: a raw HTTP PUT of the same bytes to a minimal node:http server
 * (its own child process) that pipes the body to a file, flushed to disk before it answers (Hearth
 * fsyncs an upload before acknowledging it, so the copy does too). Before each measurement the page
 * cache is synced and the server's job queue is idle, so one run does not pay for the previous one.
 * Prints MB/s of each, the ratio to the plain copy, the peak RSS of the Hearth server process during
 * each upload (sampled every 20 ms from /proc/<pid>/status until the last response), and the CPU
 * time each server used for the upload (user + system, all threads): on a busy machine the MB/s
 * vary a lot from run to run, the CPU a server spends per GiB much less.
 *
 *   npx tsx scripts/bench/upload.ts [--size-mb 1024] [--rounds 3] [--only chunked|single] [--no-chunk-size]
 *     [--tsx] [--prof (CPU profile of the server into .tmp/)] [--server-flag <node flag>]…
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_ENTRY, SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../build-server.ts';
import { waitForLine } from './child-output.ts';

const root = path.resolve(import.meta.dirname, '../..');
const arg = (name: string, def: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : def);
const SIZE = arg('--size-mb', 1024) * 1024 * 1024;
/**
 * Three by default, and the ratio is their median: one round right after bench:ingest's footprint part measured
 * 0.73, the next three on the same code 0.91, 1.12 and 0.80 (the plain copy itself went from 240 to 401 MB/s).
 */
const ROUNDS = arg('--rounds', 3);
/** `--only chunked` / `--only single`: measure one path (with the plain copy), e.g. for a CPU profile of it. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** `--tsx`: run the server from its sources through tsx, not built (a larger heap: every GC costs more). */
const TSX = process.argv.includes('--tsx');
const BLOCK = 1024 * 1024;
const PASSWORD = 'bench password 123';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-upload-bench-'));
const children: ChildProcess[] = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

/**
 * The test file on disk: an MP4 head (so the server takes it as a video), then unique blocks. The
 * pipeline's ffprobe then fails on it in a child process of its own, outside the server's memory
 * (a JPEG head would have the server's image decoder read the whole 1 GiB file: RSS 1.2 GB).
 */
function makeFile(file: string): void {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(BLOCK);
  crypto.randomFillSync(block);
  Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex').copy(block, 0); // ftyp isom
  for (let off = 0; off < SIZE; off += BLOCK) {
    block.writeUInt32BE(off / BLOCK, 64);
    fs.writeSync(fd, block, 0, Math.min(BLOCK, SIZE - off));
  }
  fs.closeSync(fd);
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds (user, system; all threads) a process has used so far, and its minor page faults (Linux /proc; CPU in ticks of 10 ms). */
function cpuTimes(pid: number): { user: number; sys: number; faults: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100, faults: Number(fields[7]) }; // utime, stime, minflt (fields 14, 15, 10)
}

/** CPU used since `from` (cpuTimes), as "X s (user U + sys S, F k page faults)". */
function cpuSince(pid: number, from: { user: number; sys: number; faults: number }): { total: number; text: string } {
  const now = cpuTimes(pid);
  const user = now.user - from.user;
  const sys = now.sys - from.sys;
  const faults = Math.round((now.faults - from.faults) / 1000);
  return { total: user + sys, text: `${(user + sys).toFixed(1)} s (user ${user.toFixed(1)} + sys ${sys.toFixed(1)}, ${faults}k page faults)` };
}

/**
 * Peak resident memory of a process while `fn` runs, sampled every 20 ms (Linux /proc), and the
 * CPU time it used meanwhile (steadier than MB/s on a busy machine: what an upload costs the
 * server). Sampling stops with the last response, so the processing the server queues afterwards
 * does not count.
 */
async function peakRss<T>(pid: number, fn: () => Promise<T>): Promise<[T, number, string]> {
  let peak = rssMb(pid);
  const cpu0 = cpuTimes(pid);
  const t = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  try {
    const r = await fn();
    return [r, Math.max(peak, rssMb(pid)), cpuSince(pid, cpu0).text];
  } finally {
    clearInterval(t);
  }
}

function request(url: string, opts: http.RequestOptions, body?: (req: http.ClientRequest) => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, opts, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    if (body) body(req);
    else req.end();
  });
}

async function json(url: string, method: string, token: string | null, payload?: unknown): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await request(url, { method, headers }, (req) => req.end(payload === undefined ? undefined : JSON.stringify(payload)));
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
  return JSON.parse(r.text);
}

/** Streams [start, end) of the file as one multipart part named `field`. */
function postPart(url: string, token: string, field: string, file: string, start: number, end: number): Promise<{ status: number; text: string }> {
  const boundary = `bench${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="bench.mp4"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return request(
    url,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + (end - start) + tail.length) } },
    (req) => {
      req.write(head);
      const rs = fs.createReadStream(file, { start, end: end - 1, highWaterMark: BLOCK });
      rs.pipe(req, { end: false });
      rs.on('end', () => req.end(tail));
    },
  );
}

async function plainCopy(file: string): Promise<{ mbps: number; cpu: string }> {
  const dest = path.join(work, 'plain-dest');
  const code = `
    const http = require('node:http'); const fs = require('node:fs');
    const s = http.createServer((req, res) => {
      const out = fs.createWriteStream(process.argv[1], { flush: true });
      req.pipe(out);
      out.on('close', () => res.end('ok'));
    });
    s.listen(0, '127.0.0.1', () => console.log('PLAIN_READY ' + s.address().port));`;
  const child = spawn(process.execPath, ['-e', code, dest], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const port = Number((await waitForLine(child, /PLAIN_READY (\d+)/))[1]);
  const t0 = performance.now();
  const cpu0 = cpuTimes(child.pid!);
  const r = await request(`http://127.0.0.1:${port}/`, { method: 'PUT', headers: { 'content-length': String(SIZE) } }, (req) => fs.createReadStream(file, { highWaterMark: BLOCK }).pipe(req));
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(child.pid!, cpu0).text;
  if (r.status !== 200 || fs.statSync(dest).size !== SIZE) throw new Error(`plain copy failed: ${r.status} ${r.text}`);
  child.kill();
  fs.rmSync(dest);
  return { mbps: SIZE / 1e6 / secs, cpu };
}

interface Hearth {
  url: string;
  token: string;
  pid: number;
  repoPath: string;
}

async function startHearth(): Promise<Hearth> {
  const dataDir = path.join(work, 'data');
  const prof = process.argv.includes('--prof') ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, '.tmp', 'upload-bench-prof')}`] : [];
  // `--server-flag X` (repeatable) passes a node flag to the server, e.g. --trace-gc (shown with HEARTH_LOG_LEVEL set).
  const flags = process.argv.flatMap((a, i) => (a === '--server-flag' && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
  // As `npm start` runs it (see the top); `--tsx`: the sources through tsx instead.
  const entry = TSX ? ['--import', 'tsx', 'server/src/main.ts'] : [...SERVER_NODE_FLAGS, SERVER_ENTRY];
  if (!TSX && (await buildServer({ ifChanged: true, quiet: true })) === 'built') console.log('built the server (server/dist)');
  const child = spawn(process.execPath, [...prof, ...flags, ...entry], {
    cwd: root,
    env: { ...(TSX ? {} : SERVER_MALLOC_ENV), ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: process.env.HEARTH_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  if (process.env.HEARTH_LOG_LEVEL) child.stdout!.pipe(process.stderr);
  const m = await waitForLine(child, /HEARTH_READY (\{.*\})/);
  const url = `http://127.0.0.1:${(JSON.parse(m[1]!) as { port: number }).port}`;
  const session = await json(`${url}/api/v1/auth/register`, 'POST', null, { username: 'bench', password: PASSWORD, display_name: 'Bench' });
  return { url, token: session.token as string, pid: child.pid!, repoPath: path.join(dataDir, 'storage', 'primary') };
}

/** Waits until the server's job queue has nothing running (the pipeline of what was just uploaded). */
async function idleServer(h: Hearth): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const stats = await json(`${h.url}/api/v1/jobs/stats`, 'GET', h.token).catch(() => null);
    if (!stats || (stats.running === 0 && stats.available === 0 && stats.retryable === 0)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function chunked(h: Hearth, file: string, round: number): Promise<{ mbps: number; peak: number; cpu: string; chunk: number; concurrency: number }> {
  const cfg = await json(`${h.url}/api/v1/uploads/config`, 'GET', h.token);
  const chunk: number = cfg.chunk_size;
  const concurrency: number = cfg.max_concurrent;
  const total = Math.ceil(SIZE / chunk);
  const t0 = performance.now();
  // Like the web client (renderer/src/features/upload/upload-queue.ts), the session declares its
  // chunk size; `--no-chunk-size` leaves it to the server to learn (the first chunks then take a detour).
  const declared = process.argv.includes('--no-chunk-size') ? {} : { chunk_size: chunk };
  const s = await json(`${h.url}/api/v1/uploads/sessions`, 'POST', h.token, { filename: `bench-chunked-${round}.mp4`, total_size: SIZE, total_chunks: total, ...declared });
  let next = 0;
  let final: any = null;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const r = await postPart(`${h.url}/api/v1/uploads/batch`, h.token, `chunk_${s.session_id}_${i}_${total}`, file, i * chunk, Math.min(SIZE, (i + 1) * chunk));
      const res = JSON.parse(r.text).results?.[0];
      if (r.status !== 200 || !res?.success) throw new Error(`chunk ${i}: ${r.status} ${r.text}`);
      if (res.status !== 'uploading') final = res;
    }
  };
  const [, peak, cpu] = await peakRss(h.pid, () => Promise.all(Array.from({ length: concurrency }, worker)));
  const secs = (performance.now() - t0) / 1000;
  if (!final || final.status !== 'processing' || final.size !== SIZE) throw new Error(`chunked upload did not commit: ${JSON.stringify(final)}`);
  return { mbps: SIZE / 1e6 / secs, peak, cpu, chunk, concurrency };
}

async function single(h: Hearth, file: string, round: number): Promise<{ mbps: number; peak: number; cpu: string }> {
  // Different bytes than the chunked run (else: a duplicate, not stored): flip the last block's marker.
  const variant = path.join(work, `single-${round}.mp4`);
  fs.copyFileSync(file, variant);
  const fd = fs.openSync(variant, 'r+');
  fs.writeSync(fd, Buffer.from([round + 1]), 0, 1, SIZE - 1);
  fs.closeSync(fd);
  settle(); // the copy just made is 1 GiB of dirty pages: flushed now, not during the measurement
  const t0 = performance.now();
  const [r, peak, cpu] = await peakRss(h.pid, () => postPart(`${h.url}/api/v1/uploads/files`, h.token, 'file', variant, 0, SIZE));
  const secs = (performance.now() - t0) / 1000;
  fs.rmSync(variant);
  const body = JSON.parse(r.text);
  if (r.status !== 200 || body.status !== 'processing') throw new Error(`single upload: ${r.status} ${r.text}`);
  return { mbps: SIZE / 1e6 / secs, peak, cpu };
}

/** Starts each measurement without the previous one's dirty pages being flushed under it. */
function settle(): void {
  try {
    execSync('sync');
  } catch {
    /* no sync(1): measurements are then a little noisier */
  }
}

async function main() {
  const file = path.join(work, 'bench.mp4');
  console.log(`generating ${(SIZE / 1024 / 1024).toFixed(0)} MiB test file in ${work}`);
  makeFile(file);
  const h = await startHearth();
  console.log(`hearth server pid ${h.pid}, idle RSS ${rssMb(h.pid).toFixed(0)} MB`);
  const rows: string[] = [];
  const ratios: { chunked: number[]; single: number[] } = { chunked: [], single: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round uploads new content (the catalog still holds the previous rounds' hashes).
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from([round]), 0, 1, 200);
    fs.closeSync(fd);
    settle();
    const { mbps: plain, cpu: plainCpu } = await plainCopy(file);
    settle();
    const parts = [`round ${round + 1}: plain loopback PUT ${plain.toFixed(0)} MB/s (server CPU ${plainCpu})`];
    if (ONLY !== 'single') {
      const c = await chunked(h, file, round);
      await idleServer(h);
      // Its output goes, as the plain copy's does right after it: each measurement then writes into
      // memory the kernel just freed. (On this VM, writing into memory not touched for a while costs
      // far more kernel time: single uploads measured right after a kept chunked one spent about
      // 3 s of system time per GiB instead of about 1.2 s.)
      fs.rmSync(path.join(h.repoPath, 'uploads'), { recursive: true, force: true });
      settle();
      ratios.chunked.push(c.mbps / plain);
      parts.push(`hearth chunked (${c.chunk / 1024 / 1024} MiB x ${c.concurrency}) ${c.mbps.toFixed(0)} MB/s = ${(c.mbps / plain).toFixed(2)} of plain, peak RSS ${c.peak.toFixed(0)} MB, server CPU ${c.cpu}`);
    }
    if (ONLY !== 'chunked') {
      const s = await single(h, file, round); // settles itself once its input file is made
      await idleServer(h);
      ratios.single.push(s.mbps / plain);
      parts.push(`hearth single ${s.mbps.toFixed(0)} MB/s = ${(s.mbps / plain).toFixed(2)} of plain, peak RSS ${s.peak.toFixed(0)} MB, server CPU ${s.cpu}`);
    }
    rows.push(parts.join(' | '));
    console.log(rows.at(-1));
    // Drop what was committed so the next round stores the same sizes again (and the disk stays free).
    fs.rmSync(path.join(h.repoPath, 'uploads'), { recursive: true, force: true });
  }
  if (process.argv.includes('--prof')) {
    process.kill(h.pid, 'SIGTERM'); // main.ts exits on SIGTERM, writing the CPU profile
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`CPU profile of the server in ${path.join(root, '.tmp', 'upload-bench-prof')}`);
  }
  const server = TSX ? 'server from its sources through tsx' : 'built server, run as npm start runs it';
  console.log(`\nupload bench (${(SIZE / 1024 / 1024).toFixed(0)} MiB, ${os.availableParallelism()} CPUs, ${server}):\n${rows.join('\n')}`);
  // The ratios to the plain copy of the same round (median over the rounds), as the issue quotes them.
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  for (const kind of ['chunked', 'single'] as const) {
    if (ratios[kind].length) console.log(`${kind.padEnd(7)} upload: ${median(ratios[kind]).toFixed(2)} of a plain loopback PUT (target ≥ 0.8; ${ratios[kind].length > 1 ? `median of ${ratios[kind].length} rounds: ${ratios[kind].map((r) => r.toFixed(2)).join(', ')}` : '1 round'})`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
