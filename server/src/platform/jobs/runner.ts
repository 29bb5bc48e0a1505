/**
 * Workers: per queue, up to its concurrency jobs at once in this process. A worker claims with one
 * UPDATE (the next runnable job of the queue by priority, run_at, id) which sets a lease, runs the
 * handler with an AbortSignal and a progress callback, then in one UPDATE completes the job, gives
 * it back for a retry with exponential backoff and jitter, discards it (after its last attempt, or at
 * once on PermanentError, keeping the last error), or snoozes it (SnoozeError: `scheduled`, attempt
 * given back). Every finishing UPDATE is guarded by (state running, attempt) so a job cancelled or
 * taken back meanwhile is not overwritten.
 *
 * No polling storm: enqueue wakes the queue's workers through an in-process event; a slow poll
 * (default 1 s) picks up scheduled and retryable jobs whose time has come and takes back jobs whose
 * lease expired in another process. At start, `recoverOnStart()` re-queues what a crash left
 * `running` (see there for how often a crash may interrupt a job); `stop()` lets running jobs
 * finish up to a deadline, then aborts them (they are re-queued, the attempt given back: neither a
 * crash nor a stop is the job's failure).
 *
 * Delivery is at least once: a job interrupted by a crash runs again, so handlers must be idempotent
 * (write their effects so that a second run changes nothing more).
 */
import type { AppServices } from '../http/context.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { toJob, type JobQueue, type JobRow } from './queue.ts';
import {
  ACTIVE_STATES,
  CLAIMABLE_STATES,
  PermanentError,
  SnoozeError,
  sqlList,
  type AnyJobDefinition,
  type Job,
  type JobContext,
  type ServiceName,
  type JobErrorEntry,
  type JobRegistry,
} from './registry.ts';

/** Why a queue runs fewer jobs than its concurrency allows (JobRunner.heldBack). */
export interface HeldBack {
  reason: 'paused' | 'giving_way';
  /** Jobs of the queue that may run at once now (0 when paused). */
  running_at_most: number;
  /** The queues it gives way to whose jobs run now (`giving_way`); empty when paused. */
  to: string[];
}

export interface BackoffConfig {
  /** Delay after the first failure is base·2 (then ·4, ·8 …). Default 1000. */
  baseMs?: number;
  /** Upper bound. Default 10 minutes. */
  maxMs?: number;
  /** ± this fraction of random spread. Default 0.1. */
  jitter?: number;
}

export type BackoffFn = (attempt: number, random: () => number) => number;

/** min(2^attempt · base, max), spread by ±jitter (and never above max). */
export function exponentialBackoff(cfg: BackoffConfig = {}): BackoffFn {
  const base = cfg.baseMs ?? 1000;
  const max = cfg.maxMs ?? 10 * 60_000;
  const jitter = cfg.jitter ?? 0.1;
  return (attempt, random) => {
    const raw = Math.min(max, base * 2 ** Math.max(0, attempt));
    return Math.max(0, Math.min(max, Math.round(raw * (1 - jitter + 2 * jitter * random()))));
  };
}

export interface RetentionConfig {
  /** Completed jobs are deleted this long after they finished. Default 7 days. */
  completedMs: number;
  /** Cancelled and discarded jobs are deleted this long after they finished. Default 30 days. */
  failedMs: number;
}

export interface JobRunnerOptions {
  db: Db;
  queue: JobQueue;
  log: Logger;
  /**
   * The application's services, of which each handler is given the ones its job declares (`uses`) as
   * `ctx.deps`. A function is called when a handler first asks, so the runner can be built before the
   * container object exists.
   */
  deps?: AppServices | (() => AppServices);
  /** Only these queues (default: every queue the registry knows when start() runs). */
  queues?: string[];
  backoff?: BackoffConfig | BackoffFn;
  random?: () => number;
  /** Poll for due scheduled/retryable jobs and expired leases. Default 1000 ms. */
  pollIntervalMs?: number;
  /** A claim's lease is the queue's longest timeout plus this. Default 60 s. */
  leaseMarginMs?: number;
  /** After aborting a handler (timeout, shutdown), wait this long for it to settle. Default 5 s. */
  abortGraceMs?: number;
  /** Progress is written at most this often per job. Default 500 ms. */
  progressIntervalMs?: number;
  /** Deleting old final jobs (checked on start and every hour); null keeps everything. */
  retention?: RetentionConfig | null;
  /**
   * Rewrites a failed attempt's error text before it is stored (administrators read it): the container
   * makes it speak of assets by id, never by a member's file name or path. Default: unchanged.
   */
  describeFailure?: (job: Job, text: string) => string;
  /**
   * Called once when no job has run in this process for `quietMs` after the last one ended (the container
   * gives back memory then: platform/cache/give-back-memory.ts). Whatever work ran, indexing with the models
   * off, a people or events rebuild, a scan, leaves its garbage behind; the inference workers' own idle
   * release only covers work that used the models.
   */
  onQuiet?: () => void;
  /** Default 15 s: a pause between two jobs of an import is not quiet, a finished import is. */
  quietMs?: number;
}

type AbortCause = 'timeout' | 'cancel' | 'shutdown';

interface Execution {
  job: Job;
  controller: AbortController;
  cause: AbortCause | null;
  progress: number | null;
  progressMessage: string | null;
  progressDirty: boolean;
  lastProgressWrite: number;
  done: Promise<void>;
}

export class JobTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

export class JobCancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'JobCancelledError';
  }
}

export class RunnerStoppingError extends Error {
  constructor() {
    super('interrupted: Hearth stopped while this job ran');
    this.name = 'RunnerStoppingError';
  }
}

const RUNNING_GUARD = "id = @id AND state = 'running' AND attempt = @attempt";

/** The error entry of an attempt cut off by a crash (found `running` at the next start). */
export const CRASH_INTERRUPTION = 'interrupted: Hearth stopped unexpectedly while this job ran';
/**
 * How many crashes may cut a job off before it is given up. A crash is not the job's failure (a
 * power cut, an out-of-memory kill of the whole server), so it does not use up an attempt; but a
 * file that crashes the process every time it is read must not crash it forever. After this many
 * interruptions the job is discarded with a reason saying so. Jobs running beside the culprit are
 * interrupted as often; they usually finish between crashes, and if not, they fail visibly and can
 * be run again by hand (retryNow).
 */
export const MAX_CRASH_INTERRUPTIONS = 3;
const PRUNE_EVERY_MS = 3_600_000;

function describeError(e: unknown): string {
  if (e instanceof Error) {
    const text = e.message || e.name;
    const showName = e.name && !['Error', 'PermanentError', 'SnoozeError', 'JobTimeoutError'].includes(e.name);
    return (showName ? `${e.name}: ${text}` : text).slice(0, 4000);
  }
  return String(e).slice(0, 4000);
}

/** Waits for the promise, at most `ms` (the timer does not outlive the wait). */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function toJson(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

export class JobRunner {
  private readonly db: Db;
  private readonly queue: JobQueue;
  private readonly registry: JobRegistry;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly backoff: BackoffFn;
  private readonly opts: Required<Pick<JobRunnerOptions, 'pollIntervalMs' | 'leaseMarginMs' | 'abortGraceMs' | 'progressIntervalMs'>>;
  private readonly retention: RetentionConfig | null;
  private readonly deps: AppServices | (() => AppServices) | undefined;
  private readonly describeFailure: (job: Job, text: string) => string;
  private readonly quiet: { onQuiet: () => void; ms: number } | null;
  private readonly statements = new Map<string, Statement>();

  private queueNames: string[] = [];
  private readonly active = new Map<number, Execution>();
  private readonly activeByQueue = new Map<string, number>();
  private readonly fillScheduled = new Set<string>();
  /** Queues that claim nothing until resumed (setPaused); what runs in them finishes. */
  private readonly paused = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  private pollTimer: NodeJS.Timeout | null = null;
  private quietTimer: NodeJS.Timeout | null = null;
  private lastPrune = 0;
  private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';

  private readonly onWake = (queue: string) => this.fill(queue);
  private readonly onCancel = (jobId: number) => {
    if (this.active.has(jobId) && this.queue.get(jobId)?.state === 'cancelled') this.abort(jobId, 'cancel');
  };

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.queue = options.queue;
    this.registry = options.queue.registry;
    this.log = options.log;
    this.now = options.queue.now;
    this.random = options.random ?? Math.random;
    this.backoff = typeof options.backoff === 'function' ? options.backoff : exponentialBackoff(options.backoff);
    this.opts = {
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      leaseMarginMs: options.leaseMarginMs ?? 60_000,
      abortGraceMs: options.abortGraceMs ?? 5000,
      progressIntervalMs: options.progressIntervalMs ?? 500,
    };
    this.retention = options.retention === undefined ? { completedMs: 7 * 86_400_000, failedMs: 30 * 86_400_000 } : options.retention;
    this.deps = options.deps;
    this.describeFailure = options.describeFailure ?? ((_job, text) => text);
    this.quiet = options.onQuiet ? { onQuiet: options.onQuiet, ms: options.quietMs ?? 15_000 } : null;
    if (options.queues) this.queueNames = [...options.queues];
  }

  /** Jobs running in this process now. */
  get runningCount(): number {
    return this.active.size;
  }

  /**
   * At start, before `start()`: jobs a crash left `running` go back to `available` and the attempt
   * the crash cut off is given back (the crash was not the job's failure; the next claim is the
   * same attempt again), with an error entry saying so. A job cut off by its
   * MAX_CRASH_INTERRUPTIONS-th crash is discarded instead, so a job that crashes the process cannot
   * loop forever (the kind's outcome hooks hear of it in the same transaction, see
   * JobQueue.onOutcome). Unfinished jobs whose kind moved to another queue follow it.
   */
  recoverOnStart(): { requeued: number; discarded: number } {
    const now = this.now();
    return this.db
      .transaction(() => {
        for (const kind of this.registry.kinds()) {
          const def = this.registry.get(kind)!;
          this.db
            .prepare(`UPDATE jobs SET queue = ? WHERE kind = ? AND queue <> ? AND state IN (${sqlList(ACTIVE_STATES)})`)
            .run(def.queue, kind, def.queue);
        }
        const rows = this.db
          .prepare(
            `UPDATE jobs SET
               state = CASE WHEN crashes + 1 >= @limit THEN 'discarded' ELSE 'available' END,
               attempt = CASE WHEN crashes + 1 >= @limit THEN attempt ELSE attempt - 1 END,
               finalized_at = CASE WHEN crashes + 1 >= @limit THEN @now ELSE NULL END,
               lease_expires_at = NULL,
               last_error = CASE WHEN crashes + 1 >= @limit THEN @given_up ELSE @message END,
               errors = json_insert(errors, '$[#]', json_object('at', @now, 'attempt', attempt, 'error', @message))
             FROM (
               SELECT j.id AS crashed_id,
                 (SELECT count(*) FROM json_each(j.errors) e WHERE json_extract(e.value, '$.error') = @message) AS crashes
               FROM jobs j WHERE j.state = 'running'
             )
             WHERE id = crashed_id
             RETURNING *`,
          )
          .all({
            now,
            limit: MAX_CRASH_INTERRUPTIONS,
            message: CRASH_INTERRUPTION,
            given_up: `Hearth stopped unexpectedly ${MAX_CRASH_INTERRUPTIONS} times while this job ran; it was given up in case it is what stops Hearth.`,
          }) as JobRow[];
        this.queue.notifyGivenUp(rows.filter((r) => r.state === 'discarded').map(toJob));
        const requeued = rows.filter((r) => r.state === 'available');
        for (const q of new Set(requeued.map((r) => r.queue))) this.queue.wake(q);
        const counts = { requeued: requeued.length, discarded: rows.length - requeued.length };
        if (counts.requeued || counts.discarded) this.log.warn(counts, 'jobs interrupted by the last stop were taken back');
        return counts;
      })
      .immediate();
  }

  /** Starts the workers. Call recoverOnStart() first. */
  start(): void {
    if (this.state !== 'new') throw new Error(`the job runner cannot start: it is ${this.state}`);
    this.state = 'running';
    if (this.queueNames.length === 0) this.queueNames = this.registry.queues().map((q) => q.name);
    this.queue.events.on('wake', this.onWake);
    this.queue.events.on('cancel', this.onCancel);
    this.pollTimer = setInterval(() => this.poll(), this.opts.pollIntervalMs);
    this.pollTimer.unref();
    this.prune();
    for (const q of this.queueNames) this.fill(q);
  }

  /**
   * Pauses or resumes claiming on `queues` (features/jobs/indexing-pause.ts: the home machine's "Pause indexing").
   * A paused queue starts no job; the jobs it runs now finish their work as usual, and its waiting jobs stay
   * `available` (nothing is lost, and a restart keeps them). Resuming fills the queues at once.
   */
  setPaused(queues: readonly string[], paused: boolean): void {
    for (const q of queues) {
      if (paused) this.paused.add(q);
      else this.paused.delete(q);
    }
    if (!paused) for (const q of queues) this.fill(q);
    this.checkIdle();
  }

  isPaused(queue: string): boolean {
    return this.paused.has(queue);
  }

  /** Looks for runnable jobs now (what the poll does), for every queue or one. */
  wake(queue?: string): void {
    for (const q of queue ? [queue] : this.queueNames) this.fill(q);
  }

  /**
   * Resolves when nothing runs in this process and nothing of its queues can run now (jobs waiting
   * for a later run_at, or in a paused queue, do not count). For tests and tools.
   */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.wake();
      this.checkIdle();
    });
  }

  /**
   * Stops claiming; waits up to `deadlineMs` for running jobs, then aborts them (they go back to
   * `available`) and waits up to the abort grace for them to settle. With 0, aborts at once,
   * synchronously (safe right before the database is closed: what is still running stays `running`
   * in the catalog and is re-queued at the next start).
   */
  async stop(deadlineMs = 10_000): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    const wasRunning = this.state === 'running';
    this.state = 'stopping';
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    this.cancelQuiet();
    this.queue.events.off('wake', this.onWake);
    this.queue.events.off('cancel', this.onCancel);
    if (wasRunning && this.active.size > 0) {
      if (deadlineMs > 0) await this.settled(deadlineMs);
      if (this.active.size > 0) {
        this.log.warn({ jobs: [...this.active.keys()] }, 'aborting running jobs to stop');
        for (const id of [...this.active.keys()]) this.abort(id, 'shutdown');
        if (deadlineMs > 0) await this.settled(this.opts.abortGraceMs);
      }
    }
    this.state = 'stopped';
    this.checkIdle();
  }

  // ------------------------------------------------------------------ loop

  private poll(): void {
    if (this.state !== 'running') return;
    try {
      this.rescueExpiredLeases();
      this.prune();
    } catch (e) {
      this.log.error({ err: e }, 'job maintenance failed');
    }
    for (const q of this.queueNames) this.fill(q);
  }

  /** Claims and launches jobs of the queue until its concurrency is used or nothing is runnable. */
  private fill(queue: string): void {
    if (this.state !== 'running' || !this.queueNames.includes(queue)) return;
    if (this.paused.has(queue)) return this.checkIdle();
    const limit = this.limit(queue);
    while ((this.activeByQueue.get(queue) ?? 0) < limit) {
      let job: Job | undefined;
      try {
        job = this.claim(queue);
      } catch (e) {
        this.log.error({ err: e, queue }, 'claiming a job failed');
        break;
      }
      if (!job) break;
      this.launch(job);
    }
    this.checkIdle();
  }

  /** How many jobs of the queue may run now: its concurrency, or less while it gives way (heldBack). */
  private limit(queue: string): number {
    const held = this.heldBack(queue);
    return held?.reason === 'giving_way' ? held.running_at_most : this.registry.concurrency(queue);
  }

  /**
   * Why the queue runs fewer jobs now than its concurrency allows, or null: `paused` (setPaused), or `giving_way`
   * while a job of a queue it yields to runs (QueueConfig.yields), naming those queues. The Jobs page shows it,
   * so that jobs waiting with few or none running are not taken for a stall.
   */
  heldBack(queue: string): HeldBack | null {
    if (this.paused.has(queue)) return { reason: 'paused', running_at_most: 0, to: [] };
    const yields = this.registry.yields(queue);
    if (!yields || yields.concurrency >= this.registry.concurrency(queue)) return null;
    const to = yields.to.filter((q) => (this.activeByQueue.get(q) ?? 0) > 0);
    return to.length ? { reason: 'giving_way', running_at_most: yields.concurrency, to } : null;
  }

  /** Fills the queue again after the current I/O turn (so a stream of instant jobs never starves I/O). */
  private scheduleFill(queue: string): void {
    if (this.fillScheduled.has(queue)) return;
    this.fillScheduled.add(queue);
    setImmediate(() => {
      this.fillScheduled.delete(queue);
      this.fill(queue);
      this.checkIdle();
    });
  }

  private claim(queue: string): Job | undefined {
    const now = this.now();
    const lease = now + this.registry.maxTimeoutMs(queue) + this.opts.leaseMarginMs;
    const row = this.stmt(
      `UPDATE jobs SET state = 'running', attempt = attempt + 1, attempted_at = @now, lease_expires_at = @lease,
         progress = NULL, progress_message = NULL
       WHERE id = (
         SELECT id FROM jobs
         WHERE queue = @queue AND state IN (${sqlList(CLAIMABLE_STATES)}) AND run_at <= @now
         ORDER BY priority, run_at, id LIMIT 1
       )
       RETURNING *`,
    ).get({ queue, now, lease }) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  private launch(job: Job): void {
    const exec: Execution = {
      job,
      controller: new AbortController(),
      cause: null,
      progress: null,
      progressMessage: null,
      progressDirty: false,
      lastProgressWrite: 0,
      done: Promise.resolve(),
    };
    this.active.set(job.id, exec);
    this.activeByQueue.set(job.queue, (this.activeByQueue.get(job.queue) ?? 0) + 1);
    this.cancelQuiet();
    exec.done = this.execute(exec)
      .catch((e: unknown) => this.log.error({ err: e, job_id: job.id }, 'finishing a job failed'))
      .finally(() => {
        this.active.delete(job.id);
        const left = (this.activeByQueue.get(job.queue) ?? 1) - 1;
        this.activeByQueue.set(job.queue, left);
        this.scheduleFill(job.queue);
        // The queues that stepped aside for this one take up their full concurrency again.
        if (left === 0) for (const q of this.registry.yieldingTo(job.queue)) this.scheduleFill(q);
        this.checkIdle();
        this.armQuiet();
      });
  }

  /** After the last running job: onQuiet in quietMs unless another starts meanwhile. */
  private armQuiet(): void {
    const quiet = this.quiet;
    if (!quiet || this.active.size > 0 || this.state !== 'running') return;
    this.cancelQuiet();
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      if (this.active.size === 0) quiet.onQuiet();
    }, quiet.ms);
    this.quietTimer.unref(); // never keeps the process alive
  }

  private cancelQuiet(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = null;
  }

  private abort(jobId: number, cause: 'cancel' | 'shutdown'): void {
    const exec = this.active.get(jobId);
    if (!exec || exec.cause) return;
    exec.cause = cause;
    exec.controller.abort(cause === 'cancel' ? new JobCancelledError() : new RunnerStoppingError());
  }

  private async execute(exec: Execution): Promise<void> {
    const { job } = exec;
    const def = this.registry.get(job.kind);
    const log = this.log.child({ job_id: job.id, kind: job.kind, attempt: job.attempt });
    if (!def) return this.fail(exec, new PermanentError(`no handler is registered for ${job.kind}`), log);
    const parsed = def.args.safeParse(job.args);
    if (!parsed.success) return this.fail(exec, new PermanentError(`stored arguments do not fit ${job.kind}: ${parsed.error.message}`), log);

    const started = performance.now();
    const ctx = this.context(exec, def.uses, log);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), def.timeoutMs);
    });
    const run = Promise.resolve().then(() => def.handler(parsed.data, ctx));
    const settled = run.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    let outcome: Awaited<typeof settled> | 'timeout';
    try {
      outcome = await Promise.race([settled, timedOut]);
    } finally {
      clearTimeout(timer);
    }
    const ms = Math.round(performance.now() - started);

    if (outcome === 'timeout') {
      exec.cause ??= 'timeout';
      exec.controller.abort(new JobTimeoutError(def.timeoutMs));
      await within(settled, this.opts.abortGraceMs);
      if (exec.cause === 'timeout') return this.fail(exec, new JobTimeoutError(def.timeoutMs), log, def);
    }
    if (outcome !== 'timeout' && outcome.ok) return this.complete(exec, outcome.value, log, ms);
    if (exec.cause === 'cancel') {
      log.info({ ms }, 'job cancelled while running');
      return;
    }
    if (exec.cause === 'shutdown') return this.requeue(exec, log);
    const error = outcome === 'timeout' ? new JobTimeoutError(def.timeoutMs) : outcome.error;
    if (error instanceof SnoozeError) return this.snooze(exec, error, log);
    return this.fail(exec, error, log, def);
  }

  private context(exec: Execution, uses: readonly ServiceName[], log: Logger): JobContext<Partial<AppServices>> {
    const deps = this.deps;
    let picked: Partial<AppServices> | undefined;
    return {
      job: exec.job,
      attempt: exec.job.attempt,
      signal: exec.controller.signal,
      log,
      // Only the services the job declared: a handler cannot reach the rest of the application.
      get deps(): Partial<AppServices> {
        if (picked) return picked;
        if (!deps) throw new Error('this job runner was started without dependencies (deps)');
        const all = typeof deps === 'function' ? deps() : deps;
        picked = Object.freeze(Object.fromEntries(uses.map((name) => [name, all[name]]))) as Partial<AppServices>;
        return picked;
      },
      progress: (fraction: number, message?: string) => {
        exec.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
        if (message !== undefined) exec.progressMessage = message.slice(0, 500);
        exec.progressDirty = true;
        const t = Date.now();
        if (t - exec.lastProgressWrite >= this.opts.progressIntervalMs) {
          exec.lastProgressWrite = t;
          this.write(
            `UPDATE jobs SET progress = @progress, progress_message = coalesce(@message, progress_message) WHERE ${RUNNING_GUARD}`,
            { progress: exec.progress, message: exec.progressMessage, id: exec.job.id, attempt: exec.job.attempt },
          );
          exec.progressDirty = false;
        }
      },
    };
  }

  // ------------------------------------------------------------ outcomes

  private complete(exec: Execution, value: unknown, log: Logger, ms: number): void {
    const changed = this.write(
      `UPDATE jobs SET state = 'completed', finalized_at = @now, lease_expires_at = NULL, progress = 1,
         progress_message = coalesce(@message, progress_message), result = @result
       WHERE ${RUNNING_GUARD}`,
      { now: this.now(), message: exec.progressMessage, result: toJson(value), id: exec.job.id, attempt: exec.job.attempt },
    );
    if (changed) log.debug({ ms }, 'job completed');
    else log.info({ ms }, 'job finished after it was cancelled or taken back; result dropped');
  }

  private fail(exec: Execution, error: unknown, log: Logger, def?: AnyJobDefinition): void {
    const { job } = exec;
    const now = this.now();
    const message = this.failureText(job, describeError(error), log);
    const permanent = error instanceof PermanentError || !def;
    const discard = permanent || job.attempt >= job.max_attempts;
    const entry: JobErrorEntry = { at: now, attempt: job.attempt, error: message };
    const delay = discard ? 0 : this.backoff(job.attempt, this.random);
    this.finish(
      discard,
      `UPDATE jobs SET state = @state, finalized_at = @finalized_at, run_at = @run_at, lease_expires_at = NULL,
         last_error = @message, errors = json_insert(errors, '$[#]', json(@entry)),
         progress = coalesce(@progress, progress), progress_message = coalesce(@progress_message, progress_message)
       WHERE ${RUNNING_GUARD} RETURNING *`,
      {
        state: discard ? 'discarded' : 'retryable',
        finalized_at: discard ? now : null,
        run_at: discard ? job.run_at : now + delay,
        message,
        entry: JSON.stringify(entry),
        progress: exec.progressDirty ? exec.progress : null,
        progress_message: exec.progressDirty ? exec.progressMessage : null,
        id: job.id,
        attempt: job.attempt,
      },
    );
    const line = { error: message, max_attempts: job.max_attempts, ...(discard ? {} : { retry_in_ms: delay }) };
    if (discard) log.error({ ...line, err: error instanceof Error && !(error instanceof PermanentError) ? error : undefined }, 'job discarded');
    else log.warn(line, 'job failed; will retry');
  }

  private failureText(job: Job, text: string, log: Logger): string {
    try {
      return this.describeFailure(job, text).slice(0, 4000);
    } catch (e) {
      // The failure is recorded anyway, with no text that could name a file.
      log.error({ err: e }, 'describing a job failure failed');
      return 'failed (the error text could not be prepared)';
    }
  }

  private snooze(exec: Execution, s: SnoozeError, log: Logger): void {
    const now = this.now();
    this.write(
      `UPDATE jobs SET state = 'scheduled', run_at = @run_at, attempt = attempt - 1, lease_expires_at = NULL,
         progress_message = @message
       WHERE ${RUNNING_GUARD}`,
      { run_at: now + Math.max(1, Math.round(s.delayMs)), message: s.message.slice(0, 500), id: exec.job.id, attempt: exec.job.attempt },
    );
    log.info({ delay_ms: s.delayMs, reason: s.message }, 'job snoozed');
  }

  /** Shutdown cut the job off: back to available with the attempt given back (stopping is not the job's failure). */
  private requeue(exec: Execution, log: Logger): void {
    const message = new RunnerStoppingError().message;
    const entry: JobErrorEntry = { at: this.now(), attempt: exec.job.attempt, error: message };
    this.write(
      `UPDATE jobs SET state = 'available', attempt = attempt - 1, lease_expires_at = NULL, last_error = @message,
         errors = json_insert(errors, '$[#]', json(@entry))
       WHERE ${RUNNING_GUARD}`,
      { message, entry: JSON.stringify(entry), id: exec.job.id, attempt: exec.job.attempt },
    );
    log.info('job interrupted by shutdown; it will run again at the next start');
  }

  /**
   * Runs a finishing statement (one with RETURNING *); when it gives the job up, the kind's outcome
   * hooks run in the same transaction.
   */
  private finish(givesUp: boolean, sql: string, params: Record<string, unknown>): void {
    if (!this.db.open) return;
    this.db
      .transaction(() => {
        const row = this.stmt(sql).get(params) as JobRow | undefined;
        if (row && givesUp) this.queue.notifyGivenUp([toJob(row)]);
      })
      .immediate();
  }

  /** Runs a finishing statement; false when the job was no longer ours or the catalog is closed. */
  private write(sql: string, params: Record<string, unknown>): boolean {
    if (!this.db.open) return false;
    return this.stmt(sql).run(params).changes > 0;
  }

  /** Prepared once per SQL text: claims and finishes are the hot path. */
  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  // --------------------------------------------------------- maintenance

  /**
   * Running jobs matching `where`, not running in this process: back to available (attempt kept),
   * or discarded when that was their last attempt.
   */
  private takeBack(where: string, now: number, message: string, params: Record<string, unknown> = {}): { requeued: number; discarded: number } {
    const mine = [...this.active.keys()];
    const notMine = mine.length ? `AND id NOT IN (${mine.join(', ')})` : '';
    const rows = this.db
      .transaction(() => {
        const taken = this.db
          .prepare(
            `UPDATE jobs SET
               state = CASE WHEN attempt >= max_attempts THEN 'discarded' ELSE 'available' END,
               finalized_at = CASE WHEN attempt >= max_attempts THEN @now ELSE NULL END,
               lease_expires_at = NULL,
               last_error = CASE WHEN attempt >= max_attempts THEN @message || ' (on its last attempt)' ELSE @message END,
               errors = json_insert(errors, '$[#]', json_object('at', @now, 'attempt', attempt, 'error', @message))
             WHERE state = 'running' AND ${where} ${notMine}
             RETURNING *`,
          )
          .all({ ...params, now, message }) as JobRow[];
        this.queue.notifyGivenUp(taken.filter((r) => r.state === 'discarded').map(toJob));
        return taken;
      })
      .immediate();
    const requeued = rows.filter((r) => r.state === 'available');
    for (const q of new Set(requeued.map((r) => r.queue))) this.queue.wake(q);
    return { requeued: requeued.length, discarded: rows.length - requeued.length };
  }

  private rescueExpiredLeases(): void {
    const counts = this.takeBack('lease_expires_at < @cutoff', this.now(), 'interrupted: its worker stopped answering (lease expired)', {
      cutoff: this.now(),
    });
    if (counts.requeued || counts.discarded) this.log.warn(counts, 'jobs with an expired lease were taken back');
  }

  private prune(): void {
    if (!this.retention) return;
    const now = this.now();
    if (this.lastPrune && now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const n = this.queue.prune({ completedBefore: now - this.retention.completedMs, failedBefore: now - this.retention.failedMs });
    if (n) this.log.info({ deleted: n }, 'old finished jobs deleted');
  }

  private async settled(ms: number): Promise<void> {
    await within(Promise.allSettled([...this.active.values()].map((e) => e.done)), ms);
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || this.active.size > 0) return;
    // Jobs waiting in a paused queue cannot run now: they do not keep the runner from being idle.
    const claiming = this.paused.size ? this.queueNames.filter((q) => !this.paused.has(q)) : this.queueNames;
    if (this.state === 'running' && (this.fillScheduled.size > 0 || this.queue.hasRunnable(claiming))) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
