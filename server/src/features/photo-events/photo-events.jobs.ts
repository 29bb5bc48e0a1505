/** Job definitions of photo events. */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/**
 * Rebuilds one owner's events (rebuild.ts). One waiting job per owner: changes during the debounce
 * join it. `manual`: asked for by the person (runs while automatic rebuilds are paused).
 */
export const rebuildOwnerEventsJob = defineJob({
  kind: 'events.rebuild-owner',
  queue: 'events',
  args: z.object({ owner_id: z.number().int(), manual: z.boolean().default(false) }),
  maxAttempts: 5,
  timeoutMs: 10 * 60_000,
  uniqueKey: (a) => `owner:${a.owner_id}`,
  uses: ['photoEvents'],
  handler: (args, ctx) => ctx.deps.photoEvents.runRebuildJob(args.owner_id, args.manual, String(ctx.job.id)),
});

export const PHOTO_EVENTS_JOBS = [rebuildOwnerEventsJob];
