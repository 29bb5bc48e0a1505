/**
 * `npm run bench:import`: cloud import throughput and footprint (issue 28).
 *
 * A real Hearth server (the built server/dist as `npm start` runs it, a child process on a temporary data folder):
 *
 * 1. WebDAV: every JPEG of the corpus × N (default 2), each copy made unique (a JPEG comment with its own id, so
 *    none is skipped as a duplicate), in nested folders, served by Debian's rclone (`rclone serve webdav`) on
 *    loopback. Hearth imports the folder through the API (bindRepositoryCloudSource → the run completes: every
 *    file listed, fetched, hashed and admitted through the one door with its commit record and catalog row).
 *    Baseline, in the same run: `rclone copy` of the same remote into a local folder (rclone's own WebDAV client,
 *    its defaults: 4 transfers, 8 checkers). What the baseline does not do: hash, detect content, deduplicate,
 *    write a catalog or queue processing. Printed: files/s and MB/s of each and the ratio (target ≥ 0.8), and
 *    how far behind the media pipeline (thumbnails, metadata) was when the import ended and when it caught up.
 * 2. Google Takeout: a zip export of about `--takeout-mb` (default 1024) built from unique corpus JPEGs with their
 *    sidecars in Takeout's format (deflated, as Google's are), in two parts, placed in the repository and imported
 *    (startTakeoutImport). Baseline: `unzip -q` of the same parts (a batch tool: no sidecars read, nothing
 *    catalogued). Printed: files/s, MB/s, the ratio, the peak RSS of the server's process tree while it runs
 *    (sampled every 100 ms, /proc; target ≤ 300 MB), and browsing p95 (timeline, a bucket, people, an asset)
 *    idle and during the import, from a separate process.
 *
 * The server runs as a household's does: while an import runs, its processing gives way (server/src/jobs.ts
 * `importShares`: the media queue at half the cores, indexing on what is left, none on 2 cores), so both figures are
 * the import with thumbnails being made beside it, and indexing after it; "caught up" says when all of it was done.
 *
 *   npx tsx scripts/bench/import.ts [--copies 2] [--takeout-mb 1024] [--only webdav|takeout]
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { buildServer, SERVER_ENTRY, SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../build-server.ts';
import { waitForLine } from './child-output.ts';
import { describeTree, processTree, treeTotals } from './process-tree.ts';
import { Browsing, signIn } from './loop-watch.ts';

const root = path.resolve(import.meta.dirname, '../..');
const CORPUS = process.env.HEARTH_CORPUS ?? path.resolve(root, '../shared/corpus');
const arg = (name: string, def: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : def);
const COPIES = arg('--copies', 2);
const TAKEOUT_MB = arg('--takeout-mb', 1024);
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const USERNAME = 'bench';
const PASSWORD = 'bench password 123';
const DAV_PASS = 'bench-dav-pass';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-import-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

function requireTool(cmd: string, pkg: string): void {
  if (spawnSync(cmd, ['--version'], { stdio: 'ignore' }).error) {
    console.error(`${cmd} is not installed: the baseline needs it. Install it with "apt-get install ${pkg}".`);
    process.exit(2);
  }
}

/** Every JPEG of the corpus (bytes), in a stable order. */
function corpusJpegs(): Buffer[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.jpe?g$/i.test(e.name)) out.push(p);
    }
  };
  walk(CORPUS);
  return out.map((p) => fs.readFileSync(p)).filter((b) => b.readUInt16BE(0) === 0xffd8);
}

/** The photo with a JPEG comment carrying `id` right after SOI: a valid, unique file. */
function uniqueJpeg(base: Buffer, id: string): Buffer {
  const text = Buffer.from(`hearth import bench ${id}`);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]);
}

/** The bench's session: an access token that lasts 15 minutes, renewed by signing in again when it expires. */
interface Session {
  base: string;
  token: string | null;
}

async function api(session: Session, method: string, p: string, body?: unknown): Promise<any> {
  const send = () =>
    fetch(`${session.base}/api/v1${p}`, {
      method,
      headers: { ...(session.token ? { authorization: `Bearer ${session.token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  // A kept-alive connection the server closed while the baseline ran (its keep-alive timer) fails before any
  // answer: sent again once, as a browser does.
  const sendOnce = () =>
    send().catch((e: unknown) => {
      if ((e as { cause?: { code?: string } }).cause?.code === 'UND_ERR_SOCKET') return send();
      throw e;
    });
  let r = await sendOnce();
  if (r.status === 401 && session.token) {
    await r.text();
    session.token = await signIn(session.base, USERNAME, PASSWORD);
    r = await sendOnce();
  }
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 400)}`);
  return JSON.parse(text);
}

interface Hearth extends Session {
  pid: number;
  repoPath: string;
  repositoryId: string;
}

async function startHearth(): Promise<Hearth> {
  if ((await buildServer({ ifChanged: true, quiet: true })) === 'built') console.log('built the server (server/dist)');
  const dataDir = path.join(work, 'data');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    cwd: root,
    env: { ...SERVER_MALLOC_ENV, ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: process.env.HEARTH_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const m = await waitForLine(child, /HEARTH_READY (\{.*\})/);
  const base = `http://127.0.0.1:${(JSON.parse(m[1]!) as { port: number }).port}`;
  const session: Session = { base, token: null };
  session.token = (await api(session, 'POST', '/auth/register', { username: USERNAME, password: PASSWORD, display_name: 'Bench' })).token;
  const repos = await api(session, 'GET', '/repositories');
  const primary = (repos.repositories ?? repos).find((r: { role: string }) => r.role === 'primary');
  return { base, token: session.token, pid: child.pid!, repoPath: path.join(dataDir, 'storage', 'primary'), repositoryId: primary.id };
}

/** Polls the run until it ends; returns it and the seconds since `t0`. */
async function runToEnd(h: Hearth, runId: string, t0: number): Promise<{ run: any; secs: number }> {
  for (;;) {
    const run = await api(h, 'GET', `/cloud/import-runs/${runId}`);
    if (!['queued', 'running'].includes(run.status)) {
      if (run.status !== 'completed' || run.failed_count) throw new Error(`the run ended ${run.status}: ${JSON.stringify(run)}`);
      return { run, secs: (performance.now() - t0) / 1000 };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Jobs waiting or running (the media pipeline of what came in). */
async function pendingJobs(h: Hearth): Promise<number> {
  const s = await api(h, 'GET', '/jobs/stats');
  return (s.running ?? 0) + (s.available ?? 0) + (s.retryable ?? 0) + (s.scheduled ?? 0);
}

async function untilIdle(h: Hearth): Promise<number> {
  const t0 = performance.now();
  while ((await pendingJobs(h)) > 0) await new Promise((r) => setTimeout(r, 500));
  return (performance.now() - t0) / 1000;
}

const mb = (bytes: number) => bytes / 1e6;
const line = (what: string, files: number, bytes: number, secs: number) => `  ${what.padEnd(34)} ${files} files, ${mb(bytes).toFixed(0)} MB in ${secs.toFixed(1)} s: ${(files / secs).toFixed(1)} files/s, ${(mb(bytes) / secs).toFixed(1)} MB/s`;

async function webdav(h: Hearth, jpegs: Buffer[]): Promise<void> {
  requireTool('rclone', 'rclone');
  const remote = path.join(work, 'remote');
  let bytes = 0;
  let files = 0;
  for (let c = 0; c < COPIES; c++) {
    jpegs.forEach((b, i) => {
      const dir = path.join(remote, `copy-${c}`, `folder-${i % 10}`);
      fs.mkdirSync(dir, { recursive: true });
      const data = uniqueJpeg(b, `${c}-${i}`);
      fs.writeFileSync(path.join(dir, `photo-${i}.jpg`), data);
      bytes += data.length;
      files++;
    });
  }
  const port = 20000 + Math.floor(Math.random() * 20000);
  const dav = spawn('rclone', ['serve', 'webdav', remote, '--addr', `127.0.0.1:${port}`, '--user', 'bench', '--pass', DAV_PASS, '--dir-cache-time', '1h'], { stdio: 'ignore' });
  children.push(dav);
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(url, { method: 'OPTIONS' }).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  execFileSync('sync');

  // Baseline: rclone's own client copies the same remote.
  const obscured = execFileSync('rclone', ['obscure', DAV_PASS]).toString().trim();
  const env = { ...process.env, RCLONE_CONFIG_DAV_TYPE: 'webdav', RCLONE_CONFIG_DAV_URL: url, RCLONE_CONFIG_DAV_USER: 'bench', RCLONE_CONFIG_DAV_PASS: obscured };
  const copyDir = path.join(work, 'rclone-copy');
  const t1 = performance.now();
  execFileSync('rclone', ['copy', 'dav:', copyDir], { env, stdio: 'inherit' });
  execFileSync('sync');
  const rcloneSecs = (performance.now() - t1) / 1000;
  fs.rmSync(copyDir, { recursive: true, force: true });

  // Hearth: connect the account, bind the folder, import.
  const cred = await api(h, 'POST', '/cloud/credentials', { provider: 'webdav', inputs: { url, username: 'bench', password: DAV_PASS } });
  const t0 = performance.now();
  const started = await api(h, 'POST', `/repositories/${h.repositoryId}/cloud/sources`, { credential_id: cred.credential.id, remote_scope: { folder: '' } });
  const { run, secs } = await runToEnd(h, started.run.id, t0);
  const behind = await pendingJobs(h);
  console.log('\nWebDAV import (rclone serve webdav on loopback):');
  console.log(line('rclone copy (baseline)', files, bytes, rcloneSecs));
  console.log(line('Hearth import run', run.imported_count, run.downloaded_bytes, secs));
  console.log(`  ratio Hearth / rclone copy: ${(rcloneSecs / secs).toFixed(2)} (target ≥ 0.8)`);
  console.log(`  the media pipeline: ${behind} jobs waiting or running when the import ended; caught up ${(await untilIdle(h)).toFixed(1)} s later`);
  if (run.imported_count !== files) throw new Error(`imported ${run.imported_count} of ${files}`);
}

/** A Takeout export of about TAKEOUT_MB in two zip parts, deflated as Google's are: the part paths. */
async function buildTakeout(dir: string, jpegs: Buffer[]): Promise<{ parts: string[]; files: number; bytes: number }> {
  fs.mkdirSync(dir, { recursive: true });
  const target = TAKEOUT_MB * 1e6;
  const parts = [new yazl.ZipFile(), new yazl.ZipFile()];
  const paths = parts.map((_, i) => path.join(dir, `takeout-20240101T000000Z-00${i + 1}.zip`));
  const done = parts.map((z, i) => new Promise<void>((resolve, reject) => z.outputStream.pipe(fs.createWriteStream(paths[i]!)).on('close', resolve).on('error', reject)));
  let bytes = 0;
  let n = 0;
  const t = Date.UTC(2018, 0, 1) / 1000;
  while (bytes < target) {
    const base = jpegs[n % jpegs.length]!;
    const data = uniqueJpeg(base, `takeout-${n}`);
    const year = 2018 + (n % 6);
    const name = `IMG_${String(n).padStart(6, '0')}.jpg`;
    const folder = `Takeout/Google Photos/Photos from ${year}`;
    const sidecar = { title: name, description: '', photoTakenTime: { timestamp: String(t + n * 3600), formatted: '' }, geoData: { latitude: 0, longitude: 0, altitude: 0 }, favorited: n % 7 === 0 };
    const part = parts[n % 2]!;
    part.addBuffer(data, `${folder}/${name}`, { compress: true });
    parts[(n + 1) % 2]!.addBuffer(Buffer.from(JSON.stringify(sidecar, null, 2)), `${folder}/${name}.json`, { compress: true }); // a sidecar in the other part, as Google splits them
    bytes += data.length;
    n++;
  }
  for (const z of parts) z.end();
  await Promise.all(done);
  return { parts: paths, files: n, bytes };
}

async function takeout(h: Hearth, jpegs: Buffer[]): Promise<void> {
  requireTool('unzip', 'unzip');
  const dir = path.join(h.repoPath, 'Takeout');
  const built = await buildTakeout(dir, jpegs);
  const archiveBytes = built.parts.reduce((s, p) => s + fs.statSync(p).size, 0);
  execFileSync('sync');

  const unzipDir = path.join(work, 'unzip');
  const t1 = performance.now();
  for (const p of built.parts) execFileSync('unzip', ['-q', '-o', p, '-d', unzipDir]);
  execFileSync('sync');
  const unzipSecs = (performance.now() - t1) / 1000;
  fs.rmSync(unzipDir, { recursive: true, force: true });

  const browsing = await Browsing.prepare(h.base, h.token!, { username: USERNAME, password: PASSWORD });
  const idle = await browsing.idle(20);
  let peakRss = 0;
  let peakPss = 0;
  let peakServer = 0;
  let peakTree = '';
  const sample = setInterval(() => {
    const tree = processTree(h.pid);
    const t = treeTotals(tree);
    if (t.rssMb > peakRss) peakTree = describeTree(tree);
    peakRss = Math.max(peakRss, t.rssMb);
    peakPss = Math.max(peakPss, t.pssMb ?? 0);
    peakServer = Math.max(peakServer, tree.find((p) => p.pid === h.pid)?.rssMb ?? 0);
  }, 100);
  const t0 = performance.now();
  const rel = built.parts.map((p) => path.relative(h.repoPath, p));
  const { result, times } = await browsing.during(
    (async () => {
      const started = await api(h, 'POST', '/cloud/takeout/import', { repository_id: h.repositoryId, parts: rel });
      return runToEnd(h, started.run.id, t0);
    })(),
  );
  clearInterval(sample);
  const { run, secs } = result;
  console.log(`\nGoogle Takeout import (${built.parts.length} zip parts, ${mb(archiveBytes).toFixed(0)} MB, sidecars in the other part):`);
  console.log(line('unzip -q (baseline)', built.files * 2, built.bytes, unzipSecs));
  console.log(line('Hearth import run', run.imported_count, built.bytes, secs));
  console.log(`  ratio Hearth / unzip: ${(unzipSecs / secs).toFixed(2)}`);
  console.log(`  peak memory of the server's process tree during the import: RSS ${peakRss.toFixed(0)} MB, PSS ${peakPss.toFixed(0)} MB (target ≤ 300 MB)`);
  console.log(`    the server process alone peaked at RSS ${peakServer.toFixed(0)} MB; the tree at its peak: ${peakTree}`);
  console.log('  browsing while it ran (a separate process, one request at a time):');
  console.log(browsing.report(idle, times));
  if (run.imported_count !== built.files) throw new Error(`imported ${run.imported_count} of ${built.files}`);
}

const jpegs = corpusJpegs();
console.log(`corpus: ${jpegs.length} JPEGs; machine: ${os.cpus().length} cores, ${(os.totalmem() / 1e9).toFixed(0)} GB`);
const h = await startHearth();
if (ONLY !== 'takeout') await webdav(h, jpegs);
if (ONLY !== 'webdav') {
  if (ONLY === 'takeout') await webdav(h, jpegs.slice(0, 20)); // a few photos to browse
  else await untilIdle(h);
  await takeout(h, jpegs);
}
process.exit(0);
