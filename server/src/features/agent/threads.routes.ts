/**
 * The assistant's conversations (extension operations, listed in operations.extensions.md): the chat panel's
 * history. Decisions: thread-history.ts. Behind the same switch as the whole Agent group (404 while off).
 *
 * | operationId        | method and path                      |
 * |--------------------|--------------------------------------|
 * | listAgentThreads   | GET    /api/v1/agent/threads         |
 * | getAgentThread     | GET    /api/v1/agent/threads/{id}    |
 * | deleteAgentThread  | DELETE /api/v1/agent/threads/{id}    |
 */
import { z } from '@hono/zod-openapi';
import { pageParams } from '../../platform/http/pagination.ts';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { gate } from './agent-gate.ts';

const TAG = 'Agent';

const ThreadId = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'agent_thread'), description: 'A conversation id (session_info.thread_id).' }) });

const ThreadSummarySchema = z
  .object({
    thread_id: z.string(),
    title: z.string().openapi({ description: 'The first request, shortened.' }),
    mode: z.string(),
    status: z.enum(['active', 'awaiting_confirmation', 'completed', 'cancelled', 'failed']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AgentThreadSummary');

const ThreadMessageSchema = z
  .object({
    message_id: z.number().int(),
    run_id: z.string().nullable(),
    role: z.enum(['user', 'assistant', 'tool']),
    created_at: z.string(),
    text: z.string().optional().openapi({ description: 'What the person or the assistant said.' }),
    tool: z.record(z.string(), z.unknown()).optional().openapi({ description: 'A tool’s receipt: name, ok, summary, ref_id, count (a card shown: widget and title too); or code and message; or an effect’s receipt.' }),
  })
  .openapi('AgentThreadMessage');

const ThreadSchema = z
  .object({
    thread: ThreadSummarySchema,
    messages: z.array(ThreadMessageSchema).openapi({ description: 'The last 200 messages, oldest first.' }),
    total_messages: z.number().int(),
    active_run: z.object({ run_id: z.string(), status: z.string() }).nullable().openapi({ description: 'The run still answering or waiting for a confirmation.' }),
    pending: z
      .array(z.object({ interrupt_id: z.string(), run_id: z.string(), tool_name: z.string(), confirmation: z.unknown(), created_at: z.string() }))
      .openapi({ description: 'Confirmations still waiting (answer them with resumeAgentChat).' }),
  })
  .openapi('AgentThread');

export const listAgentThreads = defineRoute('user', {
  method: 'get',
  path: '/agent/threads',
  operationId: 'listAgentThreads',
  summary: 'Your conversations with the assistant, the latest first',
  tags: [TAG],
  middleware: gate,
  request: { query: z.object(pageParams({ noun: 'Conversations', max: 100, default: 30 }, { max: 100_000 })) },
  responses: {
    200: jsonResponse(z.object({ threads: z.array(ThreadSummarySchema), pagination: z.object({ limit: z.number().int(), offset: z.number().int() }), total: z.number().int() }).openapi('AgentThreadList')),
    ...errorResponses(404),
  },
});

export const getAgentThread = defineRoute('user', {
  method: 'get',
  path: '/agent/threads/{id}',
  operationId: 'getAgentThread',
  summary: 'One conversation: its messages, the run still going and the confirmations waiting',
  tags: [TAG],
  middleware: gate,
  request: { params: ThreadId },
  responses: { 200: jsonResponse(ThreadSchema), ...errorResponses(404) },
});

export const deleteAgentThread = defineRoute('user', {
  method: 'delete',
  path: '/agent/threads/{id}',
  operationId: 'deleteAgentThread',
  summary: 'Forget a conversation (its pins stay)',
  description: 'Its messages, refs and waiting confirmations go (nothing waiting is committed). While it is still answering: 409 `agent_run_active`.',
  tags: [TAG],
  middleware: gate,
  request: { params: ThreadId },
  responses: { 200: jsonResponse(z.object({ message: z.string() })), ...errorResponses(404, 409) },
});

