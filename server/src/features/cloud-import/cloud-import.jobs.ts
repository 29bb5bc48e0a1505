/** Job definitions of cloud import: one job per execution of an import run (run-executor.ts). */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/**
 * Executes (or resumes) one import run. One attempt: a run that fails says why on the run and is resumed by the
 * person (resumeImportRun), not retried blindly against a provider that refused it. A stop of the server leaves
 * the run `interrupted` (ImportRunsService.settleInterrupted) and its job, put back by the runner, finds the run no
 * longer active and ends. Its long limit is for a first import of a large library over a slow line.
 */
export const runImportJob = defineJob({
  kind: 'cloud-import.run-import',
  queue: 'imports',
  args: z.object({ run_id: z.string() }),
  maxAttempts: 1,
  timeoutMs: 7 * 24 * 3600_000,
  uniqueKey: (a) => a.run_id,
  uses: ['cloudImport'],
  handler: (args, ctx) => ctx.deps.cloudImport.runs.execute(args.run_id, ctx),
});

export const CLOUD_IMPORT_JOBS = [runImportJob];
