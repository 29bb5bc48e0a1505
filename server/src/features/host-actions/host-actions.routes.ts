/**
 * Host actions: a member asks the home machine to add a folder there as a repository; the person at that
 * machine approves it (host-channel.server.ts). The rules and the states: host-actions.service.ts and
 * approval.ts.
 *
 * | operationId              | method and path                                   |
 * |--------------------------|---------------------------------------------------|
 * | listHostActions          | GET  /api/v1/host-actions                         |
 * | createHostAction         | POST /api/v1/host-actions                         |
 * | streamHostActions        | GET  /api/v1/host-actions/stream (ext.)           |
 * | getHostAction            | GET  /api/v1/host-actions/{id}                    |
 * | cancelHostAction         | POST /api/v1/host-actions/{id}/cancel             |
 * | retryHostAction          | POST /api/v1/host-actions/{id}/retry              |
 * | decideHostActionRecovery | POST /api/v1/host-actions/{id}/recovery           |
 *
 * The contract says cancel and retry take no body: their `request_id` and `expected_version` ride in the query.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';
import { HOST_ACTION_STATUSES, HostActionSchema, PURPOSES, RESOLUTIONS } from './host-actions.view.ts';

const TAG = 'Host actions';
const IdParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'host_action') }) });
const RequestId = singleLine(z.string().min(1).max(200)).openapi({ description: 'Your id for this request: sending it again (a retry after a lost answer) changes nothing twice.' });
const ExpectedVersion = z.coerce.number().int().min(0).max(1_000_000_000).openapi({ description: 'The `version` you saw: another one answers 409 `stale_version`.' });
const Precondition = z.object({ request_id: RequestId.optional(), expected_version: ExpectedVersion.optional() });

const STATES = [
  'States: `pending` (waiting for the home machine) → `presented` (shown there) → `running` → `completed` (`repository_id` set),',
  'or `needs_decision` (a conflict in `result.conflict`, settled with decideHostActionRecovery), or `failed` (`problem`, retryable).',
  'A waiting action (`pending`, `presented`, `needs_decision`) can be `cancelled` (by you, or denied at the home machine: `cancel_reason`)',
  'and `expired` (at `expires_at`: 15 minutes for the home machine to answer, 24 hours for a conflict to be decided).',
  '`version` bumps on every change. No request or answer carries a filesystem path: the folder is chosen at the home machine.',
].join(' ');

export const listHostActions = defineRoute('user', {
  method: 'get',
  path: '/host-actions',
  operationId: 'listHostActions',
  summary: 'Your host actions, newest first (an administrator: everyone’s)',
  description: `An administrator sees every member’s actions (\`actor\` says whose) but opens and acts only on their own. ${STATES}`,
  tags: [TAG],
  request: {
    query: z.object({
      status: z.enum(HOST_ACTION_STATUSES).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: 'At most this many (default 50, max 200).' }),
    }),
  },
  responses: { 200: jsonResponse(z.array(HostActionSchema)) },
});

export const createHostAction = defineRoute('user', {
  method: 'post',
  path: '/host-actions',
  operationId: 'createHostAction',
  summary: 'Ask the home machine to add a folder there as a repository',
  description: [
    'Creates a persistent, expiring request that the person at the home machine approves by choosing the folder (there, never here:',
    'a body carrying `path`, or any other unknown field, is refused). Show the answer’s `code`: the home machine shows it beside the request.',
    'The `Idempotency-Key` header is required: sending the same key and body again answers the original action (200), whatever became of it;',
    'the same key with another body is 422 `idempotency_key_reused`. `expected_version`: 0 or absent (no action under this key yet).',
    STATES,
  ].join(' '),
  tags: [TAG],
  request: {
    headers: z.object({
      'idempotency-key': z
        .string()
        .min(1)
        .max(200)
        .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
        .openapi({ description: 'A stable identifier of this request, chosen by the client (a UUID is fine).' }),
    }),
    body: jsonBody(
      z.strictObject({
        kind: z.enum(['open_repository']),
        name: singleLine(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')).openapi({ example: 'Holiday photos' }),
        purpose: z.enum(PURPOSES).openapi({ description: 'The repository’s role (`regular`: any folder but the primary one).' }),
        request_id: RequestId.optional(),
        expected_version: z.number().int().min(0).max(1_000_000_000).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(HostActionSchema, 'The action this Idempotency-Key made before'),
    201: jsonResponse(HostActionSchema, 'Created'),
    ...errorResponses(409),
  },
});

export const streamHostActions = defineRoute('user', {
  method: 'get',
  path: '/host-actions/stream',
  operationId: 'streamHostActions',
  summary: 'Follow your host actions as server-sent events',
  description:
    'A `text/event-stream` (the same in both variants; errors before the stream starts are problem+json). Events, each `data` a JSON object: ' +
    '`ready` `{at}` first; `host_action`: a host action, as getHostAction answers it, whenever one you may list is created or changes; `heartbeat` `{at}` after 15 s without another event.',
  tags: [TAG],
  responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } } },
});

export const getHostAction = defineRoute('user', {
  method: 'get',
  path: '/host-actions/{id}',
  operationId: 'getHostAction',
  summary: 'One of your host actions',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(HostActionSchema), ...errorResponses(404) },
});

export const cancelHostAction = defineRoute('user', {
  method: 'post',
  path: '/host-actions/{id}/cancel',
  operationId: 'cancelHostAction',
  summary: 'Cancel a waiting host action',
  description: 'No body. A pending, presented or undecided action is cancelled (`cancel_reason` `member_cancelled`); a cancelled one is answered as it is; any other is 409 `host_action_not_cancellable`.',
  tags: [TAG],
  request: { params: IdParam, query: Precondition },
  responses: { 200: jsonResponse(HostActionSchema), ...errorResponses(404, 409) },
});

export const retryHostAction = defineRoute('user', {
  method: 'post',
  path: '/host-actions/{id}/retry',
  operationId: 'retryHostAction',
  summary: 'Present a failed, expired or cancelled host action on the home machine again',
  description: 'No body. Back to `pending` with a fresh `expires_at` and the same `code`; from any other status 409 `host_action_not_retryable`.',
  tags: [TAG],
  request: { params: IdParam, query: Precondition },
  responses: { 200: jsonResponse(HostActionSchema), ...errorResponses(404, 409) },
});

export const decideHostActionRecovery = defineRoute('user', {
  method: 'post',
  path: '/host-actions/{id}/recovery',
  operationId: 'decideHostActionRecovery',
  summary: 'Settle the conflict of a host action',
  description: [
    'Only while `needs_decision`, with one of `result.conflict.allowed_resolutions`: `relocate` (the folder is the registered repository moved there:',
    'repoint it), `add_separate` (register it as a new, independent repository; a copy gets a new identity), `cancel`.',
    'The folder is looked at again first: when what is in the way changed, the action asks again with the new conflict.',
  ].join(' '),
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(z.strictObject({ resolution: z.enum(RESOLUTIONS), request_id: RequestId.optional(), expected_version: z.number().int().min(0).max(1_000_000_000).optional() })),
  },
  responses: { 200: jsonResponse(HostActionSchema), ...errorResponses(404, 409) },
});
