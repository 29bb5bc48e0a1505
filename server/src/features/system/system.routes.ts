/** Capabilities, runtime and health. */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';

const TAG = 'Capabilities, runtime, health';
const TaskState = z.object({ enabled: z.boolean(), available: z.boolean() });

export const getHealth = defineRoute('public', {
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  summary: 'Health check',
  tags: [TAG],
  responses: {
    200: {
      description: 'The server answers; `status` is `degraded` when the catalog cannot be read',
      content: {
        'application/json': {
          schema: z
            .object({
              status: z.enum(['ok', 'degraded']),
              version: z.string(),
              uptime_seconds: z.number().int(),
              database: z.enum(['ok', 'error']),
            })
            .openapi('Health'),
        },
      },
    },
  },
});

export const getCapabilities = defineRoute('public', {
  method: 'get',
  path: '/capabilities',
  operationId: 'getCapabilities',
  summary: 'What this install can do now (secrets omitted)',
  tags: [TAG],
  responses: {
    200: {
      description: 'OK',
      content: {
        'application/json': {
          schema: z
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
        },
      },
    },
  },
});
