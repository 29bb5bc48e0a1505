/**
 * Account → Sharing: share my library with another member (everything, or what was taken from a
 * day on), see whom I share with (and whether they show it in their timeline) and stop; see who shares with me, choose whether their photos show
 * in my timeline (off until I choose: partners.service.ts), and stop receiving.
 */
import { formatDate } from '../../lib/dates';
import { useEffect, useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { fieldError, formError } from './field-errors';
import { useCreatePartnerShare, useDeletePartnerShare, useHouseholdMembers, usePartnerShares, useUpdatePartnerShare, type PartnerShare } from './sharing-api';
import './sharing.css';

const sinceText = (s: PartnerShare) => (s.shared_from ? `photos from ${formatDate(s.shared_from, { utc: true })} on` : 'all photos');

export function PartnerSharingSection() {
  const shares = usePartnerShares();
  const remove = useDeletePartnerShare();
  const given = shares.data?.given ?? [];
  const received = shares.data?.received ?? [];
  const actionError = remove.error;

  return (
    <section className="card" aria-labelledby="sharing-heading">
      <h2 className="card__title" id="sharing-heading">
        Sharing
      </h2>
      <p className="card__intro">Share your library with someone in the household. They can look at your photos but never change them.</p>
      <ShareLibraryForm exclude={new Set(given.map((s) => s.partner?.user_id ?? 0))} />
      {shares.isError && <p className="field__error">{messageOf(shares.error)}</p>}
      <h3>You share with</h3>
      {shares.isSuccess && given.length === 0 && <p className="share-muted">Nobody yet.</p>}
      <ul className="share-list" aria-label="Libraries you share">
        {given.map((s) => (
          <li key={s.share_id} className="share-item">
            <div className="share-item__head">
              <strong>{s.partner?.display_name}</strong>
              <span className="share-item__facts">{sinceText(s)}</span>
            </div>
            {/* Whether the partner put them in their timeline is their choice; the sharer sees it. */}
            <p className="share-muted share-item__shown">
              {s.show_in_timeline ? `Shown in ${s.partner?.display_name}'s timeline` : `Not shown in ${s.partner?.display_name}'s timeline yet`}
            </p>
            <div className="share-item__actions">
              <Button variant="secondary" aria-label={`Stop sharing with ${s.partner?.display_name}`} disabled={remove.isPending} onClick={() => remove.mutate(s.share_id)}>
                Stop sharing
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <h3>Shared with you</h3>
      {shares.isSuccess && received.length === 0 && <p className="share-muted">Nobody shares their library with you yet.</p>}
      <ul className="share-list" aria-label="Libraries shared with you">
        {received.map((s) => (
          <li key={s.share_id} className="share-item">
            <div className="share-item__head">
              <strong>{s.owner?.display_name}</strong>
              <span className="share-item__facts">{sinceText(s)}</span>
            </div>
            <div className="share-item__actions">
              <TimelineSwitch share={s} />
              <Button variant="quiet" aria-label={`Stop receiving ${s.owner?.display_name}'s library`} disabled={remove.isPending} onClick={() => remove.mutate(s.share_id)}>
                Stop receiving
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {actionError && (
        <p className="field__error" role="alert">
          {messageOf(actionError)}
        </p>
      )}
    </section>
  );
}

/** "Show in my timeline": follows the finger at once, and goes back if the server refuses. */
function TimelineSwitch({ share }: { share: PartnerShare }) {
  const update = useUpdatePartnerShare();
  const [on, setOn] = useState(share.show_in_timeline);
  useEffect(() => setOn(share.show_in_timeline), [share.show_in_timeline]);
  return (
    <label className="share-check">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(e) => {
          const next = e.target.checked;
          setOn(next);
          update.mutate({ id: share.share_id, show_in_timeline: next }, { onError: () => setOn(!next) });
        }}
      />
      Show in my timeline
      {update.isError && <span className="field__error"> {messageOf(update.error)}</span>}
    </label>
  );
}

function ShareLibraryForm({ exclude }: { exclude: Set<number> }) {
  const household = useHouseholdMembers();
  const create = useCreatePartnerShare();
  const [partner, setPartner] = useState('');
  const [scope, setScope] = useState<'all' | 'from'>('all');
  const [from, setFrom] = useState('');
  const choices = (household.data?.members ?? []).filter((m) => !exclude.has(m.user_id));
  const partnerError = fieldError(create.error, 'partner_user_id');
  const fromError = fieldError(create.error, 'shared_from');

  return (
    <form
      className="form"
      aria-label="Share my library"
      onSubmit={(e) => {
        e.preventDefault();
        if (!partner || (scope === 'from' && !from)) return;
        create.mutate({ partner_user_id: Number(partner), shared_from: scope === 'from' ? from : null }, { onSuccess: () => setPartner('') });
      }}
    >
      <div className={partnerError ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor="share-library-with">
          Share my library with
        </label>
        <select
          id="share-library-with"
          className="field__input"
          value={partner}
          aria-invalid={partnerError ? true : undefined}
          aria-describedby={partnerError ? 'share-library-with-error' : undefined}
          onChange={(e) => {
            create.reset();
            setPartner(e.target.value);
          }}
        >
          <option value="">Choose a member…</option>
          {choices.map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.display_name}
            </option>
          ))}
        </select>
        {partnerError && (
          <p className="field__error" id="share-library-with-error">
            {partnerError}
          </p>
        )}
      </div>
      <fieldset className="choice-group">
        <legend>What to share</legend>
        <label className="choice">
          <input type="radio" name="share-scope" checked={scope === 'all'} onChange={() => setScope('all')} />
          All my photos
        </label>
        <label className="choice">
          <input type="radio" name="share-scope" checked={scope === 'from'} onChange={() => setScope('from')} />
          Photos taken from a day on
        </label>
      </fieldset>
      {scope === 'from' && (
        <div className={fromError ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor="share-library-from">
            From
          </label>
          <input id="share-library-from" className="field__input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          {fromError && <p className="field__error">{fromError}</p>}
        </div>
      )}
      {formError(create.error, ['partner_user_id', 'shared_from']) && (
        <p className="field__error" role="alert">
          {formError(create.error, ['partner_user_id', 'shared_from'])}
        </p>
      )}
      <div className="form__actions">
        <Button type="submit" busy={create.isPending} busyLabel="Sharing…" disabled={!partner || (scope === 'from' && !from)}>
          Share my library
        </Button>
      </div>
    </form>
  );
}
