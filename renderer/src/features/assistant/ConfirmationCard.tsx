/**
 * A confirmation (`message.action`): the run waits until the member says yes or no. Shows what would change
 * (how many photos, the album's name, the tags), Approve and Decline (resumeAgentChat), then the receipt.
 */
import { Button } from '../../components/Button';
import { describeConfirmation, type Confirmation } from './transcript';

const ANSWERED: Partial<Record<Confirmation['state'], string>> = {
  approved: 'Approved',
  declined: 'Declined',
  failed: 'Not done',
};

export function ConfirmationCard({ confirmation: c, onAnswer, disabled }: { confirmation: Confirmation; onAnswer: (approved: boolean) => void; disabled: boolean }) {
  const what = describeConfirmation(c);
  const waiting = c.state === 'pending' || c.state === 'approving' || c.state === 'declining';
  return (
    <section className="assistant-confirm" data-state={c.state} aria-label={`Confirm: ${what}`}>
      <h3 className="assistant-confirm__title">{waiting ? 'Confirm this change' : ANSWERED[c.state]}</h3>
      <p className="assistant-confirm__what">{what}.</p>
      <dl className="assistant-confirm__facts">
        <dt>Photos</dt>
        <dd>{c.what.count ?? 0}</dd>
        {c.what.album_name !== undefined && (
          <>
            <dt>Album</dt>
            <dd>{c.what.album_name}</dd>
          </>
        )}
        {c.what.tags?.length ? (
          <>
            <dt>Tags</dt>
            <dd>{c.what.tags.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {waiting ? (
        <div className="assistant-confirm__actions">
          <Button variant="primary" busy={c.state === 'approving'} busyLabel="Approving…" disabled={disabled || c.state !== 'pending'} onClick={() => onAnswer(true)}>
            Approve
          </Button>
          <Button variant="secondary" busy={c.state === 'declining'} busyLabel="Declining…" disabled={disabled || c.state !== 'pending'} onClick={() => onAnswer(false)}>
            Decline
          </Button>
        </div>
      ) : (
        c.receipt && (
          <p className="assistant-confirm__receipt" role="status">
            {c.receipt}
          </p>
        )
      )}
    </section>
  );
}
