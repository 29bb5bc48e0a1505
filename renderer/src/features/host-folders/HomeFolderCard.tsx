/**
 * "A folder on the home machine": a member on any device asks the home machine to add a folder that only it can
 * reach (a disk plugged into it, its own Pictures folder). The request carries a name, never a path: the person
 * at the home machine chooses the folder there (the desktop app's dialog, or `npm run host -- approve` on a
 * machine without a screen) after checking that the code matches the one shown here. The member's requests,
 * waiting and past, are listed below the form and change live as the home machine answers.
 *
 * A request is made once however often the button is pressed or the answer is lost: the Idempotency-Key is kept
 * for the name typed, and a new one is drawn when the form is used again for another request.
 */
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import { useMe } from '../../api/use-me';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { TextField } from '../../components/TextField';
import { randomId } from '../../lib/random-code';
import { isWaiting, useCreateHostAction, useHostActions, useHostActionStream, type HostAction } from './host-actions-api';
import { HostActionItem } from './HostActionItem';
import './host-folders.css';

/** How many finished requests are listed under the waiting ones. */
const PAST_SHOWN = 5;

export function HomeFolderCard() {
  const me = useMe();
  const live = useHostActionStream();
  const actions = useHostActions(live);
  const create = useCreateHostAction();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  // One key per request: the same name sent again (a lost answer, a double tap) is the same request.
  const [request, setRequest] = useState<{ name: string; key: string } | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNameError('Give the folder a name, for example “Photos on the big disk”.');
    setNameError(null);
    const sending = request && request.name === trimmed ? request : { name: trimmed, key: randomId() };
    setRequest(sending);
    create.mutate(sending, {
      onSuccess: () => {
        setName('');
        setRequest(null);
      },
    });
  };

  const list = actions.data ?? [];
  const waiting = list.filter((a) => isWaiting(a.status));
  const past = list.filter((a) => !isWaiting(a.status)).slice(0, PAST_SHOWN);

  return (
    <section className="card home-folder" aria-labelledby="home-folder-heading">
      <h2 className="card__title" id="home-folder-heading">
        A folder on the home machine
      </h2>
      <p className="card__intro">
        Photos on a disk or in a folder of the computer Hearth runs on? Ask for the folder here; someone at that computer chooses it and says yes.
        Nothing on this device is uploaded, and the photos stay where they are.
      </p>
      <form className="home-folder__form" onSubmit={submit} noValidate>
        <TextField
          label="Name for the folder"
          value={name}
          onChange={(v) => {
            setName(v);
            setNameError(null);
          }}
          error={nameError ?? undefined}
          maxLength={200}
          autoComplete="off"
        />
        <Button type="submit" busy={create.isPending} busyLabel="Asking…">
          Ask the home machine
        </Button>
      </form>
      <FormError message={create.error ? messageOf(create.error) : null} />

      {actions.isError && <LoadError error={actions.error} onRetry={() => void actions.refetch()} />}
      <ActionList title="Waiting" actions={waiting} myId={me?.user_id} />
      <ActionList title="Earlier" actions={past} myId={me?.user_id} />
    </section>
  );
}

/** A titled list of host actions (the waiting ones, the earlier ones); nothing when there are none. */
function ActionList({ title, actions, myId }: { title: 'Waiting' | 'Earlier'; actions: HostAction[]; myId: number | undefined }) {
  if (actions.length === 0) return null;
  const label = `${title} requests`;
  return (
    <section aria-label={label}>
      <h3 className="home-folder__subhead">{title}</h3>
      <ul className="host-actions" aria-label={label}>
        {actions.map((a) => (
          <HostActionItem key={a.id} action={a} mine={a.actor.user_id === myId} />
        ))}
      </ul>
    </section>
  );
}
