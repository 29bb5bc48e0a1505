/**
 * "Tag…" for a selection: a small panel with a tag name (existing tags suggested as you type), the
 * progress while each asset is tagged, and what failed, by file name, with a retry. It stays open
 * when done so the outcome can be read; "Done" closes it and clears the selection, "Tag…" again
 * closes it and keeps the selection (to add the same photos to an album next, say).
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../components/Button';
import { ProgressBar } from '../components/ProgressBar';
import { useTagSuggestions, type useBulkTag } from './bulk-tag';

interface BulkTagMenuProps {
  ids: readonly string[];
  /** File names by asset id, to say which ones failed. */
  names: ReadonlyMap<string, string>;
  tagging: ReturnType<typeof useBulkTag>;
  disabled: boolean;
  onDone: () => void;
}

export function BulkTagMenu({ ids, names, tagging, disabled, onDone }: BulkTagMenuProps) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const { run, start, retry, reset } = tagging;
  const running = run?.running ?? false;
  const q = name.trim();
  const suggestions = useTagSuggestions(q, open && !running);
  const tag = (tagName: string) => {
    if (!running && tagName) start(tagName, ids);
  };
  const close = () => {
    setOpen(false);
    reset();
  };
  const n = ids.length;
  // Focused by hand rather than with autoFocus: a browser honours the autofocus attribute only once
  // per page, and this panel opens many times.
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) nameField.current?.focus();
  }, [open]);

  return (
    <div className="tag-menu">
      <Button variant="secondary" aria-expanded={open} onClick={() => (open ? close() : setOpen(true))} disabled={disabled || running}>
        Tag…
      </Button>
      {open && (
        <div className="tag-menu__panel" role="dialog" aria-label="Tag selection">
          <form
            className="tag-menu__form"
            onSubmit={(e) => {
              e.preventDefault();
              tag(q);
            }}
          >
            <input aria-label="Tag name" placeholder="Tag, e.g. holiday" ref={nameField} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            <Button type="submit" variant="secondary" disabled={!q || running}>
              {n === 1 ? 'Tag 1' : `Tag ${n}`}
            </Button>
          </form>
          {!running && (suggestions.data?.tags.length ?? 0) > 0 && (
            <ul className="tag-menu__suggestions" aria-label="Your tags">
              {suggestions.data!.tags.map((t) => (
                <li key={t.tag_id}>
                  <button type="button" className="tag-menu__suggestion" aria-label={`Tag with ${t.tag_name}`} onClick={() => (setName(t.tag_name), tag(t.tag_name))}>
                    {t.tag_name} <span>{t.asset_count}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div role="status" className="tag-menu__status">
            {run && running && (
              <>
                <span>
                  Tagging {run.finished} of {run.total}…
                </span>
                <ProgressBar value={run.total ? (run.finished / run.total) * 100 : 0} label={`Tagging with ${run.name}`} />
              </>
            )}
            {run && !running && (
              <span>
                Tagged {run.tagged} of {run.asked} with “{run.name}”.
              </span>
            )}
          </div>
          {run && !running && run.failed.length > 0 && (
            <div className="tag-menu__failed" role="alert">
              <p>{run.failed.length === 1 ? '1 could not be tagged:' : `${run.failed.length} could not be tagged:`}</p>
              <ul>
                {run.failed.map((f) => (
                  <li key={f.id}>
                    <strong>{names.get(f.id) ?? f.id}</strong>: {f.message}
                  </li>
                ))}
              </ul>
              <Button variant="secondary" onClick={retry}>
                Retry
              </Button>
            </div>
          )}
          {run && !running && (
            <div className="tag-menu__actions">
              <Button
                onClick={() => {
                  close();
                  onDone();
                }}
              >
                Done
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
