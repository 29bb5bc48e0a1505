/**
 * One person in the People grid: their face (a link to their page), their name edited in place ("Add a
 * name" for someone unnamed; Enter saves, and naming confirms the person so a rebuild keeps them), how
 * many photos, and Hide or Show. A check selects them for "Merge"; on touch a long press selects too, and
 * while anyone is selected a tap selects rather than opens (as the photo grid does). On a desktop the card
 * is also dragged onto another to merge (use-person-drag.ts, handlers given by the page).
 */
import { Link } from 'react-router';
import { ApiError, messageOf } from '../../api/problem';
import { EditableText } from '../albums';
import { useUpdatePerson } from './people-api';
import { personLabel, photoCount, type Person } from './people-facts';
import { PersonCover } from './PersonCover';
import { personPath } from './people-path';
import { useLongPress } from '../../lib/use-long-press';

/** The server's limit (faces.routes.ts). */
export const NAME_MAX = 100;

export const nameError = (e: unknown) => (e instanceof ApiError && e.fieldErrors.name) || messageOf(e);

interface PersonCardProps {
  person: Person;
  selected: boolean;
  selecting: boolean;
  onToggle: () => void;
  /** The card is being dragged, or another is over it. */
  dragState?: 'from' | 'over' | undefined;
  dragHandlers?: Record<string, unknown>;
}

export function PersonCard({ person, selected, selecting, onToggle, dragState, dragHandlers = {} }: PersonCardProps) {
  const update = useUpdatePerson();
  const id = person.person_id;
  const label = personLabel(person);
  const { onClickCapture: swallowLongPressTap, handlers: press } = useLongPress(
    () => {
      if (!selected) onToggle();
    },
    // The name field and the card's buttons keep their own touch.
    { ignoreInside: 'input, button, textarea' },
  );
  const { onClickCapture: swallowDragClick, ...drag } = dragHandlers as { onClickCapture?: (e: React.MouseEvent) => void };
  // Both a long press and a drag start on pointerdown: each keeps to its own pointer type.
  const merged = mergeHandlers(press, drag);

  return (
    <li
      className="person-card"
      data-person-id={id}
      data-selected={selected || undefined}
      data-drag={dragState}
      {...merged}
      onClickCapture={(e) => {
        swallowLongPressTap(e);
        if (!e.isPropagationStopped()) swallowDragClick?.(e);
      }}
    >
      <input type="checkbox" className="person-card__check" aria-label={`Select ${label}`} checked={selected} onChange={onToggle} />
      <Link
        to={personPath(id)}
        className="person-card__open"
        aria-label={`Open ${label}`}
        onClick={(e) => {
          if (!selecting) return;
          e.preventDefault();
          onToggle();
        }}
      >
        <PersonCover person={person} />
      </Link>
      <EditableText
        className="person-card__name"
        value={person.name ?? ''}
        label={`Name of ${label}`}
        placeholder="Add a name"
        editLabel={`Rename ${label}`}
        editable
        maxLength={NAME_MAX}
        onSave={(name) => update.mutateAsync({ id, change: { name: name || null } })}
        errorOf={nameError}
        render={(text) => <h2 className="person-card__title">{text}</h2>}
      />
      <p className="person-card__count">
        {photoCount(person.asset_count)}
        {person.is_hidden && ' · hidden'}
      </p>
      <button
        type="button"
        className="button button--quiet button--small person-card__hide"
        aria-label={person.is_hidden ? `Show ${label}` : `Hide ${label}`}
        disabled={update.isPending}
        onClick={() => update.mutate({ id, change: { is_hidden: !person.is_hidden } })}
      >
        {person.is_hidden ? 'Show' : 'Hide'}
      </button>
      {update.isError && !(update.variables && 'name' in update.variables.change) && (
        <p className="field__error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </li>
  );
}

type Handler = (e: never) => void;

/** Two sets of event handlers on one element: both run, in order. */
function mergeHandlers(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const fa = a[key] as Handler | undefined;
    const fb = b[key] as Handler | undefined;
    out[key] = (e: never) => {
      fa?.(e);
      fb?.(e);
    };
  }
  return out;
}
