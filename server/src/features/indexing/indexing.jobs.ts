/** Job definitions of the indexing feature (see indexing.service.ts). */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';
import { INDEX_TASKS } from './index-tasks.ts';

const RebuildArgsSchema = z.object({
  tasks: z.array(z.enum(INDEX_TASKS)).min(1),
  limit: z.number().int().min(1).max(500),
  missing_only: z.boolean(),
  repository_id: z.string().nullable(),
  reset_semantic: z.boolean(),
});
export type RebuildArgs = z.output<typeof RebuildArgsSchema>;

/** Picks the assets of a rebuild and queues their index jobs (one transaction: all or none). */
export const rebuildIndex = defineJob({
  kind: 'indexing.rebuild-index',
  queue: 'maintenance',
  args: RebuildArgsSchema,
  maxAttempts: 3,
  timeoutMs: 10 * 60_000,
  uses: ['indexing'],
  handler: (args, ctx) => ctx.deps.indexing.runRebuild(args, ctx),
});

/** Indexes one asset for one task; waits (snoozes) while the task has no model. */
export const indexAsset = defineJob({
  kind: 'indexing.index-asset',
  queue: 'ml',
  args: z.object({ asset_id: z.string(), task: z.enum(INDEX_TASKS) }),
  maxAttempts: 3,
  timeoutMs: 10 * 60_000,
  uniqueKey: (a) => `${a.task}:${a.asset_id}`,
  uses: ['indexing'],
  handler: (args, ctx) => ctx.deps.indexing.runIndexAsset(args, ctx),
});

export const INDEXING_JOBS = [rebuildIndex, indexAsset];
