/**
 * Administration → Models: per task (search by meaning, text in photos, faces, species) whether it works
 * now (ready / not installed / downloading n% / switched off / failed with the cause), the models it
 * needs with their size, licence and source, an Install button with a progress bar (Retry after a
 * failure, Cancel while it downloads), and how far indexing has got (indexed / total, jobs waiting).
 * Refreshed every second while a download runs, every two while index jobs wait. Below the tasks, the video
 * tools (ffmpeg, ffprobe): not models, but the other thing a fresh install may be missing.
 *
 * A model not installed has the manual way under "Install by hand" (open at once when the machine
 * cannot reach the source: `source_unreachable`): each file's path, exact size and sha256 and where it
 * goes in the models folder, an upload of it from this device, and "Check again" for files put there by
 * hand; the server verifies either way (size and sha256) before the model is used.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import {
  TASKS,
  modelKeys,
  taskStatus,
  useCancelInstall,
  useCapabilities,
  useIndexingStats,
  useInstallModels,
  useModels,
  useUploadModelFile,
  useVerifyModel,
  type Model,
  type TaskStatus,
} from './models-api';
import { MediaToolsCard } from './MediaToolsCard';
import './operations.css';
import './models.css';

type Stats = NonNullable<ReturnType<typeof useIndexingStats>['data']>;
type Capabilities = NonNullable<ReturnType<typeof useCapabilities>['data']>;

export function ModelsPage() {
  const models = useModels();
  const busy = !!models.data?.models.some((m) => m.installing || m.state === 'downloading');
  const capabilities = useCapabilities(busy);
  const stats = useIndexingStats();
  // A download just ended: the tasks it completes turn ready and their waiting index jobs start now,
  // not at the next idle refresh.
  const queryClient = useQueryClient();
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) {
      void queryClient.invalidateQueries({ queryKey: modelKeys.capabilities });
      void queryClient.invalidateQueries({ queryKey: modelKeys.indexing });
    }
    wasBusy.current = busy;
  }, [busy, queryClient]);
  const error = models.error ?? capabilities.error;
  return (
    <>
      <PageHeader title="Models">
        <p>What Hearth can recognise in your photos, and the models that do it. Everything runs on this computer; nothing leaves it.</p>
      </PageHeader>
      <div className="stack ops ops--wide">
        {(models.isPending || capabilities.isPending) && <p role="status">Loading models…</p>}
        {error && (
          <div className="notice notice--error" role="alert">
            {messageOf(error)}
          </div>
        )}
        {models.data && capabilities.data && (
          <>
            {models.data.download_base_url && (
              <p className="models__mirror">
                Downloads come from <span className="models__url">{models.data.download_base_url}</span> (HEARTH_MODELS_BASE_URL).
              </p>
            )}
            {TASKS.map((t) => (
              <TaskCard
                key={t.task}
                task={t}
                models={models.data.models.filter((m) => m.task === t.task)}
                modelsDir={models.data.models_dir}
                capabilities={capabilities.data}
                stats={stats.data}
              />
            ))}
            <MediaToolsCard />
          </>
        )}
      </div>
    </>
  );
}

function TaskCard({
  task,
  models,
  modelsDir,
  capabilities,
  stats,
}: {
  task: (typeof TASKS)[number];
  models: Model[];
  modelsDir: string;
  capabilities: Capabilities;
  stats: Stats | undefined;
}) {
  const status = taskStatus(task.capabilities.map((c) => capabilities.ml.tasks[c]));
  const install = useInstallModels();
  const needed = models.filter((m) => !m.alternative);
  const others = models.filter((m) => m.alternative);
  const missing = needed.filter((m) => m.state !== 'ready');
  const installing = needed.some((m) => m.installing || m.state === 'downloading');
  const headingId = `task-${task.task}`;
  return (
    <section className="card models__task" aria-labelledby={headingId} data-task={task.task}>
      <div className="ops__head">
        <h2 className="card__title" id={headingId}>
          {task.title}
        </h2>
        <StatusBadge status={status} />
      </div>
      <p className="card__intro">{task.what}</p>
      {status.kind === 'downloading' && <ProgressBar value={status.percent} label={`${task.title}: downloading`} />}
      {/* Not installed needs no words: the Install button below says what it downloads. */}
      {(status.kind === 'failed' || status.kind === 'disabled') && status.detail && <p className={status.kind === 'failed' ? 'models__cause' : 'models__detail'}>{status.detail}</p>}
      {missing.length > 0 && !installing && (
        <div className="models__actions">
          <Button
            onClick={() => install.mutate({ task: task.task })}
            busy={install.isPending}
            busyLabel="Starting…"
            aria-label={`${status.kind === 'failed' ? 'Retry' : 'Install'} ${task.title} (${formatBytes(missing.reduce((n, m) => n + m.bytes - m.bytes_present, 0))})`}
          >
            {status.kind === 'failed' ? 'Retry' : 'Install'} · {formatBytes(missing.reduce((n, m) => n + m.bytes - m.bytes_present, 0))}
          </Button>
        </div>
      )}
      {install.error && (
        <div className="notice notice--error" role="alert">
          {messageOf(install.error)}
        </div>
      )}
      <IndexingProgress task={task} stats={stats} />
      {needed.length > 0 ? (
        <ul className="ops-list" aria-label={`${task.title} models`}>
          {needed.map((m) => (
            <ModelRow key={m.id} model={m} modelsDir={modelsDir} />
          ))}
        </ul>
      ) : (
        <p className="ops__empty">No model for this is in this version of Hearth yet.</p>
      )}
      {others.length > 0 && (
        <details className="models__others">
          <summary>Other models ({others.length}, not needed)</summary>
          <ul className="ops-list" aria-label={`${task.title}: other models`}>
            {others.map((m) => (
              <ModelRow key={m.id} model={m} modelsDir={modelsDir} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function StatusBadge({ status }: { status: TaskStatus }) {
  const label =
    status.kind === 'ready'
      ? 'Ready'
      : status.kind === 'downloading'
        ? `Downloading ${status.percent}%`
        : status.kind === 'disabled'
          ? 'Switched off'
          : status.kind === 'failed'
            ? 'Failed'
            : 'Not installed';
  return (
    <span className={`status models__status models__status--${status.kind}`} role="status" aria-label={`Status: ${label}`}>
      {label}
    </span>
  );
}

function IndexingProgress({ task, stats }: { task: (typeof TASKS)[number]; stats: Stats | undefined }) {
  if (!stats) return null;
  const rows = task.indexTasks.map((t) => ({ t, ...stats.tasks[t] }));
  return (
    <dl className="queue__facts models__indexing" aria-label={`${task.title}: indexing`}>
      {rows.map((r) => (
        <div key={r.t}>
          <dt>{r.t === 'video_semantic' ? 'Videos indexed' : 'Photos indexed'}</dt>
          <dd>
            {r.indexed_count.toLocaleString()} of {r.total_count.toLocaleString()}
            {r.queued_jobs > 0 && <span className="models__queued"> · {r.queued_jobs.toLocaleString()} waiting</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const STATE_LABEL: Record<Model['state'], string> = { ready: 'Installed', not_installed: 'Not installed', downloading: 'Downloading', failed: 'Failed' };

function ModelRow({ model, modelsDir }: { model: Model; modelsDir: string }) {
  const install = useInstallModels();
  const cancel = useCancelInstall();
  const downloading = model.installing || model.state === 'downloading';
  const source = model.installed_from ?? hostOf(model.files[0]?.download_url);
  return (
    <li className="job models__model" aria-label={`Model ${model.title}`}>
      <div className="job__head">
        <strong>{model.title}</strong>
        <span className={`status models__state--${model.state}`}>
          {STATE_LABEL[model.state]}
          {downloading && model.progress_percent !== null ? ` ${model.progress_percent}%` : ''}
        </span>
      </div>
      <p className="job__meta">
        {model.id} · {formatBytes(model.bytes)} · licence {model.licences.join(', ')} · {model.installed_from ? 'from' : 'source'} {source}
      </p>
      {downloading && (
        <>
          <ProgressBar value={model.progress_percent ?? 0} label={`${model.title}: downloaded`} />
          <p className="job__meta">
            {formatBytes(model.bytes_present)} of {formatBytes(model.bytes)}
          </p>
        </>
      )}
      {model.state === 'failed' && model.cause && <p className="job__error">{model.cause}</p>}
      <div className="models__actions">
        {downloading ? (
          <Button variant="secondary" onClick={() => cancel.mutate(model.id)} busy={cancel.isPending} busyLabel="Stopping…" aria-label={`Cancel the download of ${model.title}`}>
            Cancel
          </Button>
        ) : (
          model.state !== 'ready' && (
            <Button variant="secondary" onClick={() => install.mutate({ model_id: model.id })} busy={install.isPending} busyLabel="Starting…" aria-label={`${model.state === 'failed' ? 'Retry' : 'Install'} ${model.title}`}>
              {model.state === 'failed' ? 'Retry' : 'Install'}
            </Button>
          )
        )}
      </div>
      {(install.error ?? cancel.error) && (
        <div className="notice notice--error" role="alert">
          {messageOf(install.error ?? cancel.error)}
        </div>
      )}
      {model.state !== 'ready' && !downloading && <InstallByHand model={model} modelsDir={modelsDir} />}
    </li>
  );
}

/** The manual way: the exact files and where they go, an upload of each, and "Check again". */
function InstallByHand({ model, modelsDir }: { model: Model; modelsDir: string }) {
  const upload = useUploadModelFile();
  const verify = useVerifyModel();
  const sep = modelsDir.includes('\\') && !modelsDir.includes('/') ? '\\' : '/';
  const error = upload.error ?? verify.error;
  return (
    <details className="models__manual" open={model.cause_code === 'source_unreachable'}>
      <summary>Install {model.title} by hand</summary>
      {model.cause_code === 'source_unreachable' && (
        <p>This computer cannot reach the download source. Get these files on another device, then upload them here, or copy them into the models folder and press Check again.</p>
      )}
      <ul className="models__files" aria-label={`Files of ${model.title}`}>
        {model.files.map((f, index) => (
          <li key={f.path} className="models__file">
            <p className="models__file-name">
              <strong>{f.path}</strong> · {f.bytes.toLocaleString()} bytes{f.state === 'ready' ? ' · installed' : ''}
            </p>
            <p className="job__meta">
              From <a href={f.source_url}>{f.source_url}</a>
            </p>
            <p className="job__meta">
              sha256 <code className="models__hash">{f.sha256}</code>
            </p>
            <p className="job__meta">
              Goes to <code className="models__hash">{`${modelsDir}${sep}${f.path.split('/').join(sep)}`}</code>
            </p>
            {f.state !== 'ready' && (
              <label className="button button--secondary file-button models__upload">
                Upload {f.path.split('/').pop()}
                <input
                  className="visually-hidden"
                  type="file"
                  aria-label={`Upload ${f.path}`}
                  disabled={upload.isPending}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) upload.mutate({ id: model.id, index, file });
                  }}
                />
              </label>
            )}
          </li>
        ))}
      </ul>
      {upload.isPending && <p role="status">Uploading and checking…</p>}
      <div className="models__actions">
        <Button variant="secondary" onClick={() => verify.mutate(model.id)} busy={verify.isPending} busyLabel="Checking…" aria-label={`Check again ${model.title}`}>
          Check again
        </Button>
      </div>
      {error && (
        <div className="notice notice--error" role="alert">
          {messageOf(error)}
        </div>
      )}
    </details>
  );
}

function hostOf(url: string | undefined): string {
  if (!url) return '–';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
