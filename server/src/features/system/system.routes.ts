/** Capabilities, runtime and health. */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

const TAG = 'Capabilities, runtime, health';
const TaskState = z.object({ enabled: z.boolean(), available: z.boolean() });

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

export const getRuntimeDiagnostics = defineRoute('admin', {
  method: 'get',
  path: '/runtime/diagnostics',
  operationId: 'getRuntimeDiagnostics',
  summary: 'Runtime diagnostics: ML backends and nodes, library caches',
  description:
    'Models run inside the server: there are no remote ML nodes or backends, so those lists are empty and discovery is `disabled`. ' +
    '`caches` (beyond the contract) reports the library caches and the change journal they follow.',
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
        })
        .openapi('RuntimeDiagnostics'),
    ),
  },
});
