/**
 * The assistant (issue 30): chat with tools over the library, refs, confirmations and pins. Off until an
 * administrator turns it on (`llm.agent_enabled`): while off, every operation here answers 404 `agent_disabled`
 * (after the sign-in check), as the contract says of the whole group.
 *
 * | operationId           | method and path                                  |
 * |-----------------------|--------------------------------------------------|
 * | chatAgent             | POST   /api/v1/agent/chat (SSE)                  |
 * | cancelAgentChat       | POST   /api/v1/agent/chat/cancel                 |
 * | resumeAgentChat       | POST   /api/v1/agent/chat/resume (SSE)           |
 * | getAgentEffectStatus  | GET    /api/v1/agent/effects/{id}?thread_id=     |
 * | listAgentPins         | GET    /api/v1/agent/pins                        |
 * | pinAgentRef           | POST   /api/v1/agent/pins                        |
 * | updateAgentPinLayout  | PATCH  /api/v1/agent/pins/layout                 |
 * | getAgentPin           | GET    /api/v1/agent/pins/{id}                   |
 * | updateAgentPin        | PATCH  /api/v1/agent/pins/{id}                   |
 * | deleteAgentPin        | DELETE /api/v1/agent/pins/{id}                   |
 * | getAgentPinAssets     | GET    /api/v1/agent/pins/{id}/assets            |
 * | queryAgentPinAssets   | POST   /api/v1/agent/pins/{id}/assets/list       |
 * | searchAgentPinAssets  | POST   /api/v1/agent/pins/{id}/assets/search     |
 * | getAgentRef           | GET    /api/v1/agent/refs/{id}?thread_id=        |
 * | getAgentRefAssets     | GET    /api/v1/agent/refs/{id}/assets?thread_id= |
 * | listAgentTools        | GET    /api/v1/agent/tools?mode=                 |
 * | getAgentToolSchemas   | GET    /api/v1/agent/tools/schemas               |
 */
import { z } from '@hono/zod-openapi';
import { pageParams } from '../../platform/http/pagination.ts';
import { defineRoute, errorResponses, ownedBodyField, ownedPathParam, ownedQueryParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { gate } from './agent-gate.ts';
import { AssetSchema } from '../assets/index.ts';
import { AssetQuerySchema, GalleryListSchema } from '../browse/index.ts';
import { SearchRequestSchema, SearchResponseSchema } from '../search/index.ts';
import { EffectStatusSchema, LayoutSchema, PinSchema, RefSchema, ToolDescriptorSchema, ToolSchemaSchema, WIDGETS } from './agent.schemas.ts';

const TAG = 'Agent';


const MessageSchema = z.object({ message: z.string() });
const PinId = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'agent_pin'), description: 'A pin id (listAgentPins).' }) });
const RefParam = z.object({ id: z.string().regex(/^r\d{1,6}$/, 'a ref id such as r1').openapi({ description: 'A ref id (`r<seq>`), unique within its thread.' }) });
const ThreadQuery = z.object({ thread_id: z.uuid().openapi({ param: ownedQueryParam('thread_id', 'agent_thread'), description: 'The conversation the ref or effect belongs to (required).' }) });
/** A conversation of the caller's named in a body: another member's is 404 `agent_thread_not_found`. */
const ThreadField = z.uuid().openapi(ownedBodyField('agent_thread'));
/** One page of a pin's or a ref's photos (platform/http/pagination.ts: the bounds stated as enforced). */
const Page = pageParams({ noun: 'Photos', max: 200, default: 50 }, { max: 10_000 });
const AssetPageSchema = z.object({ assets: z.array(AssetSchema), pagination: z.object({ limit: z.number().int(), offset: z.number().int() }), total: z.number().int() }).openapi('AgentAssetPage');
const SSE = {
  description: [
    'A `text/event-stream` (the same in both variants; problems before the stream starts are problem+json). Events, each `data` a JSON object:',
    '`session_info {thread_id, run_id, dropped_mentions?}` first; `run_status {run_id, status}` (running, awaiting_confirmation, completed, cancelled, failed);',
    '`message {agent_name, output?}` text in chunks, or `{agent_name, action}` a confirmation to answer with resumeAgentChat (`action.interrupt_id`, `action.confirmation`: what would change);',
    '`side_event {type, timestamp, tool?, execution?, data?, usage?}`: `tool_execution` (status running → success | error, with parameters and duration; `data.refId`, `data.count`), `widget_show` (`data.widget`: cover_card, number_card, spark_card, mosaic_card), `token_usage`;',
    '`heartbeat {timestamp}` whenever the stream was silent for 5 s (a tool running, a model thinking); `error {error, code?}` on any failure; `done {}` always last.',
  ].join(' '),
  content: { 'text/event-stream': { schema: z.string() } },
};

const Mention = z.strictObject({
  type: z.enum(['person', 'album', 'pin', 'camera', 'lens', 'place', 'event']),
  id: z.union([z.string().max(200), z.number().int()]).optional(),
  label: z.string().max(200).optional(),
});

export const ChatRequestSchema = z
  .strictObject({
    thread_id: ThreadField.optional().openapi({ description: 'Go on in this conversation; absent: a new one.' }),
    query: z.string().trim().min(1).max(4000, 'must be at most 4000 characters').optional().openapi({ description: 'What you ask, in words (English for the built-in planner).' }),
    mode: z.string().max(20).optional().openapi({ description: '`free` (default: every tool), `review`, `organize`, `analyze`, `curate`; unknown: `free`.' }),
    timezone: z.string().min(1).max(64).optional().openapi({ description: 'IANA zone in which dates ("in May", "one per day") are read. Default UTC.' }),
    context: z.array(z.strictObject({ type: z.enum(['assets']), asset_ids: z.array(z.uuid()).min(1).max(1000), label: z.string().max(200).optional() })).max(5).optional().openapi({ description: 'Photos you are looking at (ids you may read become a ref; others are dropped).' }),
    mentions: z.array(Mention).max(20).optional().openapi({ description: '`@person`, `#album`, a pin, a camera: each becomes a ref; what cannot be resolved comes back in `session_info.dropped_mentions`. `@Name` and `#Album` in the text count too.' }),
    tool_call: z.strictObject({ name: z.string().min(1).max(100), arguments: z.record(z.string(), z.unknown()).optional() }).optional().openapi({ description: 'Instead of words: call one tool of the mode directly (its arguments are checked against getAgentToolSchemas; an effect still asks first).' }),
  })
  .refine((b) => b.query !== undefined || b.tool_call !== undefined, { message: 'give query or tool_call', path: ['query'] })
  .openapi('AgentChatRequest');

export const chatAgent = defineRoute('user', {
  method: 'post',
  path: '/agent/chat',
  operationId: 'chatAgent',
  summary: 'Ask the assistant (answers as server-sent events)',
  description: 'One run per conversation at a time: another while one answers or waits for a confirmation is 409 `agent_run_active`. Closing the stream cancels the run.',
  tags: [TAG],
  middleware: gate,
  request: { body: jsonBody(ChatRequestSchema) },
  responses: { 200: SSE, ...errorResponses(404, 409) },
});

export const cancelAgentChat = defineRoute('user', {
  method: 'post',
  path: '/agent/chat/cancel',
  operationId: 'cancelAgentChat',
  summary: 'Stop a run',
  description: 'A running run stops at its next step; one waiting for a confirmation is cancelled with it (nothing is changed). A confirmation committed before the cancel stands: getAgentEffectStatus says which came first.',
  tags: [TAG],
  middleware: gate,
  request: { body: jsonBody(z.strictObject({ thread_id: ThreadField, run_id: z.uuid() })) },
  responses: { 200: jsonResponse(z.object({ run_id: z.string(), status: z.literal('cancel_requested'), thread_id: z.string() }).openapi('AgentCancel')), ...errorResponses(404) },
});

export const resumeAgentChat = defineRoute('user', {
  method: 'post',
  path: '/agent/chat/resume',
  operationId: 'resumeAgentChat',
  summary: 'Answer a confirmation (approve or decline), as server-sent events',
  description: '`targets` maps each `action.interrupt_id` to `{approved}`. Approving commits in one transaction after checking the photos again; approving again answers the first receipt with `already_committed: true`.',
  tags: [TAG],
  middleware: gate,
  request: {
    body: jsonBody(
      z
        .strictObject({ thread_id: ThreadField, run_id: z.uuid().optional(), targets: z.record(z.uuid(), z.strictObject({ approved: z.boolean() })) })
        .refine((b) => Object.keys(b.targets).length >= 1 && Object.keys(b.targets).length <= 20, { message: 'give 1 to 20 targets', path: ['targets'] })
        .openapi('AgentResumeRequest'),
    ),
  },
  responses: { 200: SSE, ...errorResponses(404) },
});

export const getAgentEffectStatus = defineRoute('user', {
  method: 'get',
  path: '/agent/effects/{id}',
  operationId: 'getAgentEffectStatus',
  summary: 'Where a confirmation stands: pending, committed, rejected, cancelled or failed, with its receipt',
  tags: [TAG],
  middleware: gate,
  request: { params: z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'agent_effect') }) }), query: ThreadQuery },
  responses: { 200: jsonResponse(EffectStatusSchema), ...errorResponses(404) },
});

export const listAgentPins = defineRoute('user', {
  method: 'get',
  path: '/agent/pins',
  operationId: 'listAgentPins',
  summary: 'Your pins, in the order you made them',
  tags: [TAG],
  middleware: gate,
  responses: { 200: jsonResponse(z.array(PinSchema)), ...errorResponses(404) },
});

export const pinAgentRef = defineRoute('user', {
  method: 'post',
  path: '/agent/pins',
  operationId: 'pinAgentRef',
  summary: 'Pin a ref to your board',
  description: '`live` (the default where possible) replays a filter or search each time it is read; a ref made by combining, ranking or sampling is `frozen` (its snapshot) whatever is asked (`fallback_reason: not_replayable`). Default layout 4×4 below your other pins.',
  tags: [TAG],
  middleware: gate,
  request: {
    body: jsonBody(
      z.strictObject({
        thread_id: ThreadField,
        ref_id: z.string().regex(/^r\d{1,6}$/, 'a ref id such as r1'),
        title: z.string().trim().min(1).max(200).optional(),
        widget: z.enum(WIDGETS).optional(),
        mode: z.enum(['live', 'frozen']).optional(),
        layout: LayoutSchema.optional(),
      }),
    ),
  },
  responses: { 200: jsonResponse(PinSchema), ...errorResponses(404) },
});

export const updateAgentPinLayout = defineRoute('user', {
  method: 'patch',
  path: '/agent/pins/layout',
  operationId: 'updateAgentPinLayout',
  summary: 'Move or resize pins on your board',
  tags: [TAG],
  middleware: gate,
  request: { body: jsonBody(z.strictObject({ pins: z.array(z.strictObject({ pin_id: z.uuid().openapi(ownedBodyField('agent_pin')), layout: LayoutSchema })).min(1).max(200) })) },
  responses: { 200: jsonResponse(MessageSchema), ...errorResponses(404) },
});

export const getAgentPin = defineRoute('user', {
  method: 'get',
  path: '/agent/pins/{id}',
  operationId: 'getAgentPin',
  summary: 'One of your pins',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId },
  responses: { 200: jsonResponse(PinSchema), ...errorResponses(404) },
});

export const updateAgentPin = defineRoute('user', {
  method: 'patch',
  path: '/agent/pins/{id}',
  operationId: 'updateAgentPin',
  summary: 'Rename a pin or switch its card',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId, body: jsonBody(z.strictObject({ title: z.string().trim().min(1).max(200).optional(), widget: z.enum(WIDGETS).optional() })) },
  responses: { 200: jsonResponse(MessageSchema), ...errorResponses(404) },
});

export const deleteAgentPin = defineRoute('user', {
  method: 'delete',
  path: '/agent/pins/{id}',
  operationId: 'deleteAgentPin',
  summary: 'Take a pin off your board',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId },
  responses: { 200: jsonResponse(MessageSchema), ...errorResponses(404) },
});

export const getAgentPinAssets = defineRoute('user', {
  method: 'get',
  path: '/agent/pins/{id}/assets',
  operationId: 'getAgentPinAssets',
  summary: 'The photos of a pin, in its order',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId, query: z.object(Page) },
  responses: { 200: jsonResponse(AssetPageSchema), ...errorResponses(404) },
});

export const queryAgentPinAssets = defineRoute('user', {
  method: 'post',
  path: '/agent/pins/{id}/assets/list',
  operationId: 'queryAgentPinAssets',
  summary: 'queryAssets within a pin',
  description: 'The body of queryAssets; the answer is its gallery list kept to the pin’s photos (stacks expanded).',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId, body: jsonBody(AssetQuerySchema, { required: false }) },
  responses: { 200: jsonResponse(GalleryListSchema), ...errorResponses(404) },
});

export const searchAgentPinAssets = defineRoute('user', {
  method: 'post',
  path: '/agent/pins/{id}/assets/search',
  operationId: 'searchAgentPinAssets',
  summary: 'searchAssets within a pin',
  tags: [TAG],
  middleware: gate,
  request: { params: PinId, body: jsonBody(SearchRequestSchema) },
  responses: { 200: jsonResponse(SearchResponseSchema), ...errorResponses(404) },
});

export const getAgentRef = defineRoute('user', {
  method: 'get',
  path: '/agent/refs/{id}',
  operationId: 'getAgentRef',
  summary: 'A ref of one of your conversations: its count and facets',
  description: 'Refs live 2 hours after their last use, at most 64 per conversation; an expired one is 404 `agent_ref_not_found`.',
  tags: [TAG],
  middleware: gate,
  request: { params: RefParam, query: ThreadQuery },
  responses: { 200: jsonResponse(RefSchema), ...errorResponses(404) },
});

export const getAgentRefAssets = defineRoute('user', {
  method: 'get',
  path: '/agent/refs/{id}/assets',
  operationId: 'getAgentRefAssets',
  summary: 'The photos of a ref, in snapshot order',
  tags: [TAG],
  middleware: gate,
  request: { params: RefParam, query: ThreadQuery.extend(Page) },
  responses: { 200: jsonResponse(AssetPageSchema), ...errorResponses(404) },
});

export const listAgentTools = defineRoute('user', {
  method: 'get',
  path: '/agent/tools',
  operationId: 'listAgentTools',
  summary: 'The tools of a mode',
  description: '`review`, `organize`, `analyze`, `curate`; an empty or unknown mode lists every tool (`free`).',
  tags: [TAG],
  middleware: gate,
  request: { query: z.object({ mode: z.string().max(20).optional() }) },
  responses: { 200: jsonResponse(z.array(ToolDescriptorSchema)), ...errorResponses(404) },
});

export const getAgentToolSchemas = defineRoute('user', {
  method: 'get',
  path: '/agent/tools/schemas',
  operationId: 'getAgentToolSchemas',
  summary: 'Every tool’s arguments as JSON Schema, with its kind and modes',
  tags: [TAG],
  middleware: gate,
  responses: { 200: jsonResponse(z.array(ToolSchemaSchema)), ...errorResponses(404) },
});


