/**
 * The panel's Conversations view: the member's conversations with the assistant, the latest first (title,
 * when it last changed, and its state when it is not simply done), a page at a time. Choosing one reopens it
 * in the chat; Forget asks first, then forgets it on the server (its pins stay on the Board). Forgetting the
 * conversation that is open starts a new chat.
 */
import { useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { LoadError } from '../../components/LoadError';
import { formatDateTime } from '../../lib/dates';
import { useForgetThread, useThreads } from './agent-api';
import type { ThreadSummary } from './agent-types';

/** A conversation's state in words; none for one that is done or going on. */
const STATE: Partial<Record<ThreadSummary['status'], string>> = {
  awaiting_confirmation: 'Waiting for your confirmation',
  cancelled: 'Stopped',
  failed: 'Failed',
};

interface ConversationListProps {
  current: string | null;
  /** While an answer streams, opening another conversation would stop it: the list waits. */
  busy: boolean;
  onOpen: (threadId: string) => void;
  onForgotCurrent: () => void;
}

export function ConversationList({ current, busy, onOpen, onForgotCurrent }: ConversationListProps) {
  const threads = useThreads();
  const forget = useForgetThread();
  const [asking, setAsking] = useState<ThreadSummary | null>(null);
  const list = threads.data?.pages.flatMap((p) => p.threads) ?? [];

  const cancel = () => {
    setAsking(null);
    forget.reset();
  };
  const confirm = () => {
    if (!asking) return;
    const id = asking.thread_id;
    forget.mutate(id, {
      onSuccess: () => {
        setAsking(null);
        if (id === current) onForgotCurrent();
      },
    });
  };

  return (
    <div className="assistant-history">
      <h3 className="assistant-history__title">Conversations</h3>
      {threads.isPending && <p className="assistant__empty">Loading conversations…</p>}
      {threads.isError && <LoadError error={threads.error} onRetry={() => void threads.refetch()} />}
      {threads.isSuccess && list.length === 0 && <p className="assistant__empty">No conversations yet. What you ask the assistant is kept here.</p>}
      {list.length > 0 && (
        <ul className="assistant-history__list" aria-label="Conversations">
          {list.map((t) => (
            <li key={t.thread_id} className="assistant-history__item">
              <button type="button" className="assistant-history__open" aria-current={t.thread_id === current ? 'true' : undefined} disabled={busy} onClick={() => onOpen(t.thread_id)}>
                <span className="assistant-history__name">{t.title}</span>
                <span className="assistant-history__meta">
                  <time dateTime={t.updated_at}>{formatDateTime(t.updated_at)}</time>
                  {STATE[t.status] && <span className="assistant-history__state"> · {STATE[t.status]}</span>}
                </span>
              </button>
              <button type="button" className="button button--quiet assistant-history__forget" aria-label={`Forget ${t.title}`} disabled={busy && t.thread_id === current} onClick={() => setAsking(t)}>
                <Icon name="trash" size={18} />
                <span>Forget</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {threads.hasNextPage && (
        <Button variant="secondary" busy={threads.isFetchingNextPage} busyLabel="Loading…" onClick={() => void threads.fetchNextPage()}>
          Show more
        </Button>
      )}
      {asking && (
        <ConfirmDialog
          title="Forget this conversation?"
          confirmLabel="Forget"
          busyLabel="Forgetting…"
          busy={forget.isPending}
          error={forget.isError ? messageOf(forget.error) : null}
          onConfirm={confirm}
          onCancel={cancel}
        >
          “{asking.title}” and its messages go, with any change still waiting for your confirmation. What you pinned from it stays on the Board.
        </ConfirmDialog>
      )}
    </div>
  );
}
