/**
 * The administrators' view of the job queue: per-queue summaries with recent errors, counters per
 * state, the job list (filters, time range, cursor paging) and one job. Read-only: the contract has
 * no operation that changes a job. The queue itself (platform/jobs) is the store.
 */
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { InvalidCursorError, type JobQueue, type TimeRange } from '../../platform/jobs/queue.ts';
import type { HeldBack } from '../../platform/jobs/runner.ts';
import type { Job, JobState } from '../../platform/jobs/registry.ts';
import { toJobView, toQueue, toQueueSummary, toStats } from './jobs.view.ts';

type Redact = (args: unknown, text: string) => string;

/**
 * How the Jobs page names assets to the administrator reading it: the file names of the assets among
 * `ids` that they may read (features/assets AssetNames), none of anyone else's.
 */
export interface JobAssetNames {
  readable(reader: Actor, ids: readonly string[]): Map<string, string>;
  /** The asset ids a job's arguments name. */
  idsOf(args: unknown): string[];
  /** `text` speaking of the named assets by name instead of `asset <id>`. */
  name(text: string, names: ReadonlyMap<string, string>): string;
}

const NO_NAMES: JobAssetNames = { readable: () => new Map(), idsOf: () => [], name: (text) => text };

export interface ListJobsQuery {
  state?: JobState | undefined;
  queue?: string | undefined;
  kind?: string | undefined;
  time_range?: TimeRange | undefined;
  limit: number;
  cursor?: string | undefined;
  include_count: boolean;
}

export class JobsService {
  /**
   * Errors are stored already rewritten (the runner's `describeFailure`); they are rewritten again
   * when shown, for jobs that failed before that rule existed.
   */
  constructor(
    private readonly queue: JobQueue,
    private readonly redact: Redact = (_args, text) => text,
    /**
     * Errors name assets by id when stored (no one but the owner reads a file name there); when shown,
     * the reader's own assets (and those shared with them) are named by file name again, and a job
     * about one says its name (`asset_name`), so an administrator recognises their own photos.
     */
    private readonly assetNames: JobAssetNames = NO_NAMES,
    /** Why a queue runs fewer jobs than it could now (the runner's JobRunner.heldBack). */
    private readonly heldBack: (queue: string) => HeldBack | null = () => null,
  ) {}

  summaries(actor: Actor, errorLimit: number) {
    const raw = this.queue.summaries(errorLimit);
    const argsOf = new Map(raw.flatMap((q) => q.error_samples.map((s) => [s.job_id, this.queue.get(s.job_id)?.args] as const)));
    const names = this.namesFor(actor, [...argsOf.values()]);
    const queues = raw.map((q) => ({
      ...q,
      error_samples: q.error_samples.map((s) => ({ ...s, last_error: this.text(argsOf.get(s.job_id), s.last_error, names) })),
    }));
    return {
      generated_at: new Date(this.queue.now()).toISOString(),
      queues: queues.map((q) => toQueueSummary(q, this.heldBack(q.name))),
    };
  }

  /** The file names the reader may see of the assets these jobs' arguments name. */
  private namesFor(actor: Actor, args: unknown[]): Map<string, string> {
    return this.assetNames.readable(actor, args.flatMap((a) => this.assetNames.idsOf(a)));
  }

  private text(args: unknown, text: string | null, names: ReadonlyMap<string, string>): string | null {
    return text === null ? null : this.assetNames.name(this.redact(args, text), names);
  }

  private view(job: Job, names: ReadonlyMap<string, string>) {
    const [assetId] = this.assetNames.idsOf(job.args);
    return {
      ...toJobView({
        ...job,
        last_error: this.text(job.args, job.last_error, names),
        errors: job.errors.map((e) => ({ ...e, error: this.text(job.args, e.error, names)! })),
      }),
      asset_name: (assetId !== undefined && names.get(assetId)) || null,
    };
  }

  stats(_actor: Actor) {
    return toStats(this.queue.stats());
  }

  list(actor: Actor, q: ListJobsQuery) {
    try {
      const page = this.queue.list({
        state: q.state,
        queue: q.queue,
        kind: q.kind,
        timeRange: q.time_range,
        limit: q.limit,
        cursor: q.cursor,
        includeCount: q.include_count,
      });
      const names = this.namesFor(actor, page.jobs.map((j) => j.args));
      return {
        jobs: page.jobs.map((j) => this.view(j, names)),
        limit: q.limit,
        next_cursor: page.next_cursor,
        ...(page.total !== undefined ? { total: page.total } : {}),
      };
    } catch (e) {
      if (e instanceof InvalidCursorError) {
        throw new Invalid('Invalid request: query.cursor', [{ field: 'query.cursor', message: e.message, code: 'invalid_cursor' }]);
      }
      throw e;
    }
  }

  get(actor: Actor, id: number) {
    const job = this.queue.get(id);
    if (!job) throw new NotFound('No such job.', 'job_not_found');
    return this.view(job, this.namesFor(actor, [job.args]));
  }

  listQueues(_actor: Actor, limit: number) {
    const all = this.queue.listQueues(Number.MAX_SAFE_INTEGER);
    return { queues: all.slice(0, limit).map(toQueue), limit, total: all.length };
  }
}
