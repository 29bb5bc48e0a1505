/** Job definitions of the faces feature (see people.service.ts). */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/** Re-clusters one owner's faces, keeping every correction (faces.store.ts rebuildOwner). */
export const rebuildPeople = defineJob({
  kind: 'faces.rebuild-people',
  queue: 'maintenance',
  args: z.object({ owner_id: z.number().int() }),
  maxAttempts: 2,
  timeoutMs: 30 * 60_000,
  uses: ['people'],
  handler: (args, ctx) => ctx.deps.people.runRebuild(args.owner_id),
});

export const FACES_JOBS = [rebuildPeople];
