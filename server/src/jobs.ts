/**
 * Every queue and job kind of the server, in one place (as api.ts is for routes). container.ts builds
 * the registry from here; a feature adds its `<g>.jobs.ts` definitions to JOB_DEFINITIONS and, when
 * its queue should run more than one job at a time, the queue to jobQueues().
 *
 * Concurrency is per queue and per process. Heavy work (decoding, ML) gets few workers so that the
 * server stays responsive on a small machine; I/O-bound work gets more. For example:
 *
 *   metadata:   { concurrency: Math.min(8, Math.max(2, cpus)) },
 *   thumbnails: { concurrency: Math.min(4, Math.max(1, Math.floor(cpus / 2))) },
 *   ml:         { concurrency: cpus + 1 },
 */
import os from 'node:os';
import { JobRegistry, type AnyJobDefinition, type QueueConfig } from './platform/jobs/registry.ts';
import { ASSETS_JOBS } from './features/assets/pipeline/assets.jobs.ts';
import { repositoriesJobs } from './features/repositories/repositories.jobs.ts';
import { UPLOADS_JOBS } from './features/uploads/uploads.jobs.ts';
import { INDEXING_JOBS } from './features/indexing/indexing.jobs.ts';
import { FACES_JOBS } from './features/faces/index.ts';
import { STACKS_JOBS } from './features/stacks/stacks.jobs.ts';
import { TRASH_JOBS } from './features/assets/trash/trash.jobs.ts';
import { DUPLICATES_JOBS } from './features/duplicates/duplicates.jobs.ts';
import { PHOTO_EVENTS_JOBS } from './features/photo-events/photo-events.jobs.ts';
import { PLACES_JOBS } from './features/places/places.jobs.ts';
import { CLOUD_IMPORT_JOBS } from './features/cloud-import/index.ts';

/** Queue name → concurrency. Queues not listed run one job at a time. */
export function jobQueues(cpus = os.availableParallelism()): Record<string, QueueConfig> {
  const whileImporting = importShares(cpus);
  return {
    // Decoding and encoding are CPU-bound, but each job also waits between its CPU steps (the file, the hashing
    // worker, libvips' threads, the catalog): one job per core kept 1.56 of 2 cores busy (scripts/bench/ingest.ts),
    // so one job more than there are cores, at most 5.
    media: { concurrency: Math.min(5, Math.max(1, cpus) + 1), yields: { to: ['imports'], concurrency: whileImporting.media } },
    // Index jobs (faces, text, semantic) prepare their tensors on the server thread and run the models on the
    // ML runtime's worker pool, one single-threaded session per core (adapters/ml/inference-pool.ts). One job
    // more than there are cores keeps every inference thread fed while the server thread prepares the next
    // photo; the pool's lanes, not this number, decide how many inferences run at once. A photo's face and OCR
    // jobs, queued together, run side by side and share one decode (features/indexing/photo-pixels.ts).
    ml: { concurrency: Math.max(2, cpus + 1), yields: { to: ['imports'], concurrency: whileImporting.ml } },
    // Import runs wait on the network, not the CPU: two at once (each fetches a few files at a time, run-executor.ts).
    imports: { concurrency: 2 },
  };
}

/**
 * How much processing runs while an import does: the import keeps about one core to itself. An import moves the
 * household's files home while their source is there (a NAS that sleeps, a cloud session that expires, a laptop
 * that leaves), and on a small machine processing beside it took most of the CPU: on 2 cores a WebDAV import ran at
 * 0.37 of `rclone copy` with everything processing beside it, 0.76 with one media job and no indexing, 1.20 with
 * nothing (scripts/bench/import.ts). So the media queue keeps running, at half the cores (at least one job: new
 * photos still get their thumbnails and appear in the timeline as they arrive), and indexing (faces, text, search)
 * takes the cores left after that and the import's, none on 2 cores: it waits until the import has ended, then
 * catches up at full speed. Nothing is skipped, only ordered: the jobs wait in their queues and a restart keeps them.
 */
export function importShares(cpus: number): { media: number; ml: number } {
  const media = Math.max(1, Math.floor(cpus / 2));
  return { media, ml: Math.max(0, cpus - 1 - media) };
}

/** The job definitions of every feature, e.g. `...assetsJobs` from features/assets/pipeline/assets.jobs.ts. */
export const JOB_DEFINITIONS: AnyJobDefinition[] = [...ASSETS_JOBS, ...repositoriesJobs, ...UPLOADS_JOBS, ...INDEXING_JOBS, ...FACES_JOBS, ...STACKS_JOBS, ...TRASH_JOBS, ...DUPLICATES_JOBS, ...PHOTO_EVENTS_JOBS, ...PLACES_JOBS, ...CLOUD_IMPORT_JOBS];

export function buildJobRegistry(): JobRegistry {
  return new JobRegistry(jobQueues()).register(...JOB_DEFINITIONS);
}
