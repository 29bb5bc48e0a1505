/**
 * The search field in the top bar (issue 13 point 6). `/` focuses it from anywhere except while
 * typing in another field or with the viewer open. While typing, suggestions open below it (a
 * combobox: arrows move, Enter picks, Esc closes): the text itself with the filters the server
 * understood in it ("Videos", "2023"), matching tags, and recent searches (recent-searches.ts).
 * Enter opens `/search?q=…`; the address holds the search, so Back returns to the previous one.
 *
 * Search by image: drop an image onto the field, or use the image button (a file picker; on a
 * phone, the system's photo picker).
 *
 * Decision: the filters are worked out by the server's parser (the one place its grammar lives),
 * asked with a one-item page a quarter second after typing stops; a slow or failed answer only
 * leaves the chips out of the suggestion.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useMe } from '../../api/use-me';
import { Icon } from '../../components/Icon';
import { readRecent, rememberSearch } from './recent-searches';
import { useParsedChips, useTagSuggestions } from './search-api';
import { readSearchState, searchHref, SEARCH_PAGE } from './search-url';
import { buildSuggestions, type Suggestion } from './suggestions';
import { useDebounced } from './use-debounced';
import { ImageFileInput } from './ImageFileInput';
import { dragHasFiles, firstFile, useImageSearch } from './use-image-search';
import './search.css';

const typingIn = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function SearchField() {
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  const searchImage = useImageSearch();
  const input = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [dropping, setDropping] = useState(false);
  const [recent, setRecent] = useState<string[]>(() => (me ? readRecent(localStorage, me.user_id) : []));

  // On the search page the field shows the search in the address (Back and Forward included).
  const onSearchPage = location.pathname === SEARCH_PAGE || location.pathname.startsWith(`${SEARCH_PAGE}/`);
  const addressQuery = useMemo(() => {
    const s = readSearchState(location.search);
    return onSearchPage && s.kind === 'text' ? s.query : '';
  }, [onSearchPage, location.search]);
  useEffect(() => setText(addressQuery), [addressQuery]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.altKey || e.ctrlKey || e.metaKey || typingIn(e.target)) return;
      // The viewer is a modal dialog: the page behind it (and this field) is inert.
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const typed = useDebounced(text, 250);
  const chips = useParsedChips(open ? typed : '');
  const tags = useTagSuggestions(open ? typed : '');
  const suggestions = useMemo(
    () => buildSuggestions(text, recent, typed === text ? (tags.data ?? []) : [], typed === text ? (chips.data ?? []).map((c) => c.label) : []),
    [text, typed, recent, tags.data, chips.data],
  );
  const showList = open && suggestions.length > 0;
  useEffect(() => setActive(-1), [text]);

  const run = (query: string) => {
    const q = query.trim();
    if (!q) return;
    if (me) setRecent(rememberSearch(localStorage, me.user_id, q));
    setOpen(false);
    setText(q);
    void navigate(searchHref({ kind: 'text', query: q, ignore: [] }));
  };
  const choose = (s: Suggestion) => run(s.query);

  return (
    <form
      role="search"
      aria-label="Search photos"
      className={dropping ? 'search-field search-field--drop' : 'search-field'}
      onSubmit={(e) => {
        e.preventDefault();
        const picked = active >= 0 ? suggestions[active] : undefined;
        if (picked) choose(picked);
        else run(text);
      }}
      onDragOver={(e) => {
        if (!dragHasFiles(e)) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        const file = firstFile(e.dataTransfer.files);
        setDropping(false);
        if (!file) return;
        e.preventDefault();
        setOpen(false);
        searchImage(file);
      }}
    >
      <span className="search-field__icon" aria-hidden="true">
        <Icon name="search" size={18} />
      </span>
      <input
        ref={input}
        type="search"
        className="search-field__input"
        role="combobox"
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-keyshortcuts="/"
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={1000}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && suggestions.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % suggestions.length);
          } else if (e.key === 'ArrowUp' && suggestions.length) {
            e.preventDefault();
            setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
          } else if (e.key === 'Escape') {
            if (showList) {
              e.preventDefault();
              setOpen(false);
            } else input.current?.blur();
          }
        }}
      />
      <button type="button" className="search-field__image" aria-label="Search by image" title="Search by image (or drop one here)" onClick={() => picker.current?.click()}>
        <Icon name="image" size={18} />
      </button>
      <ImageFileInput inputRef={picker} onImage={searchImage} />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="search-field__list" hidden={!showList}>
        {suggestions.map((s, i) => (
          <li
            key={s.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="search-field__option"
            // Chosen on press: a click would come after the input's blur has closed the list.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(s);
            }}
          >
            <SuggestionText s={s} />
          </li>
        ))}
      </ul>
    </form>
  );
}

function SuggestionText({ s }: { s: Suggestion }) {
  if (s.kind === 'tag') {
    return (
      <>
        <span className="search-field__kind">Tag</span> {s.tag}
      </>
    );
  }
  if (s.kind === 'recent') {
    return (
      <>
        <span className="search-field__kind">Recent</span> {s.query}
      </>
    );
  }
  return (
    <>
      <Icon name="search" size={16} /> <span className="search-field__query">{s.query}</span>
      {s.chips.length > 0 && (
        <span className="search-field__chips" aria-label={`understood as ${s.chips.join(', ')}`}>
          {s.chips.map((c) => (
            <span key={c} className="chip chip--small">
              {c}
            </span>
          ))}
        </span>
      )}
    </>
  );
}
