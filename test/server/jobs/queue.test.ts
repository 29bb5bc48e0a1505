/**
 * The queue without workers: enqueue (states, validation, the caller's transaction, uniqueness),
 * cancel, retry now, listing (filters, time range, cursor paging, count), statistics, summaries,
 * the queue list, and the boot check for kinds without a handler.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { z } from 'zod';
import { tx } from '../../../server/src/platform/db/connection.ts';
import { DuplicateJobError, InvalidCursorError, UnknownJobKindError } from '../../../server/src/platform/jobs/queue.ts';
import { defineJob, MissingJobHandlersError } from '../../../server/src/platform/jobs/registry.ts';
import { ALL, Echo, MakeThumbnail, QUEUES, SyncFolder } from './defs.ts';
import { harness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(() => {
  h = harness(ALL, QUEUES);
});
afterEach(() => h.cleanup());

/** Puts a job into a state as a worker would have left it (times relative to the fake clock). */
function setState(
  id: number,
  state: string,
  f: { attempt?: number; attempted?: number; finalized?: number; last_error?: string | null } = {},
) {
  const final = ['completed', 'cancelled', 'discarded'].includes(state);
  h.db
    .prepare(
      `UPDATE jobs SET state = @state, attempt = coalesce(@attempt, attempt), attempted_at = @attempted,
         finalized_at = @finalized, lease_expires_at = @lease, last_error = @last_error WHERE id = @id`,
    )
    .run({
      id,
      state,
      attempt: f.attempt ?? null,
      attempted: f.attempted ?? null,
      finalized: final ? (f.finalized ?? h.clock.now()) : null,
      lease: state === 'running' ? h.clock.now() + 60_000 : null,
      last_error: f.last_error ?? null,
    });
}

describe('enqueue', () => {
  test('a job is available now, or scheduled for later, with its parsed arguments', () => {
    const now = h.clock.now();
    const a = h.queue.enqueue(Echo, { n: 1 });
    assert.equal(a.inserted, true);
    assert.equal(a.job.state, 'available');
    assert.deepEqual(a.job.args, { n: 1 });
    assert.equal(a.job.run_at, now);
    assert.equal(a.job.created_at, now);
    assert.equal(a.job.attempt, 0);
    assert.equal(a.job.max_attempts, 3);
    assert.equal(a.job.queue, 'alpha');
    assert.deepEqual(a.job.errors, []);

    const later = h.queue.enqueue(Echo, { n: 2 }, { delayMs: 5000, priority: -1, maxAttempts: 7, ownerId: null });
    assert.equal(later.job.state, 'scheduled');
    assert.equal(later.job.run_at, now + 5000);
    assert.equal(later.job.priority, -1);
    assert.equal(later.job.max_attempts, 7);

    const past = h.queue.enqueue('test.make-thumbnail', { asset: 'x' }, { runAt: now - 10 });
    assert.equal(past.job.state, 'available', 'a time already passed is runnable at once');
    assert.equal(past.job.priority, 1, "the definition's priority");
  });

  test('arguments are validated; unknown kinds are refused', () => {
    assert.throws(() => h.queue.enqueue(Echo, { n: 'one' } as unknown as { n: number }), z.ZodError);
    assert.throws(() => h.queue.enqueue('test.nothing-here', {}), UnknownJobKindError);
    const stray = defineJob({ kind: 'test.not-registered', queue: 'alpha', args: z.object({}), maxAttempts: 1, timeoutMs: 10, handler: () => 1 });
    assert.throws(() => h.queue.enqueue(stray, {}), UnknownJobKindError);
    assert.equal(h.queue.stats().available, 0);
  });

  test("jobs commit or roll back with the caller's transaction; enqueueMany is all or none", () => {
    assert.throws(() =>
      tx(h.db, () => {
        h.queue.enqueue(Echo, { n: 1 });
        throw new Error('the business write failed');
      }),
    );
    assert.equal(h.queue.list().jobs.length, 0);

    tx(h.db, () => h.queue.enqueueMany(Echo, [{ args: { n: 1 } }, { args: { n: 2 } }]));
    assert.equal(h.queue.list().jobs.length, 2);

    assert.throws(() => h.queue.enqueueMany(Echo, [{ args: { n: 3 } }, { args: { n: 'x' } as unknown as { n: number } }]));
    assert.equal(h.queue.list().jobs.length, 2, 'the valid first item was rolled back with the invalid second');
  });

  test('uniqueness holds per kind and key over unfinished jobs only', () => {
    const a = h.queue.enqueue(SyncFolder, { folder: '/photos' });
    const again = h.queue.enqueue(SyncFolder, { folder: '/photos' });
    assert.equal(again.inserted, false);
    assert.equal(again.job.id, a.job.id);
    assert.equal(a.job.unique_key, '/photos');

    assert.equal(h.queue.enqueue(SyncFolder, { folder: '/other' }).inserted, true);
    assert.equal(h.queue.enqueue(SyncFolder, { folder: '/photos' }, { uniqueKey: null }).inserted, true, 'uniqueness can be turned off');
    assert.equal(h.queue.enqueue(Echo, { n: 1 }, { uniqueKey: '/photos' }).inserted, true, 'keys are per kind');

    for (const state of ['scheduled', 'running', 'retryable']) {
      setState(a.job.id, state, { attempt: 1 });
      assert.equal(h.queue.enqueue(SyncFolder, { folder: '/photos' }).inserted, false, `still unique while ${state}`);
    }
    setState(a.job.id, 'completed', { attempt: 1 });
    const next = h.queue.enqueue(SyncFolder, { folder: '/photos' });
    assert.equal(next.inserted, true, 'a finished job does not block a new run');
    assert.notEqual(next.job.id, a.job.id);
  });

  test('enqueue wakes the queue once, after the current synchronous work', async () => {
    const woken: string[] = [];
    h.queue.events.on('wake', (q) => woken.push(q));
    tx(h.db, () => {
      h.queue.enqueue(Echo, { n: 1 });
      h.queue.enqueue(Echo, { n: 2 });
      h.queue.enqueue(MakeThumbnail, { asset: 'a' });
      h.queue.enqueue(Echo, { n: 3 }, { delayMs: 1000 });
      assert.deepEqual(woken, [], 'not inside the transaction');
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(woken.sort(), ['alpha', 'beta']);
  });
});

describe('cancel and retry now', () => {
  test('cancel finalizes an unfinished job and leaves finished ones alone', async () => {
    const cancels: number[] = [];
    h.queue.events.on('cancel', (id) => cancels.push(id));
    const { job } = h.queue.enqueue(Echo, { n: 1 });
    const cancelled = h.queue.cancel(job.id)!;
    assert.equal(cancelled.state, 'cancelled');
    assert.equal(cancelled.finalized_at, h.clock.now());

    const running = h.queue.enqueue(Echo, { n: 2 }).job;
    setState(running.id, 'running', { attempt: 1, attempted: h.clock.now() });
    const stopped = h.queue.cancel(running.id)!;
    assert.equal(stopped.state, 'cancelled');
    assert.equal(stopped.lease_expires_at, null);
    assert.deepEqual(cancels, [], 'workers hear of it after the current synchronous work');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(cancels, [running.id], 'only a job that had started needs its worker told');

    const done = h.queue.enqueue(Echo, { n: 3 }).job;
    setState(done.id, 'completed', { attempt: 1 });
    assert.equal(h.queue.cancel(done.id)!.state, 'completed');
    assert.equal(h.queue.cancel(9999), undefined);
  });

  test('retry now puts a discarded or retryable job back, with one more attempt when needed', () => {
    const a = h.queue.enqueue(Echo, { n: 1 }).job;
    setState(a.id, 'discarded', { attempt: 3, last_error: 'boom' });
    h.clock.advance(1000);
    const retried = h.queue.retryNow(a.id)!;
    assert.equal(retried.state, 'available');
    assert.equal(retried.finalized_at, null);
    assert.equal(retried.run_at, h.clock.now());
    assert.equal(retried.attempt, 3);
    assert.equal(retried.max_attempts, 4);
    assert.equal(retried.last_error, 'boom', 'the last error stays visible');

    const b = h.queue.enqueue(Echo, { n: 2 }).job;
    setState(b.id, 'retryable', { attempt: 1 });
    h.db.prepare('UPDATE jobs SET run_at = ? WHERE id = ?').run(h.clock.now() + 60_000, b.id);
    const now = h.queue.retryNow(b.id)!;
    assert.equal(now.state, 'available');
    assert.equal(now.run_at, h.clock.now());
    assert.equal(now.max_attempts, 3);

    const c = h.queue.enqueue(Echo, { n: 3 }).job;
    setState(c.id, 'completed', { attempt: 1 });
    assert.equal(h.queue.retryNow(c.id)!.state, 'completed', 'completed jobs are not re-run');
    assert.equal(h.queue.retryNow(12345), undefined);
  });

  test('retry now refuses to make a second unfinished job with the same unique key', () => {
    const a = h.queue.enqueue(SyncFolder, { folder: '/p' }).job;
    setState(a.id, 'discarded', { attempt: 3 });
    h.queue.enqueue(SyncFolder, { folder: '/p' });
    assert.throws(() => h.queue.retryNow(a.id), DuplicateJobError);
    assert.equal(h.queue.get(a.id)!.state, 'discarded');
  });
});

describe('listing', () => {
  function seed() {
    const ids: number[] = [];
    // 2 days ago, 2 hours ago, 30 minutes ago, now: alternating kinds and queues.
    for (const ago of [2 * 86_400_000, 2 * 3_600_000, 30 * 60_000, 0]) {
      const saved = h.clock.now();
      h.clock.set(saved - ago);
      ids.push(h.queue.enqueue(Echo, { n: ago }).job.id);
      ids.push(h.queue.enqueue(MakeThumbnail, { asset: String(ago) }).job.id);
      h.clock.set(saved);
    }
    return ids;
  }

  test('newest first, with filters by state, queue, kind and time range', () => {
    const ids = seed();
    setState(ids[0]!, 'completed', { attempt: 1 });
    setState(ids[1]!, 'discarded', { attempt: 5, last_error: 'bad file' });

    const all = h.queue.list();
    assert.deepEqual(all.jobs.map((j) => j.id), [...ids].reverse());
    assert.equal(all.next_cursor, null);
    assert.equal(all.total, undefined, 'counted only on request');

    assert.deepEqual(h.queue.list({ state: 'completed' }).jobs.map((j) => j.id), [ids[0]]);
    assert.deepEqual(h.queue.list({ state: 'discarded' }).jobs.map((j) => j.last_error), ['bad file']);
    assert.equal(h.queue.list({ queue: 'beta' }).jobs.length, 4);
    assert.ok(h.queue.list({ queue: 'beta' }).jobs.every((j) => j.kind === 'test.make-thumbnail'));
    assert.equal(h.queue.list({ kind: 'test.echo-args', state: 'available' }).jobs.length, 3);
    assert.equal(h.queue.list({ queue: 'nope' }).jobs.length, 0);

    assert.equal(h.queue.list({ timeRange: '1h' }).jobs.length, 4);
    assert.equal(h.queue.list({ timeRange: '24h' }).jobs.length, 6);
    assert.equal(h.queue.list({ timeRange: '30d' }).jobs.length, 8);
    assert.equal(h.queue.list({ timeRange: '24h', queue: 'alpha', includeCount: true }).total, 3);
  });

  test('the cursor pages through every job exactly once; the count covers all pages', () => {
    for (let n = 0; n < 7; n++) h.queue.enqueue(Echo, { n });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = h.queue.list({ limit: 3, cursor, includeCount: true, queue: 'alpha' });
      assert.equal(page.total, 7);
      seen.push(...page.jobs.map((j) => j.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...seen].sort((a, b) => b - a));
    assert.equal(new Set(seen).size, 7);

    const first = h.queue.list({ limit: 7 });
    assert.equal(first.next_cursor, null, 'no cursor when the page holds the rest');
    assert.equal(h.queue.list({ limit: 500 }).jobs.length, 7, 'limit is capped, not an error, at this level');
    assert.throws(() => h.queue.list({ cursor: 'garbage' }), InvalidCursorError);
    assert.throws(() => h.queue.list({ cursor: Buffer.from('{"v":1,"id":-3}').toString('base64url') }), InvalidCursorError);
  });
});

describe('statistics and summaries', () => {
  test('counters per state, zero for states without jobs', () => {
    const ids = Array.from({ length: 6 }, (_, n) => h.queue.enqueue(Echo, { n }).job.id);
    h.queue.enqueue(Echo, { n: 9 }, { delayMs: 1000 });
    setState(ids[0]!, 'running', { attempt: 1 });
    setState(ids[1]!, 'retryable', { attempt: 1 });
    setState(ids[2]!, 'completed', { attempt: 1 });
    setState(ids[3]!, 'completed', { attempt: 1 });
    setState(ids[4]!, 'discarded', { attempt: 3 });
    assert.deepEqual(h.queue.stats(), { available: 1, scheduled: 1, running: 1, retryable: 1, completed: 2, cancelled: 0, discarded: 1 });
  });

  test('per-queue totals, averages, activity times and error samples', () => {
    const t0 = h.clock.now();
    const job = (n: number) => h.queue.enqueue(Echo, { n }).job.id;
    const c1 = job(1);
    const c2 = job(2);
    setState(c1, 'completed', { attempt: 1, attempted: t0 + 100, finalized: t0 + 300 });
    setState(c2, 'completed', { attempt: 2, attempted: t0 + 200, finalized: t0 + 600 });
    h.clock.advance(1000);
    const r = job(3);
    setState(r, 'retryable', { attempt: 1, attempted: t0 + 1000, last_error: 'disk busy' });
    h.clock.advance(1000);
    const d = job(4);
    setState(d, 'discarded', { attempt: 3, attempted: t0 + 2000, finalized: t0 + 2500, last_error: 'corrupt file' });
    h.clock.advance(1000);
    const x = job(5);
    h.queue.cancel(x);
    const waiting = job(6);
    setState(waiting, 'running', { attempt: 1, attempted: t0 + 3000 });
    h.queue.enqueue(MakeThumbnail, { asset: 'a' });

    const summaries = h.queue.summaries(2);
    assert.deepEqual(
      summaries.map((s) => s.name),
      ['alpha', 'beta', 'idle'],
      'attention first, then remaining work, then the rest by name',
    );
    const alpha = summaries[0]!;
    assert.equal(alpha.total_jobs, 6);
    assert.equal(alpha.processed_jobs, 2);
    assert.equal(alpha.remaining_jobs, 2, 'retryable + running');
    assert.equal(alpha.running_jobs, 1);
    assert.equal(alpha.attention_jobs, 3, 'retryable + discarded + cancelled');
    assert.equal(alpha.average_latency_ms, (300 + 600) / 2);
    assert.equal(alpha.average_runtime_ms, (200 + 400) / 2);
    assert.equal(alpha.oldest_remaining_at, t0 + 1000);
    assert.equal(alpha.latest_activity_at, t0 + 3000);
    assert.deepEqual(
      alpha.error_samples.map((s) => [s.job_id, s.state, s.last_error]),
      [
        [x, 'cancelled', null],
        [d, 'discarded', 'corrupt file'],
      ],
      'newest first, at most error_limit',
    );
    const sample = alpha.error_samples[1]!;
    assert.equal(sample.attempt, 3);
    assert.equal(sample.max_attempts, 3);
    assert.equal(sample.kind, 'test.echo-args');
    assert.equal(sample.created_at, t0 + 2000);
    assert.equal(sample.attempted_at, t0 + 2000);
    assert.equal(sample.finalized_at, t0 + 2500);

    assert.equal(h.queue.summaries(5)[0]!.error_samples.length, 3);
    assert.equal(h.queue.summaries(0)[0]!.error_samples.length, 0);

    const beta = summaries[1]!;
    assert.equal(beta.remaining_jobs, 1);
    assert.equal(beta.average_latency_ms, null);
    const idle = summaries[2]!;
    assert.deepEqual(
      { ...idle, error_samples: idle.error_samples.length },
      {
        name: 'idle',
        total_jobs: 0,
        remaining_jobs: 0,
        running_jobs: 0,
        processed_jobs: 0,
        attention_jobs: 0,
        average_latency_ms: null,
        average_runtime_ms: null,
        latest_activity_at: null,
        oldest_remaining_at: null,
        error_samples: 0,
      },
      'a configured queue without jobs is listed with zeros',
    );
  });

  test('the queue list shows concurrency, kinds and counts, limited', () => {
    h.queue.enqueue(Echo, { n: 1 });
    const done = h.queue.enqueue(Echo, { n: 2 }).job.id;
    setState(done, 'completed', { attempt: 1 });
    const queues = h.queue.listQueues();
    assert.deepEqual(
      queues.map((q) => [q.name, q.concurrency, q.total_jobs]),
      [
        ['alpha', 2, 2],
        ['beta', 3, 0],
        ['idle', 1, 0],
      ],
    );
    assert.deepEqual(queues[0]!.kinds, ['test.echo-args', 'test.sync-folder']);
    assert.equal(queues[0]!.counts.available, 1);
    assert.equal(queues[0]!.counts.completed, 1);
    assert.equal(h.queue.listQueues(1).length, 1);
  });
});

describe('registry', () => {
  test('kinds are <feature>.<verb-noun>, queues lower-case, limits positive, no duplicates', () => {
    const base = { queue: 'q', args: z.object({}), maxAttempts: 1, timeoutMs: 1, handler: () => 1 };
    for (const kind of ['assets', 'assets.metadata', 'Assets.extract-metadata', 'assets.extract_metadata', '.x-y']) {
      assert.throws(() => defineJob({ ...base, kind }), /must be <feature>\.<verb-noun>/, kind);
    }
    assert.ok(defineJob({ ...base, kind: 'assets.extract-metadata' }));
    assert.ok(defineJob({ ...base, kind: 'cloud-import.fetch-album-page' }));
    assert.throws(() => defineJob({ ...base, kind: 'a.b-c', queue: 'Big Queue' }), /queue/);
    assert.throws(() => defineJob({ ...base, kind: 'a.b-c', maxAttempts: 0 }), /maxAttempts/);
    assert.throws(() => defineJob({ ...base, kind: 'a.b-c', timeoutMs: 0 }), /timeoutMs/);
    assert.throws(() => h.registry.register(Echo), /registered twice/);
  });

  test('boot fails while unfinished jobs of a kind without a handler are stored', () => {
    h.db
      .prepare(
        `INSERT INTO jobs (queue, kind, args, state, max_attempts, run_at, created_at) VALUES ('alpha', 'old.removed-job', '{}', 'retryable', 3, 0, 0)`,
      )
      .run();
    h.queue.enqueue(Echo, { n: 1 });
    assert.throws(
      () => h.registry.assertHandlersFor(h.db),
      (e: unknown) => e instanceof MissingJobHandlersError && /old\.removed-job \(1\)/.test(e.message) && e.missing.length === 1,
    );
    h.db.prepare(`UPDATE jobs SET state = 'discarded', finalized_at = 0 WHERE kind = 'old.removed-job'`).run();
    h.registry.assertHandlersFor(h.db);
  });
});
