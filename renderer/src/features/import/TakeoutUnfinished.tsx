/**
 * The member's unfinished Takeout uploads into the chosen repository, as the server has them (listTakeoutUploads):
 * after a reload, the next day or on another device, a 40 GB part that is 70 % there says so. Each shows its bar,
 * "1.2 of 2.0 GB", when the server removes it if it is left, and Discard (after a confirmation). Choosing or dropping
 * the same file goes on where it stopped: the card hands the list to the queue (takeout-queue.ts), and the upload
 * leaves this list for the parts being uploaded (`live` names the uploads this page is already sending).
 */
import { useId, useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatDateTime } from '../../lib/format';
import { importProblemWords } from './problem-words';
import { useDiscardTakeoutUpload, type UnfinishedUpload } from './takeout-api';

/** "1.2 of 2.0 GB": one unit when both sizes share it, else both spelled out ("800 MB of 2.0 GB"). */
export function bytesOf(part: number, whole: number): string {
  const [a, b] = [formatBytes(part), formatBytes(whole)];
  const unit = (s: string) => s.slice(s.lastIndexOf(' ') + 1);
  return unit(a) === unit(b) ? `${a.slice(0, a.lastIndexOf(' '))} of ${b}` : `${a} of ${b}`;
}

interface TakeoutUnfinishedProps {
  uploads: readonly UnfinishedUpload[];
  /** Whether this page is sending the upload already (it is then a row of the parts being uploaded, not here). */
  live: (upload: UnfinishedUpload) => boolean;
}

export function TakeoutUnfinished({ uploads, live }: TakeoutUnfinishedProps) {
  const headingId = useId();
  const discard = useDiscardTakeoutUpload();
  const [asked, setAsked] = useState<UnfinishedUpload | null>(null);
  const waiting = uploads.filter((u) => !live(u));
  if (waiting.length === 0) return null;
  return (
    <section className="takeout-unfinished" aria-labelledby={headingId}>
      <h3 className="takeout-unfinished__title" id={headingId}>
        Unfinished uploads
      </h3>
      <p className="takeout-unfinished__hint">Choose or drop the same file again to go on where it stopped.</p>
      <ul className="takeout-uploads__list" aria-label="Unfinished uploads">
        {waiting.map((u) => (
          <li key={u.upload_id} className="takeout-part takeout-part--unfinished">
            <p className="takeout-part__name">{u.filename}</p>
            <ProgressBar value={u.size ? (u.received / u.size) * 100 : 0} label={`Upload of ${u.filename}`} />
            <p className="takeout-part__state">{bytesOf(u.received, u.size)} uploaded</p>
            {u.expires_at && <p className="takeout-part__state">Removed {formatDateTime(u.expires_at)} if left as it is.</p>}
            <div className="button-row">
              <Button variant="quiet" aria-label={`Discard ${u.filename}`} onClick={() => setAsked(u)}>
                Discard
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {asked && (
        <ConfirmDialog
          title={`Discard ${asked.filename}?`}
          confirmLabel="Discard upload"
          busyLabel="Discarding…"
          busy={discard.isPending}
          error={discard.error ? importProblemWords(discard.error) : null}
          onCancel={() => {
            discard.reset();
            setAsked(null);
          }}
          onConfirm={() => discard.mutate(asked, { onSuccess: () => setAsked(null) })}
        >
          What arrived of it on the server ({formatBytes(asked.received)}) is removed. The file on your device stays; adding it again starts from the beginning.
        </ConfirmDialog>
      )}
    </section>
  );
}
