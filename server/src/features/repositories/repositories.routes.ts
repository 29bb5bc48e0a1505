/**
 * Repositories: folders indexed in place. Administrators register folders and see paths; every
 * signed-in member may list repositories (for scoping views), ask for a scan and read scan results,
 * never a path.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { RepositorySchema, RepositoryScanSchema } from './repositories.view.ts';
import { singleLine } from '../../platform/http/text.ts';
import { pageParams } from '../../platform/http/pagination.ts';

const TAG = 'Repositories';
const IdParam = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' }, example: '0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d', description: 'Repository id' }),
});
const RepositoryList = z.object({ repositories: z.array(RepositorySchema) });
const ScanRequestResult = z.object({
  scan: RepositoryScanSchema,
  created: z.boolean().openapi({ description: 'False when a scan was already queued or running: that scan is returned.' }),
});

export const listScopeRepositories = defineRoute('user', {
  method: 'get',
  path: '/repositories',
  operationId: 'listScopeRepositories',
  summary: 'List repositories (for choosing a scope)',
  description:
    'Every repository, the primary first. Repositories are shared by the household (what each member sees in them is decided per asset). `path` is included for administrators only.',
  tags: [TAG],
  responses: { 200: jsonResponse(RepositoryList) },
});

export const listReindexRepositories = defineRoute('admin', {
  method: 'get',
  path: '/repositories/indexable',
  operationId: 'listReindexRepositories',
  summary: 'List repositories an index rebuild can be scoped to',
  description: 'The repositories Hearth can read now (reachability `active`), with their paths.',
  tags: [TAG],
  responses: { 200: jsonResponse(RepositoryList) },
});

export const createRepository = defineRoute('admin', {
  method: 'post',
  path: '/repositories',
  operationId: 'createRepository',
  summary: 'Register a folder that holds a .hearth-repo marker',
  description: [
    'Registers an existing folder on the server as a repository. The folder must already hold a `.hearth-repo` marker',
    '(JSON: `{"format": "hearth-repository", "version": 1, "id": "<uuid>", "name": "…", "created_at": "<ISO time>"}`);',
    "the marker's `id` becomes the repository id. Hearth indexes the files in place, never moves or rewrites them, and",
    'creates only the hidden `.hearth/` folder. Then the folder is watched and a first scan is queued.',
    '',
    '422: no such folder, not readable, no marker (`marker_missing`: the problem explains how to create one) or an invalid one (`marker_invalid`).',
    '409: already registered (`path_already_registered`, or `repository_already_registered` for a copy with the same marker id),',
    'inside or around another repository (`repository_nested`), or inside Hearth\'s data folder (`inside_data_folder`).',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(
      z.strictObject({
        name: singleLine(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')).openapi({ example: 'Family photos' }),
        path: z.string().min(1, 'must not be empty').max(4096).openapi({ description: 'Absolute folder path on the server', example: '/srv/photos' }),
      }),
    ),
  },
  responses: { 201: jsonResponse(RepositorySchema, 'Registered'), ...errorResponses(409) },
});

export const scanRepository = defineRoute('user', {
  method: 'post',
  path: '/repositories/{id}/scans',
  operationId: 'scanRepository',
  summary: 'Queue a scan of a repository',
  description: [
    'Queues a reconciling scan as a background job: new and changed files are indexed, files gone from a completely',
    'read folder tree are moved to the trash (nothing is removed after an incomplete walk). One scan per repository is',
    'queued or running at a time: while one is, it is returned (200, `created: false`) instead of a new one (202).',
    '`force`: re-check every file with the catalog instead of trusting unchanged size and modification time.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(z.strictObject({ force: z.boolean().optional() }), { required: false }),
  },
  responses: {
    200: jsonResponse(ScanRequestResult, 'A scan was already queued or running'),
    202: jsonResponse(ScanRequestResult, 'Scan queued'),
    ...errorResponses(404),
  },
});

export const listRepositoryScans = defineRoute('user', {
  method: 'get',
  path: '/repositories/{id}/scans',
  operationId: 'listRepositoryScans',
  summary: 'List the scans of a repository, newest first',
  tags: [TAG],
  request: {
    params: IdParam,
    query: z.object({
      ...pageParams({ max: 100, default: 20, noun: 'Scans' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ scans: z.array(RepositoryScanSchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() })),
    ...errorResponses(404),
  },
});

export const getLatestRepositoryScan = defineRoute('user', {
  method: 'get',
  path: '/repositories/{id}/scans/latest',
  operationId: 'getLatestRepositoryScan',
  summary: 'The most recent scan of a repository',
  description: '`scan` is null when the repository was never scanned.',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.object({ scan: RepositoryScanSchema.nullable() })), ...errorResponses(404) },
});
