/**
 * Administration → Repositories: the folders Hearth indexes in place, whether it can reach them,
 * their latest scan (counts, progress while it runs) with "Scan now", and adding a folder that
 * holds a `.hearth-repo` marker. While a scan runs the page looks again every second and a half.
 */
import { type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { TextField } from '../../components/TextField';
import { formatRelative } from '../../lib/format';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { HomeFolderCard } from '../host-folders';
import { scanInProgress, useCreateRepository, useLatestScan, useRepositories, useScanRepository, type Repository, type RepositoryScan } from './operations-api';
import './operations.css';

const REACHABILITY: Record<Repository['reachability'], string> = {
  active: 'Reachable',
  offline: 'Offline',
  error: 'Needs attention',
};

const SCAN_STATUS: Record<RepositoryScan['status'], string> = {
  queued: 'Waiting to start',
  running: 'Scanning',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function RepositoriesPage() {
  const repos = useRepositories();
  return (
    <>
      <PageHeader title="Repositories">
        <p>Folders Hearth keeps its library in. Files are indexed where they are, never moved or changed; new files are picked up as they appear.</p>
      </PageHeader>
      <div className="stack ops">
        {repos.isPending && <p role="status">Loading repositories…</p>}
        {repos.isError && (
          <div className="notice notice--error" role="alert">
            {messageOf(repos.error)}
          </div>
        )}
        {repos.data && (
          <ul className="ops-list" aria-label="Repositories">
            {repos.data.repositories.map((r) => (
              <RepositoryCard key={r.id} repo={r} />
            ))}
          </ul>
        )}
        <AddRepository />
        <HomeFolderCard />
      </div>
    </>
  );
}

function RepositoryCard({ repo }: { repo: Repository }) {
  const latest = useLatestScan(repo.id, repo.activity === 'scanning');
  const scan = useScanRepository();
  const s = latest.data?.scan ?? null;
  const running = scanInProgress(s) || repo.activity === 'scanning';
  const headingId = `repo-${repo.id}`;

  return (
    <li className="card repo" aria-labelledby={headingId}>
      <div className="repo__head">
        <div className="repo__who">
          <h2 className="card__title" id={headingId}>
            {repo.name}
            {repo.is_primary && (
              <>
                {' '}
                <span className="badge">Primary</span>
              </>
            )}
          </h2>
          {repo.path && <p className="repo__path">{repo.path}</p>}
        </div>
        <Button
          variant="secondary"
          busy={scan.isPending || running}
          busyLabel={running ? 'Scanning…' : 'Starting…'}
          disabled={repo.reachability !== 'active'}
          onClick={() => scan.mutate(repo.id)}
          aria-label={running ? `Scanning ${repo.name}` : `Scan ${repo.name} now`}
        >
          Scan now
        </Button>
      </div>

      <dl className="repo__facts">
        <div>
          <dt>Reachability</dt>
          <dd>
            <span className={`status status--${repo.reachability}`}>{REACHABILITY[repo.reachability]}</span>
          </dd>
        </div>
        <div>
          <dt>Activity</dt>
          <dd>{repo.activity === 'scanning' ? 'Scanning' : 'Idle'}</dd>
        </div>
      </dl>
      {repo.reachability !== 'active' && repo.status_detail && (
        <div className="notice notice--error" role="status">
          {repo.status_detail}
        </div>
      )}
      {scan.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(scan.error)}
        </div>
      )}

      <section className="scan" aria-label={`Latest scan of ${repo.name}`}>
        <h3 className="scan__title">Latest scan</h3>
        {latest.isPending && <p role="status">Loading…</p>}
        {latest.isError && <p className="field__error">{messageOf(latest.error)}</p>}
        {latest.data && !s && <p className="scan__none">Not scanned yet.</p>}
        {s && <ScanSummary scan={s} />}
      </section>
    </li>
  );
}

function ScanSummary({ scan }: { scan: RepositoryScan }) {
  const pending = scanInProgress(scan);
  const when = scan.finished_at ?? scan.started_at ?? scan.created_at;
  const counts: [string, number][] = [
    ['Files seen', scan.files_seen],
    ['Added', scan.added],
    ['Updated', scan.updated],
    ['Moved', scan.moved],
    ['Moved to trash', scan.deleted],
    ['Unchanged or skipped', scan.skipped],
    ['Failed', scan.failed],
  ];
  return (
    <div className="scan__body">
      <p>
        <span className={`status status--scan-${scan.status}`} data-testid="scan-status">
          {SCAN_STATUS[scan.status]}
        </span>{' '}
        <span className="scan__when">
          {scan.mode === 'manual' ? 'requested' : scan.mode === 'startup' ? 'at start-up' : 'scheduled'} · {formatRelative(when)}
        </span>
      </p>
      {pending && (
        <>
          <ProgressBar value={(scan.progress ?? 0) * 100} label="Scan progress" />
          {scan.progress_message && <p className="scan__message">{scan.progress_message}</p>}
        </>
      )}
      <dl className="scan__counts">
        {counts.map(([label, n]) => (
          <div key={label} className={label === 'Failed' && n > 0 ? 'scan__count--bad' : undefined}>
            <dt>{label}</dt>
            <dd>{n.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {!scan.complete_walk && scan.status === 'completed' && (
        <p className="field__hint">Some folders could not be read, so nothing was moved to the trash.</p>
      )}
      {scan.error && <p className="scan__error">{scan.error}</p>}
    </div>
  );
}

function AddRepository() {
  const create = useCreateRepository();
  const form = useForm({ name: '', path: '' });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = form.values.name.trim();
    const path = form.values.path.trim();
    const missing: Record<string, string> = {};
    if (!name) missing.name = 'Give the repository a name.';
    if (!path) missing.path = 'Type the folder’s full path on the Hearth machine.';
    if (Object.keys(missing).length) return form.setFeedback(feedbackFromChecks(missing));
    create.mutate(
      { name, path },
      {
        onSuccess: () => form.setValues({ name: '', path: '' }),
        onError: (err) => form.setFeedback(feedbackFrom(err, { name: 'name', path: 'path' })),
      },
    );
  };

  return (
    <section className="card" aria-labelledby="add-repo-heading">
      <h2 className="card__title" id="add-repo-heading">
        Add a repository
      </h2>
      <p className="card__intro">
        A folder on the Hearth machine that already holds your photos, for example a disk of family pictures. It needs a{' '}
        <code>.hearth-repo</code> marker file; if it has none, Hearth explains how to make one.
      </p>
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate>
        <FormError message={form.feedback.summary} />
        <TextField label="Name" autoComplete="off" {...form.field('name')} />
        <TextField label="Folder path" hint="The full path as the Hearth machine sees it, e.g. /srv/photos" autoComplete="off" spellCheck={false} {...form.field('path')} />
        <div className="form__actions">
          <Button type="submit" busy={create.isPending} busyLabel="Adding…">
            Add repository
          </Button>
        </div>
        {create.isSuccess && (
          <div className="notice notice--success" role="status">
            {create.data.name} was added; its first scan has started.
          </div>
        )}
      </form>
    </section>
  );
}
