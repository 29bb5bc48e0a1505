/**
 * Cloud import: providers, a member's credentials, import runs and the sources bound to repositories.
 *
 * | operationId                     | method and path                                         |
 * |---------------------------------|---------------------------------------------------------|
 * | listCloudProviders              | GET    /api/v1/cloud/providers                          |
 * | listCloudCredentials            | GET    /api/v1/cloud/credentials                        |
 * | createCloudCredential           | POST   /api/v1/cloud/credentials                        |
 * | verifyCloudCredentialChallenge  | POST   /api/v1/cloud/credentials/{id}/auth-challenge    |
 * | disconnectCloudCredential       | POST   /api/v1/cloud/credentials/{id}/disconnect        |
 * | reconnectCloudCredential        | POST   /api/v1/cloud/credentials/{id}/reconnect         |
 * | removeCloudCredential           | DELETE /api/v1/cloud/credentials/{id}                   |
 * | browseCloudCredentialFolders    | GET    /api/v1/cloud/credentials/{id}/folders (ext.)    |
 * | getImportRun                    | GET    /api/v1/cloud/import-runs/{id}                   |
 * | cancelImportRun                 | POST   /api/v1/cloud/import-runs/{id}/cancel            |
 * | resumeImportRun                 | POST   /api/v1/cloud/import-runs/{id}/resume            |
 * | listImportRuns                  | GET    /api/v1/cloud/import-runs (ext.)                 |
 * | listImportRunFiles              | GET    /api/v1/cloud/import-runs/{id}/files (ext.)      |
 * | downloadImportRunReport         | GET    /api/v1/cloud/import-runs/{id}/report.csv (ext.) |
 * | getRepositoryCloudStatus        | GET    /api/v1/repositories/{id}/cloud                  |
 * | startRepositoryCloudImport      | POST   /api/v1/repositories/{id}/cloud/import           |
 * | bindRepositoryCloudSource       | POST   /api/v1/repositories/{id}/cloud/sources          |
 * | listTakeoutArchives             | GET    /api/v1/cloud/takeout/archives (ext.)            |
 * | previewTakeoutImport            | POST   /api/v1/cloud/takeout/preview (ext.)             |
 * | startTakeoutImport              | POST   /api/v1/cloud/takeout/import (ext.)              |
 * | syncCloud                       | POST   /api/v1/cloud/sync (deprecated)                  |
 *
 * The rules and decisions where the contract is silent: credentials.service.ts, runs.service.ts and (Google Takeout
 * archives) takeout-source.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedBodyField, ownedPathParam } from '../../platform/http/router.ts';
import { fileResponse, jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';
import { singleLine } from '../../platform/http/text.ts';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { TakeoutArchiveSetSchema, TakeoutPreviewSchema, AuthStatusSchema, ChallengeSchema, CredentialSchema, ProviderSchema, RepositoryCloudStatusSchema, RunFileSchema, RunSchema } from './cloud-import.view.ts';

const TAG = 'Cloud import';

/** File answers are never enveloped (variant B), and neither are their errors. */
const rawRoute: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('rawRoute', true);
  await next();
};

const Message = z.object({ message: z.string() }).openapi('Message');
const CredentialParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'cloud_credential') }) });
const RunParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'import_run') }) });
/** Form inputs: names and values of the provider's fields, bounded (a password manager's long token fits). */
const Inputs = z.record(z.string().min(1).max(64), z.string().max(4096)).refine((r) => Object.keys(r).length <= 32, 'at most 32 fields');
const Scope = z.record(z.string().min(1).max(64), z.string().max(4096)).refine((r) => Object.keys(r).length <= 16, 'at most 16 fields');

export const listCloudProviders = defineRoute('user', {
  method: 'get',
  path: '/cloud/providers',
  operationId: 'listCloudProviders',
  summary: 'The import providers this server offers, with the forms to connect to them',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ providers: z.array(ProviderSchema) }).openapi('CloudProviderList')) },
});

export const listCloudCredentials = defineRoute('user', {
  method: 'get',
  path: '/cloud/credentials',
  operationId: 'listCloudCredentials',
  summary: 'Your cloud connections (an administrator: everyone’s)',
  description: 'Secrets are never returned. An administrator sees every member’s connections (owner_id says whose) but acts only on their own.',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ credentials: z.array(CredentialSchema) }).openapi('CloudCredentialList')) },
});

const RunAnswer = z.object({ run: RunSchema }).openapi('ImportRunAnswer');
const CredentialAnswer = z.object({ auth_status: AuthStatusSchema, challenge: ChallengeSchema.nullable(), credential: CredentialSchema }).openapi('CloudCredentialAnswer');

export const createCloudCredential = defineRoute('user', {
  method: 'post',
  path: '/cloud/credentials',
  operationId: 'createCloudCredential',
  summary: 'Connect an account at an import provider',
  description: [
    '`inputs` are the provider’s `form_fields`. The provider is asked at once: wrong details answer 422 `cloud_auth_failed`, an unreachable server 502 `cloud_unreachable`, a certificate that is not trusted 422 `cloud_tls_untrusted` (its message gives the fingerprint to trust), a redirect to another host 502 `cloud_redirect_refused`.',
    '`auth_status` `challenge_required`: answer `challenge` with verifyCloudCredentialChallenge. Connecting an account you already connected signs that connection in again (no second one).',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({ provider: z.string().min(1).max(64), display_name: singleLine(z.string().trim().max(200)).optional(), inputs: Inputs })
        .openapi('CloudCredentialCreate'),
    ),
  },
  responses: { 200: jsonResponse(CredentialAnswer), ...errorResponses(409, 422, 502, 503) },
});

export const verifyCloudCredentialChallenge = defineRoute('user', {
  method: 'post',
  path: '/cloud/credentials/{id}/auth-challenge',
  operationId: 'verifyCloudCredentialChallenge',
  summary: 'Answer the provider’s challenge (a verification code)',
  description: 'A wrong code answers 422 `cloud_auth_failed`; a connection not waiting for a code 409 `no_challenge_pending`.',
  tags: [TAG],
  request: { params: CredentialParam, body: jsonBody(z.strictObject({ inputs: Inputs }).openapi('CloudChallengeAnswer')) },
  responses: { 200: jsonResponse(z.object({ auth_status: AuthStatusSchema, credential: CredentialSchema }).openapi('CloudChallengeResult')), ...errorResponses(404, 409, 422, 502, 503) },
});

export const disconnectCloudCredential = defineRoute('user', {
  method: 'post',
  path: '/cloud/credentials/{id}/disconnect',
  operationId: 'disconnectCloudCredential',
  summary: 'Pause a connection: no import starts with it until it is reconnected',
  description: 'Its running imports are cancelled (resumable after reconnecting). The stored session is kept for the reconnect.',
  tags: [TAG],
  request: { params: CredentialParam },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const reconnectCloudCredential = defineRoute('user', {
  method: 'post',
  path: '/cloud/credentials/{id}/reconnect',
  operationId: 'reconnectCloudCredential',
  summary: 'Connect again: without a password the stored session is reused',
  description: 'A stored session the provider no longer accepts answers 409 `cloud_session_expired`: send the password.',
  tags: [TAG],
  request: { params: CredentialParam, body: jsonBody(z.strictObject({ inputs: Inputs.optional() }).openapi('CloudReconnect'), { required: false }) },
  responses: { 200: jsonResponse(CredentialAnswer), ...errorResponses(404, 409, 422, 502, 503) },
});

export const removeCloudCredential = defineRoute('user', {
  method: 'delete',
  path: '/cloud/credentials/{id}',
  operationId: 'removeCloudCredential',
  summary: 'Remove a connection, its stored session and its bindings to repositories',
  description: 'Running imports with it are cancelled. Photos it imported stay in your library.',
  tags: [TAG],
  request: { params: CredentialParam },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const browseCloudCredentialFolders = defineRoute('user', {
  method: 'get',
  path: '/cloud/credentials/{id}/folders',
  operationId: 'browseCloudCredentialFolders',
  summary: 'The folders inside a folder at the provider, to choose what to import',
  description: 'For providers whose scope is a folder (WebDAV); others answer 422 `cloud_folders_not_offered`. `folder` empty: the top.',
  tags: [TAG],
  request: { params: CredentialParam, query: z.object({ folder: z.string().max(4096).optional() }) },
  responses: {
    200: jsonResponse(z.object({ folder: z.string(), folders: z.array(z.object({ name: z.string(), path: z.string() })) }).openapi('CloudFolderList')),
    ...errorResponses(404, 409, 422, 502, 503),
  },
});

export const getImportRun = defineRoute('user', {
  method: 'get',
  path: '/cloud/import-runs/{id}',
  operationId: 'getImportRun',
  summary: 'One of your import runs, with its counters',
  tags: [TAG],
  request: { params: RunParam },
  responses: { 200: jsonResponse(RunSchema), ...errorResponses(404) },
});

export const cancelImportRun = defineRoute('user', {
  method: 'post',
  path: '/cloud/import-runs/{id}/cancel',
  operationId: 'cancelImportRun',
  summary: 'Cancel a queued or running import (it can be resumed later)',
  description: 'A finished run is answered as it is.',
  tags: [TAG],
  request: { params: RunParam },
  responses: { 200: jsonResponse(RunSchema), ...errorResponses(404) },
});

export const resumeImportRun = defineRoute('user', {
  method: 'post',
  path: '/cloud/import-runs/{id}/resume',
  operationId: 'resumeImportRun',
  summary: 'Resume a cancelled, failed or interrupted import where it stopped',
  description: 'Files it handled are passed over; a half-fetched file continues from its bytes. A completed run: 409 `import_run_not_resumable` (start a new one). A connection that is not connected: 409 `credential_not_connected`.',
  tags: [TAG],
  request: { params: RunParam },
  responses: { 200: jsonResponse(RunAnswer), ...errorResponses(404, 409) },
});

export const listImportRuns = defineRoute('user', {
  method: 'get',
  path: '/cloud/import-runs',
  operationId: 'listImportRuns',
  summary: 'Your import runs, newest first',
  tags: [TAG],
  request: { query: z.object(pageParams({ max: 100, default: 20, noun: 'Runs' })) },
  responses: { 200: jsonResponse(z.object({ runs: z.array(RunSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('ImportRunList')) },
});

const Outcome = z.enum(['imported', 'unchanged', 'skipped', 'failed']);

export const listImportRunFiles = defineRoute('user', {
  method: 'get',
  path: '/cloud/import-runs/{id}/files',
  operationId: 'listImportRunFiles',
  summary: 'The run’s report: the files it skipped or could not import, and why',
  description: '`outcome` (repeatable, or comma-separated): which files; default `skipped` and `failed`. In the order the run met them.',
  tags: [TAG],
  request: {
    params: RunParam,
    query: z.object({
      outcome: z
        .preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(Outcome))
        .optional()
        .openapi({ type: 'string', description: 'imported, unchanged, skipped, failed (comma-separated)' }),
      ...pageParams({ max: 1000, default: 100, noun: 'Files' }),
    }),
  },
  responses: { 200: jsonResponse(z.object({ files: z.array(RunFileSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('ImportRunFileList')), ...errorResponses(404) },
});

export const downloadImportRunReport = defineRoute('user', {
  method: 'get',
  path: '/cloud/import-runs/{id}/report.csv',
  operationId: 'downloadImportRunReport',
  summary: 'The run’s report as a CSV file (every skipped and failed file)',
  tags: [TAG],
  middleware: [rawRoute],
  request: { params: RunParam },
  responses: { 200: fileResponse('text/csv', 'The report, as an attachment'), ...errorResponses(404) },
});

const RepositoryParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });

export const getRepositoryCloudStatus = defineRoute('user', {
  method: 'get',
  path: '/repositories/{id}/cloud',
  operationId: 'getRepositoryCloudStatus',
  summary: 'The import sources bound to a repository, with their latest runs',
  tags: [TAG],
  request: { params: RepositoryParam },
  responses: { 200: jsonResponse(RepositoryCloudStatusSchema), ...errorResponses(404) },
});

export const startRepositoryCloudImport = defineRoute('user', {
  method: 'post',
  path: '/repositories/{id}/cloud/import',
  operationId: 'startRepositoryCloudImport',
  summary: 'Start an import into this repository from one of your sources',
  description: [
    'Which source: `source_id` (a bound source of yours); or `credential_id` with `remote_scope` (bound on the way, as bindRepositoryCloudSource does); or nothing, when you have exactly one source here (else 422 `cloud_source_required`).',
    'One import per repository and source at a time: 409 `import_run_active`. A connection that is not connected: 409 `credential_not_connected`. A repository that cannot be reached: 503 `repository_unavailable`.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: RepositoryParam,
    body: jsonBody(z.strictObject({ source_id: z.uuid().optional(), credential_id: z.uuid().openapi(ownedBodyField('cloud_credential')).optional(), remote_scope: Scope.optional() }).openapi('CloudSourceSelection'), { required: false }),
  },
  responses: { 200: jsonResponse(RunAnswer), ...errorResponses(404, 409, 422, 502, 503) },
});

export const bindRepositoryCloudSource = defineRoute('user', {
  method: 'post',
  path: '/repositories/{id}/cloud/sources',
  operationId: 'bindRepositoryCloudSource',
  summary: 'Bind one of your connections (and what of it to import) to a repository, and start an import',
  description: 'The scope is checked with the provider (WebDAV: the folder must exist: 404 `cloud_not_found`). Binding the same connection and scope again starts a run of the existing binding.',
  tags: [TAG],
  request: {
    params: RepositoryParam,
    body: jsonBody(z.strictObject({ credential_id: z.uuid().openapi(ownedBodyField('cloud_credential')), remote_scope: Scope.optional() }).openapi('CloudSourceBinding')),
  },
  responses: { 200: jsonResponse(RunAnswer), ...errorResponses(404, 409, 422, 502, 503) },
});

const Parts = z.array(z.string().min(1).max(4096)).min(1).max(200).openapi({ description: 'Archive parts (or folders of them) by their path inside the repository.' });

export const listTakeoutArchives = defineRoute('user', {
  method: 'get',
  path: '/cloud/takeout/archives',
  operationId: 'listTakeoutArchives',
  summary: 'Google Takeout archives placed in a repository, grouped by export',
  description: 'Files named `takeout-….zip|.tgz|.tar.gz` in the repository’s top folders (three levels deep), newest export first.',
  tags: [TAG],
  request: { query: z.object({ repository_id: z.uuid() }) },
  responses: { 200: jsonResponse(z.object({ archives: z.array(TakeoutArchiveSetSchema) }).openapi('TakeoutArchiveList')), ...errorResponses(404, 503) },
});

export const previewTakeoutImport = defineRoute('user', {
  method: 'post',
  path: '/cloud/takeout/preview',
  operationId: 'previewTakeoutImport',
  summary: 'What importing these Takeout parts would bring: photos, videos, albums, dates, files without a sidecar',
  description: 'The parts are read together as one export (a sidecar may be in another part than its photo). Nothing is imported. A part outside the repository: 422 `takeout_part_outside`; missing: 404 `takeout_part_not_found`.',
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ repository_id: z.uuid(), parts: Parts }).openapi('TakeoutPreviewRequest')) },
  responses: { 200: jsonResponse(TakeoutPreviewSchema), ...errorResponses(404, 422, 503) },
});

export const startTakeoutImport = defineRoute('user', {
  method: 'post',
  path: '/cloud/takeout/import',
  operationId: 'startTakeoutImport',
  summary: 'Import Google Takeout parts into this repository (a run like any other import)',
  description: [
    'The photos and videos become yours with the sidecars’ facts: taken time, place (the album’s place when the photo has none), description, favourite; album folders become albums (Google’s "Untitled" ones only with `untitled_albums`); people named become tags; archived items get the tag "Archived"; items in Google’s trash go to your Trash. Files without a sidecar come in with their own metadata and are listed in the preview.',
    'One run per repository and set of parts at a time: 409 `import_run_active`.',
  ].join('\n'),
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ repository_id: z.uuid(), parts: Parts, untitled_albums: z.boolean().optional() }).openapi('TakeoutImportRequest')) },
  responses: { 200: jsonResponse(RunAnswer), ...errorResponses(404, 409, 422, 503) },
});

export const syncCloud = defineRoute('user', {
  method: 'post',
  path: '/cloud/sync',
  operationId: 'syncCloud',
  summary: 'Retired: always answers 410 `sync_deprecated`',
  description: 'Use startRepositoryCloudImport or bindRepositoryCloudSource.',
  deprecated: true,
  tags: [TAG],
  responses: { 200: jsonResponse(Message), ...errorResponses(410) },
});
