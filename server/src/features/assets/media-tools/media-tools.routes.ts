/**
 * ffmpeg and ffprobe, for administrators: whether they are found, where, and the files waiting for them
 * (pipeline/waiting-for-tools.ts). Beyond the contract (server/operations.extensions.md).
 */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../../platform/http/router.ts';
import { jsonResponse } from '../../../platform/http/responses.ts';

const TAG = 'Queue and jobs';

export const MediaToolsSchema = z
  .object({
    reason: z
      .enum(['tool_missing'])
      .nullable()
      .openapi({ description: '`tool_missing` when ffmpeg or ffprobe is not found (videos and sound files then wait for it); null when both are there.' }),
    tools: z.array(
      z.object({
        tool: z.enum(['ffprobe', 'ffmpeg']),
        found: z.boolean(),
        path: z.string().nullable().openapi({ description: 'The program used; null when it is not found.' }),
        source: z.enum(['env', 'ffmpeg-static', 'beside-ffmpeg', 'path']).nullable().openapi({ description: 'How it was found: FFMPEG_PATH/FFPROBE_PATH, the ffmpeg-static package, beside FFMPEG_PATH, or the PATH.' }),
        searched: z.array(z.string()).openapi({ description: 'Every place looked at, in order.' }),
      }),
    ),
    waiting_assets: z.number().int().openapi({ description: 'Files waiting for a tool (asset status 930, state `pending`), all members together.' }),
    install_hint: z.string().openapi({ description: 'How to install the tools, in words.' }),
  })
  .openapi('MediaTools');

export const getMediaTools = defineRoute('admin', {
  method: 'get',
  path: '/media-tools',
  operationId: 'getMediaTools',
  summary: 'ffmpeg and ffprobe: found or not, and the files waiting for them',
  description: 'The tools are looked up at each request: installing ffmpeg needs no restart to show here.',
  tags: [TAG],
  responses: { 200: jsonResponse(MediaToolsSchema) },
});

export const recheckMediaTools = defineRoute('admin', {
  method: 'post',
  path: '/media-tools/recheck',
  operationId: 'recheckMediaTools',
  summary: 'Look for ffmpeg and ffprobe again and process the files that waited for them',
  description:
    'When both tools are found, every file waiting for them is queued for processing (`requeued`); while one is missing nothing is queued and `reason` stays `tool_missing`. Hearth does the same at each start.',
  tags: [TAG],
  responses: {
    200: jsonResponse(MediaToolsSchema.extend({ requeued: z.number().int().openapi({ description: 'Files queued for processing by this request.' }) }).openapi('MediaToolsRecheck')),
  },
});
