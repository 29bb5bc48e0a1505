/**
 * Workers: completion with result and progress, retries with exponential backoff on an injected
 * clock, discard after the last attempt with the error kept, PermanentError, SnoozeError, timeouts,
 * cancellation of a running job, per-queue concurrency, claim order, wake-up without polling, lease
 * rescue, recovery at start and graceful stop; the quiet hook once no job has run for a while.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineJob, PermanentError, SnoozeError, type JobContext } from '../../../server/src/platform/jobs/registry.ts';
import { CRASH_INTERRUPTION, exponentialBackoff, JobCancelledError, JobTimeoutError, MAX_CRASH_INTERRUPTIONS, RunnerStoppingError } from '../../../server/src/platform/jobs/runner.ts';
import { deferred, harness, until, type Harness } from './harness.ts';
import type { AppServices } from '../../../server/src/platform/http/context.ts';

const N = z.object({ n: z.number().int() });

/** A job kind in queue `work` whose handler is the given function. */
function job(handler: (a: { n: number }, ctx: JobContext) => unknown, over: { maxAttempts?: number; timeoutMs?: number; queue?: string; kind?: string } = {}) {
  return defineJob({
    kind: over.kind ?? 'test.do-work',
    queue: over.queue ?? 'work',
    args: N,
    maxAttempts: over.maxAttempts ?? 3,
    timeoutMs: over.timeoutMs ?? 5000,
    handler,
  });
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function setup(...args: Parameters<typeof harness>): Harness {
  const h = harness(...args);
  cleanups.push(() => h.cleanup());
  return h;
}

describe('running jobs', () => {
  test('an enqueued job wakes its worker at once (no poll) and completes with result and progress', async () => {
    const gate = deferred();
    const def = job(async (a, ctx) => {
      ctx.progress(0.5, 'half way');
      await gate.promise;
      return { doubled: a.n * 2, attempt: ctx.attempt };
    });
    const h = setup([def], { work: { concurrency: 1 } });
    const runner = h.runner({ pollIntervalMs: 3_600_000, progressIntervalMs: 0 });
    runner.start();
    const { job: queued } = h.queue.enqueue(def, { n: 21 });
    await until(() => h.queue.get(queued.id)!.state === 'running', 2000, 'the job to start');
    const running = h.queue.get(queued.id)!;
    assert.equal(running.attempt, 1);
    assert.equal(running.attempted_at, h.clock.now());
    assert.ok(running.lease_expires_at! > h.clock.now());
    assert.equal(running.progress, 0.5);
    assert.equal(running.progress_message, 'half way');

    h.clock.advance(250);
    gate.resolve();
    await runner.whenIdle();
    const done = h.queue.get(queued.id)!;
    assert.equal(done.state, 'completed');
    assert.deepEqual(done.result, { doubled: 42, attempt: 1 });
    assert.equal(done.finalized_at, h.clock.now());
    assert.equal(done.lease_expires_at, null);
    assert.equal(done.progress, 1);
    assert.equal(done.progress_message, 'half way');
    assert.equal(h.queue.summaries()[0]!.average_runtime_ms, 250);
  });

  test('failures retry with exponential backoff, keeping each error, then succeed', async () => {
    let calls = 0;
    const def = job(() => {
      calls++;
      if (calls < 3) throw new Error(`boom ${calls}`);
      return 'fine';
    });
    const h = setup([def]);
    const runner = h.runner({ backoff: { baseMs: 1000, maxMs: 600_000, jitter: 0.1 } });
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await runner.whenIdle();

    let j = h.queue.get(id)!;
    assert.equal(j.state, 'retryable');
    assert.equal(j.attempt, 1);
    assert.equal(j.run_at, h.clock.now() + 2000, '2^1 s (random 0.5: no spread)');
    assert.equal(j.last_error, 'boom 1');
    assert.equal(j.finalized_at, null);
    assert.deepEqual(j.errors, [{ at: h.clock.now(), attempt: 1, error: 'boom 1' }]);

    h.clock.advance(1999);
    await runner.whenIdle();
    assert.equal(h.queue.get(id)!.state, 'retryable', 'not before its time');
    assert.equal(calls, 1);

    h.clock.advance(1);
    await runner.whenIdle();
    j = h.queue.get(id)!;
    assert.equal(j.state, 'retryable');
    assert.equal(j.attempt, 2);
    assert.equal(j.run_at, h.clock.now() + 4000, '2^2 s');

    h.clock.advance(4000);
    await runner.whenIdle();
    j = h.queue.get(id)!;
    assert.equal(j.state, 'completed');
    assert.equal(j.attempt, 3);
    assert.equal(j.result, 'fine');
    assert.deepEqual(j.errors.map((e) => e.error), ['boom 1', 'boom 2']);
    assert.equal(j.last_error, 'boom 2', 'the history stays after success');
  });

  test('the backoff grows as 2^attempt seconds, spreads by the jitter and stops at the cap', () => {
    const b = exponentialBackoff();
    assert.equal(b(1, () => 0.5), 2000);
    assert.equal(b(3, () => 0.5), 8000);
    assert.equal(b(3, () => 0), 7200);
    assert.equal(b(3, () => 1), 8800);
    assert.equal(b(30, () => 0.5), 600_000);
    assert.equal(b(30, () => 1), 600_000, 'never above the cap');
    const small = exponentialBackoff({ baseMs: 5, maxMs: 50, jitter: 0 });
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => small(a, Math.random)), [10, 20, 40, 50, 50]);
  });

  test('after its last attempt a job is discarded with the last error visible', async () => {
    let calls = 0;
    const def = job(() => {
      calls++;
      throw new TypeError(`cannot read frame ${calls}`);
    }, { maxAttempts: 2 });
    const h = setup([def]);
    const runner = h.runner({ backoff: { baseMs: 10, jitter: 0 } });
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await runner.whenIdle();
    h.clock.advance(20);
    await runner.whenIdle();
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'discarded');
    assert.equal(j.attempt, 2);
    assert.equal(calls, 2);
    assert.equal(j.finalized_at, h.clock.now());
    assert.equal(j.last_error, 'TypeError: cannot read frame 2');
    assert.equal(j.errors.length, 2);
    h.clock.advance(3_600_000);
    await runner.whenIdle();
    assert.equal(calls, 2, 'a discarded job never runs again by itself');
    const s = h.queue.summaries()[0]!;
    assert.equal(s.attention_jobs, 1);
    assert.equal(s.error_samples[0]!.last_error, 'TypeError: cannot read frame 2');
  });

  test('PermanentError discards at once; arguments that no longer fit do too', async () => {
    const def = job(() => {
      throw new PermanentError('the file is not an image');
    }, { maxAttempts: 5 });
    const h = setup([def]);
    const runner = h.runner();
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    h.db
      .prepare(`INSERT INTO jobs (queue, kind, args, state, max_attempts, run_at, created_at) VALUES ('work', 'test.do-work', '{"n":"x"}', 'available', 5, 0, 0)`)
      .run();
    await runner.whenIdle();
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'discarded');
    assert.equal(j.attempt, 1);
    assert.equal(j.last_error, 'the file is not an image');
    const bad = h.queue.list({ state: 'discarded' }).jobs.find((x) => x.id !== id)!;
    assert.match(bad.last_error!, /stored arguments do not fit test\.do-work/);
  });

  test('SnoozeError waits visibly as scheduled without using an attempt', async () => {
    let modelInstalled = false;
    let calls = 0;
    const def = job(() => {
      calls++;
      if (!modelInstalled) throw new SnoozeError(30_000, 'waiting for the CLIP model to be installed');
      return 'embedded';
    }, { maxAttempts: 1 });
    const h = setup([def]);
    const runner = h.runner();
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await runner.whenIdle();
    for (let round = 0; round < 3; round++) {
      const j = h.queue.get(id)!;
      assert.equal(j.state, 'scheduled');
      assert.equal(j.attempt, 0, 'the attempt was given back');
      assert.equal(j.run_at, h.clock.now() + 30_000);
      assert.equal(j.progress_message, 'waiting for the CLIP model to be installed');
      assert.equal(j.last_error, null, 'waiting is not an error');
      assert.equal(h.queue.stats().scheduled, 1);
      h.clock.advance(30_000);
      await runner.whenIdle();
    }
    assert.equal(calls, 4);
    modelInstalled = true;
    h.clock.advance(30_000);
    await runner.whenIdle();
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'completed', 'even with maxAttempts 1: snoozes do not count');
    assert.equal(j.attempt, 1);
  });

  test('a job past its timeout is aborted and fails the attempt', async () => {
    const reasons: unknown[] = [];
    const def = job(
      (_a, ctx) =>
        new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () => {
            reasons.push(ctx.signal.reason);
            reject(ctx.signal.reason as Error);
          });
        }),
      { timeoutMs: 30 },
    );
    const stubborn = job(() => new Promise(() => {}), { timeoutMs: 30, kind: 'test.ignore-abort', maxAttempts: 1 });
    const h = setup([def, stubborn], { work: { concurrency: 2 } });
    const runner = h.runner({ abortGraceMs: 50 });
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    const id2 = h.queue.enqueue(stubborn, { n: 1 }).job.id;
    await runner.whenIdle();
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'retryable');
    assert.equal(j.last_error, 'timed out after 30 ms');
    assert.ok(reasons[0] instanceof JobTimeoutError);
    const k = h.queue.get(id2)!;
    assert.equal(k.state, 'discarded', 'a handler that ignores the signal still loses its attempt after the grace');
    assert.equal(k.last_error, 'timed out after 30 ms');
    assert.equal(runner.runningCount, 0);
  });

  test('cancelling a running job aborts its handler and the job stays cancelled', async () => {
    const started = deferred();
    let reason: unknown;
    const def = job(async (_a, ctx) => {
      started.resolve();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      reason = ctx.signal.reason;
      return 'finished anyway';
    });
    const h = setup([def]);
    const runner = h.runner();
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await started.promise;
    assert.equal(h.queue.cancel(id)!.state, 'cancelled');
    await runner.whenIdle();
    assert.ok(reason instanceof JobCancelledError);
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'cancelled');
    assert.equal(j.result, null, 'a result after cancellation is dropped');
  });
});

describe('scheduling', () => {
  test('each queue runs at most its concurrency at once, and uses all of it', async () => {
    const current: Record<string, number> = { alpha: 0, beta: 0 };
    const peak: Record<string, number> = { alpha: 0, beta: 0 };
    const runs: string[] = [];
    const handler = (queue: string) => async (a: { n: number }) => {
      current[queue]!++;
      peak[queue] = Math.max(peak[queue]!, current[queue]!);
      await sleep(5);
      current[queue]!--;
      runs.push(`${queue}:${a.n}`);
    };
    const alpha = job(handler('alpha'), { queue: 'alpha', kind: 'test.run-alpha' });
    const beta = job(handler('beta'), { queue: 'beta', kind: 'test.run-beta' });
    const h = setup([alpha, beta], { alpha: { concurrency: 2 }, beta: { concurrency: 3 } });
    for (let n = 0; n < 12; n++) {
      h.queue.enqueue(alpha, { n });
      h.queue.enqueue(beta, { n });
    }
    const runner = h.runner();
    runner.start();
    await runner.whenIdle();
    assert.deepEqual(peak, { alpha: 2, beta: 3 });
    assert.equal(runs.length, 24);
    assert.equal(new Set(runs).size, 24, 'every job ran exactly once');
    assert.equal(h.queue.stats().completed, 24);
  });

  test('a queue that yields runs at most its lower share while the other queue has a job running, and all of it after', async () => {
    const running = { media: 0, ml: 0 };
    const peakWhileImporting = { media: 0, ml: 0 };
    const importing = deferred();
    let importRunning = false;
    const work = (queue: 'media' | 'ml') => async () => {
      running[queue]++;
      if (importRunning) peakWhileImporting[queue] = Math.max(peakWhileImporting[queue], running[queue]);
      await sleep(3);
      running[queue]--;
    };
    const imp = job(async () => {
      importRunning = true;
      await importing.promise;
      importRunning = false;
    }, { queue: 'imports', kind: 'test.run-import' });
    const media = job(work('media'), { queue: 'media', kind: 'test.run-media' });
    const ml = job(work('ml'), { queue: 'ml', kind: 'test.run-index' });
    const h = setup([imp, media, ml], {
      imports: { concurrency: 1 },
      media: { concurrency: 3, yields: { to: ['imports'], concurrency: 1 } },
      ml: { concurrency: 2, yields: { to: ['imports'], concurrency: 0 } },
    });
    const runner = h.runner();
    runner.start();
    h.queue.enqueue(imp, { n: 0 });
    await until(() => importRunning, 5000, 'the import to start');
    for (let n = 0; n < 12; n++) {
      h.queue.enqueue(media, { n });
      h.queue.enqueue(ml, { n });
    }
    // Media goes on one at a time; indexing waits, queued.
    await until(() => h.queue.stats().completed >= 6, 5000, 'media jobs to run beside the import');
    assert.equal(peakWhileImporting.media, 1);
    assert.equal(peakWhileImporting.ml, 0);
    const mlDone = () => h.db.prepare("SELECT count(*) FROM jobs WHERE queue = 'ml' AND state = 'completed'").pluck().get() as number;
    assert.equal(mlDone(), 0, 'no indexing job ran while the import did');
    // What the Jobs page says about it (getQueueSummaries' held_back).
    assert.deepEqual(runner.heldBack('media'), { reason: 'giving_way', running_at_most: 1, to: ['imports'] });
    assert.deepEqual(runner.heldBack('ml'), { reason: 'giving_way', running_at_most: 0, to: ['imports'] });
    assert.equal(runner.heldBack('imports'), null);

    // The import ends: both take up their full concurrency and finish everything.
    let peakAfter = { media: 0, ml: 0 };
    const sample = setInterval(() => (peakAfter = { media: Math.max(peakAfter.media, running.media), ml: Math.max(peakAfter.ml, running.ml) }), 1);
    importing.resolve();
    await runner.whenIdle();
    clearInterval(sample);
    assert.equal(mlDone(), 12);
    assert.equal(h.queue.stats().completed, 25);
    assert.ok(peakAfter.ml === 2, `indexing used its full concurrency after the import (peak ${peakAfter.ml})`);
    assert.equal(runner.heldBack('media'), null, 'held back no more once the import ended');
    assert.equal(runner.heldBack('ml'), null);
    runner.setPaused(['ml'], true);
    assert.deepEqual(runner.heldBack('ml'), { reason: 'paused', running_at_most: 0, to: [] });
    runner.setPaused(['ml'], false);
    assert.equal(runner.heldBack('ml'), null);
  });

  test('a queue cannot yield to itself or with a negative share', () => {
    assert.throws(() => setup([], { media: { concurrency: 2, yields: { to: ['media'], concurrency: 1 } } }), /must name other queues/);
    assert.throws(() => setup([], { media: { concurrency: 2, yields: { to: ['imports'], concurrency: -1 } } }), /integer ≥ 0/);
  });

  test('claims go by priority, then run_at, then id', async () => {
    const order: number[] = [];
    const def = job((a) => {
      order.push(a.n);
    });
    const h = setup([def], { work: { concurrency: 1 } });
    const t = h.clock.now();
    h.queue.enqueue(def, { n: 1 }, { priority: 5 });
    h.queue.enqueue(def, { n: 2 }, { runAt: t - 10 });
    h.queue.enqueue(def, { n: 3 }, { runAt: t - 20 });
    h.queue.enqueue(def, { n: 4 });
    h.queue.enqueue(def, { n: 5 }, { priority: -1 });
    h.queue.enqueue(def, { n: 6 }, { delayMs: 10 });
    const runner = h.runner();
    runner.start();
    await runner.whenIdle();
    assert.deepEqual(order, [5, 3, 2, 4, 1]);
    h.clock.advance(10);
    await runner.whenIdle();
    assert.deepEqual(order, [5, 3, 2, 4, 1, 6]);
  });

  test('the slow poll picks up scheduled jobs when their time comes', async () => {
    const def = job(() => 'ran');
    const h = setup([def]);
    const runner = h.runner({ pollIntervalMs: 10 });
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }, { delayMs: 60_000 }).job.id;
    await sleep(30);
    assert.equal(h.queue.get(id)!.state, 'scheduled');
    h.clock.advance(60_000);
    await until(() => h.queue.get(id)!.state === 'completed', 2000, 'the poll to run the job');
  });

  test("a running job whose lease expired in another worker is taken back and run", async () => {
    const def = job(() => 'ran');
    const h = setup([def]);
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    h.db
      .prepare(`UPDATE jobs SET state = 'running', attempt = 1, attempted_at = @now, lease_expires_at = @lease WHERE id = @id`)
      .run({ id, now: h.clock.now(), lease: h.clock.now() + 1000 });
    const runner = h.runner({ pollIntervalMs: 10 });
    runner.start();
    await sleep(30);
    assert.equal(h.queue.get(id)!.state, 'running', 'not while the lease holds');
    h.clock.advance(1001);
    await until(() => h.queue.get(id)!.state === 'completed', 2000, 'the rescue');
    const j = h.queue.get(id)!;
    assert.equal(j.attempt, 2);
    assert.match(j.errors[0]!.error, /lease expired/);
  });
});

describe('start and stop', () => {
  test('recoverOnStart re-queues jobs left running and gives the crashed attempt back; the third crash discards', async () => {
    const ran: number[] = [];
    const def = job((a) => {
      ran.push(a.n);
    });
    const h = setup([def]);
    const ids = [1, 2, 3, 4].map((n) => h.queue.enqueue(def, { n }).job.id);
    const leave = (id: number, attempt: number, crashesBefore = 0) =>
      h.db
        .prepare(`UPDATE jobs SET state = 'running', attempt = @attempt, attempted_at = 0, lease_expires_at = @lease, errors = @errors WHERE id = @id`)
        .run({
          id,
          attempt,
          lease: h.clock.now() + 3_600_000,
          errors: JSON.stringify(Array.from({ length: crashesBefore }, (_, i) => ({ at: i, attempt, error: CRASH_INTERRUPTION }))),
        });
    leave(ids[0]!, 1);
    leave(ids[1]!, 3); // its last attempt: a crash does not use it up
    leave(ids[2]!, 1, MAX_CRASH_INTERRUPTIONS - 1); // cut off by crashes every time: given up
    h.db.prepare(`UPDATE jobs SET queue = 'renamed-queue' WHERE id = ?`).run(ids[3]);

    const runner = h.runner();
    assert.deepEqual(runner.recoverOnStart(), { requeued: 2, discarded: 1 });
    const a = h.queue.get(ids[0]!)!;
    assert.equal(a.state, 'available');
    assert.equal(a.attempt, 0, 'the attempt the crash cut off is given back');
    assert.equal(a.lease_expires_at, null);
    assert.equal(a.last_error, CRASH_INTERRUPTION);
    assert.deepEqual(a.errors.map((e) => [e.attempt, e.error]), [[1, CRASH_INTERRUPTION]]);
    const b = h.queue.get(ids[1]!)!;
    assert.equal(b.state, 'available', 'a crash on the last attempt is not a failure of the job');
    assert.equal(b.attempt, 2);
    const c = h.queue.get(ids[2]!)!;
    assert.equal(c.state, 'discarded');
    assert.match(c.last_error!, new RegExp(`stopped unexpectedly ${MAX_CRASH_INTERRUPTIONS} times`));
    assert.equal(c.errors.length, MAX_CRASH_INTERRUPTIONS);
    assert.equal(h.queue.get(ids[3]!)!.queue, 'work', 'unfinished jobs follow their kind to its queue');

    runner.start();
    await runner.whenIdle();
    assert.deepEqual(ran.sort(), [1, 2, 4]);
    assert.equal(h.queue.get(ids[0]!)!.attempt, 1);
    assert.equal(h.queue.get(ids[1]!)!.attempt, 3);
    assert.equal(h.queue.get(ids[1]!)!.state, 'completed');
  });

  test('stop waits for running jobs up to the deadline', async () => {
    const def = job(async () => {
      await sleep(30);
      return 'done';
    });
    const h = setup([def]);
    const runner = h.runner();
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await until(() => runner.runningCount === 1, 2000, 'the job to start');
    await runner.stop(5000);
    assert.equal(h.queue.get(id)!.state, 'completed');
    h.queue.enqueue(def, { n: 2 });
    await sleep(10);
    assert.equal(h.queue.stats().available, 1, 'a stopped runner claims nothing');
  });

  test('past the deadline running jobs are aborted and go back to available for the next start', async () => {
    let reason: unknown;
    let hang = true;
    const def = job((_a, ctx) =>
      hang
        ? new Promise((_, reject) =>
            ctx.signal.addEventListener('abort', () => {
              reason = ctx.signal.reason;
              reject(new Error('aborted'));
            }),
          )
        : 'second run',
    );
    const h = setup([def]);
    const runner = h.runner();
    runner.start();
    const id = h.queue.enqueue(def, { n: 1 }).job.id;
    await until(() => runner.runningCount === 1, 2000, 'the job to start');
    const t = Date.now();
    await runner.stop(20);
    assert.ok(Date.now() - t < 1000);
    assert.ok(reason instanceof RunnerStoppingError);
    const j = h.queue.get(id)!;
    assert.equal(j.state, 'available');
    assert.equal(j.attempt, 0, 'stopping is not the job\'s failure: the attempt is given back');
    assert.match(j.last_error!, /interrupted/);
    assert.deepEqual(j.errors.map((e) => e.attempt), [1]);

    hang = false;
    const next = h.runner();
    assert.deepEqual(next.recoverOnStart(), { requeued: 0, discarded: 0 });
    next.start();
    await next.whenIdle();
    const after = h.queue.get(id)!;
    assert.equal(after.state, 'completed');
    assert.equal(after.attempt, 1);
    assert.equal(after.result, 'second run');
  });
});

describe('what a job is given', () => {
  test('a handler gets the services its job declares in `uses`, and no others (a type error, undefined at run time)', async () => {
    // Two of the application's services, as named in the container (values only need to be told apart).
    const services = { stacks: { name: 'stacks' }, assets: { name: 'assets' } } as unknown as AppServices;
    const def = defineJob({
      kind: 'test.use-stacks',
      queue: 'work',
      args: N,
      maxAttempts: 1,
      timeoutMs: 5000,
      uses: ['stacks'],
      handler: (_a, ctx) => {
        const given = ctx.deps.stacks as unknown as { name: string };
        // @ts-expect-error -- `assets` is not in this job's `uses`: reaching it does not type-check.
        const undeclared: unknown = ctx.deps.assets;
        return { keys: Object.keys(ctx.deps), given: given.name, undeclared: undeclared === undefined };
      },
    });
    const h = setup([def], { work: { concurrency: 1 } });
    h.runner({ deps: () => services, pollIntervalMs: 3_600_000 }).start();
    const { job: queued } = h.queue.enqueue(def, { n: 1 });
    await until(() => h.queue.get(queued.id)!.state === 'completed', 2000, 'the job to complete');
    assert.deepEqual(h.queue.get(queued.id)!.result, { keys: ['stacks'], given: 'stacks', undeclared: true });
    // A job that declares nothing is given nothing.
    assert.deepEqual(job(() => undefined).uses, []);
  });
});

describe('quiet', () => {
  /** Turns of the event loop until `cond` holds (setTimeout is mocked here: no real waiting). */
  const turnsUntil = async (cond: () => boolean) => {
    for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
    assert.ok(cond());
  };

  test('onQuiet runs once, quietMs after the last running job ended; a job that starts meanwhile puts it off', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let quiet = 0;
      const gate = deferred();
      const def = job(async (a) => {
        if (a.n === 1) await gate.promise;
        return a.n;
      });
      const h = setup([def], { work: { concurrency: 2 } });
      const runner = h.runner({ onQuiet: () => quiet++, quietMs: 15_000 });
      runner.start();
      h.queue.enqueue(def, { n: 2 });
      await runner.whenIdle();
      mock.timers.tick(10_000);
      assert.equal(quiet, 0, 'not yet: 10 s after the job');
      const { job: slow } = h.queue.enqueue(def, { n: 1 });
      await turnsUntil(() => h.queue.get(slow.id)!.state === 'running');
      mock.timers.tick(20_000);
      assert.equal(quiet, 0, 'a running job is not quiet, however long it runs');
      gate.resolve();
      await runner.whenIdle();
      mock.timers.tick(14_999);
      assert.equal(quiet, 0);
      mock.timers.tick(1);
      assert.equal(quiet, 1, '15 s after the last job ended');
      mock.timers.tick(60_000);
      assert.equal(quiet, 1, 'once per quiet spell');
    } finally {
      mock.timers.reset();
    }
  });
});
