/** The admin Models page: models, Install, Cancel (extension operations, see server/operations.extensions.md). */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { MODEL_TASKS } from './models.service.ts';

const TAG = 'Capabilities, runtime, health';
const State = z.enum(['ready', 'not_installed', 'downloading', 'failed']);
const Capability = z.enum(['bioclip_classify', 'classify', 'face_recognition', 'ocr', 'semantic_image_embed', 'semantic_text_embed']);

export const ModelSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    task: z.enum(MODEL_TASKS).openapi({ description: 'What the household gets from it: `semantic` (CLIP and its vocabulary), `ocr`, `faces`, `species`.' }),
    capabilities: z.array(Capability).openapi({ description: 'The getCapabilities tasks that need it (empty for an alternative).' }),
    alternative: z.boolean().openapi({ description: 'Not needed by any task; installed only by id.' }),
    state: State.openapi({
      description:
        '`ready`: installed and verified (size and sha256); `downloading`: an install is under way (`progress_percent`); `not_installed`; ' +
        '`failed`: a file there was refused, or the last install failed (`cause`), and Install again retries.',
    }),
    bytes: z.number().int(),
    bytes_present: z.number().int().openapi({ description: 'Bytes present now (verified files and what has arrived of a download).' }),
    progress_percent: z.number().int().min(0).max(100).nullable(),
    cause: z.string().nullable(),
    installing: z.boolean().openapi({ description: 'An install of it runs on this server now (Cancel stops it).' }),
    licences: z.array(z.string()).openapi({ description: 'SPDX identifiers of its files\' licences.' }),
    installed_from: z.string().nullable().openapi({ description: '`models folder`, or `npm package <name>` when the copy installed with the server is used; null when not ready.' }),
    files: z.array(
      z.object({
        path: z.string().openapi({ description: 'Inside the models folder.' }),
        bytes: z.number().int(),
        sha256: z.string(),
        licence: z.string(),
        source_url: z.string().openapi({ description: 'The pinned public source.' }),
        download_url: z.string().openapi({ description: 'Where Install downloads it from (HEARTH_MODELS_BASE_URL when set, else the source).' }),
        state: State,
        cause: z.string().nullable(),
      }),
    ),
  })
  .openapi('Model');

export const listModels = defineRoute('admin', {
  method: 'get',
  path: '/models',
  operationId: 'listModels',
  summary: 'Every registry model: task, files, size, licence, source, state and install progress',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z
        .object({
          download_base_url: z.string().nullable().openapi({ description: 'HEARTH_MODELS_BASE_URL (a mirror) when set; null: the source URLs.' }),
          models: z.array(ModelSchema),
        })
        .openapi('ModelList'),
    ),
  },
});

export const installModel = defineRoute('admin', {
  method: 'post',
  path: '/models/install',
  operationId: 'installModel',
  summary: 'Install a model, or every missing model of a task, in the background',
  description:
    'Downloads run in the background: follow them with listModels (or getCapabilities\' `downloading` and `progress_percent`). ' +
    'An interrupted download resumes from what arrived; every file is checked against its sha256 before it is put in place, ' +
    'and a mismatch installs nothing (state `failed` with the cause; Install again retries). Asking while an install runs joins it. ' +
    'Once installed, a model is used without a restart (the waiting index jobs run).',
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({
          model_id: z.string().min(1).max(100).optional(),
          task: z.enum(MODEL_TASKS).optional(),
        })
        .refine((b) => (b.model_id === undefined) !== (b.task === undefined), { message: 'give exactly one of model_id and task', path: ['model_id'] })
        .openapi('InstallModelRequest'),
    ),
  },
  responses: {
    202: jsonResponse(z.object({ models: z.array(ModelSchema) }).openapi('ModelInstallStarted'), 'Started (or joined, or already installed): the models concerned'),
    ...errorResponses(404, 409),
  },
});

export const cancelModelInstall = defineRoute('admin', {
  method: 'delete',
  path: '/models/{id}/install',
  operationId: 'cancelModelInstall',
  summary: 'Stop an install under way (what arrived is kept: Install continues from there)',
  tags: [TAG],
  request: { params: z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'clip-vit-b32-vision' }) }) },
  responses: { 200: jsonResponse(ModelSchema, 'The model after the install stopped'), ...errorResponses(404) },
});
