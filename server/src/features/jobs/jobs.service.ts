/**
 * The administrators' view of the job queue: per-queue summaries with recent errors, counters per
 * state, the job list (filters, time range, cursor paging) and one job. Read-only: the contract has
 * no operation that changes a job. The queue itself (platform/jobs) is the store.
 */
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { InvalidCursorError, type JobQueue, type TimeRange } from '../../platform/jobs/queue.ts';
import type { Job, JobState } from '../../platform/jobs/registry.ts';
import { toJobView, toQueue, toQueueSummary, toStats } from './jobs.view.ts';

type Redact = (args: unknown, text: string) => string;

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
  ) {}

  summaries(_actor: Actor, errorLimit: number) {
    const queues = this.queue.summaries(errorLimit).map((q) => ({
      ...q,
      error_samples: q.error_samples.map((s) => ({ ...s, last_error: this.text(this.queue.get(s.job_id)?.args, s.last_error) })),
    }));
    return {
      generated_at: new Date(this.queue.now()).toISOString(),
      queues: queues.map(toQueueSummary),
    };
  }

  private text(args: unknown, text: string | null): string | null {
    return text === null ? null : this.redact(args, text);
  }

  private view(job: Job) {
    return toJobView({
      ...job,
      last_error: this.text(job.args, job.last_error),
      errors: job.errors.map((e) => ({ ...e, error: this.redact(job.args, e.error) })),
    });
  }

  stats(_actor: Actor) {
    return toStats(this.queue.stats());
  }

  list(_actor: Actor, q: ListJobsQuery) {
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
      return {
        jobs: page.jobs.map((j) => this.view(j)),
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

  get(_actor: Actor, id: number) {
    const job = this.queue.get(id);
    if (!job) throw new NotFound('No such job.', 'job_not_found');
    return this.view(job);
  }

  listQueues(_actor: Actor, limit: number) {
    const all = this.queue.listQueues(Number.MAX_SAFE_INTEGER);
    return { queues: all.slice(0, limit).map(toQueue), limit, total: all.length };
  }
}
