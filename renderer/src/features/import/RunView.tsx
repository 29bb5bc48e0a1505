/**
 * One import run, live: its state and the server's one-sentence summary, the counters (read every second while it is
 * queued or running, not after), a progress bar of the files handled out of those found so far (the listing goes on
 * while files are fetched, so until the run ends the page says it is still looking), the bytes fetched, Cancel while
 * it runs, Resume when it stopped before the end, and its report. When it ends, the library and the account list are
 * read again: new photos show in Photos, and an account the provider refused shows why.
 */
import { useEffect, useId, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { ProgressBar } from '../../components/ProgressBar';
import { formatDateTime } from '../../lib/dates';
import { formatBytes } from '../../lib/format';
import { libraryKeys } from '../../photos/library-api';
import { importKeys, isActive, isResumable, useCancelRun, useResumeRun, useRun, type ImportRun } from './import-api';
import { importProblemWords } from './problem-words';
import { RunReport } from './RunReport';

export const RUN_STATUS_WORDS: Record<ImportRun['status'], string> = {
  queued: 'Waiting to start',
  running: 'Importing',
  completed: 'Finished',
  failed: 'Stopped by a problem',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
};

/** Files the run is done with, whatever became of them. */
export const handledOf = (r: ImportRun) => r.imported_count + r.unchanged_count + r.skipped_count + r.failed_count;

interface RunViewProps {
  runId: string;
  /** What it imports from, in words ("anna@nas · Photos/2023"). */
  sourceName: (run: ImportRun) => string;
  /** Chosen by the person (started, or picked from the recent ones): brought into view. */
  reveal: boolean;
  onClose: () => void;
}

export function RunView({ runId, sourceName, reveal, onClose }: RunViewProps) {
  const run = useRun(runId);
  const cancel = useCancelRun();
  const resume = useResumeRun();
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const status = run.data?.status;
  const wasActive = useRef<boolean | null>(null);

  // A run that ends while watched: its photos are in the library now, and the account may have been refused.
  useEffect(() => {
    if (!status) return;
    const active = isActive(status);
    if (wasActive.current === true && !active) {
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      void queryClient.invalidateQueries({ queryKey: importKeys.credentials });
      void queryClient.invalidateQueries({ queryKey: importKeys.runs });
    }
    wasActive.current = active;
  }, [status, queryClient]);

  // Opened by a choice (start, a recent run): bring it into view, which on a phone is below the accounts.
  useEffect(() => {
    if (reveal) heading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [runId, reveal]);

  const body = () => {
    if (run.isError) return <LoadError error={run.error} onRetry={() => void run.refetch()} />;
    const r = run.data;
    if (!r) return <p aria-busy="true">Loading…</p>;
    const active = isActive(r.status);
    const handled = handledOf(r);
    const percent = r.status === 'completed' ? 100 : r.total_seen ? (handled / r.total_seen) * 100 : 0;
    return (
      <>
        <p className="run__state">
          <span className={`badge run-badge run-badge--${r.status}`}>{RUN_STATUS_WORDS[r.status]}</span>
          <span className="run__source">{sourceName(r)}</span>
        </p>
        <p className="run__summary" role="status">
          {r.summary}
        </p>
        {r.problem && !active && <p className="notice notice--error">{r.problem.detail}</p>}

        <div className="run__progress">
          <ProgressBar value={percent} label="Import progress" />
          <p className="run__progress-text">
            {r.status === 'queued'
              ? 'Waiting for its turn.'
              : active
                ? `Handled ${handled} of the ${r.total_seen} ${r.total_seen === 1 ? 'file' : 'files'} found so far. Still looking for more…`
                : `Handled ${handled} of ${r.total_seen} ${r.total_seen === 1 ? 'file' : 'files'}.`}
          </p>
        </div>

        <dl className="run__counters" aria-label="Counters">
          <Counter label="Found" value={r.total_seen} />
          <Counter label="Imported" value={r.imported_count} />
          <Counter label="Already imported" value={r.unchanged_count} />
          <Counter label="Skipped" value={r.skipped_count} />
          <Counter label="Failed" value={r.failed_count} />
          <Counter label="Downloaded" value={`${r.downloaded_count} ${r.downloaded_count === 1 ? 'file' : 'files'} · ${formatBytes(r.downloaded_bytes)}`} />
        </dl>
        <p className="run__times">
          Started {formatDateTime(r.started_at ?? r.created_at)}
          {r.finished_at ? ` · ended ${formatDateTime(r.finished_at)}` : ''}
        </p>

        <FormError message={cancel.error ? importProblemWords(cancel.error) : resume.error ? importProblemWords(resume.error) : null} />
        <div className="button-row">
          {active && (
            <Button variant="danger" busy={cancel.isPending} busyLabel="Cancelling…" onClick={() => cancel.mutate(r.id)}>
              Cancel import
            </Button>
          )}
          {isResumable(r.status) && (
            <Button busy={resume.isPending} busyLabel="Resuming…" onClick={() => resume.mutate(r.id)}>
              Resume
            </Button>
          )}
          {!active && r.imported_count > 0 && (
            <Link className="button button--secondary" to="/">
              See them in Photos
            </Link>
          )}
          <Button variant="quiet" onClick={onClose}>
            Close
          </Button>
        </div>

        <RunReport run={r} />
      </>
    );
  };

  return (
    <section className="card run" aria-labelledby={headingId}>
      <h2 className="card__title run__title" id={headingId} ref={heading}>
        Import status
      </h2>
      {body()}
    </section>
  );
}

function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="run__counter">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
