/**
 * The parts being uploaded: a bar for all of them and one per part, with its state; a part that kept failing says
 * why and has Retry (it goes on from what the server has). Stop removes what arrived of the unfinished parts.
 */
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import type { PartItem } from './takeout-queue';

const percentOf = (sent: number, size: number) => (size ? (sent / size) * 100 : 100);

function stateWords(i: PartItem): string {
  switch (i.state) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return `Uploading · ${formatBytes(i.sent)} of ${formatBytes(i.file.size)}`;
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Not uploaded';
  }
}

export function TakeoutUploads({ items, onRetry, onStop }: { items: readonly PartItem[]; onRetry: (key: string) => void; onStop: () => void }) {
  const total = items.reduce((s, i) => s + i.file.size, 0);
  const sent = items.reduce((s, i) => s + i.sent, 0);
  const busy = items.some((i) => i.state === 'waiting' || i.state === 'uploading');
  const done = items.filter((i) => i.state === 'done').length;
  return (
    <div className="takeout-uploads">
      <div className="takeout-uploads__overall">
        <ProgressBar value={percentOf(sent, total)} label="Upload of all parts" />
        <p aria-live="polite">
          {done === items.length ? `${items.length === 1 ? 'The part is' : `All ${items.length} parts are`} uploaded.` : `${done} of ${items.length} ${items.length === 1 ? 'part' : 'parts'} uploaded · ${formatBytes(sent)} of ${formatBytes(total)}`}
        </p>
      </div>
      <ul className="takeout-uploads__list" aria-label="Parts being uploaded">
        {items.map((i) => (
          <li key={i.key} className={`takeout-part takeout-part--${i.state}`}>
            <p className="takeout-part__name">{i.file.name}</p>
            <ProgressBar value={percentOf(i.sent, i.file.size)} label={`Upload of ${i.file.name}`} />
            <p className="takeout-part__state">{stateWords(i)}</p>
            {i.state === 'failed' && (
              <>
                <p className="notice notice--error" role="alert">
                  {i.error}
                </p>
                <Button variant="secondary" onClick={() => onRetry(i.key)} aria-label={`Retry ${i.file.name}`}>
                  Retry
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      {busy && (
        <div className="button-row">
          <Button variant="quiet" onClick={onStop}>
            Stop uploading
          </Button>
        </div>
      )}
    </div>
  );
}
