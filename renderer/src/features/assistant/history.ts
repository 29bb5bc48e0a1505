/**
 * A conversation as the server kept it (getAgentThread), folded into the panel's turns (pure: no React, no
 * fetch; also read by test/renderer, hence `.ts` paths). A reopened conversation, after a reload or from the
 * Conversations view, shows what this fold gives; a conversation going on in this page adds turns from its
 * streams (transcript.ts) after them.
 *
 * The server keeps words and receipts, not streams, so:
 * - a turn starts at each of the member's messages (messages before the first one, cut off by the server's
 *   window, make a turn of their own); the assistant's words and the receipts of its run follow it, including
 *   those of a confirmation answered later (the same run);
 * - every tool receipt is a step (done or failed, with its summary or its error; no duration was kept);
 * - a `show` receipt with its ref, widget and title is a card again, marked `restored`: refs expire two hours
 *   after their last use, so the panel shows it as a card only while getAgentRef still answers (ResultCard);
 * - each confirmation still waiting (`pending`) is a confirmation card on the turn of its run (the last turn
 *   when its run is outside the window), answered like a live one (resumeAgentChat with its thread and run).
 */
import type { StoredMessage, StoredThread } from './agent-types.ts';
import { WIDGETS, whatOf, type Card, type Confirmation, type Step, type Turn } from './transcript.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The turns of a stored conversation, oldest first; turn ids are `h<message id>` (stable across reloads). */
export function turnsOf(stored: StoredThread): Turn[] {
  const threadId = stored.thread.thread_id;
  const turns: Turn[] = [];
  const start = (m: StoredMessage, asked?: string): Turn => {
    const turn: Turn = { id: `h${m.message_id}`, ...(asked !== undefined ? { asked } : {}), threadId, ...(m.run_id ? { runId: m.run_id } : {}), text: '', steps: [], cards: [], confirmations: [], dropped: [], status: 'completed' };
    turns.push(turn);
    return turn;
  };
  for (const m of stored.messages) {
    if (m.role === 'user') {
      start(m, m.text ?? '');
      continue;
    }
    const turn = turns.at(-1) ?? start(m);
    if (m.role === 'assistant') {
      if (m.text) turn.text = turn.text ? `${turn.text} ${m.text}` : m.text;
    } else if (m.tool) {
      turn.steps.push(stepOf(m.message_id, m.tool));
      const card = cardOf(threadId, m.tool);
      if (card) turn.cards.push(card);
    }
  }
  for (const p of stored.pending) {
    const confirmation: Confirmation = { effectId: p.interrupt_id, threadId, runId: p.run_id, toolName: p.tool_name, what: whatOf(p.confirmation), state: 'pending' };
    const turn = turns.findLast((t) => t.runId === p.run_id) ?? turns.at(-1) ?? start({ message_id: 0, run_id: p.run_id, role: 'assistant', created_at: p.created_at });
    turn.confirmations.push(confirmation);
    turn.status = 'awaiting_confirmation';
  }
  return turns;
}

/** A tool's receipt as a step: its name, done or failed, and what it said (a summary, an error, an effect's receipt). */
function stepOf(messageId: number, tool: Record<string, unknown>): Step {
  const receipt = tool.receipt && typeof tool.receipt === 'object' ? (tool.receipt as Record<string, unknown>) : null;
  const failed = tool.ok === false || receipt?.status === 'failed';
  const message = str(receipt?.message) ?? str(tool.message) ?? str(tool.summary);
  return { id: `h${messageId}`, name: str(tool.name) ?? 'tool', status: failed ? 'error' : 'success', ...(message ? { message } : {}) };
}

/** A card the assistant showed (a `show` receipt with its ref and widget), to show again while its ref lives. */
function cardOf(threadId: string, tool: Record<string, unknown>): Card | null {
  const refId = str(tool.ref_id);
  const widget = WIDGETS.find((w) => w === tool.widget);
  if (!refId || !widget) return null;
  const count = num(tool.count) ?? 0;
  return { refId, threadId, widget, title: str(tool.title) ?? `${count} ${count === 1 ? 'item' : 'items'}`, count, restored: true };
}
