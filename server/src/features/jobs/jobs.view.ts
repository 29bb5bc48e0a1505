/** The public shapes of jobs, queue summaries and counters; epoch-ms rows become ISO 8601 strings. */
import { z } from '@hono/zod-openapi';
import { JOB_STATES, type Job } from '../../platform/jobs/registry.ts';
import type { JobStats, QueueErrorSample, QueueListing, QueueSummary } from '../../platform/jobs/queue.ts';
import type { HeldBack } from '../../platform/jobs/runner.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const JobStateSchema = z.enum(JOB_STATES).openapi('JobState');

const Count = z.number().int().min(0);

export const JobStatsSchema = z
  .object({
    available: Count,
    scheduled: Count,
    running: Count,
    retryable: Count,
    completed: Count,
    cancelled: Count,
    discarded: Count,
  })
  .openapi('JobStats');

export const JobSchema = z
  .object({
    id: z.number().int(),
    queue: z.string(),
    kind: z.string().openapi({ description: '`<feature>.<verb-noun>`', example: 'assets.extract-metadata' }),
    state: JobStateSchema,
    args: z.unknown().openapi({ description: 'The arguments the job was queued with (JSON)' }),
    priority: z.number().int().openapi({ description: 'Smaller runs first' }),
    attempt: z.number().int().openapi({ description: 'Attempts started so far' }),
    max_attempts: z.number().int(),
    created_at: z.string(),
    scheduled_at: z.string().openapi({ description: 'Not before this time' }),
    attempted_at: z.string().nullable(),
    finalized_at: z.string().nullable(),
    last_error: z.string().nullable().openapi({
      description: 'Names assets by id (`asset <id>`), except those the reader may see (their own, or shared with them), named by file name; never by a path.',
    }),
    errors: z.array(z.object({ at: z.string(), attempt: z.number().int(), error: z.string() })).openapi({
      description: 'One entry per failed or interrupted attempt, oldest first',
    }),
    unique_key: z.string().nullable(),
    progress: z.number().min(0).max(1).nullable(),
    progress_message: z.string().nullable(),
    result: z.unknown().openapi({ description: 'What the job returned (JSON), once completed' }),
    owner_id: z.number().int().nullable().openapi({ description: 'The user whose request queued the job' }),
    asset_name: z.string().nullable().openapi({
      description: "The file name of the asset the job concerns (`args.asset_id`) when the reader may see that asset (their own, or shared with them); null otherwise, or for a job about no asset.",
    }),
  })
  .openapi('Job');
export type JobView = Omit<z.infer<typeof JobSchema>, 'asset_name'>;

export const QueueErrorSampleSchema = z
  .object({
    job_id: z.number().int(),
    kind: z.string(),
    state: JobStateSchema,
    attempt: z.number().int(),
    max_attempts: z.number().int(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    scheduled_at: z.string(),
    attempted_at: z.string().nullable(),
    finalized_at: z.string().nullable(),
  })
  .openapi('QueueErrorSample');

const QueueHeldBackSchema = z
  .object({
    reason: z.enum(['paused', 'giving_way']).openapi({
      description: '`paused`: indexing is paused on the home machine (media and ml queues). `giving_way`: an import runs, and the queue runs fewer jobs until it ends (server/src/jobs.ts importShares).',
    }),
    running_at_most: Count.openapi({ description: 'Jobs of this queue that may run at once now' }),
    to: z.array(z.string()).openapi({ description: 'The queues it gives way to whose jobs run now; empty when paused' }),
  })
  .openapi('QueueHeldBack');

export const QueueSummarySchema = z
  .object({
    name: z.string(),
    total_jobs: Count,
    remaining_jobs: Count.openapi({ description: 'available, scheduled, running or retryable' }),
    running_jobs: Count,
    processed_jobs: Count.openapi({ description: 'completed' }),
    attention_jobs: Count.openapi({ description: 'retryable, cancelled or discarded' }),
    average_latency_ms: z.number().int().nullable().openapi({ description: 'Mean time from queueing to completion, completed jobs' }),
    average_runtime_ms: z.number().int().nullable().openapi({ description: 'Mean duration of the final attempt, completed jobs' }),
    latest_activity_at: z.string().nullable(),
    oldest_remaining_at: z.string().nullable(),
    error_samples: z.array(QueueErrorSampleSchema).openapi({ description: 'Most recent first, at most error_limit' }),
    held_back: QueueHeldBackSchema.nullable().openapi({
      description:
        'Why the queue runs fewer jobs now than it could (its jobs wait, none is lost), or null. Not in the contract: Hearth adds it so that waiting jobs with none running are not taken for a stall.',
    }),
  })
  .openapi('QueueSummary');

export const QueueSchema = z
  .object({
    name: z.string(),
    concurrency: z.number().int().openapi({ description: 'Jobs of this queue that run at the same time at most' }),
    kinds: z.array(z.string()).openapi({ description: 'Job kinds this queue runs' }),
    total_jobs: Count,
    counts: JobStatsSchema,
  })
  .openapi('Queue');

export function toJobView(j: Job): JobView {
  return {
    id: j.id,
    queue: j.queue,
    kind: j.kind,
    state: j.state,
    args: j.args,
    priority: j.priority,
    attempt: j.attempt,
    max_attempts: j.max_attempts,
    created_at: iso(j.created_at),
    scheduled_at: iso(j.run_at),
    attempted_at: isoOrNull(j.attempted_at),
    finalized_at: isoOrNull(j.finalized_at),
    last_error: j.last_error,
    errors: j.errors.map((e) => ({ at: iso(e.at), attempt: e.attempt, error: e.error })),
    unique_key: j.unique_key,
    progress: j.progress,
    progress_message: j.progress_message,
    result: j.result,
    owner_id: j.owner_id,
  };
}

function toSample(s: QueueErrorSample) {
  return {
    ...s,
    created_at: iso(s.created_at),
    scheduled_at: iso(s.scheduled_at),
    attempted_at: isoOrNull(s.attempted_at),
    finalized_at: isoOrNull(s.finalized_at),
  };
}

export function toQueueSummary(q: QueueSummary, heldBack: HeldBack | null) {
  return {
    ...q,
    held_back: heldBack,
    latest_activity_at: isoOrNull(q.latest_activity_at),
    oldest_remaining_at: isoOrNull(q.oldest_remaining_at),
    error_samples: q.error_samples.map(toSample),
  };
}

export function toQueue(q: QueueListing) {
  return { name: q.name, concurrency: q.concurrency, kinds: q.kinds, total_jobs: q.total_jobs, counts: q.counts };
}

export function toStats(s: JobStats) {
  return { ...s };
}
