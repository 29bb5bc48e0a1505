/**
 * The server-sent events of chatAgent and resumeAgentChat, as the reference names them:
 * `session_info {thread_id, run_id, dropped_mentions?}`, `run_status {run_id, status}`,
 * `message {agent_name, output?, action?, error?}` (text in chunks; a confirmation in `action`),
 * `side_event {type: tool_execution | widget_show | token_usage, timestamp, tool?, execution?, data?, usage?}`,
 * `heartbeat {timestamp}` (after 5 s of silence: a tool running, a model thinking), `error {error}`, `done {}` (always last).
 */
export type AgentEvent =
  | { event: 'session_info'; data: { thread_id: string; run_id: string; dropped_mentions?: { type: string; id?: unknown; label?: string; reason: string }[] } }
  | { event: 'run_status'; data: { run_id: string; status: string } }
  | { event: 'message'; data: { agent_name: string; output?: string; action?: Record<string, unknown>; error?: string } }
  | { event: 'side_event'; data: SideEvent }
  | { event: 'heartbeat'; data: { timestamp: number } }
  | { event: 'error'; data: { error: string; code?: string } }
  | { event: 'done'; data: Record<string, never> };

export interface SideEvent {
  type: 'tool_execution' | 'widget_show' | 'token_usage';
  timestamp: number;
  tool?: { name: string; executionId: string };
  execution?: { status: 'running' | 'success' | 'error'; message?: string; error?: { code: string; message: string; hint?: string }; parameters?: unknown; duration?: number };
  data?: { refId?: string; count?: number; widget?: string; params?: Record<string, unknown>; receipt?: unknown; title?: string };
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
}

export type Emit = (e: AgentEvent) => Promise<void>;

export const AGENT_NAME = 'hearth';
