/**
 * The chat's actions: ask (a new turn streamed from chatAgent), answer a confirmation (resumeAgentChat,
 * streamed as a turn of its own), Stop (cancelAgentChat), Retry, New chat, and open another conversation.
 * One stream at a time, like the server's one run per thread; its events fold into the turn as they arrive
 * (transcript.ts). When a stream ends the Conversations list is read again (a new thread, a status changed).
 */
import { useCallback, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../api/problem';
import { agentKeys, cancelRun, chatStream, resumeStream, type ChatRequest, type StreamEvent } from './agent-api';
import { assistantStore, useAssistantState } from './assistant-store';
import { applyEvent, endTurn, newTurn, type Confirmation, type Question, type Turn } from './transcript';

const TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let sequence = 0;
const turnId = () => `t${Date.now().toString(36)}${(sequence++).toString(36)}`;

export function useChat() {
  const { threadId, turns } = useAssistantState();
  const queryClient = useQueryClient();
  const stream = useRef<AbortController | null>(null);
  const streaming = turns.some((t) => t.status === 'streaming');

  /** Runs one stream into a new turn; the thread id the server gives is kept for the next question. */
  const run = useCallback(async (turn: Turn, open: (onEvent: (e: StreamEvent) => void, signal: AbortSignal) => Promise<void>) => {
    const ac = new AbortController();
    stream.current = ac;
    assistantStore.addTurn(turn);
    try {
      await open((e) => {
        assistantStore.updateTurn(turn.id, (t) => applyEvent(t, e));
        if (e.event === 'session_info' && typeof e.data.thread_id === 'string') assistantStore.setThread(e.data.thread_id);
      }, ac.signal);
      assistantStore.updateTurn(turn.id, endTurn);
    } catch (e) {
      if (ac.signal.aborted) assistantStore.updateTurn(turn.id, (t) => (t.status === 'streaming' ? { ...t, status: 'cancelled' } : t));
      else assistantStore.updateTurn(turn.id, (t) => ({ ...t, status: 'failed', error: messageOf(e) }));
    } finally {
      if (stream.current === ac) stream.current = null;
      void queryClient.invalidateQueries({ queryKey: agentKeys.threads });
    }
  }, [queryClient]);

  const ask = useCallback(
    (q: Question) => {
      const body: ChatRequest = {
        query: q.query,
        timezone: TIMEZONE,
        ...(assistantStore.get().threadId ? { thread_id: assistantStore.get().threadId! } : {}),
        ...(q.mentions.length ? { mentions: q.mentions } : {}),
        ...(q.about ? { context: [{ type: 'assets' as const, asset_ids: [q.about.assetId], label: q.about.label }] } : {}),
      };
      const about = [...(q.about ? [q.about.label] : []), ...q.mentions.map((m) => `${m.type === 'album' ? '#' : '@'}${m.label ?? m.id}`)];
      const turn: Turn = { ...newTurn(turnId(), q.query, about), question: q };
      assistantStore.clearAbout();
      void run(turn, (onEvent, signal) => chatStream(body, onEvent, signal));
    },
    [run],
  );

  const answer = useCallback(
    (turn: Turn, c: Confirmation, approved: boolean) => {
      const mark = (state: Confirmation['state'], receipt?: string) =>
        assistantStore.updateTurn(turn.id, (t) => ({ ...t, confirmations: t.confirmations.map((x) => (x.effectId === c.effectId ? { ...x, state, ...(receipt ? { receipt } : {}) } : x)) }));
      mark(approved ? 'approving' : 'declining');
      const reply = newTurn(turnId());
      void run(reply, (onEvent, signal) =>
        resumeStream(
          { thread_id: c.threadId, run_id: c.runId, targets: { [c.effectId]: { approved } } },
          (e) => {
            onEvent(e);
            // The receipt (side_event data.receipt) settles the card: what was done, in the server's words.
            if (e.event === 'side_event' && e.data.type === 'tool_execution') {
              const data = (e.data.data ?? {}) as { receipt?: { status?: string; message?: string } };
              const r = data.receipt;
              if (r) mark(r.status === 'committed' ? 'approved' : r.status === 'failed' ? 'failed' : 'declined', r.message);
            }
          },
          signal,
        ),
      ).then(() => {
        const after = assistantStore.get().turns.find((t) => t.id === turn.id)?.confirmations.find((x) => x.effectId === c.effectId);
        // No receipt came (the resume was refused): the card can be answered again.
        if (after && (after.state === 'approving' || after.state === 'declining')) mark('pending');
        if (approved) {
          // An album made, photos tagged or liked or trashed: the pages that list them read again.
          void queryClient.invalidateQueries({ queryKey: ['albums'] });
          void queryClient.invalidateQueries({ queryKey: ['library'] });
          void queryClient.invalidateQueries({ queryKey: ['agent', 'mention', 'albums'] });
        }
      });
    },
    [run, queryClient],
  );

  const stop = useCallback(() => {
    const current = assistantStore.get().turns.findLast((t) => t.status === 'streaming');
    if (current?.threadId && current.runId) {
      // The server stops the run at its next step and ends the stream (run_status cancelled, done).
      cancelRun(current.threadId, current.runId).catch(() => stream.current?.abort());
    } else stream.current?.abort();
  }, []);

  const retry = useCallback((turn: Turn) => {
    const q = turn.question;
    if (q) ask(q);
  }, [ask]);

  const newChat = useCallback(() => {
    stream.current?.abort();
    assistantStore.newChat();
  }, []);

  /** The conversation open was forgotten (the Conversations view): a new chat, the list staying in view. */
  const forgotten = useCallback(() => {
    stream.current?.abort();
    assistantStore.newChat('conversations');
  }, []);

  /** Another conversation from the list: read from the server (use-thread-loader.ts). */
  const openThread = useCallback((id: string) => {
    stream.current?.abort();
    assistantStore.openThread(id);
  }, []);

  return { threadId, turns, streaming, ask, answer, stop, retry, newChat, openThread, forgotten };
}
