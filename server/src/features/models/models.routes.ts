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
    cause_code: z.enum(['source_unreachable']).nullable().openapi({
      description: '`source_unreachable`: the last install never reached its source (this machine is offline, or the source does not answer); install by hand instead (the files with their sha256 into `models_dir`, then verifyModel; or uploadModelFile).',
    }),
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
          models_dir: z.string().openapi({ description: 'The models folder on the Hearth machine: a file installed by hand goes to `<models_dir>/<file path>`.' }),
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

const ModelParam = z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'yunet-n' });

export const uploadModelFile = defineRoute('admin', {
  method: 'put',
  path: '/models/{id}/files/{index}',
  operationId: 'uploadModelFile',
  summary: 'Install one file of a model from an upload (the manual way, for a machine that cannot reach the source)',
  description:
    'The body is the file itself (`application/octet-stream`), the `index`-th of the model’s `files`. It streams to a staging file in the models folder, ' +
    'is refused past the registry’s size (413 `model_file_too_large`), must be whole (422 `model_file_incomplete`) and match the registry’s sha256 ' +
    '(422 `checksum_mismatch`), and is then put in place at once (atomic rename); nothing of a refused upload is kept. ' +
    'While a download of the model runs: 409 `model_installing`. Answers the model; once all its files are there it is `ready` and used without a restart.',
  tags: [TAG],
  request: {
    params: z.object({ id: ModelParam, index: z.coerce.number().int().min(0).max(99).openapi({ param: { name: 'index', in: 'path' }, example: 0 }) }),
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: { 200: jsonResponse(ModelSchema, 'Placed: the model now'), ...errorResponses(404, 409, 413, 422) },
});

export const verifyModel = defineRoute('admin', {
  method: 'post',
  path: '/models/{id}/verify',
  operationId: 'verifyModel',
  summary: '"Check again": verify the files of a model put in the models folder by hand',
  description:
    'Forgets the last failed install of the model (not one running) and answers its state from the files in `models_dir` (size and sha256 of each). ' +
    'Once every file is there and right the model is `ready`, and the features waiting for it use it without a restart.',
  tags: [TAG],
  request: { params: z.object({ id: ModelParam }) },
  responses: { 200: jsonResponse(ModelSchema, 'The model after the check'), ...errorResponses(404) },
});
