/**
 * `npm run bench:ingest`, part 1: end-to-end ingest throughput of the corpus JPEGs (index: detect +
 * BLAKE3; pipeline: EXIF, three WebP thumbnails from one decode, pHash, catalog writes, media item)
 * through the real IngestService and job queue, beside `vipsthumbnail` (Debian libvips-tools) making
 * one thumbnail per file with the same parallelism. Each round runs both, one after the other, on fresh
 * copies. Prints per round: files/s and CPU time per file of both and their ratio, and how many cores other
 * processes of the machine took meanwhile; then the best of each and their ratio (target ≥ 0.8) and the
 * peak RSS of this process (the server container with libvips; vipsthumbnail runs in child processes).
 * Part 2 (uploads) is scripts/bench/upload.ts.
 *
 * Reading the figures: on a shared machine other processes change both sides, and not equally (vipsthumbnail
 * starts a process per file, and the two sides run different numbers of threads), so trust rounds where
 * "other processes" stayed near 0 and compare runs made under similar load. CPU time per file is the figure
 * that load disturbs least. The peak RSS is mostly glibc's allocator keeping memory that libvips threads
 * freed (per-thread arenas, and a mmap threshold that rises after the first large free): measured with this
 * script, 617 MB by default, 382 MB with MALLOC_ARENA_MAX=2 and 310 MB with MALLOC_MMAP_THRESHOLD_=131072 in
 * the environment, Hearth's CPU per file unchanged. That is a setting for whatever starts the server.
 *
 *   npm run bench:ingest [-- --rounds 3]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer } from '../../server/src/container.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { jobQueues } from '../../server/src/jobs.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 2;

function jpegs(): string[] {
  const out: string[] = [];
  for (const dir of fs.readdirSync(CORPUS)) {
    const d = path.join(CORPUS, dir);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d)) if (/\.jpe?g$/i.test(f)) out.push(path.join(d, f));
  }
  return out.sort();
}

/**
 * CPU accounting for the report (Linux /proc; elsewhere only this process's own time is known): this
 * process, its finished children (the vipsthumbnail runs) and the whole machine, in seconds. What the machine
 * used beyond us is what other processes took from the cores during the measurement.
 */
interface CpuSnapshot {
  self: number;
  children: number | null;
  machine: number | null;
}

const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux architecture Node supports

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function cpuSnapshot(): CpuSnapshot {
  const u = process.cpuUsage();
  const stat = readProc('/proc/self/stat');
  // Fields after "(comm)": state is field 3, cutime and cstime are fields 16 and 17.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = fields ? (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS : null;
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
  const cpu = readProc('/proc/stat')?.split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number);
  const machine = cpu ? (cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + cpu[7]!) / CLOCK_TICKS : null;
  return { self: (u.user + u.system) / 1e6, children: Number.isFinite(children) ? children : null, machine };
}

interface CpuUse {
  /** CPU seconds of this process, and of the children that finished in the interval. */
  self: number;
  children: number | null;
  /** Cores used on average by every other process of the machine during the interval. */
  othersCores: number | null;
}

function cpuSince(start: CpuSnapshot, secs: number): CpuUse {
  const end = cpuSnapshot();
  const self = end.self - start.self;
  const children = end.children !== null && start.children !== null ? end.children - start.children : null;
  const others = end.machine !== null && start.machine !== null && children !== null ? end.machine - start.machine - self - children : null;
  return { self, children, othersCores: others === null ? null : Math.max(0, others) / secs };
}

async function hearthRound(files: string[]): Promise<{ filesPerSec: number; cpu: CpuUse }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
  const config = loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent' });
  const c = createContainer(config, createLogger('silent'));
  const repo = c.repositories.primary()!;
  const owner = c.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
  files.forEach((f, i) => fs.copyFileSync(f, path.join(repo.path, `${i}-${path.basename(f)}`)));
  const cpu0 = cpuSnapshot();
  const t0 = performance.now();
  for (let i = 0; i < files.length; i++) {
    await c.ingest.indexFile({ repositoryId: repo.repository_id, relPath: `${i}-${path.basename(files[i]!)}`, ownerId: owner, source: 'scan' });
  }
  await c.jobRunner.whenIdle();
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(cpu0, secs);
  const ready = c.db.prepare("SELECT count(*) FROM assets WHERE state = 'ready'").pluck().get() as number;
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (ready < files.length * 0.95) throw new Error(`only ${ready} of ${files.length} became ready`);
  return { filesPerSec: files.length / secs, cpu };
}

async function vipsRound(files: string[], parallel: number): Promise<{ filesPerSec: number; cpu: CpuUse }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vips-bench-'));
  const queue = files.map((f, i) => [f, i] as const);
  const cpu0 = cpuSnapshot();
  const t0 = performance.now();
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const [f, i] = item;
      await new Promise<void>((resolve) => {
        const p = spawn('vipsthumbnail', [f, '--size', '400', '-o', path.join(out, `${i}.webp`)], { stdio: 'ignore' });
        p.on('exit', () => resolve());
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(cpu0, secs);
  fs.rmSync(out, { recursive: true, force: true });
  return { filesPerSec: files.length / secs, cpu };
}

const files = jpegs();
const parallel = jobQueues().media!.concurrency;
console.log(`corpus JPEGs: ${files.length} files, ${(files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6).toFixed(1)} MB; parallelism ${parallel}`);
const msPerFile = (secs: number | null) => (secs === null ? '?' : ((secs * 1000) / files.length).toFixed(0));
const cores = (c: number | null) => (c === null ? 'unknown' : c.toFixed(2));
let best = { hearth: 0, vips: 0 };
for (let r = 1; r <= rounds; r++) {
  const hearth = await hearthRound(files);
  const vips = await vipsRound(files, parallel);
  console.log(
    `round ${r}: hearth ${hearth.filesPerSec.toFixed(1)} files/s (hash + EXIF + 3 thumbnails + pHash + catalog; ${msPerFile(hearth.cpu.self)} ms CPU/file), ` +
      `vipsthumbnail ${vips.filesPerSec.toFixed(1)} files/s (1 thumbnail; ${msPerFile(vips.cpu.children)} ms CPU/file), ratio ${(hearth.filesPerSec / vips.filesPerSec).toFixed(2)}`,
  );
  console.log(`         other processes on this machine used ${cores(hearth.cpu.othersCores)} cores during hearth, ${cores(vips.cpu.othersCores)} during vipsthumbnail (of ${os.availableParallelism()})`);
  best = { hearth: Math.max(best.hearth, hearth.filesPerSec), vips: Math.max(best.vips, vips.filesPerSec) };
}
const ratio = best.hearth / best.vips;
console.log(`best: hearth ${best.hearth.toFixed(1)} files/s, vipsthumbnail ${best.vips.toFixed(1)} files/s, ratio ${ratio.toFixed(2)} (target ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process; vipsthumbnail runs in child processes)`);
