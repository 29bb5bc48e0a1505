/** Job definitions shared by the queue tests (handlers are replaced per test through `behaviour`). */
import { z } from 'zod';
import { defineJob, type JobContext } from '../../../server/src/platform/jobs/registry.ts';

type Behaviour = (args: { n: number }, ctx: JobContext) => unknown;
/** What `test.echo-args` does; tests set it. */
export const behaviour: { run: Behaviour } = { run: (a) => ({ echoed: a.n }) };

export const Echo = defineJob({
  kind: 'test.echo-args',
  queue: 'alpha',
  args: z.object({ n: z.number().int() }),
  maxAttempts: 3,
  timeoutMs: 2000,
  handler: (args, ctx) => behaviour.run(args, ctx),
});

export const SyncFolder = defineJob({
  kind: 'test.sync-folder',
  queue: 'alpha',
  args: z.object({ folder: z.string() }),
  maxAttempts: 3,
  timeoutMs: 2000,
  uniqueKey: (a) => a.folder,
  handler: () => undefined,
});

export const MakeThumbnail = defineJob({
  kind: 'test.make-thumbnail',
  queue: 'beta',
  args: z.object({ asset: z.string() }),
  maxAttempts: 5,
  timeoutMs: 2000,
  priority: 1,
  handler: () => 'ok',
});

export const ALL = [Echo, SyncFolder, MakeThumbnail];
export const QUEUES = { alpha: { concurrency: 2 }, beta: { concurrency: 3 }, idle: { concurrency: 1 } };
