/**
 * Background work of repositories: the reconciling scan (see scanner.ts), on its own `scans` queue so
 * that a long first scan never holds up thumbnails or metadata, one scan at a time per process (they
 * compete for the same disks). Unique per repository: one scan queued or running per repository.
 */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';
import { SCAN_JOB_KIND } from './repositories.store.ts';

const ScanArgs = z.object({
  scan_id: z.uuid(),
  repository_id: z.uuid(),
  force: z.boolean().default(false),
});
export type ScanJobArgs = z.output<typeof ScanArgs>;

export const scanRepository = defineJob({
  kind: SCAN_JOB_KIND,
  queue: 'scans',
  args: ScanArgs,
  // A second attempt resumes a scan interrupted by a crash; a scan that fails is recorded and the
  // next periodic scan tries again.
  maxAttempts: 2,
  // Hashing every file of a first scan of a large library takes a while.
  timeoutMs: 12 * 3_600_000,
  uniqueKey: (a) => `repository:${a.repository_id}`,
  uses: ['repositories'],
  handler: (args, ctx) => ctx.deps.repositories.runScan(args, ctx),
});

export const repositoriesJobs = [scanRepository];
