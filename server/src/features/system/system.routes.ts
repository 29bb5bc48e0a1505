/** Capabilities, runtime and health. */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { MediaToolsSchema } from '../assets/index.ts';

const TAG = 'Capabilities, runtime, health';
const TaskState = z
  .object({
    enabled: z.boolean(),
    available: z.boolean(),
    reason: z
      .enum(['not_installed', 'downloading', 'disabled', 'failed'])
      .nullable()
      .openapi({
        description:
          'Beyond the contract: why the task is not available (null when it is). `disabled`: switched off in the ML settings; ' +
          '`not_installed`: a model it needs is not in the models folder; `downloading`: a model is being downloaded (see `progress_percent`); ' +
          '`failed`: a model file is there but was refused (wrong size or sha256; `detail` says which), or an administrator\'s install of it failed (`detail` says why; installModel retries).',
      }),
    progress_percent: z.number().int().min(0).max(100).nullable().openapi({ description: 'While `downloading`: how much of the models it needs is present.' }),
    detail: z.string().nullable().openapi({ description: 'The reason in words: what failed and why, what is missing, what is downloading.' }),
    models: z.array(z.string()).openapi({ description: 'The registry models the task needs (all of them).' }),
  })
  .openapi('MlTaskState');

export const getHealth = defineRoute('public', {
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  summary: 'Health check',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z
        .object({
          status: z.enum(['ok', 'degraded']),
          version: z.string(),
          uptime_seconds: z.number().int(),
          database: z.enum(['ok', 'error']),
        })
        .openapi('Health'),
      'The server answers; `status` is `degraded` when the catalog cannot be read',
    ),
  },
});

export const getCapabilities = defineRoute('public', {
  method: 'get',
  path: '/capabilities',
  operationId: 'getCapabilities',
  summary: 'What this install can do now (secrets omitted)',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z
        .object({
          llm: z.object({
            agent_enabled: z.boolean(),
            availability: z.enum(['ready', 'unchecked', 'not_configured', 'unreachable']),
            configured: z.boolean(),
            model_name: z.string().nullable(),
            provider: z.string(),
          }),
          ml: z.object({
            active_node_count: z.number().int(),
            connecting_node_count: z.number().int(),
            discovered_node_count: z.number().int(),
            discovery_state: z.enum(['disabled', 'healthy']),
            incompatible_node_count: z.number().int(),
            pending_node_count: z.number().int(),
            unavailable_node_count: z.number().int(),
            tasks: z.object({
              bioclip_classify: TaskState,
              classify: TaskState.openapi({
                description: 'Beyond the contract: zero-shot tags (document, receipt, screenshot, illustration) with CLIP; switched with `semantic_enabled`.',
              }),
              face_recognition: TaskState,
              ocr: TaskState,
              semantic_image_embed: TaskState,
              semantic_text_embed: TaskState,
            }),
          }),
        })
        .openapi('Capabilities'),
    ),
  },
});

const BackendSchema = z.object({
  consecutive_failures: z.number().int(),
  last_error_code: z.string().nullable(),
  last_outcome: z.string().nullable(),
  last_scan_completed_at: z.string().nullable(),
  last_scan_started_at: z.string().nullable(),
  last_scan_succeeded_at: z.string().nullable(),
  matched_count: z.number().int(),
  next_scan_at: z.string().nullable(),
  rejected_count: z.number().int(),
  source: z.string(),
  state: z.string(),
});

const NodeSchema = z.object({
  compatibility: z.string(),
  endpoint: z.string(),
  error_code: z.string().nullable(),
  id: z.string(),
  last_observed_at: z.string().nullable(),
  runtime: z.string(),
  sources: z.array(z.string()),
  tasks: z.array(z.object({ service: z.string(), task: z.string() })),
  transport: z.string(),
  updated_at: z.string().nullable(),
  version: z.string().nullable(),
});

const CacheCountersSchema = z
  .object({
    name: z.string().openapi({ description: '`lists`, `map_points`, `statistics_facts`, `memo` or `folder_totals`.' }),
    entries: z.number().int(),
    bytes: z.number().int().openapi({ description: 'Estimated bytes held.' }),
    max_bytes: z.number().int().openapi({ description: 'The budget: past it the least recently used entries go.' }),
    hits: z.number().int().openapi({ description: 'Answers served from a kept entry (unchanged, or brought up to date from the change journal).' }),
    misses: z.number().int().openapi({ description: 'Entries computed from the catalog.' }),
    invalidations: z.number().int().openapi({ description: 'Kept entries that could not be brought up to date and were computed again.' }),
    evictions: z.number().int().openapi({ description: 'Entries dropped to stay within the budget.' }),
    rows_reread: z.number().int().openapi({ description: 'Catalog rows read again to bring kept entries up to date (changes of kinds an entry does not show are not read).' }),
  })
  .openapi('CacheCounters');

const ModelFileSchema = z.object({
  path: z.string().openapi({ description: 'Inside the models folder.' }),
  bytes: z.number().int(),
  sha256: z.string(),
  licence: z.string(),
  source_url: z.string(),
  state: z.enum(['ready', 'not_installed', 'downloading', 'failed']),
  location: z.string().nullable().openapi({ description: 'The checked copy (the models folder or an installed npm package); null when there is none.' }),
  cause: z.string().nullable(),
});

const MlRuntimeSchema = z
  .object({
    execution_provider: z.literal('cpu'),
    onnxruntime_version: z.string(),
    models_dir: z.string(),
    max_workers: z.number().int().openapi({ description: 'Most inference threads: one per core for indexing (capped by HEARTH_ML_WORKERS) and one more that only search queries take.' }),
    workers: z.number().int().openapi({ description: 'Inference threads running now (started on demand; after HEARTH_ML_IDLE_S without work a thread releases its models and stops).' }),
    intra_op_threads: z.number().int().openapi({ description: 'onnxruntime threads per inference thread.' }),
    queue_depth: z.number().int().openapi({ description: 'Requests waiting for a thread.' }),
    running: z.number().int(),
    models_loaded: z.array(
      z.object({
        model_id: z.string(),
        task: z.string(),
        bytes: z.number().int(),
        workers: z.number().int().openapi({ description: 'Threads holding a session of it.' }),
        load_ms: z.number(),
      }),
    ),
    per_model: z.array(z.object({ model_id: z.string(), task: z.string(), runs: z.number().int(), failures: z.number().int(), avg_inference_ms: z.number().nullable() })),
    per_task: z.array(z.object({ task: z.string(), runs: z.number().int(), failures: z.number().int(), avg_inference_ms: z.number().nullable() })),
    models: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        task: z.string(),
        state: z.enum(['ready', 'not_installed', 'downloading', 'failed']),
        bytes: z.number().int(),
        progress_percent: z.number().int().nullable(),
        bytes_present: z.number().int().openapi({ description: 'Bytes present now: verified files and what has arrived of downloads.' }),
        cause: z.string().nullable(),
        files: z.array(ModelFileSchema),
      }),
    ),
  })
  .openapi('MlRuntimeDiagnostics');

export const getRuntimeDiagnostics = defineRoute('admin', {
  method: 'get',
  path: '/runtime/diagnostics',
  operationId: 'getRuntimeDiagnostics',
  summary: 'Runtime diagnostics: ML backends and nodes, library caches',
  description:
    'Models run inside the server: there are no remote ML nodes or backends, so those lists are empty and discovery is `disabled`. ' +
    '`ml` (beyond the contract) reports the in-process runtime: execution provider, threads, models loaded with their sizes and load times, ' +
    'queue depth, average inference time per model and per task, and every registry model\'s state. ' +
    '`caches` (beyond the contract) reports the library caches and the change journal they follow. ' +
    '`media_tools` (beyond the contract) says whether ffmpeg and ffprobe are found and how many files wait for them.',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z
        .object({
          backends: z.array(BackendSchema).openapi({ description: 'Bounded; empty in this build.' }),
          captured_at: z.string().openapi({ format: 'date-time' }),
          counts: z.object({
            active: z.number().int(),
            connecting: z.number().int(),
            discovered: z.number().int(),
            incompatible: z.number().int(),
            pending: z.number().int(),
            unavailable: z.number().int(),
          }),
          discovery_state: z.enum(['disabled', 'healthy']),
          nodes: z.array(NodeSchema).openapi({ description: 'Bounded; empty in this build.' }),
          ml: MlRuntimeSchema,
          caches: z.object({
            journal: z.object({
              position: z.number().int().nullable().openapi({ description: 'The change-journal position the caches are at (null before the first read).' }),
              rebuilds: z.number().int().openapi({ description: 'Times the caches started over (the first build included).' }),
              updates: z.number().int().openapi({ description: 'Journal reads that brought changes.' }),
              blocking_rebuilds: z.number().int().openapi({ description: 'Of the rebuilds, those done at once inside a request (a writer squeezed a gap in just before it); the others are read a slice at a time.' }),
              chunks: z.number().int().openapi({ description: 'Journal chunks applied a turn of the event loop at a time (far behind, or catching up after a rebuild).' }),
              rebuilding: z.boolean().openapi({ description: 'A rebuild is reading the catalog shape right now.' }),
            }),
            caches: z.array(CacheCountersSchema),
          }),
          media_tools: MediaToolsSchema.openapi({ description: 'Beyond the contract: whether ffmpeg and ffprobe are found, and how many files wait for them (the same as getMediaTools).' }),
        })
        .openapi('RuntimeDiagnostics'),
    ),
  },
});
