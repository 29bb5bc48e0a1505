/**
 * Where the member writes: Enter sends (Shift+Enter for a new line), Stop while an answer streams. `@` offers
 * the named people, `#` the member's albums (mentions.ts); the list is a listbox under the field, chosen by
 * tap, click, or the arrow keys and Enter. The photo of "Ask about this" sits above the field until sent
 * or removed.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../../components/Icon';
import { Thumbnail } from '../../photos/Thumbnail';
import { useMentionAlbums, useMentionPeople } from './agent-api';
import { assistantStore, type AskedPhoto } from './assistant-store';
import { insertMention, matchOptions, sigilOf, toRequest, typingMention, type Chosen } from './mentions';
import type { Question } from './transcript';

interface ComposerProps {
  about: AskedPhoto | null;
  streaming: boolean;
  /** Not yet: the conversation is still being read from the server (a question now would go on from nothing shown). */
  waiting?: boolean;
  onAsk: (q: Question) => void;
  onStop: () => void;
}

export function Composer({ about, streaming, waiting = false, onAsk, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const typing = typingMention(text, caret);
  const people = useMentionPeople(typing?.type === 'person');
  const albums = useMentionAlbums(typing?.type === 'album');
  const options: Chosen[] = typing ? matchOptions((typing.type === 'person' ? people.data : albums.data) ?? [], typing.query).map((o) => ({ ...o, type: typing.type })) : [];
  const listOpen = typing !== null && dismissed !== typing.start;
  const loading = listOpen && (typing.type === 'person' ? people.isPending : albums.isPending);

  const pick = (o: Chosen) => {
    if (!typing) return;
    const next = insertMention(text, typing.start, caret, o);
    setText(next.text);
    setChosen((c) => [...c.filter((x) => !(x.type === o.type && x.id === o.id)), o]);
    setActive(0);
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(next.caret, next.caret);
      setCaret(next.caret);
    });
  };

  const send = () => {
    if (streaming || waiting || !text.trim()) return;
    const { query, mentions } = toRequest(text, chosen);
    onAsk({ query, mentions, about });
    setText('');
    setChosen([]);
    setCaret(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen && options.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pick(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(typing.start);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };

  return (
    <form
      className="assistant-composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {about && (
        <div className="assistant-about">
          <Thumbnail assetId={about.assetId} size="small" alt="" fallback={<Icon name="image" />} className="assistant-about__thumb" />
          <span className="assistant-about__label">About {about.label}</span>
          <button type="button" className="button button--quiet" aria-label={`Remove ${about.label}`} onClick={assistantStore.clearAbout}>
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
      {listOpen && (
        <ul id={listId} role="listbox" className="assistant-mentions" aria-label={typing.type === 'person' ? 'People' : 'Albums'}>
          {loading && <li className="assistant-mentions__note">Loading…</li>}
          {!loading && options.length === 0 && <li className="assistant-mentions__note">{typing.type === 'person' ? 'No named person starts so.' : 'No album of yours starts so.'}</li>}
          {options.map((o, i) => (
            <li
              key={`${o.type}:${o.id}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className="assistant-mentions__option"
              // Keep the focus in the field (a mousedown would take it and close the list first).
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(o)}
            >
              {sigilOf(o.type)}
              {o.label}
            </li>
          ))}
        </ul>
      )}
      <div className="assistant-composer__row">
        <label className="visually-hidden" htmlFor={`${listId}-field`}>
          Ask the assistant
        </label>
        <textarea
          ref={field}
          id={`${listId}-field`}
          className="assistant-composer__field"
          rows={2}
          maxLength={4000}
          placeholder="Ask about your photos: @ for people, # for albums"
          value={text}
          aria-controls={listOpen ? listId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={listOpen && options.length > 0 ? `${listId}-${Math.min(active, options.length - 1)}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
            setActive(0);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        {streaming ? (
          <button type="button" className="button button--secondary assistant-composer__send" onClick={onStop}>
            <Icon name="stop" size={18} />
            <span>Stop</span>
          </button>
        ) : (
          <button type="submit" className="button button--primary assistant-composer__send" disabled={waiting || !text.trim()}>
            <Icon name="send" size={18} />
            <span>Send</span>
          </button>
        )}
      </div>
    </form>
  );
}
