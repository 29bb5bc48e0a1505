/**
 * Reads the current conversation from the server when the panel shows a thread whose turns it does not hold
 * (after a reload, or one opened from the Conversations view), and folds it into turns (history.ts).
 * A conversation the server no longer knows (forgotten on another device) gives way to a new chat.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/problem';
import { fetchThread } from './agent-api';
import { assistantStore, useAssistantState } from './assistant-store';
import { turnsOf } from './history';

export function useThreadLoader(): { loading: boolean; error: unknown; retry: () => void } {
  const { threadId, loaded } = useAssistantState();
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const loading = threadId !== null && loaded !== threadId && error === null;

  useEffect(() => {
    if (threadId === null || loaded === threadId) return;
    const ac = new AbortController();
    setError(null);
    fetchThread(threadId, ac.signal).then(
      (stored) => assistantStore.showThread(threadId, turnsOf(stored)),
      (e: unknown) => {
        if (ac.signal.aborted) return;
        if (e instanceof ApiError && e.status === 404) assistantStore.newChat();
        else setError(e);
      },
    );
    return () => ac.abort();
  }, [threadId, loaded, attempt]);

  const retry = useCallback(() => {
    setError(null);
    setAttempt((n) => n + 1);
  }, []);
  return { loading, error: threadId !== null && loaded !== threadId ? error : null, retry };
}
