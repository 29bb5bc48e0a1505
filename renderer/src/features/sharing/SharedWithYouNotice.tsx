/**
 * Photos: "Hestia shares her photos with you", for each share the member receives but has not put in
 * their timeline yet (show_in_timeline is off until they choose: partners.service.ts). Without this a
 * member whose partner shares with them sees "No photos yet" and has to find Account → Sharing.
 *
 * One tap shows the shared photos in the timeline (the same change as the Account switch). "Not now"
 * hides the notice on this device for that share (the choice stays on the Account page); a member who
 * never chose is reminded on another device, which is what a household would want.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { usePartnerShares, useUpdatePartnerShare, type PartnerShare } from './sharing-api';
import './sharing.css';

const DISMISSED_KEY = 'hearth.partner-notice.dismissed';

function dismissedIds(): number[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

export function SharedWithYouNotice() {
  const shares = usePartnerShares();
  const [dismissed, setDismissed] = useState(dismissedIds);
  const waiting = (shares.data?.received ?? []).filter((s) => !s.show_in_timeline && !dismissed.includes(s.share_id));
  if (waiting.length === 0) return null;
  const dismiss = (id: number) => {
    const next = [...dismissed, id];
    setDismissed(next);
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // Private mode: the notice stays hidden for this visit only.
    }
  };
  return (
    <ul className="shared-notices" aria-label="Photos shared with you">
      {waiting.map((s) => (
        <SharedNotice key={s.share_id} share={s} onDismiss={() => dismiss(s.share_id)} />
      ))}
    </ul>
  );
}

function SharedNotice({ share, onDismiss }: { share: PartnerShare; onDismiss: () => void }) {
  const update = useUpdatePartnerShare();
  const name = share.owner?.display_name ?? 'A member';
  return (
    <li className="notice notice--info shared-notice">
      <p className="shared-notice__text">
        <strong>{name} shares their photos with you.</strong> They are not in your timeline yet.{' '}
        <Link to="/account#sharing-heading">Sharing settings</Link>
      </p>
      <div className="shared-notice__actions">
        <Button busy={update.isPending} busyLabel="Showing…" onClick={() => update.mutate({ id: share.share_id, show_in_timeline: true })}>
          Show in my timeline
        </Button>
        <Button variant="quiet" onClick={onDismiss}>
          Not now
        </Button>
      </div>
      {update.isError && (
        <p className="field__error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </li>
  );
}
