/** Queue and jobs: what the background work is doing, for administrators. Read-only. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { TIME_RANGES } from '../../platform/jobs/queue.ts';
import { cursorParam, limitParam } from '../../platform/http/pagination.ts';
import { JobSchema, JobStateSchema, JobStatsSchema, QueueSchema, QueueSummarySchema } from './jobs.view.ts';

const TAG = 'Queue and jobs';

export const getQueueSummaries = defineRoute('admin', {
  method: 'get',
  path: '/queues/summaries',
  operationId: 'getQueueSummaries',
  summary: 'Activity per queue, with recent errors',
  description:
    'One summary per queue (every configured queue, and any that holds jobs), queues needing attention first. `error_samples` lists up to `error_limit` recent retryable, cancelled or discarded jobs per queue.',
  tags: [TAG],
  request: {
    query: z.object({
      error_limit: z.coerce.number().int().min(0).max(20).default(5).openapi({ description: 'Error samples per queue (0–20)', example: 5 }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ generated_at: z.string(), queues: z.array(QueueSummarySchema) })),
  },
});

export const getJobStats = defineRoute('admin', {
  method: 'get',
  path: '/jobs/stats',
  operationId: 'getJobStats',
  summary: 'Number of jobs in each state',
  tags: [TAG],
  responses: { 200: jsonResponse(JobStatsSchema) },
});

export const listJobs = defineRoute('admin', {
  method: 'get',
  path: '/jobs',
  operationId: 'listJobs',
  summary: 'List jobs, newest first',
  description:
    'Filters combine. `time_range` keeps jobs created within the last hour, day or 30 days. Page with `next_cursor`; `total` (all pages) is counted only when `include_count=true`.',
  tags: [TAG],
  request: {
    query: z.object({
      state: JobStateSchema.optional(),
      queue: z.string().min(1).max(64).optional(),
      kind: z.string().min(1).max(128).optional(),
      time_range: z.enum(Object.keys(TIME_RANGES) as [keyof typeof TIME_RANGES, ...(keyof typeof TIME_RANGES)[]]).optional(),
      limit: limitParam({ max: 200, default: 50, noun: 'Jobs' }),
      cursor: cursorParam(),
      include_count: z.enum(['true', 'false']).default('false'),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        jobs: z.array(JobSchema),
        limit: z.number().int(),
        next_cursor: z.string().nullable().openapi({ description: 'null on the last page' }),
        total: z.number().int().optional().openapi({ description: 'Only with include_count=true' }),
      }),
    ),
  },
});

export const getJob = defineRoute('admin', {
  method: 'get',
  path: '/jobs/{id}',
  operationId: 'getJob',
  summary: 'One job with its arguments, progress and error history',
  tags: [TAG],
  request: {
    params: z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 1 }) }),
  },
  responses: { 200: jsonResponse(JobSchema), ...errorResponses(404) },
});

export const listQueues = defineRoute('admin', {
  method: 'get',
  path: '/queues',
  operationId: 'listQueues',
  summary: 'List queues with their concurrency and jobs per state',
  tags: [TAG],
  request: {
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
  },
  responses: {
    200: jsonResponse(z.object({ queues: z.array(QueueSchema), limit: z.number().int(), total: z.number().int() })),
  },
});
