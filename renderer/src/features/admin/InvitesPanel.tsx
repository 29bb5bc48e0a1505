/**
 * Invite links: the administrator makes a link (and its QR code) for one person; opening it shows the
 * sign-up page with the code filled in. Each link works once and expires; its code is shown only
 * right after it is made (Hearth keeps only a hash), so a lost link is withdrawn and a new one made.
 */
import { formatDateTime } from '../../lib/dates';
import { useId, useState, type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, NO_FEEDBACK, type FormFeedback } from '../../lib/form-feedback';
import { QrCode } from './QrCode';
import { useCreateInvite, useDeleteInvite, useInvites, type CreatedInvite, type Invite } from './admin-api';

const DAY_CHOICES = [1, 3, 7, 14, 30];

export function InvitesPanel() {
  const invites = useInvites();
  const create = useCreateInvite();
  const daysId = useId();
  const [days, setDays] = useState(7);
  const [note, setNote] = useState('');
  const [made, setMade] = useState<CreatedInvite | null>(null);
  const [feedback, setFeedback] = useState<FormFeedback>(NO_FEEDBACK);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFeedback(NO_FEEDBACK);
    create.mutate(
      { expires_in_days: days, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (created) => {
          setMade(created);
          setNote('');
        },
        onError: (error) => setFeedback(feedbackFrom(error, { note: 'note', expires_in_days: 'days' })),
      },
    );
  };

  return (
    <section className="card" aria-labelledby="invites-heading">
      <h2 className="card__title" id="invites-heading">
        Invite links
      </h2>
      <p className="card__intro">
        Send someone a link, or let them scan its code: it opens the sign-up page with the invite filled in. Each link works once.
      </p>
      <form className="form" onSubmit={submit} noValidate aria-label="Make an invite link">
        <FormError message={feedback.summary} />
        <TextField label="Who is it for" labelNote="optional" value={note} onChange={setNote} error={feedback.fields.note} maxLength={100} />
        <div className="field">
          <label className="field__label" htmlFor={daysId}>
            Valid for
          </label>
          <select id={daysId} className="field__input" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            {DAY_CHOICES.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? '1 day' : `${d} days`}
              </option>
            ))}
          </select>
        </div>
        <div className="form__actions">
          <Button type="submit" busy={create.isPending} busyLabel="Making the link…">
            Make invite link
          </Button>
        </div>
      </form>

      {made && <MadeInvite invite={made} />}

      {invites.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(invites.error)}
        </div>
      )}
      {invites.data && invites.data.invites.length > 0 && (
        <>
          <h3 className="card__subtitle">Links made</h3>
          <ul className="invite-list" aria-label="Invite links">
            {invites.data.invites.map((i) => (
              <InviteItem key={i.id} invite={i} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function MadeInvite({ invite }: { invite: CreatedInvite }) {
  const local = invite.links.every((l) => /^http:\/\/(127\.|localhost|\[::1\])/.test(l.url));
  return (
    <div className="reset-result" data-testid="made-invite">
      <p role="status">
        Invite link made. It works once, until {formatDateTime(invite.invite.expires_at)}. Hearth does not show it again.
      </p>
      {local && (
        <div className="notice notice--info">
          Only this computer can open Hearth now, so this link works here only. Turn on &ldquo;Let other devices on this network use
          Hearth&rdquo; above and make a new link for a phone.
        </div>
      )}
      <ul className="invite-links" aria-label="The new invite link">
        {invite.links.map((l) => (
          <li key={l.url} className="invite-link">
            <QrCode svg={l.qr_svg} label={l.url} />
            <div>
              <CopyableSecret label="Invite link" value={l.url} />
            </div>
          </li>
        ))}
      </ul>
      <p className="field__hint">
        Or give the code to type on the sign-up page: <strong>{invite.code}</strong>
      </p>
    </div>
  );
}

const STATE_TEXT: Record<Invite['state'], string> = { pending: 'Waiting', used: 'Used', expired: 'Expired' };

function InviteItem({ invite }: { invite: Invite }) {
  const withdraw = useDeleteInvite();
  const who = invite.note ?? 'Invite';
  return (
    <li className="invite-list__item">
      <div>
        <strong>{who}</strong> <span className="badge">{STATE_TEXT[invite.state]}</span>
        <p className="field__hint">
          {invite.state === 'used' && invite.used_by
            ? `@${invite.used_by.username} joined ${formatDateTime(invite.used_at)}`
            : `made ${formatDateTime(invite.created_at)}, ${invite.state === 'expired' ? 'expired' : 'valid until'} ${formatDateTime(invite.expires_at)}`}
        </p>
      </div>
      {invite.state !== 'used' && (
        <Button variant="quiet" busy={withdraw.isPending} onClick={() => withdraw.mutate(invite.id)} aria-label={`Withdraw ${who}`}>
          Withdraw
        </Button>
      )}
    </li>
  );
}
