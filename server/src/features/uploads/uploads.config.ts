/**
 * Upload limits and the client tuning that `getUploadConfig` reports.
 *
 * Chunk size follows the machine's memory like the original system did: more than 4 GiB of RAM →
 * 20 MiB chunks, 2–4 GiB → 10 MiB, 1–2 GiB → 5 MiB, less → 2 MiB. A chunk is streamed to disk, never
 * held whole by the server, so the chunk size mostly bounds what a *browser* keeps in memory per
 * request (it slices the File), and how much a dropped connection costs to resend.
 *
 * Deployment knobs (environment, read once when the container is built):
 *
 * | variable                        | default  | meaning                                              |
 * |---------------------------------|----------|------------------------------------------------------|
 * | HEARTH_UPLOAD_MAX_FILE_BYTES    | 50 GiB   | largest file one upload (or one session) may carry   |
 * | HEARTH_UPLOAD_MAX_IN_FLIGHT     | 32       | upload requests served at once (more: 503, retry)    |
 * | HEARTH_UPLOAD_MAX_IN_FLIGHT_PER_USER | a quarter of the above | of those, how many one member may hold |
 * |                                 |          | (so one member, or a stolen session, cannot take     |
 * |                                 |          | every slot: the others still upload)                 |
 * | HEARTH_UPLOAD_IDLE_TIMEOUT_S    | 60       | an upload body that brings no byte for this long     |
 * |                                 |          | while the server waits for it is stalled: answered   |
 * |                                 |          | 408, its staging removed, its slot freed             |
 * | HEARTH_UPLOAD_STAGING_MAX_AGE_H | 24       | idle sessions and orphan staging files older than    |
 * |                                 |          | this are failed / removed by the cleanup job         |
 */
import os from 'node:os';
import { z } from 'zod';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export interface UploadLimits {
  /** Largest file (single upload, batch file, or a session's total_size). */
  maxFileBytes: number;
  /** Multipart parts per request (fields + files). */
  maxParts: number;
  /** File parts per request. */
  maxFiles: number;
  /** Text fields per request. */
  maxFields: number;
  /** Bytes of one text field. */
  maxFieldBytes: number;
  /** Chunks of one session. */
  maxChunks: number;
  /** Upload requests served at once, server-wide; past it: 503 with Retry-After. */
  maxInFlight: number;
  /** Of those, the most one member may hold at once; past it: 503 with Retry-After. */
  maxInFlightPerUser: number;
  /** A body that brings no byte for this long while the server waits for it is stalled (408). */
  idleTimeoutMs: number;
  /** Merges of completed chunk sessions running at once. */
  mergeConcurrency: number;
  /** Sessions idle longer are failed; staging files older are removed (cleanup job). */
  stagingMaxAgeMs: number;
  /** JSON bodies of the upload operations that take JSON (sessions, precheck). */
  maxJsonBytes: number;
}

export interface ClientTuning {
  chunk_size: number;
  max_concurrent: number;
  max_in_flight_requests: number;
  memory_buffer: number;
  merge_concurrency: number;
}

/** Chunk size and per-client parallelism by total memory (bytes). */
export function tuningForMemory(totalMem: number, limits: Pick<UploadLimits, 'maxInFlight' | 'mergeConcurrency'>): ClientTuning {
  const [chunk, concurrent] =
    totalMem > 4 * GiB ? [20 * MiB, 4] : totalMem > 2 * GiB ? [10 * MiB, 3] : totalMem > 1 * GiB ? [5 * MiB, 3] : [2 * MiB, 2];
  return {
    chunk_size: chunk,
    max_concurrent: concurrent,
    max_in_flight_requests: limits.maxInFlight,
    // What a client may hold in memory at once: one chunk per parallel request, twice (read-ahead).
    memory_buffer: chunk * concurrent * 2,
    merge_concurrency: limits.mergeConcurrency,
  };
}

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  HEARTH_UPLOAD_MAX_FILE_BYTES: positiveInt.default(50 * GiB),
  HEARTH_UPLOAD_MAX_IN_FLIGHT: positiveInt.max(10_000).default(32),
  HEARTH_UPLOAD_MAX_IN_FLIGHT_PER_USER: positiveInt.max(10_000).optional(),
  HEARTH_UPLOAD_IDLE_TIMEOUT_S: z.coerce.number().positive().max(86_400).default(60),
  HEARTH_UPLOAD_STAGING_MAX_AGE_H: z.coerce.number().positive().default(24),
});

/** Limits from the environment (see the table above); throws a readable error on a bad value. */
export function uploadLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): UploadLimits {
  const picked = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}=${JSON.stringify(env[String(i.path[0])])}: ${i.message}`);
    throw new Error(`bad upload configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  return {
    maxFileBytes: e.HEARTH_UPLOAD_MAX_FILE_BYTES,
    maxParts: 1000,
    maxFiles: 500,
    maxFields: 50,
    maxFieldBytes: 64 * 1024,
    maxChunks: 100_000,
    maxInFlight: e.HEARTH_UPLOAD_MAX_IN_FLIGHT,
    maxInFlightPerUser: Math.min(e.HEARTH_UPLOAD_MAX_IN_FLIGHT, e.HEARTH_UPLOAD_MAX_IN_FLIGHT_PER_USER ?? Math.ceil(e.HEARTH_UPLOAD_MAX_IN_FLIGHT / 4)),
    idleTimeoutMs: Math.round(e.HEARTH_UPLOAD_IDLE_TIMEOUT_S * 1000),
    mergeConcurrency: Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2))),
    stagingMaxAgeMs: e.HEARTH_UPLOAD_STAGING_MAX_AGE_H * 3_600_000,
    maxJsonBytes: 4 * MiB,
  };
}
