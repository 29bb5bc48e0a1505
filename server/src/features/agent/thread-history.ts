/**
 * The member's conversations with the assistant, for the chat panel's history (extension operations: the
 * contract has the chat and its refs, but no way to list or reopen a conversation, or to forget one).
 *
 * Decisions where the contract is silent:
 * - A conversation lists the last MESSAGE_WINDOW messages (`total` says how many there are); what the assistant
 *   remembers when it plans is still only the last 2 hours (engine.ts).
 * - Tool messages are the receipts the engine kept (tool name, ok, summary, ref id, count; or the effect's
 *   receipt), never photos: a ref older than 2 hours is gone, so an old card shows its words, not its photos.
 *   A `show` receipt keeps the card's widget and title, so the panel can show the card again while its ref lives.
 * - `pending` lists the confirmations still waiting, with what they would change, so a reloaded page can ask
 *   again; `active_run` is the run still answering or waiting (Stop and resume need its id).
 * - Forgetting a conversation removes its messages, runs, refs and waiting confirmations (nothing waiting is
 *   committed); the pins made from it stay on the board. While it is still answering it is 409
 *   `agent_run_active` (stop it first).
 */
import type { Access } from '../../platform/access/index.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict } from '../../platform/http/errors.ts';
import type { AgentStore, MessageRow, ThreadRow, ThreadStatus } from './agent.store.ts';

export const MESSAGE_WINDOW = 200;

const iso = (t: number) => new Date(t).toISOString();

export interface ThreadSummary {
  thread_id: string;
  title: string;
  mode: string;
  status: ThreadStatus;
  created_at: string;
  updated_at: string;
}

export interface ThreadMessage {
  message_id: number;
  run_id: string | null;
  role: 'user' | 'assistant' | 'tool';
  created_at: string;
  text?: string;
  tool?: Record<string, unknown>;
}

export class ThreadHistory {
  constructor(private readonly deps: { store: AgentStore; access: Access }) {}

  list(actor: Actor, page: { limit: number; offset: number }): { threads: ThreadSummary[]; pagination: { limit: number; offset: number }; total: number } {
    const { rows, total } = this.deps.store.threadsOf(actor.userId, page);
    return { threads: rows.map(summaryOf), pagination: page, total };
  }

  get(actor: Actor, threadId: string) {
    const thread = this.own(actor, threadId, 'read');
    const { rows, total } = this.deps.store.lastMessages(threadId, MESSAGE_WINDOW);
    const active = this.deps.store.activeRun(threadId);
    const pending = this.deps.store.pendingEffects(threadId).map((e) => ({
      interrupt_id: e.effect_id,
      run_id: e.run_id,
      tool_name: e.tool_name,
      confirmation: (JSON.parse(e.payload) as { confirmation?: unknown }).confirmation ?? null,
      created_at: iso(e.created_at),
    }));
    return {
      thread: summaryOf(thread),
      messages: rows.map(messageOf),
      total_messages: total,
      active_run: active ? { run_id: active.run_id, status: active.status } : null,
      pending,
    };
  }

  remove(actor: Actor, threadId: string): { message: string } {
    this.own(actor, threadId, 'change');
    const active = this.deps.store.activeRun(threadId);
    if (active && active.status !== 'awaiting_confirmation') {
      throw new Conflict('This conversation is still answering: stop it first.', 'agent_run_active', { run_id: active.run_id });
    }
    this.deps.store.deleteThread(threadId, actor.userId);
    return { message: 'The conversation was forgotten; its pins stay on your board.' };
  }

  private own(actor: Actor, threadId: string, permission: 'read' | 'change'): ThreadRow {
    this.deps.access.require(actor, 'agent_thread', threadId, permission, 'path.id');
    return this.deps.store.thread(threadId, actor.userId)!;
  }
}

function summaryOf(t: ThreadRow): ThreadSummary {
  return { thread_id: t.thread_id, title: t.title, mode: t.mode, status: t.status, created_at: iso(t.created_at), updated_at: iso(t.updated_at) };
}

/** A stored message as the panel shows it: words as text, a tool's receipt as its fields (never asset data). */
function messageOf(m: MessageRow): ThreadMessage {
  const base = { message_id: m.message_id, run_id: m.run_id, role: m.role, created_at: iso(m.created_at) };
  if (m.role !== 'tool') return { ...base, text: m.content };
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(m.content) as Record<string, unknown>;
  } catch {
    parsed = { summary: m.content };
  }
  const pick = ['name', 'ok', 'summary', 'ref_id', 'count', 'widget', 'title', 'code', 'message', 'receipt'];
  return { ...base, tool: Object.fromEntries(Object.entries(parsed).filter(([k, v]) => pick.includes(k) && v !== undefined && v !== null)) };
}
