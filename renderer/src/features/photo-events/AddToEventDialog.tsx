/**
 * "Add photos" from inside an event, in the library's photo picker (photos/PhotoPickerDialog.tsx).
 * The chosen ones are added in one request (addEventAssets takes up to 500); they move here from whatever
 * event held them and stay through rebuilds. A refusal keeps the choice, with the reason.
 */
import { useState } from 'react';
import { PhotoPickerDialog } from '../../photos/PhotoPickerDialog';
import { useAddToEvent } from './events-api';

/** The API's most per request. */
const MAX_PICK = 500;

interface Props {
  eventId: string;
  title: string;
  memberIds: ReadonlySet<string>;
  onClose: () => void;
  onAdded: (count: number) => void;
}

export function AddToEventDialog({ eventId, title, memberIds, onClose, onAdded }: Props) {
  const [picked, setPicked] = useState<string[]>([]);
  const add = useAddToEvent(eventId);
  return (
    <PhotoPickerDialog
      title={`Add photos to “${title}”`}
      listKey="event-picker"
      memberIds={memberIds}
      memberMark="In event"
      memberLabel="already in the event"
      picked={picked}
      setPicked={setPicked}
      max={MAX_PICK}
      busy={add.isPending}
      error={add.isError ? add.error : null}
      addLabel={(n) => (n <= 1 ? 'Add to event' : `Add ${n} to event`)}
      onAdd={() => add.mutate(picked, { onSuccess: () => onAdded(picked.length) })}
      onClose={onClose}
    />
  );
}
