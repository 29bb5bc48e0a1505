/** Job definitions of the uploads feature. */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/**
 * Fails upload sessions idle past the staging age (their chunks removed, their receipts failed) and
 * removes orphan staging files of that age (left by a crash or a killed request). Idempotent; one
 * at a time (unique key). Queued about a minute after start and then hourly by UploadsService.
 */
export const cleanStaging = defineJob({
  kind: 'uploads.clean-staging',
  queue: 'maintenance',
  args: z.object({}),
  maxAttempts: 3,
  timeoutMs: 10 * 60_000,
  uniqueKey: () => 'staging',
  uses: ['uploads'],
  handler: (_args, ctx) => ctx.deps.uploads.cleanupStaging(),
});

export const UPLOADS_JOBS = [cleanStaging];
