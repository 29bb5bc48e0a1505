/**
 * "Merge": the people chosen become one. The question names them and asks which one stays (its name, its
 * cover and its page are kept; the others' faces join it and they are gone). Which one is offered first:
 * the one dropped on after a drag, else the first named one, else the one with the most photos. A merge
 * cannot be undone in one step (a face can be moved back from the viewer), hence a confirmation.
 */
import { useState } from 'react';
import { messageOf } from '../../api/problem';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useMergePeople } from './people-api';
import { defaultSurvivor, personLabel, photoCount, type Person } from './people-facts';
import { PersonCover } from './PersonCover';

interface MergePeopleDialogProps {
  people: readonly Person[];
  preferred?: number | undefined;
  onDone: (survivor: Person) => void;
  onCancel: () => void;
}

export function MergePeopleDialog({ people, preferred, onDone, onCancel }: MergePeopleDialogProps) {
  const [survivor, setSurvivor] = useState(() => defaultSurvivor(people, preferred));
  const merge = useMergePeople();
  const others = people.filter((p) => p.person_id !== survivor).map((p) => p.person_id);

  return (
    <ConfirmDialog
      title={people.length === 2 ? 'Merge these two people?' : `Merge these ${people.length} people?`}
      confirmLabel="Merge"
      busy={merge.isPending}
      busyLabel="Merging…"
      error={merge.isError ? messageOf(merge.error) : null}
      onCancel={onCancel}
      onConfirm={() => merge.mutate({ survivor, others }, { onSuccess: onDone })}
    >
      <p>Their photos become one person’s. Keep which one?</p>
      <fieldset className="merge-people">
        <legend className="visually-hidden">The person who stays</legend>
        {people.map((p) => (
          <label key={p.person_id} className="merge-people__choice">
            <input type="radio" name="survivor" checked={survivor === p.person_id} onChange={() => setSurvivor(p.person_id)} />
            <PersonCover person={p} size="small" />
            <span>
              <strong>{personLabel(p)}</strong>
              <br />
              {photoCount(p.asset_count)}
            </span>
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}
