/**
 * Typed job registry. A feature declares each kind of background work once, in `<g>.jobs.ts`:
 *
 *   export const extractMetadata = defineJob({
 *     kind: 'assets.extract-metadata',          // `<feature>.<verb-noun>`
 *     queue: 'metadata',                        // concurrency is per queue
 *     args: z.object({ asset_id: z.string() }), // validated on enqueue and again before running
 *     maxAttempts: 5,
 *     timeoutMs: 60_000,
 *     uniqueKey: (a) => a.asset_id,             // optional: one non-final job per key
 *     uses: ['assets'],                         // the services the handler is given, and only these
 *     handler: (args, ctx) => ctx.deps.assets.extractMetadata(args.asset_id, ctx.signal),
 *   });
 *
 * and enqueues it with `container.jobs.enqueue(extractMetadata, { asset_id })`, inside its own
 * transaction when the job belongs with a write. The registry holds every definition and the
 * per-queue concurrency; `assertHandlersFor(db)` stops the start when the catalog holds unfinished
 * jobs of a kind this build cannot run (a renamed or removed job), instead of leaving them stuck.
 */
import type { z } from 'zod';
import type { AppServices, ServiceName } from '../http/context.ts';
import type { Db } from '../db/connection.ts';
import type { Logger } from '../logger.ts';

export const JOB_STATES = ['available', 'scheduled', 'running', 'retryable', 'completed', 'cancelled', 'discarded'] as const;
export type JobState = (typeof JOB_STATES)[number];
/** States a job can still leave on its own. Uniqueness holds over these. */
export const ACTIVE_STATES = ['available', 'scheduled', 'running', 'retryable'] as const satisfies readonly JobState[];
export const FINAL_STATES = ['completed', 'cancelled', 'discarded'] as const satisfies readonly JobState[];
/** States a worker may claim from (once run_at has come). */
export const CLAIMABLE_STATES = ['available', 'scheduled', 'retryable'] as const satisfies readonly JobState[];

export const sqlList = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');

/** One entry of a job's error history. */
export interface JobErrorEntry {
  at: number;
  attempt: number;
  error: string;
}

/** A job as stored, with its JSON columns parsed. Times are epoch milliseconds. */
export interface Job {
  id: number;
  queue: string;
  kind: string;
  args: unknown;
  state: JobState;
  priority: number;
  attempt: number;
  max_attempts: number;
  run_at: number;
  created_at: number;
  attempted_at: number | null;
  finalized_at: number | null;
  lease_expires_at: number | null;
  last_error: string | null;
  errors: JobErrorEntry[];
  unique_key: string | null;
  progress: number | null;
  progress_message: string | null;
  result: unknown;
  owner_id: number | null;
}

// A service's name (the container's members): one word for jobs' `uses` and routers' `routerUsing`.
export type { ServiceName };

/**
 * What the runner hands a handler besides its arguments.
 * `deps` holds the services the job declared in `uses` and nothing else (the runner picks them from the
 * application's services when the job runs): `ctx.deps.assets.extractMetadata(...)`. Reaching a service the
 * job did not declare is a type error, and undefined at run time. Services that take a job's context (its
 * signal, progress, row) take `JobContext`, which says nothing of deps.
 */
export interface JobContext<D = unknown> {
  readonly job: Job;
  /** 1 on the first run. */
  readonly attempt: number;
  /** Aborted on timeout, cancellation or shutdown: pass it to anything slow. `signal.reason` says why. */
  readonly signal: AbortSignal;
  /** Reports progress (0..1, clamped) with an optional message; written to the job row, throttled. */
  progress(fraction: number, message?: string): void;
  readonly log: Logger;
  readonly deps: D;
}

export type JobHandler<A, D = unknown> = (args: A, ctx: JobContext<D>) => unknown;

export interface JobSpec<S extends z.ZodType, U extends ServiceName = never> {
  kind: string;
  queue: string;
  /** Arguments schema; the parsed output is stored (JSON) and handed to the handler. */
  args: S;
  maxAttempts: number;
  /** Wall-clock limit of one attempt; past it the signal aborts and the attempt fails. */
  timeoutMs: number;
  /** Default priority (smaller runs first, default 0). */
  priority?: number;
  /** Uniqueness key derived from the arguments: at most one non-final job per (kind, key). */
  uniqueKey?: (args: z.output<S>) => string | null | undefined;
  /** The services the handler uses (container members): `ctx.deps` holds these and only these. None when absent. */
  uses?: readonly U[];
  /** Runs one attempt. What it returns (when JSON-serialisable and not undefined) is kept as the job's result. */
  handler: JobHandler<z.output<S>, Pick<AppServices, U>>;
}

// The default service set is every service, so a definition of any `uses` fits where `JobDefinition<S>` is asked
// for (the queue's enqueue): its handler takes fewer services than that.
export interface JobDefinition<S extends z.ZodType = z.ZodType, U extends ServiceName = ServiceName> extends JobSpec<S, U> {
  readonly priority: number;
  readonly uses: readonly U[];
}

// A definition of any argument type, as the registry and the runner see it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each definition's handler takes its own argument type, so no single schema type is a supertype of them all (the handler parameter is contravariant)
export type AnyJobDefinition = JobDefinition<any, any>;

const KIND = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
const QUEUE = /^[a-z][a-z0-9_-]{0,62}$/;

/** Declares a kind of job. Throws at module load on a malformed declaration. */
export function defineJob<S extends z.ZodType, U extends ServiceName = never>(spec: JobSpec<S, U>): JobDefinition<S, U> {
  if (!KIND.test(spec.kind)) throw new Error(`job kind "${spec.kind}" must be <feature>.<verb-noun>, for example assets.extract-metadata`);
  if (!QUEUE.test(spec.queue)) throw new Error(`job ${spec.kind}: queue "${spec.queue}" must be lower-case letters, digits, - or _`);
  if (!Number.isInteger(spec.maxAttempts) || spec.maxAttempts < 1) throw new Error(`job ${spec.kind}: maxAttempts must be a positive integer`);
  if (!(spec.timeoutMs > 0)) throw new Error(`job ${spec.kind}: timeoutMs must be positive`);
  return Object.freeze({ ...spec, priority: spec.priority ?? 0, uses: Object.freeze([...(spec.uses ?? [])]) });
}

/** Thrown by a handler: the job is discarded at once, whatever attempts remain. */
export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/**
 * Thrown by a handler that cannot work yet (a model is not installed, a dependency is offline): the
 * job waits as `scheduled` for `delayMs` and the attempt is given back. `message` is shown as the
 * job's progress message while it waits.
 */
export class SnoozeError extends Error {
  constructor(
    readonly delayMs: number,
    message = `waiting ${Math.round(delayMs)} ms`,
  ) {
    super(message);
    this.name = 'SnoozeError';
    if (!(delayMs >= 0) || !Number.isFinite(delayMs)) throw new RangeError('SnoozeError needs a finite delay >= 0');
  }
}

export interface QueueConfig {
  /** Jobs of this queue run at the same time at most (per process). */
  concurrency: number;
  /**
   * Background work that steps aside: while any job of the `to` queues runs, this queue starts jobs only up to
   * `concurrency` (0: none). Jobs it runs already finish their work; when the last job of those queues ends it
   * fills up to its own concurrency again. For example, processing gives way to an import (jobs.ts).
   */
  yields?: { to: readonly string[]; concurrency: number };
}

export interface QueueInfo {
  name: string;
  concurrency: number;
  kinds: string[];
}

/** Unknown kinds of unfinished jobs found in the catalog at start. */
export class MissingJobHandlersError extends Error {
  constructor(readonly missing: { kind: string; jobs: number }[]) {
    super(
      `the catalog holds unfinished jobs this version of Hearth has no handler for: ${missing
        .map((m) => `${m.kind} (${m.jobs})`)
        .join(', ')}. Start the version that queued them to let them finish, or cancel them.`,
    );
    this.name = 'MissingJobHandlersError';
  }
}

export class JobRegistry {
  private readonly defs = new Map<string, AnyJobDefinition>();
  private readonly queueConfig = new Map<string, QueueConfig>();

  /** `queues`: concurrency per queue; a queue only named by a job definition runs one job at a time. */
  constructor(queues: Record<string, QueueConfig> = {}, readonly defaultConcurrency = 1) {
    for (const [name, cfg] of Object.entries(queues)) this.configureQueue(name, cfg);
  }

  configureQueue(name: string, cfg: QueueConfig): this {
    if (!QUEUE.test(name)) throw new Error(`queue "${name}" must be lower-case letters, digits, - or _`);
    if (!Number.isInteger(cfg.concurrency) || cfg.concurrency < 1) throw new Error(`queue ${name}: concurrency must be a positive integer`);
    if (cfg.yields) {
      const { to, concurrency } = cfg.yields;
      if (!Number.isInteger(concurrency) || concurrency < 0) throw new Error(`queue ${name}: yields.concurrency must be an integer ≥ 0`);
      if (to.length === 0 || to.includes(name)) throw new Error(`queue ${name}: yields.to must name other queues`);
    }
    this.queueConfig.set(name, { ...cfg, ...(cfg.yields ? { yields: { to: [...cfg.yields.to], concurrency: cfg.yields.concurrency } } : {}) });
    return this;
  }

  register(...defs: AnyJobDefinition[]): this {
    for (const d of defs) {
      if (this.defs.has(d.kind)) throw new Error(`job kind ${d.kind} is registered twice`);
      this.defs.set(d.kind, d);
    }
    return this;
  }

  get(kind: string): AnyJobDefinition | undefined {
    return this.defs.get(kind);
  }

  kinds(): string[] {
    return [...this.defs.keys()].sort();
  }

  concurrency(queue: string): number {
    return this.queueConfig.get(queue)?.concurrency ?? this.defaultConcurrency;
  }

  /** What the queue steps aside for, if anything (QueueConfig.yields). */
  yields(queue: string): QueueConfig['yields'] {
    return this.queueConfig.get(queue)?.yields;
  }

  /** The queues that step aside while a job of `queue` runs. */
  yieldingTo(queue: string): string[] {
    return [...this.queueConfig].filter(([, cfg]) => cfg.yields?.to.includes(queue)).map(([name]) => name);
  }

  /** Every queue that is configured or named by a definition, sorted by name. */
  queues(): QueueInfo[] {
    const names = new Set([...this.queueConfig.keys(), ...[...this.defs.values()].map((d) => d.queue)]);
    return [...names].sort().map((name) => ({
      name,
      concurrency: this.concurrency(name),
      kinds: [...this.defs.values()].filter((d) => d.queue === name).map((d) => d.kind).sort(),
    }));
  }

  /** The longest attempt of any kind in the queue (for the lease of a claim). */
  maxTimeoutMs(queue: string): number {
    let max = 0;
    for (const d of this.defs.values()) if (d.queue === queue && d.timeoutMs > max) max = d.timeoutMs;
    return max;
  }

  /** Fails the start when unfinished jobs in the catalog have no handler in this build. */
  assertHandlersFor(db: Db): void {
    const rows = db
      .prepare(`SELECT kind, count(*) AS jobs FROM jobs WHERE state IN (${sqlList(ACTIVE_STATES)}) GROUP BY kind ORDER BY kind`)
      .all() as { kind: string; jobs: number }[];
    const missing = rows.filter((r) => !this.defs.has(r.kind));
    if (missing.length) throw new MissingJobHandlersError(missing);
  }
}
