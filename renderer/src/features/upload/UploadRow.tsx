/** One file of the upload queue: name, size, a progress bar and its state in words. */
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { isFinished, type UploadItem } from './upload-queue';


function stateText(item: UploadItem, percent: number): string {
  switch (item.state) {
    case 'paused':
      return item.message ?? 'Paused: add the file again to resume.';
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return `Uploading ${percent}%`;
    case 'processing':
      return 'Processing…';
    case 'done':
      return 'Done';
    case 'duplicate':
      return `Duplicate: ${item.message ?? 'already in your library.'}`;
    case 'restored':
      return item.message ?? 'Restored from your Trash.';
    case 'failed':
      return `Failed: ${item.message ?? 'the upload did not work.'}${item.needsFile ? ' Add the file again to retry.' : ''}`;
  }
}

export function UploadRow({ item, onRetry, onForget }: { item: UploadItem; onRetry: () => void; onForget: () => void }) {
  const percent = item.size ? Math.floor((item.bytesSent / item.size) * 100) : item.state === 'uploading' ? 0 : 100;
  const shown = isFinished(item.state) || item.state === 'processing' ? 100 : percent;
  return (
    <li className={`upload-row upload-row--${item.state}`} aria-label={item.name}>
      <div className="upload-row__top">
        <span className="upload-row__name" title={item.path}>
          {item.path}
        </span>
        <span className="upload-row__size">{formatBytes(item.size)}</span>
      </div>
      <ProgressBar value={shown} label={`Progress of ${item.name}`} />
      <div className="upload-row__bottom">
        <span className="upload-row__state" data-state={item.state}>
          {stateText(item, percent)}
        </span>
        <span className="upload-row__actions">
          {item.canRetry && (
            <Button variant="secondary" className="button--small" onClick={onRetry} aria-label={`Retry ${item.name}`}>
              Retry
            </Button>
          )}
          {(item.state === 'paused' || (item.state === 'failed' && !item.canRetry)) && (
            <Button variant="quiet" className="button--small" onClick={onForget} aria-label={`Remove ${item.name} from the list`}>
              Remove
            </Button>
          )}
        </span>
      </div>
    </li>
  );
}
