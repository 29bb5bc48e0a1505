/**
 * Crash recovery with a real crash: a child Node process runs a worker on the catalog file and is
 * SIGKILLed while three jobs run. A new runner on the same file takes them back at start and every
 * job completes exactly once (handlers record completions in a table).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { JobQueue } from '../../../server/src/platform/jobs/queue.ts';
import { JobRegistry } from '../../../server/src/platform/jobs/registry.ts';
import { JobRunner } from '../../../server/src/platform/jobs/runner.ts';
import { crashJob, CRASH_QUEUES } from './fixtures/crash-job.ts';
import { silent, tempCatalog } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const JOBS = 10;
const HANG_FROM = 4; // n = 0..3 complete in the child; the next three hang there (concurrency 3)

test('jobs running when the process is killed are resumed at the next start and complete exactly once', async () => {
  const cat = tempCatalog();
  try {
    const { db } = cat;
    db.exec(`CREATE TABLE test_events (job_id INTEGER NOT NULL, n INTEGER NOT NULL, event TEXT NOT NULL, pid INTEGER NOT NULL)`);
    const record = db.prepare('INSERT INTO test_events (job_id, n, event, pid) VALUES (?, ?, ?, ?)');
    const def = crashJob((args, ctx) => {
      record.run(ctx.job.id, args.n, 'start', process.pid);
      record.run(ctx.job.id, args.n, 'complete', process.pid);
      return { by: process.pid };
    });
    const registry = new JobRegistry(CRASH_QUEUES).register(def);
    const queue = new JobQueue(db, registry);
    // Queued before any worker exists: available, in id order (the child claims in that order).
    queue.enqueueMany(def, Array.from({ length: JOBS }, (_, n) => ({ args: { n } })));

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/crash-worker.ts'), cat.file, String(HANG_FROM)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const hung = await new Promise<number[]>((resolve, reject) => {
      const ids: number[] = [];
      let buf = '';
      const timer = setTimeout(() => reject(new Error(`the child did not reach 3 hanging jobs: ${stderr}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        for (const m of buf.matchAll(/HANG (\d+)\n/g)) if (!ids.includes(Number(m[1]))) ids.push(Number(m[1]));
        if (ids.length === 3) {
          clearTimeout(timer);
          resolve(ids);
        }
      });
      child.on('exit', () => reject(new Error(`the child exited early: ${stderr}`)));
    });
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    // What the crash left: 4 completed, 3 running (under the dead process's lease), 3 never claimed.
    assert.deepEqual(queue.stats(), { available: 3, scheduled: 0, running: 3, retryable: 0, completed: 4, cancelled: 0, discarded: 0 });
    assert.deepEqual(
      queue.list({ state: 'running' }).jobs.map((j) => j.id).sort((a, b) => a - b),
      [...hung].sort((a, b) => a - b),
    );

    // The next start, in this process, on the same file.
    registry.assertHandlersFor(db);
    const runner = new JobRunner({ db, queue, log: silent, pollIntervalMs: 60_000 });
    assert.deepEqual(runner.recoverOnStart(), { requeued: 3, discarded: 0 });
    runner.start();
    await runner.whenIdle();
    await runner.stop();

    assert.deepEqual(queue.stats(), { available: 0, scheduled: 0, running: 0, retryable: 0, completed: JOBS, cancelled: 0, discarded: 0 });
    const completions = db.prepare(`SELECT job_id, count(*) AS times FROM test_events WHERE event = 'complete' GROUP BY job_id`).all() as {
      job_id: number;
      times: number;
    }[];
    assert.equal(completions.length, JOBS);
    assert.ok(completions.every((c) => c.times === 1), `each job completed exactly once: ${JSON.stringify(completions)}`);
    for (const id of hung) {
      const j = queue.get(id)!;
      assert.equal(j.attempt, 1, 'a crash is not the job\'s failure: the resumed run is the same first attempt');
      assert.deepEqual(j.result, { by: process.pid });
      assert.match(j.errors[0]!.error, /interrupted: Hearth stopped unexpectedly/);
      const starts = db.prepare(`SELECT pid FROM test_events WHERE job_id = ? AND event = 'start' ORDER BY rowid`).pluck().all(id);
      assert.deepEqual(starts, [child.pid, process.pid], 'started in the killed child, then here');
    }
    const byChild = db.prepare(`SELECT count(*) FROM test_events WHERE event = 'complete' AND pid = ?`).pluck().get(child.pid);
    assert.equal(byChild, HANG_FROM);
  } finally {
    cat.cleanup();
  }
});
