/**
 * The durable queue: enqueue (in the caller's transaction), cancel, retry now, and the read side
 * (list, get, per-queue summaries, counters per state). All on the one catalog connection; better-
 * sqlite3 is synchronous, so an enqueue inside `tx(db, ...)` commits or rolls back with the write
 * around it. Workers (runner.ts) are woken by an in-process event, emitted after the current
 * synchronous work (and so after the caller's transaction) is done.
 */
import { EventEmitter } from 'node:events';
import type { z } from 'zod';
import type { Db } from '../db/connection.ts';
import { prepared } from '../db/prepared.ts';
import {
  ACTIVE_STATES,
  CLAIMABLE_STATES,
  JOB_STATES,
  sqlList,
  type AnyJobDefinition,
  type Job,
  type JobDefinition,
  type JobErrorEntry,
  type JobRegistry,
  type JobState,
} from './registry.ts';

/** The row as SQLite returns it. */
export interface JobRow extends Omit<Job, 'args' | 'errors' | 'result'> {
  args: string;
  errors: string;
  result: string | null;
}

export function toJob(r: JobRow): Job {
  return {
    ...r,
    args: JSON.parse(r.args) as unknown,
    errors: JSON.parse(r.errors) as JobErrorEntry[],
    result: r.result === null ? null : (JSON.parse(r.result) as unknown),
  };
}

export interface EnqueueOptions {
  /** Not before this time (epoch ms). A future time makes the job `scheduled`. */
  runAt?: number;
  /** Not before now + delayMs (ignored when runAt is given). */
  delayMs?: number;
  priority?: number;
  /** Overrides the definition's uniqueKey; null turns uniqueness off for this job. */
  uniqueKey?: string | null;
  maxAttempts?: number;
  /** The user whose request caused the job. */
  ownerId?: number | null;
}

export interface EnqueueResult {
  job: Job;
  /** False when a non-final job with the same (kind, unique key) already existed: that job is returned. */
  inserted: boolean;
}

export const TIME_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '30d': 30 * 86_400_000 } as const;
export type TimeRange = keyof typeof TIME_RANGES;

export interface ListJobsFilter {
  state?: JobState | undefined;
  queue?: string | undefined;
  kind?: string | undefined;
  /** Jobs created within this range before now. */
  timeRange?: TimeRange | undefined;
  /** 1..200, default 50. */
  limit?: number | undefined;
  /** Opaque, from a previous page's next_cursor. */
  cursor?: string | null | undefined;
  includeCount?: boolean | undefined;
}

export interface JobPage {
  jobs: Job[];
  next_cursor: string | null;
  /** Matching jobs over all pages (only when includeCount). */
  total?: number;
}

export type JobStats = Record<JobState, number>;

export interface QueueErrorSample {
  job_id: number;
  kind: string;
  state: JobState;
  attempt: number;
  max_attempts: number;
  last_error: string | null;
  created_at: number;
  scheduled_at: number;
  attempted_at: number | null;
  finalized_at: number | null;
}

export interface QueueSummary {
  name: string;
  total_jobs: number;
  /** available + scheduled + running + retryable */
  remaining_jobs: number;
  running_jobs: number;
  /** completed */
  processed_jobs: number;
  /** retryable + cancelled + discarded */
  attention_jobs: number;
  /** Mean time from enqueue to completion, over completed jobs. */
  average_latency_ms: number | null;
  /** Mean duration of the final attempt, over completed jobs. */
  average_runtime_ms: number | null;
  latest_activity_at: number | null;
  oldest_remaining_at: number | null;
  error_samples: QueueErrorSample[];
}

export interface QueueListing {
  name: string;
  concurrency: number;
  kinds: string[];
  total_jobs: number;
  counts: JobStats;
}

export class InvalidCursorError extends Error {
  constructor() {
    super('The cursor is not one this server gave out.');
    this.name = 'InvalidCursorError';
  }
}

export class UnknownJobKindError extends Error {
  constructor(readonly kind: string) {
    super(`no job of kind ${kind} is registered`);
    this.name = 'UnknownJobKindError';
  }
}

/** Retrying would make a second non-final job with the same unique key. */
export class DuplicateJobError extends Error {
  constructor(readonly jobId: number) {
    super(`job ${jobId} cannot run again: another unfinished job has the same unique key`);
    this.name = 'DuplicateJobError';
  }
}

/**
 * What a feature does when a job of its kind ends without completing, or is put back to run again.
 * Called synchronously inside the transaction that changes the job's state (by every route: cancel,
 * a failed last attempt, a lease that expired on the last attempt, a crash at start-up, retryNow),
 * so the feature's own rows change together with the job or not at all. Handlers must only write to
 * the catalog (no I/O, no awaiting): an exception rolls the job's state change back.
 */
export interface JobOutcomeHooks {
  /** The job became `cancelled` or `discarded` (its `state` and `last_error` say which and why). */
  givenUp?(job: Job): void;
  /** A cancelled or discarded job was put back to run again (retryNow). */
  revived?(job: Job): void;
}

export interface QueueEvents {
  /** Jobs became runnable in this queue (emitted after the current synchronous work). */
  wake: [queue: string];
  /** A job was cancelled (emitted after the current synchronous work): a runner running it aborts its handler. */
  cancel: [jobId: number];
}

const ACTIVE = sqlList(ACTIVE_STATES);
const CLAIMABLE = sqlList(CLAIMABLE_STATES);
const ATTENTION = sqlList(['retryable', 'cancelled', 'discarded']);

function zeroStats(): JobStats {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as JobStats;
}

function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ v: 1, id })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; id?: unknown };
    if (parsed.v === 1 && Number.isSafeInteger(parsed.id) && (parsed.id as number) > 0) return parsed.id as number;
  } catch {
    /* fall through */
  }
  throw new InvalidCursorError();
}

export class JobQueue {
  readonly events = new EventEmitter<QueueEvents>();
  private readonly pendingWakes = new Set<string>();
  private readonly outcomeHooks = new Map<string, JobOutcomeHooks[]>();

  constructor(
    private readonly db: Db,
    readonly registry: JobRegistry,
    /** The clock of the queue and of its runners (tests inject one). */
    readonly now: () => number = Date.now,
  ) {
    this.events.setMaxListeners(0);
  }

  // ---------------------------------------------------------------- hooks

  /** Registers what happens when a job of this kind is given up or put back (see JobOutcomeHooks). */
  onOutcome(kind: string, hooks: JobOutcomeHooks): void {
    this.outcomeHooks.set(kind, [...(this.outcomeHooks.get(kind) ?? []), hooks]);
  }

  /**
   * Tells the kind's hooks that these jobs were just given up (cancelled or discarded). The runner
   * calls it inside the transaction of its own state changes; cancel() calls it itself.
   */
  notifyGivenUp(jobs: readonly Job[]): void {
    for (const job of jobs) for (const h of this.outcomeHooks.get(job.kind) ?? []) h.givenUp?.(job);
  }

  private notifyRevived(job: Job): void {
    for (const h of this.outcomeHooks.get(job.kind) ?? []) h.revived?.(job);
  }

  // ---------------------------------------------------------------- writes

  /**
   * Adds a job. Runs in the caller's transaction when there is one. With a unique key (from the
   * options or the definition) and an unfinished job of the same kind and key, nothing is added and
   * that job is returned with `inserted: false`.
   */
  enqueue<S extends z.ZodType>(def: JobDefinition<S>, args: z.input<S>, opts?: EnqueueOptions): EnqueueResult;
  enqueue(kind: string, args: unknown, opts?: EnqueueOptions): EnqueueResult;
  enqueue(defOrKind: AnyJobDefinition | string, args: unknown, opts: EnqueueOptions = {}): EnqueueResult {
    return this.insert(this.resolve(defOrKind), args, opts);
  }

  /** Adds many jobs of one kind, all or none (own savepoint inside the caller's transaction). */
  enqueueMany<S extends z.ZodType>(def: JobDefinition<S>, items: readonly { args: z.input<S>; opts?: EnqueueOptions }[]): EnqueueResult[];
  enqueueMany(kind: string, items: readonly { args: unknown; opts?: EnqueueOptions }[]): EnqueueResult[];
  enqueueMany(defOrKind: AnyJobDefinition | string, items: readonly { args: unknown; opts?: EnqueueOptions }[]): EnqueueResult[] {
    const def = this.resolve(defOrKind);
    return this.db.transaction(() => items.map((i) => this.insert(def, i.args, i.opts ?? {}))).immediate();
  }

  /**
   * Cancels a job that has not finished. A waiting job is cancelled at once; a running one is marked
   * cancelled and its handler's signal aborted. Final jobs are left as they are. Returns the job
   * (undefined when there is none).
   */
  cancel(id: number): Job | undefined {
    const row = this.db
      .transaction(() => {
        const r = this.db
          .prepare(
            `UPDATE jobs SET state = 'cancelled', finalized_at = @now, lease_expires_at = NULL
             WHERE id = @id AND state IN (${ACTIVE}) RETURNING *`,
          )
          .get({ id, now: this.now() }) as JobRow | undefined;
        if (r) this.notifyGivenUp([toJob(r)]);
        return r;
      })
      .immediate();
    if (row) {
      // After the caller's transaction, like wake: a rolled-back cancel must not abort anything.
      if (row.attempted_at !== null) setImmediate(() => this.events.emit('cancel', id));
      return toJob(row);
    }
    return this.get(id);
  }

  /**
   * Runs a retryable, discarded or cancelled job again now (a person asking for it again overrides
   * an earlier cancel). A job that used all its attempts gets one more. Returns the job, or undefined
   * when there is none; other states are left as they are. Throws DuplicateJobError when another
   * unfinished job holds its unique key.
   */
  retryNow(id: number): Job | undefined {
    let row: JobRow | undefined;
    try {
      row = this.db
        .transaction(() => {
          const before = this.db.prepare('SELECT state FROM jobs WHERE id = ?').pluck().get(id) as string | undefined;
          const r = this.db
            .prepare(
              `UPDATE jobs SET state = 'available', run_at = @now, finalized_at = NULL,
                 max_attempts = max(max_attempts, attempt + 1)
               WHERE id = @id AND state IN ('retryable', 'discarded', 'cancelled') RETURNING *`,
            )
            .get({ id, now: this.now() }) as JobRow | undefined;
          if (r && before !== 'retryable') this.notifyRevived(toJob(r));
          return r;
        })
        .immediate();
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateJobError(id);
      throw e;
    }
    if (!row) return this.get(id);
    this.wake(row.queue);
    return toJob(row);
  }

  /** Deletes final jobs finalized before the given times (completed ones usually sooner). */
  prune(opts: { completedBefore: number; failedBefore: number }): number {
    const info = this.db
      .prepare(
        `DELETE FROM jobs WHERE (state = 'completed' AND finalized_at < @completedBefore)
           OR (state IN ('cancelled', 'discarded') AND finalized_at < @failedBefore)`,
      )
      .run(opts);
    return info.changes;
  }

  /** Wakes the workers of a queue once the current synchronous work is done. */
  wake(queue: string): void {
    if (this.pendingWakes.has(queue)) return;
    this.pendingWakes.add(queue);
    setImmediate(() => {
      this.pendingWakes.delete(queue);
      this.events.emit('wake', queue);
    });
  }

  // ---------------------------------------------------------------- reads

  get(id: number): Job | undefined {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  /** Newest first. */
  list(filter: ListJobsFilter = {}): JobPage {
    const limit = Math.min(200, Math.max(1, filter.limit ?? 50));
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.state) {
      where.push('state = @state');
      params.state = filter.state;
    }
    if (filter.queue) {
      where.push('queue = @queue');
      params.queue = filter.queue;
    }
    if (filter.kind) {
      where.push('kind = @kind');
      params.kind = filter.kind;
    }
    if (filter.timeRange) {
      where.push('created_at >= @since');
      params.since = this.now() - TIME_RANGES[filter.timeRange];
    }
    const filtered = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const paged = [...where];
    if (filter.cursor) {
      paged.push('id < @before');
      params.before = decodeCursor(filter.cursor);
    }
    const rows = this.db
      .prepare(`SELECT * FROM jobs ${paged.length ? `WHERE ${paged.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @take`)
      .all({ ...params, take: limit + 1 }) as JobRow[];
    const more = rows.length > limit;
    const jobs = rows.slice(0, limit).map(toJob);
    const page: JobPage = { jobs, next_cursor: more ? encodeCursor(jobs[jobs.length - 1]!.id) : null };
    if (filter.includeCount) {
      const { before: _omit, ...countParams } = params;
      page.total = (this.db.prepare(`SELECT count(*) AS n FROM jobs ${filtered}`).get(countParams) as { n: number }).n;
    }
    return page;
  }

  stats(): JobStats {
    const stats = zeroStats();
    const rows = this.db.prepare('SELECT state, count(*) AS n FROM jobs GROUP BY state').all() as { state: JobState; n: number }[];
    for (const r of rows) stats[r.state] = r.n;
    return stats;
  }

  /**
   * Activity per queue (every configured queue, and any queue that holds jobs), the queues that need
   * attention first; with up to `errorLimit` (0..20, default 5) recent retryable, cancelled or
   * discarded jobs each.
   */
  summaries(errorLimit = 5): QueueSummary[] {
    const limit = Math.min(20, Math.max(0, Math.trunc(errorLimit)));
    const rows = this.db
      .prepare(
        `SELECT queue AS name,
           count(*) AS total_jobs,
           count(*) FILTER (WHERE state IN (${ACTIVE})) AS remaining_jobs,
           count(*) FILTER (WHERE state = 'running') AS running_jobs,
           count(*) FILTER (WHERE state = 'completed') AS processed_jobs,
           count(*) FILTER (WHERE state IN (${ATTENTION})) AS attention_jobs,
           round(avg(finalized_at - created_at) FILTER (WHERE state = 'completed')) AS average_latency_ms,
           round(avg(finalized_at - attempted_at) FILTER (WHERE state = 'completed' AND attempted_at IS NOT NULL)) AS average_runtime_ms,
           max(max(created_at, coalesce(attempted_at, 0), coalesce(finalized_at, 0))) AS latest_activity_at,
           min(created_at) FILTER (WHERE state IN (${ACTIVE})) AS oldest_remaining_at
         FROM jobs GROUP BY queue`,
      )
      .all() as Omit<QueueSummary, 'error_samples'>[];
    const byName = new Map(rows.map((r) => [r.name, { ...r, error_samples: [] as QueueErrorSample[] }]));
    for (const q of this.registry.queues()) {
      if (!byName.has(q.name)) {
        byName.set(q.name, {
          name: q.name,
          total_jobs: 0,
          remaining_jobs: 0,
          running_jobs: 0,
          processed_jobs: 0,
          attention_jobs: 0,
          average_latency_ms: null,
          average_runtime_ms: null,
          latest_activity_at: null,
          oldest_remaining_at: null,
          error_samples: [],
        });
      }
    }
    if (limit > 0) {
      const samples = this.db
        .prepare(
          `SELECT queue, job_id, kind, state, attempt, max_attempts, last_error, created_at, scheduled_at, attempted_at, finalized_at
           FROM (
             SELECT queue, id AS job_id, kind, state, attempt, max_attempts, last_error, created_at,
               run_at AS scheduled_at, attempted_at, finalized_at,
               row_number() OVER (PARTITION BY queue ORDER BY coalesce(finalized_at, attempted_at, created_at) DESC, id DESC) AS rn
             FROM jobs WHERE state IN (${ATTENTION})
           ) WHERE rn <= @limit ORDER BY queue, rn`,
        )
        .all({ limit }) as (QueueErrorSample & { queue: string })[];
      for (const { queue, ...s } of samples) byName.get(queue)?.error_samples.push(s);
    }
    return [...byName.values()].sort(
      (a, b) =>
        b.attention_jobs - a.attention_jobs ||
        b.remaining_jobs - a.remaining_jobs ||
        (b.latest_activity_at ?? -1) - (a.latest_activity_at ?? -1) ||
        a.name.localeCompare(b.name),
    );
  }

  /** Queues by name with their concurrency, kinds and counters per state. */
  listQueues(limit = 100): QueueListing[] {
    const known = new Map(this.registry.queues().map((q) => [q.name, q]));
    const listing = new Map<string, QueueListing>();
    const entry = (name: string) => {
      let e = listing.get(name);
      if (!e) {
        const q = known.get(name);
        e = { name, concurrency: q?.concurrency ?? this.registry.concurrency(name), kinds: q?.kinds ?? [], total_jobs: 0, counts: zeroStats() };
        listing.set(name, e);
      }
      return e;
    };
    for (const name of known.keys()) entry(name);
    const rows = this.db.prepare('SELECT queue, state, count(*) AS n FROM jobs GROUP BY queue, state').all() as {
      queue: string;
      state: JobState;
      n: number;
    }[];
    for (const r of rows) {
      const e = entry(r.queue);
      e.counts[r.state] = r.n;
      e.total_jobs += r.n;
    }
    return [...listing.values()].sort((a, b) => a.name.localeCompare(b.name)).slice(0, Math.max(0, limit));
  }

  /** True when a job of one of these queues can be claimed now. */
  hasRunnable(queues: readonly string[]): boolean {
    if (queues.length === 0) return false;
    const marks = queues.map(() => '?').join(', ');
    return (
      prepared(this.db, `SELECT 1 FROM jobs WHERE queue IN (${marks}) AND state IN (${CLAIMABLE}) AND run_at <= ? LIMIT 1`).get(...queues, this.now()) !== undefined
    );
  }

  // ---------------------------------------------------------------- internals

  private resolve(defOrKind: AnyJobDefinition | string): AnyJobDefinition {
    if (typeof defOrKind !== 'string') {
      const registered = this.registry.get(defOrKind.kind);
      if (registered && registered !== defOrKind) throw new Error(`job kind ${defOrKind.kind} is registered with another definition`);
      if (!registered) throw new UnknownJobKindError(defOrKind.kind);
      return defOrKind;
    }
    const def = this.registry.get(defOrKind);
    if (!def) throw new UnknownJobKindError(defOrKind);
    return def;
  }

  private insert(def: AnyJobDefinition, rawArgs: unknown, opts: EnqueueOptions): EnqueueResult {
    const args = def.args.parse(rawArgs) as unknown;
    const now = this.now();
    const runAt = opts.runAt ?? now + Math.max(0, opts.delayMs ?? 0);
    const uniqueKey = opts.uniqueKey !== undefined ? opts.uniqueKey : (def.uniqueKey?.(args) ?? null);
    const maxAttempts = opts.maxAttempts ?? def.maxAttempts;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
    // Kept prepared (platform/db/prepared.ts): every file of an import enqueues a job or more, and preparing
    // this insert (the jobs table's triggers and index) cost more than running it.
    const row = prepared(
      this.db,
      `INSERT INTO jobs (queue, kind, args, state, priority, max_attempts, run_at, created_at, unique_key, owner_id)
       VALUES (@queue, @kind, @args, @state, @priority, @max_attempts, @run_at, @now, @unique_key, @owner_id)
       ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND state IN (${ACTIVE}) DO NOTHING
       RETURNING *`,
    ).get({
        queue: def.queue,
        kind: def.kind,
        args: JSON.stringify(args ?? null),
        state: runAt > now ? 'scheduled' : 'available',
        priority: opts.priority ?? def.priority,
        max_attempts: maxAttempts,
        run_at: runAt,
        now,
        unique_key: uniqueKey,
        owner_id: opts.ownerId ?? null,
      }) as JobRow | undefined;
    if (row) {
      if (row.state === 'available') this.wake(row.queue);
      return { job: toJob(row), inserted: true };
    }
    const existing = prepared(this.db, `SELECT * FROM jobs WHERE kind = ? AND unique_key = ? AND state IN (${ACTIVE})`).get(def.kind, uniqueKey) as JobRow;
    return { job: toJob(existing), inserted: false };
  }
}
