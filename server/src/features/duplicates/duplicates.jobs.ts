/** Job definitions of the duplicates feature. */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/**
 * Duplicate detection for one repository, queued (debounced) when an asset becomes ready. One waiting
 * job per repository: a batch of files queues one detection. While photos of the repository are still
 * being processed, or a detection runs for it, it waits (visibly, as `scheduled`).
 */
export const detectRepositoryDuplicatesJob = defineJob({
  kind: 'duplicates.detect-duplicates',
  queue: 'duplicates',
  args: z.object({ repository_id: z.string() }),
  maxAttempts: 3,
  timeoutMs: 30 * 60_000,
  uniqueKey: (a) => `repo:${a.repository_id}`,
  uses: ['duplicates'],
  handler: (args, ctx) => ctx.deps.duplicates.runDetectionJob(args.repository_id, ctx.job.created_at),
});

/**
 * pHashes of an older recipe recomputed, and window pHashes for the photos catalogued before ingest computed
 * them (phash.backfill.ts). One at a time. The kind keeps its first name (it began as the window backfill), so
 * a job an older server queued still runs.
 */
export const backfillPhashesJob = defineJob({
  kind: 'duplicates.backfill-window-hashes',
  queue: 'maintenance',
  args: z.object({}),
  maxAttempts: 3,
  timeoutMs: 6 * 60 * 60_000,
  uniqueKey: () => 'window-hashes',
  uses: ['duplicates'],
  handler: (_args, ctx) => ctx.deps.duplicates.runPhashBackfill(ctx.signal, ctx.progress),
});

export const DUPLICATES_JOBS = [detectRepositoryDuplicatesJob, backfillPhashesJob];
