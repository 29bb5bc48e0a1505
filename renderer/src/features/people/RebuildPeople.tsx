/**
 * "Rebuild people": the caller's faces grouped again from scratch, keeping every correction (names,
 * merges, faces moved or rejected, hidden people, chosen covers). It runs as a job; the page follows it
 * and reads the people again when it ends. A rebuild already queued or running (409
 * `people_rebuild_running`, perhaps from another tab) is news, not a failure: the people update when it
 * is done.
 */
import { useState } from 'react';
import { ApiError, messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { REBUILD_RUNNING, useJobDone, useRebuildPeople } from './people-api';

export function RebuildPeople() {
  const rebuild = useRebuildPeople();
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJobDone(jobId);
  const running = rebuild.isError && rebuild.error instanceof ApiError && rebuild.error.code === REBUILD_RUNNING;
  const state = job.data?.state;
  const working = rebuild.isPending || (jobId !== null && state !== 'completed' && state !== 'cancelled' && state !== 'discarded' && !job.isError);

  let status: React.ReactNode = null;
  if (working) status = <p>Grouping your faces into people again…</p>;
  else if (state === 'completed') status = <p className="notice notice--success">People rebuilt. Your names and corrections were kept.</p>;
  else if (state === 'cancelled' || state === 'discarded') status = <p className="notice notice--error">The rebuild did not finish{job.data?.last_error ? `: ${job.data.last_error}` : '.'}</p>;
  else if (running) status = <p className="notice notice--info">A rebuild of your people is already running; they will update when it is done.</p>;
  else if (rebuild.isError) status = <p className="notice notice--error">{messageOf(rebuild.error)}</p>;
  else if (job.isError) status = <p className="notice notice--error">{messageOf(job.error)}</p>;

  return (
    <div className="people-rebuild">
      <Button
        variant="secondary"
        busy={working}
        busyLabel="Rebuilding…"
        onClick={() =>
          rebuild.mutate(undefined, {
            onSuccess: (r) => setJobId(r.receipt_id),
            onError: () => setJobId(null),
          })
        }
      >
        Rebuild people
      </Button>
      {/* Always in the page, so what appears in it is read out. */}
      <div role="status" className="people-rebuild__status">
        {status}
      </div>
    </div>
  );
}
