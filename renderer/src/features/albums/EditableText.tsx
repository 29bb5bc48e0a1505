/**
 * Text edited where it is shown (an album's title and description): a button showing the text, and
 * on a click a field in its place. Enter or leaving the field saves; Escape puts the text back. In a
 * description Enter also saves (it is what people press when done) and Shift+Enter starts a new line.
 * A refused save keeps the field open with the server's words under it, so nothing typed is lost.
 */
import { useEffect, useId, useRef, useState } from 'react';

interface EditableTextProps {
  value: string;
  /** The field's accessible name ("Album name", "Description"). */
  label: string;
  /** What the button says when the value is empty ("Add a description"). */
  placeholder?: string;
  multiline?: boolean;
  maxLength: number;
  /** Editing is offered only to those who may change the text. */
  editable: boolean;
  /** Saves; rejects with a message to show under the field. */
  onSave: (value: string) => Promise<unknown>;
  /** Turns the server's failure into words for the field. */
  errorOf: (error: unknown) => string;
  /** A problem seen before asking the server (an empty name), or null. */
  validate?: (value: string) => string | null;
  /** How the text is shown when not editing (the h1 of the page, a paragraph). */
  render: (text: React.ReactNode) => React.ReactNode;
  /** The button's name, which also tells what a click does ("Rename album"). */
  editLabel: string;
  className?: string;
}

export function EditableText({ value, label, placeholder, multiline = false, maxLength, editable, onSave, errorOf, validate, render, editLabel, className }: EditableTextProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const errorId = useId();
  // Escape and Enter end editing before the blur that follows: that blur must not save again.
  const settled = useRef(false);

  // After Enter or Escape, focus goes back to the edit button once it is in the page again.
  const returnFocus = useRef(false);

  useEffect(() => {
    if (draft !== null && field.current && document.activeElement !== field.current) {
      field.current.focus();
      field.current.select();
    }
    if (draft === null && returnFocus.current) {
      returnFocus.current = false;
      button.current?.focus();
    }
  }, [draft]);

  const editing = draft !== null;
  if (!editable) return render(value || null);

  if (!editing) {
    const start = () => {
      settled.current = false;
      setError(null);
      setDraft(value);
    };
    // The text stays plain text (a heading keeps the album's name as its name); a click on it edits
    // too, and the pencil button is the way in for keyboards and screen readers.
    return (
      <div className={['editable', className].filter(Boolean).join(' ')}>
        {value && render(<span className="editable__text" onClick={start}>{value}</span>)}
        <button ref={button} type="button" className={value ? 'button button--quiet editable__edit' : 'button button--quiet editable__add'} onClick={start} aria-label={value ? editLabel : undefined} title={editLabel}>
          {value ? <PencilIcon /> : placeholder}
        </button>
      </div>
    );
  }

  const finish = (focusBack: boolean) => {
    returnFocus.current = focusBack;
    setDraft(null);
    setError(null);
  };
  /** `byKey`: Enter saved (focus goes back to the text); else the field was left (focus stays where it went). */
  const save = async (byKey: boolean) => {
    if (draft === null || saving) return;
    const next = multiline ? draft.trim() : draft.replace(/\s+/g, ' ').trim();
    if (next === value.trim()) return finish(byKey);
    const problem = validate?.(next) ?? null;
    if (problem) return refuse(problem, byKey);
    setSaving(true);
    try {
      await onSave(next);
      finish(byKey);
    } catch (e) {
      refuse(errorOf(e), byKey);
    } finally {
      setSaving(false);
    }
  };
  // The field stays open with what was typed and the reason beside it.
  const refuse = (message: string, byKey: boolean) => {
    settled.current = false;
    setError(message);
    if (byKey) field.current?.focus();
  };
  const cancel = () => {
    settled.current = true;
    finish(true);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      // The page's own Escape (a dialog around it) must not also fire.
      e.preventDefault();
      e.stopPropagation();
      cancel();
    } else if (e.key === 'Enter' && !(multiline && e.shiftKey) && !e.nativeEvent.isComposing) {
      e.preventDefault();
      settled.current = true;
      void save(true);
    }
  };
  const common = {
    ref: field,
    className: 'editable__field',
    'aria-label': label,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    value: draft,
    maxLength,
    readOnly: saving,
    onKeyDown,
    onBlur: () => {
      if (!settled.current) void save(false);
    },
  };

  return (
    <div className={['editable', 'editable--editing', className].filter(Boolean).join(' ')}>
      {multiline ? (
        <textarea {...common} rows={3} placeholder={placeholder} onChange={(e) => setDraft(e.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(e) => setDraft(e.target.value)} />
      )}
      {saving && (
        <span className="editable__status" role="status">
          Saving…
        </span>
      )}
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function PencilIcon() {
  return (
    <svg className="icon" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M4 20h4L19.5 8.5a2.1 2.1 0 0 0-4-4L4 16z" />
      <path d="M13.5 6.5l4 4" />
    </svg>
  );
}
