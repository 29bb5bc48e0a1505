/** The panel's content (its own script, fetched when the panel first opens): header, conversation, composer. */
import { useEffect, useRef } from 'react';
import { Icon } from '../../components/Icon';
import { assistantStore, useAssistantState } from './assistant-store';
import { Composer } from './Composer';
import { TurnView } from './TurnView';
import { useChat } from './use-chat';

const EXAMPLES = ['show videos from 2019', 'how many photos did we take in 2023, and with which camera?', 'make an album of the best photos from last summer, one per day'];

export function ChatPanel() {
  const { about } = useAssistantState();
  const chat = useChat();
  const log = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // Escape inside a dialog (a card's photos, the viewer) is that dialog's.
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) assistantStore.close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Follow the answer as it grows.
  const last = chat.turns.at(-1);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [chat.turns.length, last?.text, last?.cards.length, last?.confirmations.length, last?.steps.length]);

  return (
    <aside id="assistant-panel" className="assistant" aria-label="Assistant">
      <header className="assistant__head">
        <h2 className="assistant__title">
          <Icon name="assistant" />
          Assistant
        </h2>
        <button type="button" className="button button--quiet" onClick={chat.newChat} disabled={chat.turns.length === 0}>
          New chat
        </button>
        <button ref={closeButton} type="button" className="button button--quiet" aria-label="Close assistant" onClick={assistantStore.close}>
          <Icon name="close" />
        </button>
      </header>
      {/* The log is a container of the list: role="log" on the <ol> itself would take away its list semantics. */}
      <div ref={log} className="assistant__log" role="log" aria-label="Conversation">
        <ol className="assistant__turns">
          {chat.turns.length === 0 && (
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
      <Composer about={about} streaming={chat.streaming} onAsk={chat.ask} onStop={chat.stop} />
    </aside>
  );
}
