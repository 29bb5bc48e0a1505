/** Job definitions of the stacks feature. */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/**
 * Stack detection for one repository (see detect.ts), queued when an asset becomes ready. One waiting
 * job per repository: a batch of files queues one detection. While photos of the repository are
 * still being processed it waits (visibly, as `scheduled`) so that a burst is detected whole.
 */
export const detectRepositoryStacksJob = defineJob({
  kind: 'stacks.detect-stacks',
  queue: 'stacks',
  args: z.object({ repository_id: z.string() }),
  maxAttempts: 3,
  timeoutMs: 10 * 60_000,
  uniqueKey: (a) => `repo:${a.repository_id}`,
  uses: ['stacks'],
  handler: (args, ctx) => ctx.deps.stacks.runDetectionJob(args.repository_id, ctx.job.created_at),
});

export const STACKS_JOBS = [detectRepositoryStacksJob];
