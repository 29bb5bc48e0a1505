/**
 * bench:faces, the people rebuild in a running server (issue 25 point 4): a real data folder whose member has
 * `n` synthetic faces (`syntheticFaces`, two per photo), the real server on loopback in this process, and the
 * owner's people rebuilt twice by the job's own handler (PeopleService.runRebuild: the first places every face,
 * the second finds them placed) while a person browses over HTTP (loop-watch.ts). Prints per rebuild: its time and
 * CPU, the longest event-loop stall, and browsing p95 idle vs during.
 */
import os from 'node:os';
import type { Db } from '../../server/src/platform/db/connection.ts';
import type { ClusterFace } from '../../server/src/features/faces/index.ts';
import { BENCH_PASSWORD, Browsing, LoopWatch, signIn, stallLine, startRowsOnlyServer } from './loop-watch.ts';

/** Deterministic clustered unit vectors: identity centres, each face = centre + noise (cos to centre ≈ 0.84). */
export function syntheticFaces(n: number): ClusterFace[] {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: Float32Array) => {
    const s = Math.hypot(...v) || 1;
    for (let i = 0; i < v.length; i++) v[i]! /= s;
    return v;
  };
  const centres: Float32Array[] = [];
  const out: ClusterFace[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 50 === 0) centres.push(unit(Float32Array.from({ length: 128 }, gauss)));
    const c = centres[centres.length - 1]!;
    const noise = unit(Float32Array.from({ length: 128 }, gauss));
    out.push({ id: i + 1, score: 0.8 + rnd() * 0.2, embedding: unit(c.map((x, k) => x + 0.65 * noise[k]!)) });
  }
  return out;
}


export async function benchPeopleRebuild(set: ClusterFace[], rounds = 5): Promise<void> {
  const server = await startRowsOnlyServer('hearth-bench-people-');
  try {
    const { container: c, base, owner } = server;
    const now = Date.now();
    const repo = c.repositories.primary()!.repository_id;
    const insItem = c.db.prepare("INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, 'photo', ?, ?, ?)");
    const insComp = c.db.prepare("INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, 0, 'original')");
    const insAsset = c.db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, taken_time, upload_time, state, media_item_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', 1000, ?, ?, 'ready', ?, ?, ?)`,
    );
    const insFace = c.db.prepare(
      `INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding, person_id, assigned_by)
       VALUES (?, ?, ?, 'bench', ?, 0.2, 0.1, 0.1, '[]', ?, ?, NULL, 'auto')`,
    );
    const t0 = Date.parse('2015-01-01T08:00:00Z');
    c.db.transaction(() => {
      for (let i = 0; i < set.length; i += 2) {
        const p = i / 2;
        const id = `00000000-0000-7000-8000-${String(p).padStart(12, '0')}`;
        const item = `00000000-0000-7000-9000-${String(p).padStart(12, '0')}`;
        const t = t0 + p * 3_600_000 * 2;
        insItem.run(item, owner, id, now, now);
        insAsset.run(id, owner, repo, `p/${p}.jpg`, `${p}.jpg`, t, t, item, now, now);
        insComp.run(item, id);
        for (const [k, f] of set.slice(i, i + 2).entries()) insFace.run(id, owner, k, k * 0.5, f.score, Buffer.from(f.embedding.buffer, f.embedding.byteOffset, f.embedding.byteLength));
      }
    })();
    // The bench's own copy of the faces (n Float32Arrays) would sit in the heap whose GC pauses are measured:
    // in a server the faces are only in the catalog. Emptied once written (the array is this call's alone).
    set.length = 0;
    const token = await signIn(base, 'bench', BENCH_PASSWORD);
    const browsing = await Browsing.prepare(base, token);
    const idle = await browsing.idle(rounds);
    for (const name of ['first rebuild (no face placed yet)', 'second rebuild (every face placed)']) {
      const watch = new LoopWatch().start();
      const cpu = process.cpuUsage();
      const t = performance.now();
      const { result, times } = await browsing.during(c.people.runRebuild(owner));
      const secs = (performance.now() - t) / 1000;
      const used = process.cpuUsage(cpu);
      const stall = watch.stop();
      console.log(
        `people rebuild in a running server, ${name}: ${result.faces} faces → ${result.people} people in ${secs.toFixed(1)} s ` +
          `(CPU ${((used.user + used.system) / 1e6).toFixed(1)} s, browsing included; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores: ` +
          'stalls are wall-clock, a loaded machine stretches them)',
      );
      console.log(stallLine('the people rebuild', stall));
      console.log(browsing.report(idle, times));
    }
    const threaded = await commitTimes(c.db);
    c.db.pragma('wal_autocheckpoint = 1000');
    const inCommit = await commitTimes(c.db);
    c.db.pragma('wal_autocheckpoint = 0');
    const line = (xs: number[]) => `median ${median(xs).toFixed(1)} ms, longest ${Math.max(...xs).toFixed(1)} ms`;
    console.log(
      `COMMIT of a write transaction of 2000 face rows (${COMMIT_PROBES} each way): WAL checkpointed on the background thread ${line(threaded)}; ` +
        `checkpointed inside the commits (wal_autocheckpoint 1000, before) ${line(inCommit)}`,
    );
  } finally {
    await server.close();
  }
}

const COMMIT_PROBES = 40;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** COMMIT_PROBES transactions rewriting 2000 face rows each (the embedding's pages with them): each COMMIT's time. */
async function commitTimes(db: Db): Promise<number[]> {
  const ids = db.prepare('SELECT face_id FROM faces ORDER BY face_id').pluck().all() as number[];
  // Each probe flips its rows' score sign: a row rewritten with the same bytes writes no page (SQLite compares),
  // so an update to the same values would commit nothing. The bench's catalog is thrown away afterwards.
  const touch = db.prepare('UPDATE faces SET score = -score WHERE face_id BETWEEN ? AND ?');
  const out: number[] = [];
  for (let k = 0; k < COMMIT_PROBES; k++) {
    const from = (k * 2000) % Math.max(1, ids.length - 2000);
    db.exec('BEGIN IMMEDIATE');
    touch.run(ids[from], ids[Math.min(ids.length - 1, from + 1999)]);
    const t = performance.now();
    db.exec('COMMIT');
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20)); // the background checkpointer gets its turns, as between the rebuild's steps
  }
  return out;
}
