/**
 * The conversation as the panel shows it, folded from the server's stream events (pure: no React, no fetch).
 *
 * One `turn` per stream: a chat (the member's words and the answer) or a resume (the answer to a
 * confirmation). Events fold in as they arrive: `message.output` chunks append to the text, `message.action`
 * adds a confirmation, `side_event` tool executions become steps (running → success or error, by execution
 * id), `widget_show` becomes a card, `session_info` gives the thread and run and the dropped mentions,
 * `run_status` and `error` end it; `heartbeat` and `done` change nothing shown.
 */
import type { Mention, StreamEvent, Widget } from './agent-types.ts';

export interface Step {
  id: string;
  name: string;
  status: 'running' | 'success' | 'error';
  durationMs?: number;
  message?: string;
}

export interface Card {
  refId: string;
  threadId: string;
  widget: Widget;
  title: string;
  count: number;
  /** From a reopened conversation (history.ts): shown as a card only while its ref still answers. */
  restored?: true;
}

export interface Confirmation {
  effectId: string;
  threadId: string;
  runId: string;
  toolName: string;
  /** What would change, as the server put it: count, album_name, tags, liked, trash. */
  what: { count?: number; album_name?: string; tags?: string[]; liked?: boolean; trash?: boolean };
  /** Pending until answered here; the answer and the receipt's words once the resume came back. */
  state: 'pending' | 'approving' | 'declining' | 'approved' | 'declined' | 'failed';
  receipt?: string;
}

export interface Dropped {
  type: string;
  label?: string;
  reason: string;
}

/** What one question sent, kept with its turn so Retry can send it again. */
export interface Question {
  query: string;
  mentions: Mention[];
  about: { assetId: string; label: string } | null;
}

export type TurnStatus = 'streaming' | 'completed' | 'awaiting_confirmation' | 'cancelled' | 'failed';

export interface Turn {
  id: string;
  /** The member's words (absent on a resume's turn). */
  asked?: string;
  /** What the question was about: the photo of "Ask about this", mentions chosen. */
  about?: string[];
  question?: Question;
  threadId?: string;
  runId?: string;
  text: string;
  steps: Step[];
  cards: Card[];
  confirmations: Confirmation[];
  dropped: Dropped[];
  status: TurnStatus;
  error?: string;
}

export function newTurn(id: string, asked?: string, about?: string[]): Turn {
  return { id, ...(asked !== undefined ? { asked } : {}), ...(about?.length ? { about } : {}), text: '', steps: [], cards: [], confirmations: [], dropped: [], status: 'streaming' };
}

export const WIDGETS: readonly Widget[] = ['cover_card', 'number_card', 'spark_card', 'mosaic_card'];
const STATUSES: readonly TurnStatus[] = ['completed', 'awaiting_confirmation', 'cancelled', 'failed'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** What a confirmation would change, from the server's `confirmation` (a stream's action, or a thread's pending). */
export function whatOf(confirmation: unknown): Confirmation['what'] {
  const c = obj(confirmation);
  return {
    ...(num(c.count) !== undefined ? { count: num(c.count)! } : {}),
    ...(str(c.album_name) ? { album_name: str(c.album_name)! } : {}),
    ...(Array.isArray(c.tags) ? { tags: c.tags.filter((t): t is string => typeof t === 'string') } : {}),
    ...(typeof c.liked === 'boolean' ? { liked: c.liked } : {}),
    ...(c.trash === true ? { trash: true } : {}),
  };
}

/** The turn after one event (a new object when anything changed). */
export function applyEvent(turn: Turn, { event, data }: StreamEvent): Turn {
  switch (event) {
    case 'session_info': {
      const dropped = Array.isArray(data.dropped_mentions)
        ? (data.dropped_mentions as unknown[]).map((d) => obj(d)).map((d) => ({ type: str(d.type) ?? 'mention', ...(str(d.label) ? { label: str(d.label)! } : {}), reason: str(d.reason) ?? 'not found' }))
        : [];
      return { ...turn, threadId: str(data.thread_id) ?? turn.threadId, runId: str(data.run_id) ?? turn.runId, dropped: [...turn.dropped, ...dropped] } as Turn;
    }
    case 'message': {
      const output = str(data.output);
      if (output) return { ...turn, text: turn.text + output };
      const action = obj(data.action);
      const effectId = str(action.effect_id) ?? str(action.interrupt_id);
      if (!effectId) return turn;
      const resume = obj(action.resume);
      const confirmation: Confirmation = {
        effectId,
        threadId: str(resume.thread_id) ?? turn.threadId ?? '',
        runId: str(resume.run_id) ?? turn.runId ?? '',
        toolName: str(action.tool_name) ?? 'change',
        what: whatOf(action.confirmation),
        state: 'pending',
      };
      return { ...turn, confirmations: [...turn.confirmations.filter((x) => x.effectId !== effectId), confirmation] };
    }
    case 'side_event': {
      const type = str(data.type);
      const d = obj(data.data);
      if (type === 'widget_show') {
        const widget = WIDGETS.find((w) => w === d.widget) ?? 'cover_card';
        const refId = str(d.refId);
        if (!refId || !turn.threadId) return turn;
        return { ...turn, cards: [...turn.cards, { refId, threadId: turn.threadId, widget, title: str(d.title) ?? 'Result', count: num(d.count) ?? 0 }] };
      }
      if (type !== 'tool_execution') return turn;
      const tool = obj(data.tool);
      const execution = obj(data.execution);
      const id = str(tool.executionId) ?? `${turn.steps.length}`;
      const status = execution.status === 'success' || execution.status === 'error' ? execution.status : 'running';
      const error = obj(execution.error);
      const message = status === 'error' ? str(error.message) : str(execution.message);
      const step: Step = {
        id,
        name: str(tool.name) ?? 'tool',
        status,
        ...(num(execution.duration) !== undefined ? { durationMs: num(execution.duration)! } : {}),
        ...(message ? { message } : {}),
      };
      const at = turn.steps.findIndex((s) => s.id === id);
      const steps = at < 0 ? [...turn.steps, step] : turn.steps.map((s, i) => (i === at ? step : s));
      return { ...turn, steps };
    }
    case 'run_status': {
      const status = STATUSES.find((s) => s === data.status);
      return status ? { ...turn, status } : turn;
    }
    case 'error':
      return { ...turn, status: 'failed', error: str(data.error) ?? 'The assistant failed on this request.' };
    default:
      return turn;
  }
}

/** A stream that ended without saying how (the connection dropped): the turn says so rather than spinning. */
export function endTurn(turn: Turn): Turn {
  return turn.status === 'streaming' ? { ...turn, status: 'failed', error: turn.error ?? 'The answer stopped before it was complete.' } : turn;
}

/** What a confirmation would change, in words: "Make the album “Trip” of 3 items". */
export function describeConfirmation(c: Confirmation): string {
  const n = c.what.count ?? 0;
  const items = `${n} ${n === 1 ? 'item' : 'items'}`;
  switch (c.toolName) {
    case 'create_album':
      return `Make the album “${c.what.album_name ?? 'Untitled'}” of ${items}`;
    case 'add_to_album':
      return `Add ${items} to the album “${c.what.album_name ?? ''}”`;
    case 'tag_assets':
      return `Tag ${items} with ${(c.what.tags ?? []).join(', ')}`;
    case 'bulk_like_assets':
      return `${c.what.liked === false ? 'Unlike' : 'Like'} ${items}`;
    case 'trash_assets':
      return `Move ${items} to the Trash`;
    default:
      return `${c.toolName.replace(/_/g, ' ')} (${items})`;
  }
}

/** Tool names as words ("filter_assets" → "filter assets"). */
export const stepLabel = (name: string) => name.replace(/_/g, ' ');

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
