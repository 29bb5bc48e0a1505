/**
 * `npm run bench:events`: how long a rebuild of one person's photo events takes at 100k media items.
 *
 * Writes a temporary catalog (real SQLite file, every migration) with one member and `--count` (100k)
 * synthetic photos, one media item each: ~10 years, photos on about one day in three, 1–40 a day in
 * sessions; 70% with GPS around home, a trip elsewhere every ~2 months; a few stacks. Then, in the
 * same run:
 *   baseline  reading the candidates (one SQL pass over assets and media items) and sorting them by time:
 *             the floor any rebuild pays, since it must look at every item once;
 *   first     the first rebuild (the real PhotoEventsService run: lease, segmentation, reconciliation with
 *             nothing, publishing every event);
 *   steady    a rebuild after 100 photos changed time or place (the usual case: reconciliation keeps
 *             ids, only the events that changed are rewritten).
 * Prints each time (median of `--runs`, 3) and its ratio to the baseline, plus events found.
 *
 * Then the same library in a running server (the real container and HTTP on loopback, in this process): the
 * first and a steady rebuild run by the server's rebuild job handler (PhotoEventsService.runRebuildJob) while a person browses over HTTP (loop-watch.ts:
 * timeline buckets, a bucket's assets, the people list, an asset's info): the longest event-loop stall during
 * each (target ≤ 50 ms) and browsing p95 idle vs during, side by side. `--server-only` runs just that part.
 *
 *   npm run bench:events [-- --count 100000] [--runs 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Db } from '../../server/src/platform/db/connection.ts';
import { BENCH_PASSWORD, Browsing, LoopWatch, signIn, stallLine, startRowsOnlyServer } from './loop-watch.ts';
import { migrate } from '../../server/src/platform/db/migrate.ts';
import { Access } from '../../server/src/platform/access/index.ts';
import { JobQueue } from '../../server/src/platform/jobs/queue.ts';
import { buildJobRegistry } from '../../server/src/jobs.ts';
import { PhotoEventsService } from '../../server/src/features/photo-events/photo-events.service.ts';
import { byTimeThenId } from '../../server/src/features/photo-events/segmentation.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const COUNT = arg('count', 100_000);
const RUNS = arg('runs', 3);

/** Mulberry32: the same library every run. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The library: `COUNT` photos of one member, one media item each (see the header). Returns the asset ids. */
function writeLibrary(db: Db, owner: number, repo: string, rand: () => number, now: number): string[] {
  const home = { lat: 52.37, lon: 4.89 };
  const insAsset = db.prepare(
    `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, taken_time, capture_offset_minutes,
       upload_time, gps_latitude, gps_longitude, state, media_item_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', 1000, ?, 60, ?, ?, ?, 'ready', ?, ?, ?)`,
  );
  const insItem = db.prepare("INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, 'photo', ?, ?, ?)");
  const insComp = db.prepare("INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, 0, 'original')");
  const t0 = Date.parse('2015-01-01T08:00:00Z');
  const ids: string[] = [];
  db.transaction(() => {
    let day = 0;
    let n = 0;
    let trip: { lat: number; lon: number; until: number } | null = null;
    while (n < COUNT) {
      day++;
      if (rand() > 0.33) continue;
      if (!trip && rand() < 0.02) trip = { lat: 35 + rand() * 20, lon: -10 + rand() * 40, until: day + 2 + Math.floor(rand() * 10) };
      if (trip && day > trip.until) trip = null;
      const centre = trip ?? home;
      const perDay = 1 + Math.floor(rand() * 40);
      let t = t0 + day * 86_400_000 + Math.floor(rand() * 4 * 3_600_000);
      for (let k = 0; k < perDay && n < COUNT; k++, n++) {
        t += Math.floor(rand() * (rand() < 0.1 ? 3 * 3_600_000 : 15 * 60_000));
        const id = `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
        const item = `00000000-0000-7000-9000-${String(n).padStart(12, '0')}`;
        const gps = rand() < 0.7;
        insItem.run(item, owner, id, now, now);
        insAsset.run(id, owner, repo, `p/${n}.jpg`, `${n}.jpg`, t, t, gps ? centre.lat + (rand() - 0.5) * 0.02 : null, gps ? centre.lon + (rand() - 0.5) * 0.02 : null, item, now, now);
        insComp.run(item, id);
        ids.push(id);
      }
    }
  })();
  return ids;
}

async function main() {
  if (process.argv.includes('--server-only')) return inServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-events-'));
  const db = openDatabase(path.join(dir, 'catalog.sqlite3'));
  migrate(db, { backupDir: path.join(dir, 'backups') });
  const now = Date.now();
  db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('bench', 'Bench', 'x', 'user', ?, ?)").run(now, now);
  const owner = db.prepare('SELECT user_id FROM users').pluck().get() as number;
  db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES ('r', 'r', ?, 'primary', ?, ?)").run(dir, now, now);

  const rand = rng(42);
  const writeStart = performance.now();
  const ids = writeLibrary(db, owner, 'r', rand, now);
  console.log(`catalog: ${COUNT} media items written in ${((performance.now() - writeStart) / 1000).toFixed(1)} s (load ${os.loadavg()[0]!.toFixed(1)}, ${os.availableParallelism()} cores)`);

  const svc = new PhotoEventsService(db, new Access(db), new JobQueue(db, buildJobRegistry()), { sweepMs: 0 });
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    svc.store.candidates(owner).sort(byTimeThenId);
    baseline.push(performance.now() - s);
  }
  const s1 = performance.now();
  const first = await svc.rebuild(owner, 'bench-first');
  const firstMs = performance.now() - s1;
  if (typeof first === 'string') throw new Error(`first rebuild: ${first}`);

  const steady: number[] = [];
  const move = db.prepare('UPDATE assets SET taken_time = taken_time + ?, gps_latitude = gps_latitude + 0.001 WHERE asset_id = ?');
  for (let i = 0; i < RUNS; i++) {
    db.transaction(() => {
      for (let k = 0; k < 100; k++) move.run(Math.floor(rand() * 600_000), ids[Math.floor(rand() * ids.length)]!);
    })();
    const s = performance.now();
    const r = await svc.rebuild(owner, `bench-steady-${i}`);
    steady.push(performance.now() - s);
    if (typeof r === 'string') throw new Error(`steady rebuild: ${r}`);
  }
  const events = db.prepare("SELECT count(*) FROM photo_events WHERE status = 'active'").pluck().get() as number;
  const b = median(baseline);
  const row = (name: string, ms: number) => console.log(`${name.padEnd(10)} ${ms.toFixed(0).padStart(7)} ms   ×${(ms / b).toFixed(1)} of the baseline`);
  console.log(`events: ${events} for ${COUNT} media items`);
  row('baseline', b);
  row('first', firstMs);
  row('steady', median(steady));
  svc.stop();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await inServer();
}

/**
 * The same library in a running server: the events rebuilt by the server's own job handler (first, then after
 * 100 photos moved) while a person browses over HTTP: the longest event-loop stall and browsing p95 idle vs during.
 */
async function inServer() {
  const server = await startRowsOnlyServer('hearth-bench-events-server-');
  try {
    const { container: c, base, owner } = server;
    const now = Date.now();
    const rand = rng(42);
    const ids = writeLibrary(c.db, owner, c.repositories.primary()!.repository_id, rand, now);
    const token = await signIn(base, 'bench', BENCH_PASSWORD);
    const browsing = await Browsing.prepare(base, token);
    const idle = await browsing.idle(5);
    const move = c.db.prepare('UPDATE assets SET taken_time = taken_time + ?, gps_latitude = gps_latitude + 0.001 WHERE asset_id = ?');
    for (const name of ['first rebuild', 'steady rebuild (100 photos moved)']) {
      if (name !== 'first rebuild') {
        c.db.transaction(() => {
          for (let k = 0; k < 100; k++) move.run(Math.floor(rand() * 600_000), ids[Math.floor(rand() * ids.length)]!);
        })();
      }
      const watch = new LoopWatch().start();
      const t = performance.now();
      // The job's own handler (what the server runs): it loads the place names asynchronously before the rebuild
      // reads them (PhotoEventsService.runRebuildJob); calling `rebuild` directly parsed them on the event loop.
      const { result, times } = await browsing.during(c.photoEvents.runRebuildJob(owner, true, `bench-server-${name}`));
      const stall = watch.stop();
      if ('skipped' in result) throw new Error(`${name}: ${result.skipped}`);
      console.log(`events rebuild in a running server, ${name}: ${result.events} events in ${((performance.now() - t) / 1000).toFixed(1)} s (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`);
      console.log(stallLine('the events rebuild', stall));
      console.log(browsing.report(idle, times));
    }
  } finally {
    await server.close();
  }
}

void main();
