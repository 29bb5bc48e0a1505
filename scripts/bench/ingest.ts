/**
 * `npm run bench:ingest`, part 1: ingest throughput of the corpus JPEGs through Hearth's real IngestService
 * and job queue, beside a batch `vipsthumbnail` (Debian libvips-tools) making Hearth's largest size of the
 * same files in the same round.
 *
 * What each side does:
 *   - Hearth (in this process, as the server runs it): per file, detect the type and BLAKE3-hash it (index),
 *     then the pipeline job: read EXIF/XMP, decode once (shrunk while decoding), write the timeline's WebP
 *     size (400 px long edge), the pHash, the catalog rows and the media item; `media` queue concurrency as on
 *     this machine. The 800 and 1920 px sizes are made on their first request (lazy-thumbnails.ts), so they
 *     are not in the ingest figure: their cost is measured apart and printed ("first view").
 *   - the target baseline makes Hearth's largest size, 1920 px, which Hearth itself defers; a second,
 *     informative baseline makes the 400 px size only, the size Hearth makes at ingest.
 *   - the baseline: only decode + shrink + encode, one size (1920 px long edge, never enlarged, WebP Q80
 *     effort 2 without metadata: Hearth's settings for its largest size), one `vipsthumbnail` process per
 *     worker Hearth runs, each given its share of the files on one command line (`vipsthumbnail -s 1920x1920>
 *     a.jpg b.jpg …`), libvips' default threads. No hashing, no metadata, no smaller sizes, no pHash, no
 *     catalog, no fsync. Earlier versions of this script started one vipsthumbnail per file, whose process
 *     start-up (~15–30 ms a file) flattered Hearth.
 * Both read the same files from copies made before the clock starts (warm page cache for both).
 *
 * Prints per round the files/s and CPU time per file of both sides, their ratio, and how many cores other
 * processes of the machine took meanwhile; then the best of each and their ratio (target ≥ 0.8), and the
 * peak RSS of this process (the pipeline with libvips; vipsthumbnail runs in child processes). The memory of
 * the server process tree and the cold start are part 2 (scripts/bench/footprint.ts), uploads part 3
 * (scripts/bench/upload.ts).
 *
 * Reading the figures: on a shared machine other processes change both sides, and not equally (the two sides
 * run different numbers of threads), so trust rounds where "other processes" stayed near 0 and compare runs
 * made under similar load. CPU time per file is the figure that load disturbs least.
 *
 *   npm run bench:ingest [-- --rounds 3]   (all three parts)
 *   npx tsx scripts/bench/ingest.ts [--rounds 3]
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

async function hearthRound(files: string[]): Promise<{ filesPerSec: number; cpu: CpuUse; firstView: { cpuMs: number; wallMs: number; count: number } }> {
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
  // The job runner's poll timer and the worker pools are unref'd (they never keep a server from exiting;
  // its listening socket keeps it alive). Here nothing else would while jobs wait on them: without this the
  // script ended half-way through a round with "unsettled top-level await".
  const keepAlive = setInterval(() => {}, 1000);
  await c.jobRunner.whenIdle();
  clearInterval(keepAlive);
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(cpu0, secs);
  const ready = c.db.prepare("SELECT count(*) FROM assets WHERE state = 'ready'").pluck().get() as number;
  const firstView = await firstViewCost(c, 40);
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (ready < files.length * 0.95) throw new Error(`only ${ready} of ${files.length} became ready`);
  return { filesPerSec: files.length / secs, cpu, firstView };
}

/**
 * What a first view costs: the large (1920 px) size made on request, as getAssetThumbnail does, for the
 * first `n` files of a round's catalog (one at a time, as a person opens photos), in CPU and wall time.
 */
async function firstViewCost(c: ReturnType<typeof createContainer>, n: number): Promise<{ cpuMs: number; wallMs: number; count: number }> {
  const ids = c.db.prepare("SELECT asset_id FROM assets WHERE state = 'ready' ORDER BY rowid LIMIT ?").pluck().all(n) as string[];
  const owner = c.db.prepare('SELECT owner_id FROM assets LIMIT 1').pluck().get() as number;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const id of ids) await c.assets.thumbnail({ userId: owner } as Parameters<typeof c.assets.thumbnail>[0], id, 'large');
  const u = process.cpuUsage(cpu0);
  return { cpuMs: (u.user + u.system) / 1000 / ids.length, wallMs: (performance.now() - t0) / ids.length, count: ids.length };
}

/** Splits the files into `n` groups of about equal bytes (largest first, each to the lightest group). */
function shares(files: string[], n: number): string[][] {
  const groups = Array.from({ length: n }, () => ({ bytes: 0, files: [] as string[] }));
  const bySize = files.map((f) => ({ f, size: fs.statSync(f).size })).sort((x, y) => y.size - x.size);
  for (const { f, size } of bySize) {
    const g = groups.reduce((min, g) => (g.bytes < min.bytes ? g : min));
    g.bytes += size;
    g.files.push(f);
  }
  return groups.map((g) => g.files).filter((g) => g.length > 0);
}

async function vipsRound(files: string[], parallel: number, edge: number): Promise<{ filesPerSec: number; cpu: CpuUse }> {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'vips-bench-src-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vips-bench-out-'));
  // Unique names (corpus folders repeat some), as Hearth's round copies them into its repository.
  const copies = files.map((f, i) => {
    const c = path.join(src, `${i}-${path.basename(f)}`);
    fs.copyFileSync(f, c);
    return c;
  });
  const cpu0 = cpuSnapshot();
  const t0 = performance.now();
  await Promise.all(
    shares(copies, parallel).map(
      (group) =>
        new Promise<void>((resolve, reject) => {
          // 1920x1920> : long edge 1920, only ever shrunk (Hearth never enlarges); output as Hearth's sizes.
          const p = spawn('vipsthumbnail', ['-s', `${edge}x${edge}>`, '-o', path.join(out, '%s.webp[Q=80,effort=2,strip]'), ...group], { stdio: ['ignore', 'ignore', 'pipe'] });
          let err = '';
          p.stderr.on('data', (d: Buffer) => (err += d.toString()));
          p.on('error', reject);
          // A damaged corpus file makes vipsthumbnail say so and go on with the next; only a crash is a failure.
          p.on('exit', (code, signal) => (signal ? reject(new Error(`vipsthumbnail killed by ${signal}: ${err}`)) : resolve()));
        }),
    ),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(cpu0, secs);
  const made = fs.readdirSync(out).length;
  fs.rmSync(out, { recursive: true, force: true });
  fs.rmSync(src, { recursive: true, force: true });
  if (made < files.length * 0.95) throw new Error(`vipsthumbnail made only ${made} of ${files.length} thumbnails`);
  return { filesPerSec: files.length / secs, cpu };
}

const files = jpegs();
const parallel = jobQueues().media!.concurrency;
console.log(`corpus JPEGs: ${files.length} files, ${(files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6).toFixed(1)} MB; Hearth's media workers ${parallel}, so ${parallel} vipsthumbnail processes`);
console.log("  hearth: hash + type + EXIF/XMP + one decode + WebP 400 px (the timeline's size) + pHash + catalog rows, each file; 800 and 1920 px made on first view (cost below)");
console.log('  vipsthumbnail (batch, one process per worker): decode + shrink + WebP of one size; no hash, metadata, colour management, other sizes or catalog');
console.log("    target baseline: Hearth's largest size, 1920 px; for information: 400 px, the size Hearth makes at ingest");
const msPerFile = (secs: number | null) => (secs === null ? '?' : ((secs * 1000) / files.length).toFixed(0));
const cores = (c: number | null) => (c === null ? 'unknown' : c.toFixed(2));
let best = { hearth: 0, vips: 0, vipsSmall: 0 };
for (let r = 1; r <= rounds; r++) {
  const hearth = await hearthRound(files);
  const vips = await vipsRound(files, parallel, 1920);
  const vipsSmall = await vipsRound(files, parallel, 400);
  console.log(
    `round ${r}: hearth ${hearth.filesPerSec.toFixed(1)} files/s (hash + EXIF + 400 px + pHash + catalog; ${msPerFile(hearth.cpu.self)} ms CPU/file), ` +
      `vipsthumbnail batch ${vips.filesPerSec.toFixed(1)} files/s (1920 px only; ${msPerFile(vips.cpu.children)} ms CPU/file), ratio ${(hearth.filesPerSec / vips.filesPerSec).toFixed(2)}`,
  );
  console.log(
    `         vipsthumbnail batch at 400 px ${vipsSmall.filesPerSec.toFixed(1)} files/s (${msPerFile(vipsSmall.cpu.children)} ms CPU/file), ratio ${(hearth.filesPerSec / vipsSmall.filesPerSec).toFixed(2)}; ` +
      `first view (1920 px made on request, ${hearth.firstView.count} photos one at a time): ${hearth.firstView.cpuMs.toFixed(0)} ms CPU, ${hearth.firstView.wallMs.toFixed(0)} ms each`,
  );
  console.log(`         other processes on this machine used ${cores(hearth.cpu.othersCores)} cores during hearth, ${cores(vips.cpu.othersCores)} during vipsthumbnail 1920 (of ${os.availableParallelism()})`);
  best = { hearth: Math.max(best.hearth, hearth.filesPerSec), vips: Math.max(best.vips, vips.filesPerSec), vipsSmall: Math.max(best.vipsSmall, vipsSmall.filesPerSec) };
}
const ratio = best.hearth / best.vips;
console.log(`best: hearth ${best.hearth.toFixed(1)} files/s, vipsthumbnail batch ${best.vips.toFixed(1)} files/s, ratio ${ratio.toFixed(2)} (target ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'}); against vipsthumbnail at 400 px ${(best.hearth / best.vipsSmall).toFixed(2)}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process; vipsthumbnail runs in child processes)`);
