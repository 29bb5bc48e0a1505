/**
 * The panel's content (its own script, fetched when the panel first opens): header, then either the
 * conversation and the composer, or the Conversations view (the member's past conversations).
 */
import { useEffect, useRef } from 'react';
import { Icon } from '../../components/Icon';
import { LoadError } from '../../components/LoadError';
import { assistantStore, useAssistantState } from './assistant-store';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { TurnView } from './TurnView';
import { useChat } from './use-chat';
import { useThreadLoader } from './use-thread-loader';

const EXAMPLES = ['show videos from 2019', 'how many photos did we take in 2023, and with which camera?', 'make an album of the best photos from last summer, one per day'];

export function ChatPanel() {
  const { about, view } = useAssistantState();
  const chat = useChat();
  const loader = useThreadLoader();
  const log = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const listing = view === 'conversations';

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // Escape inside a dialog (a card's photos, the viewer, Forget's question) is that dialog's.
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) assistantStore.close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Follow the answer as it grows (and show the end of a conversation reopened).
  const last = chat.turns.at(-1);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [listing, chat.turns.length, last?.text, last?.cards.length, last?.confirmations.length, last?.steps.length]);

  return (
    <aside id="assistant-panel" className="assistant" aria-label="Assistant">
      <header className="assistant__head">
        {/* Icons with their names (aria-label, title): the side panel is too narrow for four labels. */}
        <h2 className="assistant__title">
          <Icon name="assistant" />
          Assistant
        </h2>
        {listing ? (
          <button type="button" className="button button--quiet" aria-label="Back to the chat" title="Back to the chat" onClick={() => assistantStore.showView('chat')}>
            <Icon name="back" />
          </button>
        ) : (
          <button type="button" className="button button--quiet" aria-label="Conversations" title="Conversations" onClick={() => assistantStore.showView('conversations')}>
            <Icon name="history" />
          </button>
        )}
        <button type="button" className="button button--quiet" onClick={chat.newChat} disabled={!listing && chat.threadId === null && chat.turns.length === 0}>
          New chat
        </button>
        <button ref={closeButton} type="button" className="button button--quiet" aria-label="Close assistant" onClick={assistantStore.close}>
          <Icon name="close" />
        </button>
      </header>
      {listing ? (
        <div className="assistant__log">
          <ConversationList current={chat.threadId} busy={chat.streaming} onOpen={chat.openThread} onForgotCurrent={chat.forgotten} />
        </div>
      ) : (
        <>
          {/* The log is a container of the list: role="log" on the <ol> itself would take away its list semantics. */}
          <div ref={log} className="assistant__log" role="log" aria-label="Conversation" aria-busy={loader.loading}>
            {loader.error ? <LoadError error={loader.error} onRetry={loader.retry} /> : null}
            <ol className="assistant__turns">
              {loader.loading && <li className="assistant__empty">Loading the conversation…</li>}
              {!loader.loading && !loader.error && chat.turns.length === 0 && (
                <li className="assistant__empty">
                  <p>Ask about your photos in words. For example:</p>
                  <ul>
                    {EXAMPLES.map((x) => (
                      <li key={x}>“{x}”</li>
                    ))}
                  </ul>
                  <p>It asks before it changes anything.</p>
                </li>
              )}
              {chat.turns.map((t) => (
                <TurnView key={t.id} turn={t} busy={chat.streaming} onAnswer={(c, approved) => chat.answer(t, c, approved)} onRetry={() => chat.retry(t)} />
              ))}
            </ol>
          </div>
          <Composer about={about} streaming={chat.streaming} waiting={loader.loading || Boolean(loader.error)} onAsk={chat.ask} onStop={chat.stop} />
        </>
      )}
    </aside>
  );
}
