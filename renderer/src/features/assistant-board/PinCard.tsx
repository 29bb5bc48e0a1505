/**
 * One pin on the Board: its title (opening its photos), the widget, live or frozen with what that means, and
 * its controls. On a desktop a drag handle moves it (a mouse drags it; arrow keys nudge it a cell) and Options
 * (a dialog) hold rename, the card's kind, its size and delete. On a phone, where the Board is one column, Move up and
 * Move down take a tap each, and the size is not offered (one column has no sizes).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { TextField } from '../../components/TextField';
import { useDeletePin, useUpdatePin, type Pin, type Widget } from './board-api';
import { SIZES, sizeLabel } from './board-layout';
import { pinPath } from './board-path';
import { modeOf, photoCount, WIDGET_LABELS } from './pin-facts';
import { PinWidget } from './PinWidget';

const TITLE_MAX = 200;

export interface PinMoves {
  /** Desktop: the drag handle's pointer and key handlers (BoardGrid). */
  handle?: React.HTMLAttributes<HTMLButtonElement>;
  dragging?: boolean;
  /** Phone: a tap moves the pin one place up or down in the column; absent at either end. */
  up?: () => void;
  down?: () => void;
  /** Desktop: a new size (columns × rows). */
  resize?: (size: { w: number; h: number }) => void;
  busy?: boolean;
}

export function PinCard({ pin, moves, style }: { pin: Pin; moves: PinMoves; style?: React.CSSProperties }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeletePin();
  const titleId = useId();
  const mode = modeOf(pin);

  return (
    <li className={['pin-card', moves.dragging ? 'pin-card--dragging' : ''].filter(Boolean).join(' ')} style={style} aria-labelledby={titleId}>
      <div className="pin-card__head">
        <h2 className="pin-card__title" id={titleId}>
          <Link to={pinPath(pin.pin_id)}>{pin.title}</Link>
        </h2>
        <button type="button" className="pin-card__icon" aria-haspopup="dialog" aria-label={`Options for ${pin.title}`} title="Options" onClick={() => setOpen((o) => !o)}>
          <Icon name="more" size={20} />
        </button>
        {moves.handle && (
          <button type="button" className="pin-card__handle" aria-label={`Move ${pin.title}`} title="Drag to move; arrow keys move it one cell" {...moves.handle}>
            <span aria-hidden="true">⠿</span>
          </button>
        )}
      </div>
      <Link to={pinPath(pin.pin_id)} className="pin-card__face" aria-label={`Open the ${photoCount(pin.count, pin.facets.types)} of ${pin.title}`}>
        <PinWidget pin={pin} />
      </Link>
      <p className="pin-card__mode">
        <span className={`badge ${pin.mode === 'frozen' ? 'badge--muted' : ''}`}>{mode.label}</span> {mode.meaning}
      </p>
      {(moves.up !== undefined || moves.down !== undefined) && (
        <div className="pin-card__actions">
          <Button variant="secondary" className="button--small" disabled={!moves.up || moves.busy} onClick={moves.up} aria-label={`Move ${pin.title} up`}>
            ↑ Up
          </Button>
          <Button variant="secondary" className="button--small" disabled={!moves.down || moves.busy} onClick={moves.down} aria-label={`Move ${pin.title} down`}>
            ↓ Down
          </Button>
        </div>
      )}
      {open && (
        <PinOptions
          pin={pin}
          {...(moves.resize ? { onResize: moves.resize } : {})}
          onClose={() => setOpen(false)}
          onDelete={() => {
            setOpen(false);
            setConfirming(true);
          }}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={`Delete the pin “${pin.title}”?`}
          confirmLabel="Delete pin"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={remove.isError ? messageOf(remove.error) : null}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(pin.pin_id, { onSuccess: () => setConfirming(false) })}
        >
          <p>It leaves your Board. Its photos stay in your library.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/**
 * The pin's options in a modal dialog (as ConfirmDialog: the native <dialog>, focus kept inside, Escape closes):
 * a panel inside a card of a fixed size would be cut off or lie over the cards below it.
 */
function PinOptions({ pin, onResize, onClose, onDelete }: { pin: Pin; onResize?: (size: { w: number; h: number }) => void; onClose: () => void; onDelete: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog pin-options"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog__title">
        Options for {pin.title}
      </h2>
      <div className="pin-options__fields">
        <RenameForm pin={pin} />
        <WidgetField pin={pin} />
        {onResize && <SizeField pin={pin} onResize={onResize} />}
      </div>
      <div className="confirm-dialog__actions">
        <Button variant="danger" onClick={onDelete}>
          Delete pin
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      </div>
    </dialog>
  );
}

function RenameForm({ pin }: { pin: Pin }) {
  const update = useUpdatePin();
  const [title, setTitle] = useState(pin.title);
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = title.trim();
    if (!t) return setError('Give the pin a title.');
    setError(undefined);
    update.mutate({ id: pin.pin_id, change: { title: t } }, { onError: (err) => setError(messageOf(err)) });
  };
  return (
    <form className="pin-card__rename" onSubmit={submit} noValidate>
      <TextField label="Title" value={title} maxLength={TITLE_MAX} onChange={setTitle} error={error} />
      <Button type="submit" variant="secondary" className="button--small" busy={update.isPending} busyLabel="Saving…">
        Rename
      </Button>
    </form>
  );
}

function WidgetField({ pin }: { pin: Pin }) {
  const update = useUpdatePin();
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Card
      </label>
      <select id={id} className="field__input" value={pin.widget} disabled={update.isPending} onChange={(e) => update.mutate({ id: pin.pin_id, change: { widget: e.target.value as Widget } })}>
        {Object.entries(WIDGET_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {update.isError && (
        <p className="field__error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </div>
  );
}

function SizeField({ pin, onResize }: { pin: Pin; onResize: (size: { w: number; h: number }) => void }) {
  const id = useId();
  const current = sizeLabel(pin.layout);
  const known = SIZES.some((s) => s.label === current);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Size
      </label>
      <select
        id={id}
        className="field__input"
        value={current}
        onChange={(e) => {
          const s = SIZES.find((x) => x.label === e.target.value);
          if (s) onResize({ w: s.w, h: s.h });
        }}
      >
        {!known && <option value={current}>{current}</option>}
        {SIZES.map((s) => (
          <option key={s.label} value={s.label}>
            {s.label} ({s.w} × {s.h})
          </option>
        ))}
      </select>
    </div>
  );
}
