/**
 * Administration → Jobs: what the background work is doing. Per queue the counts and the latest
 * errors (getQueueSummaries); below, the jobs that gave up (discarded) or will try again
 * (retryable) with their last error (listJobs). Refreshed every three seconds.
 *
 * There is no "retry this job" operation in the API. A failed job that worked on an asset can be
 * redone with "Reprocess", which queues the asset's pipeline again (reprocessAsset). The server only
 * lets an asset's owner do that: for another member's asset it answers 404.
 * The video tools card says whether ffmpeg/ffprobe are installed and how many files wait for them.
 * A queue that runs fewer jobs than it could says why (`held_back`): indexing paused on the home machine, or
 * giving way to an import (server/src/jobs.ts importShares), so that jobs waiting with none running read as
 * planned, not as a stall.
 */
import { formatTime } from '../../lib/dates';
import { useState } from 'react';
import { ApiError, messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { formatDateTime, formatMs, formatRelative } from '../../lib/format';
import { MediaToolsCard } from './MediaToolsCard';
import { assetIdOf, useFailedJobs, useQueueSummaries, useReprocessAssetOfJob, type Job, type JobState, type QueueSummary } from './operations-api';
import './operations.css';

const STATES: { state: JobState; label: string; hint: string }[] = [
  { state: 'discarded', label: 'Gave up', hint: 'Jobs that failed every attempt, or failed in a way retrying cannot fix.' },
  { state: 'retryable', label: 'Will retry', hint: 'Jobs that failed and are waiting for their next attempt.' },
];

export function JobsPage() {
  const queues = useQueueSummaries();
  const [state, setState] = useState<JobState>('discarded');
  return (
    <>
      <PageHeader title="Jobs">
        <p>Background work: processing new photos and videos, scans, uploads. Refreshed every few seconds.</p>
      </PageHeader>
      <div className="stack ops ops--wide">
        <MediaToolsCard />
        <section className="card" aria-labelledby="queues-heading">
          <div className="ops__head">
            <h2 className="card__title" id="queues-heading">
              Queues
            </h2>
            {queues.data && <span className="ops__updated">Updated {formatTime(queues.data.generated_at)}</span>}
          </div>
          {queues.isPending && <p role="status">Loading queues…</p>}
          {queues.isError && (
            <div className="notice notice--error" role="alert">
              {messageOf(queues.error)}
            </div>
          )}
          {queues.data && queues.data.queues.length === 0 && <p>No background work so far.</p>}
          {queues.data && (
            <ul className="ops-list" aria-label="Queues">
              {queues.data.queues.map((q) => (
                <QueueRow key={q.name} queue={q} />
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="failed-heading">
          <h2 className="card__title" id="failed-heading">
            Failed jobs
          </h2>
          <div className="segmented" role="radiogroup" aria-label="Which failed jobs">
            {STATES.map((s) => (
              <label key={s.state} className="segmented__option">
                <input type="radio" name="job-state" value={s.state} checked={state === s.state} onChange={() => setState(s.state)} />
                <span>{s.label}</span>
              </label>
            ))}
          </div>
          <p className="field__hint">{STATES.find((s) => s.state === state)!.hint}</p>
          <FailedJobs state={state} />
        </section>
      </div>
    </>
  );
}

function QueueRow({ queue }: { queue: QueueSummary }) {
  const facts: [string, string][] = [
    ['Waiting', queue.remaining_jobs.toLocaleString()],
    ['Running', queue.running_jobs.toLocaleString()],
    ['Done', queue.processed_jobs.toLocaleString()],
    ['Need attention', queue.attention_jobs.toLocaleString()],
    ['Average run', formatMs(queue.average_runtime_ms)],
    ['Last activity', formatRelative(queue.latest_activity_at) || '–'],
  ];
  return (
    <li className="queue" aria-label={`Queue ${queue.name}`}>
      <h3 className="queue__name">
        {queue.name}
        {queue.attention_jobs > 0 && <span className="badge badge--danger">{queue.attention_jobs} need attention</span>}
      </h3>
      {queue.held_back && (
        <p className="queue__held" role="status">
          {heldBackText(queue.held_back)}
        </p>
      )}
      <dl className="queue__facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {queue.error_samples.length > 0 && (
        <details className="queue__errors">
          <summary>Recent errors ({queue.error_samples.length})</summary>
          <ul>
            {queue.error_samples.map((e) => (
              <li key={e.job_id}>
                <strong>{e.kind}</strong> #{e.job_id} · attempt {e.attempt} of {e.max_attempts} · {e.state}
                {e.last_error && <p className="job__error">{e.last_error}</p>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/**
 * Why a queue runs fewer jobs than it could, in a household's words: waiting jobs with none running look like a
 * stall otherwise. Nothing waits forever: the jobs stay queued and run when the import ends or indexing resumes.
 */
function heldBackText(held: NonNullable<QueueSummary['held_back']>): string {
  if (held.reason === 'paused') return 'Paused on the home machine: waiting jobs start when indexing is resumed.';
  const what = held.to.includes('imports') ? 'an import' : `the ${held.to.join(', ')} queue`;
  if (held.running_at_most === 0) return `Waiting while ${what} runs, so that it gets the machine first; these jobs start when it ends.`;
  return `Giving way to ${what}: at most ${held.running_at_most} at a time until it ends.`;
}

function FailedJobs({ state }: { state: JobState }) {
  const jobs = useFailedJobs(state);
  if (jobs.isPending) return <p role="status">Loading jobs…</p>;
  if (jobs.isError)
    return (
      <div className="notice notice--error" role="alert">
        {messageOf(jobs.error)}
      </div>
    );
  if (jobs.data.jobs.length === 0) return <p className="ops__empty">None. Everything is fine.</p>;
  return (
    <>
      <ul className="ops-list" aria-label={state === 'discarded' ? 'Jobs that gave up' : 'Jobs that will retry'}>
        {jobs.data.jobs.map((j) => (
          <JobRow key={j.id} job={j} />
        ))}
      </ul>
      {jobs.data.total !== undefined && jobs.data.total > jobs.data.jobs.length && (
        <p className="field__hint">
          Showing the newest {jobs.data.jobs.length} of {jobs.data.total}.
        </p>
      )}
    </>
  );
}

function JobRow({ job }: { job: Job }) {
  const assetId = assetIdOf(job);
  const reprocess = useReprocessAssetOfJob();
  const notOwner = reprocess.error instanceof ApiError && reprocess.error.status === 404;
  return (
    <li className="job" aria-label={`Job ${job.id}: ${job.kind}`}>
      <div className="job__head">
        <div>
          <strong>{job.kind}</strong> <span className="job__meta">#{job.id} · queue {job.queue}</span>
        </div>
        {assetId && (
          <Button
            variant="secondary"
            className="button--small"
            busy={reprocess.isPending}
            busyLabel="Queuing…"
            disabled={reprocess.isSuccess}
            onClick={() => reprocess.mutate(assetId)}
          >
            {reprocess.isSuccess ? 'Queued' : 'Reprocess'}
          </Button>
        )}
      </div>
      <p className="job__meta">
        Attempt {job.attempt} of {job.max_attempts} · queued {formatDateTime(job.created_at)}
        {job.state === 'retryable' ? ` · next try ${formatRelative(job.scheduled_at) || formatDateTime(job.scheduled_at)}` : ''}
        {assetId ? ` · ${job.asset_name ?? `asset ${assetId}`}` : ''}
      </p>
      {job.last_error && <p className="job__error">{job.last_error}</p>}
      {reprocess.isError && (
        <p className="field__error" role="alert">
          {notOwner ? 'Only the person who owns this photo or video can reprocess it (photos are private to their owner).' : messageOf(reprocess.error)}
        </p>
      )}
    </li>
  );
}
