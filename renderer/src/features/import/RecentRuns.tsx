/**
 * The member's latest imports, newest first: when, from where, how it stands and its summary; choosing one shows it
 * (with its counters and report) in the run view.
 */
import { LoadError } from '../../components/LoadError';
import { formatDateTime } from '../../lib/dates';
import { useRecentRuns, type ImportRun } from './import-api';
import { RUN_STATUS_WORDS } from './RunView';

interface RecentRunsProps {
  shownId: string | null;
  sourceName: (run: ImportRun) => string;
  onShow: (runId: string) => void;
}

export function RecentRuns({ shownId, sourceName, onShow }: RecentRunsProps) {
  const runs = useRecentRuns();

  const body = () => {
    if (runs.isError) return <LoadError error={runs.error} onRetry={() => void runs.refetch()} />;
    if (!runs.data) return <p aria-busy="true">Loading…</p>;
    if (runs.data.runs.length === 0) return <p className="card__intro">No imports yet. Connect an account and choose what to import.</p>;
    return (
      <ul className="recent-runs" aria-label="Recent imports">
        {runs.data.runs.map((r) => (
          <li key={r.id}>
            <button type="button" className="recent-run" aria-current={r.id === shownId ? 'true' : undefined} onClick={() => onShow(r.id)}>
              <span className="recent-run__head">
                <span className={`badge run-badge run-badge--${r.status}`}>{RUN_STATUS_WORDS[r.status]}</span>
                <span className="recent-run__when">{formatDateTime(r.created_at)}</span>
              </span>
              <span className="recent-run__source">{sourceName(r)}</span>
              <span className="recent-run__summary">{r.summary}</span>
            </button>
          </li>
        ))}
      </ul>
    );
  };

  return (
    <section className="card" aria-labelledby="recent-runs-heading">
      <h2 className="card__title" id="recent-runs-heading">
        Recent imports
      </h2>
      {body()}
    </section>
  );
}
