/** The assistant's contract types the pure parts use (transcript.ts, mentions.ts: also read by test/renderer, hence `.ts` paths). */
import type { components } from '../../api/schema.d.ts';

export type Widget = components['schemas']['AgentPin']['widget'];
export type ChatRequest = components['schemas']['AgentChatRequest'];
export type Mention = NonNullable<ChatRequest['mentions']>[number];

/** A stream's events as the server names them (server/src/features/agent/events.ts). */
export type StreamEvent = { event: string; data: Record<string, unknown> };

/** A conversation as getAgentThread gives it back, and one line of listAgentThreads (history.ts, the Conversations view). */
export type StoredThread = components['schemas']['AgentThread'];
export type StoredMessage = components['schemas']['AgentThreadMessage'];
export type ThreadSummary = components['schemas']['AgentThreadSummary'];
