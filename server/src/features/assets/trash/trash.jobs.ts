/** Job definitions of the Trash. */
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/registry.ts';

/**
 * Deletes for good what went to the Trash longer ago than `trash.retention_days` (trash.service.ts).
 * Idempotent; one at a time (unique key). Queued a minute after start and then hourly.
 */
export const purgeExpiredTrash = defineJob({
  kind: 'assets.purge-expired-trash',
  queue: 'maintenance',
  args: z.object({}),
  maxAttempts: 3,
  timeoutMs: 30 * 60_000,
  uniqueKey: () => 'trash-retention',
  uses: ['trash'],
  handler: (_args, ctx) => ctx.deps.trash.purgeExpired(),
});

export const TRASH_JOBS = [purgeExpiredTrash];
