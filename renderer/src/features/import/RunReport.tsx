/**
 * A run's report: every file it skipped or could not import, with its folder and the reason, a page at a time, and
 * the whole report as a CSV file to keep. Read again as the run's counters move, so a running import's report grows
 * while it is watched.
 */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { REPORT_PAGE_SIZE, useDownloadReport, useRunFiles, type ImportRun } from './import-api';
import { importProblemWords } from './problem-words';

export function RunReport({ run }: { run: ImportRun }) {
  const listed = run.skipped_count + run.failed_count;
  const [offset, setOffset] = useState(0);
  // The count is part of the query: more files on the report since the page was read reads it again.
  const files = useRunFiles(run.id, offset, listed);
  const download = useDownloadReport();
  const { refetch } = files;

  if (listed === 0) return null;
  const total = files.data?.total ?? listed;
  const from = offset + 1;
  const to = Math.min(offset + REPORT_PAGE_SIZE, total);

  return (
    <section className="run-report" aria-label="Report">
      <h3 className="run-report__title">Not imported ({listed})</h3>
      <p className="field__hint">Skipped files were left out for a reason; failed ones could not be fetched or stored. Resume an import to try failed files again.</p>
      {files.isError ? (
        <LoadError error={files.error} onRetry={() => void refetch()} />
      ) : !files.data ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <ul className="run-report__list" aria-label="Files not imported">
            {files.data.files.map((f) => (
              <li key={f.remote_id} className="run-report__file">
                <p className="run-report__name">
                  <strong>{f.name}</strong>
                  <span className={f.outcome === 'failed' ? 'badge badge--failed' : 'badge badge--muted'}>{f.outcome === 'failed' ? 'Failed' : 'Skipped'}</span>
                </p>
                <p className="run-report__meta">{f.folder ? `In ${f.folder}` : 'At the top'}</p>
                <p className="run-report__reason">{f.reason ?? 'No reason was given.'}</p>
              </li>
            ))}
          </ul>
          {total > REPORT_PAGE_SIZE && (
            <div className="button-row run-report__pages">
              <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - REPORT_PAGE_SIZE))}>
                Previous
              </Button>
              <span className="run-report__range">
                {from}–{to} of {total}
              </span>
              <Button variant="secondary" disabled={to >= total} onClick={() => setOffset(offset + REPORT_PAGE_SIZE)}>
                Next
              </Button>
            </div>
          )}
        </>
      )}
      <div className="button-row">
        <Button variant="secondary" busy={download.isPending} busyLabel="Preparing…" onClick={() => download.mutate(run.id)}>
          Download report (CSV)
        </Button>
      </div>
      <FormError message={download.error ? importProblemWords(download.error) : null} />
    </section>
  );
}
