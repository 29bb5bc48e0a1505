/** Asset index: queue a rebuild (admin), read the indexing stats. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { INDEX_TASKS } from './index-tasks.ts';

const TAG = 'Browsing, search, statistics';
const Task = z.enum(INDEX_TASKS);

export const rebuildAssetIndex = defineRoute('admin', {
  method: 'post',
  path: '/assets/indexing/rebuild',
  operationId: 'rebuildAssetIndex',
  summary: 'Queue an index rebuild of the ML tasks',
  description: [
    'Picks up to `limit` ready assets per task (newest first; with `missing_only` only those the task has not indexed yet)',
    'and queues one index job per asset and task on the `ml` queue. `receipt_id` is the rebuild job id (getJob follows it).',
    'No `tasks` means all of them. Tasks turned off in the ML settings come back in `disabled_tasks` and are skipped;',
    'when all are off the answer is 409 `index_tasks_disabled`. Tasks without an installed model are queued and wait as',
    '`scheduled` jobs with the reason until the model is installed.',
    '`reset_semantic` wipes every semantic vector (photos and videos) before rebuilding: it must include the `semantic`',
    'task (422 `semantic_reset_needs_semantic`) and cannot be scoped to a repository (422 `semantic_reset_not_scopable`).',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(
      z.strictObject({
        limit: z.number().int().min(1).max(500).default(200),
        missing_only: z.boolean().default(false),
        repository_id: z.uuid().nullable().optional(),
        reset_semantic: z.boolean().default(false),
        tasks: z.array(Task).min(1).max(INDEX_TASKS.length).optional(),
      }),
      { required: false },
    ),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          status: z.literal('queued'),
          message: z.string(),
          receipt_id: z.string(),
          requested_tasks: z.array(Task),
          disabled_tasks: z.array(Task),
          limit: z.number().int(),
          missing_only: z.boolean(),
          repository_id: z.string().nullable(),
        })
        .openapi('IndexRebuildReceipt'),
      'Queued',
    ),
    ...errorResponses(409),
  },
});

const TaskStats = z.object({ indexed_count: z.number().int(), queued_jobs: z.number().int(), total_count: z.number().int() });

export const getIndexingStats = defineRoute('user', {
  method: 'get',
  path: '/assets/indexing/stats',
  operationId: 'getIndexingStats',
  summary: 'How far each ML task has indexed the library',
  description:
    'Administrators see the whole installation; members see counts over their own assets. `total_count` counts the assets a task applies to (photos, or videos for `video_semantic`); `queued_jobs` the index jobs not finished yet; `reindex_jobs` rebuild requests still being expanded.',
  tags: [TAG],
  request: { query: z.object({ repository_id: z.uuid().optional() }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          photo_total: z.number().int(),
          video_total: z.number().int(),
          reindex_jobs: z.number().int(),
          tasks: z.object({ bioclip: TaskStats, face: TaskStats, ocr: TaskStats, semantic: TaskStats, video_semantic: TaskStats }),
        })
        .openapi('IndexingStats'),
    ),
    ...errorResponses(404),
  },
});
