/**
 * ffmpeg and ffprobe on the Jobs and Models pages: whether they are found, and when one is missing, how many
 * videos and sound files wait for it, how to install it, and "Check again" (recheckMediaTools), which queues
 * the waiting files once both are there. Hearth also looks again at each start.
 */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { useMediaTools, useRecheckMediaTools, type MediaTools } from './media-tools-api';
import './media-tools.css';

function waitingLine(n: number): string {
  if (n === 0) return 'No file waits for them.';
  return `${n.toLocaleString()} ${n === 1 ? 'video or sound file waits' : 'videos and sound files wait'} for them: their dates, places and sizes are in the library already; thumbnails and playback follow once the tools are there.`;
}

export function MediaToolsCard() {
  const tools = useMediaTools();
  const recheck = useRecheckMediaTools();
  const data: MediaTools | undefined = tools.data;
  const missing = data?.tools.filter((t) => !t.found) ?? [];
  return (
    <section className="card" aria-labelledby="media-tools-heading" data-testid="media-tools">
      <div className="ops__head">
        <h2 className="card__title" id="media-tools-heading">
          Video tools
        </h2>
        {data && (
          <span className={`status media-tools__state--${data.reason ? 'missing' : 'ok'}`} role="status" aria-label={`Video tools: ${data.reason ? 'not installed' : 'installed'}`}>
            {data.reason ? 'Not installed' : 'Installed'}
          </span>
        )}
      </div>
      <p className="card__intro">ffmpeg and ffprobe read videos and sound files, make their thumbnails and the copies browsers play.</p>
      {tools.isPending && <p role="status">Looking for ffmpeg…</p>}
      {tools.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(tools.error)}
        </div>
      )}
      {data && (
        <>
          <ul className="media-tools__list" aria-label="Video tools">
            {data.tools.map((t) => (
              <li key={t.tool}>
                <strong>{t.tool}</strong>: {t.found ? <span className="media-tools__path">found at {t.path}</span> : 'not found'}
              </li>
            ))}
          </ul>
          {data.reason === 'tool_missing' && (
            <div className="notice notice--info" role="status">
              <p>
                {missing.map((t) => t.tool).join(' and ')} {missing.length === 1 ? 'is' : 'are'} missing. {waitingLine(data.waiting_assets)}
              </p>
              <p className="media-tools__hint">{data.install_hint}</p>
            </div>
          )}
          {data.reason === null && <p>{waitingLine(data.waiting_assets)}</p>}
          <div className="media-tools__actions">
            <Button variant="secondary" onClick={() => recheck.mutate()} busy={recheck.isPending} busyLabel="Looking…">
              Check again
            </Button>
            {recheck.data && recheck.data.requeued > 0 && (
              <span role="status">
                {recheck.data.requeued.toLocaleString()} {recheck.data.requeued === 1 ? 'file' : 'files'} queued for processing.
              </span>
            )}
          </div>
          {recheck.error && (
            <div className="notice notice--error" role="alert">
              {messageOf(recheck.error)}
            </div>
          )}
        </>
      )}
    </section>
  );
}
