/**
 * Import runs and the sources bound to repositories (contract: Cloud import; import run lifecycle).
 *
 * Rules and decisions where the contract is silent:
 * - Any member imports into any repository that can be reached (as they upload into any), with their own
 *   credential; what a run brings in is the credential owner's. A run, its report and its source are their
 *   owner's: anyone else's id answers 404 `import_run_not_found` (administrators included: the photos and file
 *   names in a report are private). `getRepositoryCloudStatus` shows the caller's sources of the repository, and
 *   an administrator every member's (the contract lists credentials to administrators the same way).
 * - A source is a credential bound to a repository with a remote scope (WebDAV: a folder). `bindRepositoryCloudSource`
 *   binds one (or finds the same binding) and starts a run of it; `startRepositoryCloudImport` starts a run of a
 *   bound source: the one named (`source_id`), the caller's binding of `credential_id` (+ `remote_scope`, bound on
 *   the way), or the caller's only source of the repository.
 * - One active (queued or running) run per repository and source: starting another answers 409
 *   `import_run_active`, naming the active run.
 * - Statuses: queued → running → completed | failed | cancelled; a run a stop of the server left queued or running
 *   is `interrupted` at the next start. `resumeImportRun` continues a cancelled, failed or interrupted run where it
 *   was (files it handled are passed over; a file half-downloaded continues from its bytes); a completed run
 *   cannot be resumed (start a new one: it fetches only what changed). Resume answers 409 `import_run_not_resumable`
 *   otherwise.
 * - Cancel: a queued or running run becomes `cancelled` at once; its files in flight stop. Cancelling a finished
 *   run answers it as it is.
 * - `syncCloud` is deprecated in the contract: it always answers 410 `sync_deprecated`, naming the operations to use.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../../platform/http/context.ts';
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobContext } from '../../platform/jobs/registry.ts';
import type { Logger } from '../../platform/logger.ts';
import { Conflict, DomainError, Invalid, NotFound, Unavailable } from '../../platform/http/errors.ts';
import type { CatalogDoor, Intake } from '../intake/index.ts';
import type { CredentialsService } from './credentials.service.ts';
import type { SourceRow } from './credentials.store.ts';
import { toDomainError, problem } from './import-problems.ts';
import type { ProviderRegistry } from './providers.ts';
import { IMPORT_STAGING, RunExecutor, type ImportFollowUps, type RepositoryLookup } from './run-executor.ts';
import { RunsStore, type FileOutcome, type RunRow } from './runs.store.ts';
import { runImportJob } from './cloud-import.jobs.ts';
import { openTakeout, type TakeoutPreview } from '../../adapters/cloud/takeout/index.ts';
import { TAKEOUT_PROVIDER, findTakeoutArchives, resolveParts, takeoutSourceKey, type ArchiveSet } from './takeout-source.ts';
import { scopeOf, toRun, toRunFile, type Run } from './cloud-import.view.ts';

export interface RunsDeps {
  db: Db;
  repositories: RepositoryLookup;
  /** Whose run is whose (platform/access: the owner only). */
  access: Access;
  jobs: JobQueue;
  credentials: CredentialsService;
  providers: ProviderRegistry;
  door: CatalogDoor;
  intake: Pick<Intake, 'hashFile'>;
  log: Logger;
  now?: () => number;
  followUps?: ImportFollowUps;
  /** For tests: files in flight per run, attempts and backoff per file. */
  executor?: { concurrency?: number; attempts?: number; backoffMs?: number };
}

export interface SourceSelection {
  source_id?: string | undefined;
  credential_id?: string | undefined;
  remote_scope?: Record<string, string> | undefined;
}

export class ImportRunsService {
  readonly store: RunsStore;
  private readonly executor: RunExecutor;
  private readonly now: () => number;

  constructor(private readonly deps: RunsDeps) {
    this.store = new RunsStore(deps.db);
    this.now = deps.now ?? Date.now;
    this.executor = new RunExecutor({ db: deps.db, repositories: deps.repositories, runs: this.store, credentials: deps.credentials, providers: deps.providers, door: deps.door, intake: deps.intake, log: deps.log, now: this.now, ...(deps.followUps ? { followUps: deps.followUps } : {}), ...deps.executor });
  }

  get(actor: Actor, id: string): Run {
    return toRun(this.owned(actor, id));
  }

  list(actor: Actor, q: { limit: number; offset: number }): { runs: Run[]; total: number; limit: number; offset: number } {
    const { rows, total } = this.store.list(actor.userId, q.limit, q.offset);
    return { runs: rows.map(toRun), total, limit: q.limit, offset: q.offset };
  }

  report(actor: Actor, id: string, q: { outcome?: FileOutcome[] | undefined; limit: number; offset: number }) {
    this.owned(actor, id);
    const { rows, total } = this.store.files(id, q.outcome?.length ? q.outcome : ['skipped', 'failed'], q.limit, q.offset);
    return { files: rows.map(toRunFile), total, limit: q.limit, offset: q.offset };
  }

  /** The report as CSV (every skipped and failed file), for a person to keep or read in a spreadsheet. */
  reportCsv(actor: Actor, id: string): { fileName: string; body: string } {
    const run = this.owned(actor, id);
    const { rows } = this.store.files(id, ['skipped', 'failed'], 1_000_000, 0);
    const cell = (v: string | number | null) => {
      const s = v === null ? '' : String(v);
      // A leading = + - @ makes spreadsheets run the cell as a formula: a remote name must not.
      const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
      return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    };
    const lines = [['folder', 'name', 'outcome', 'reason_code', 'reason', 'size', 'at'].join(',')];
    for (const f of rows) lines.push([f.folder, f.name, f.outcome, f.reason_code, f.reason, f.size, new Date(f.at).toISOString()].map(cell).join(','));
    return { fileName: `import-${run.provider}-${new Date(run.created_at).toISOString().slice(0, 10)}-${id.slice(0, 8)}.csv`, body: `${lines.join('\r\n')}\r\n` };
  }

  cancel(actor: Actor, id: string): Run {
    const run = this.owned(actor, id);
    this.stop(run, 'cancelled');
    return toRun(this.store.get(id)!);
  }

  resume(actor: Actor, id: string): { run: Run } {
    const run = this.owned(actor, id);
    if (!['cancelled', 'failed', 'interrupted'].includes(run.status)) {
      throw new Conflict(
        run.status === 'completed' ? 'This import is complete. Start a new one: it fetches only what changed.' : 'This import is still going.',
        'import_run_not_resumable',
      );
    }
    const active = this.store.active(run.repository_id, run.source_key);
    if (active) throw new Conflict(`Another import of this source into this repository is going on (run ${active.run_id}).`, 'import_run_active', { run_id: active.run_id });
    if (run.credential_id) this.connected(actor, run.credential_id);
    this.enqueue(run.run_id, 'queued');
    return { run: toRun(this.store.get(id)!) };
  }

  repositoryStatus(actor: Actor, repositoryId: string) {
    this.repository(repositoryId, false);
    const sources = this.deps.credentials.store.sourcesOfRepository(repositoryId).filter((s) => actor.role === 'admin' || s.owner_id === actor.userId);
    const views = sources.map((s) => this.sourceStatus(s));
    const first = views[0];
    return {
      credential: first?.credential ?? null,
      enabled: first?.enabled ?? false,
      last_import_run_id: first?.last_import_run_id ?? null,
      latest_run: first?.latest_run ?? null,
      owner_id: first?.owner_id ?? null,
      provider: first?.provider ?? null,
      sources: views,
    };
  }

  async start(actor: Actor, repositoryId: string, sel: SourceSelection): Promise<{ run: Run }> {
    this.repository(repositoryId, true);
    let source: SourceRow;
    if (sel.source_id) {
      const s = this.deps.credentials.store.source(sel.source_id);
      if (!s || s.repository_id !== repositoryId || s.owner_id !== actor.userId) throw new NotFound(`There is no import source ${sel.source_id} of yours in this repository.`, 'cloud_source_not_found');
      source = s;
    } else if (sel.credential_id) {
      source = await this.bindSource(actor, repositoryId, sel.credential_id, sel.remote_scope ?? {});
    } else {
      const mine = this.deps.credentials.store.sourcesOfRepository(repositoryId).filter((s) => s.owner_id === actor.userId);
      if (mine.length !== 1) {
        throw new Invalid(mine.length ? 'This repository has several import sources of yours: name one (`source_id`).' : 'Name a connection to import from (`credential_id`).', [{ field: 'body.credential_id', message: 'required here' }], 'cloud_source_required');
      }
      source = mine[0]!;
    }
    return { run: toRun(this.startSource(actor, source)) };
  }

  async bind(actor: Actor, repositoryId: string, body: { credential_id: string; remote_scope?: Record<string, string> | undefined }): Promise<{ run: Run }> {
    this.repository(repositoryId, true);
    const source = await this.bindSource(actor, repositoryId, body.credential_id, body.remote_scope ?? {});
    return { run: toRun(this.startSource(actor, source)) };
  }

  // ------------------------------------------------------------------ Google Takeout archives (takeout-source.ts)

  async takeoutArchives(_actor: Actor, repositoryId: string): Promise<{ archives: ArchiveSet[] }> {
    const repo = this.repository(repositoryId, true);
    return { archives: await findTakeoutArchives(repo.path) };
  }

  /** What importing these parts would bring: counts, albums, dates, files without a sidecar, problems. */
  async takeoutPreview(_actor: Actor, body: { repository_id: string; parts: string[] }): Promise<TakeoutPreview> {
    const repo = this.repository(body.repository_id, true);
    const parts = await resolveParts(repo.path, body.parts);
    const workDir = path.join(repo.path, IMPORT_STAGING, `preview-${crypto.randomUUID()}`);
    try {
      const library = await openTakeout(parts, { workDir, signal: AbortSignal.timeout(10 * 60_000) }).catch((e: unknown) => {
        throw toDomainError(e);
      });
      try {
        return library.preview();
      } finally {
        await library.close();
      }
    } finally {
      await fs.promises.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async startTakeout(actor: Actor, body: { repository_id: string; parts: string[]; untitled_albums?: boolean | undefined }): Promise<{ run: Run }> {
    const repo = this.repository(body.repository_id, true);
    const abs = await resolveParts(repo.path, body.parts);
    const root = await fs.promises.realpath(repo.path);
    const rel = abs.map((p) => path.relative(root, p).split(path.sep).join('/'));
    const key = takeoutSourceKey(repo.repository_id, actor.userId, rel);
    const active = this.store.active(repo.repository_id, key);
    if (active) throw new Conflict(`These archives are being imported into this repository already (run ${active.run_id}).`, 'import_run_active', { run_id: active.run_id });
    const run = this.newRun({
      source_key: key,
      source_id: null,
      credential_id: null,
      repository_id: repo.repository_id,
      owner_id: actor.userId,
      provider: TAKEOUT_PROVIDER,
      remote_scope: JSON.stringify({ parts: JSON.stringify(rel), untitled_albums: body.untitled_albums ? 'true' : 'false' }),
    });
    return { run: toRun(run) };
  }

  syncCloud(): never {
    throw new DomainError(410, 'sync_deprecated', 'Cloud sync is retired: import into a repository with startRepositoryCloudImport or bindRepositoryCloudSource.');
  }

  // ------------------------------------------------------------------ the job, start-up, the credentials' calls

  execute(runId: string, ctx: JobContext): Promise<void> {
    return this.executor.execute(runId, ctx);
  }

  /** At start, before the job workers: runs a stop left queued or running are `interrupted`, to be resumed. */
  settleInterrupted(): number {
    const now = this.now();
    const left = this.store.unfinished();
    for (const r of left) this.store.setStatus(r.run_id, 'interrupted', now, { problem: problem('interrupted', 503, 'The server stopped while this import ran. Resume it to go on where it stopped.', true), finished: true });
    if (left.length) this.deps.log.warn({ runs: left.length }, 'import runs interrupted by the last stop; they can be resumed');
    return left.length;
  }

  /** Cancels the active runs of a credential (disconnected or removed). */
  cancelRunsOf(credentialId: string, reason: string): void {
    for (const run of this.store.activeOfCredential(credentialId)) this.stop(run, 'cancelled', problem('credential_disconnected', 409, reason));
  }

  // ------------------------------------------------------------------ inside

  private stop(run: RunRow, to: 'cancelled', why: ReturnType<typeof problem> | null = null): void {
    if (!this.store.transition(run.run_id, ['queued', 'running'], to, this.now(), { finished: true, problem: why })) return;
    if (run.job_id !== null) this.deps.jobs.cancel(run.job_id);
    this.deps.log.info({ run_id: run.run_id }, 'import run cancelled');
  }

  private startSource(actor: Actor, source: SourceRow): RunRow {
    this.connected(actor, source.credential_id);
    const active = this.store.active(source.repository_id, source.source_id);
    if (active) throw new Conflict(`An import of this source into this repository is already going on (run ${active.run_id}).`, 'import_run_active', { run_id: active.run_id });
    return this.newRun({
      source_key: source.source_id,
      source_id: source.source_id,
      credential_id: source.credential_id,
      repository_id: source.repository_id,
      owner_id: source.owner_id,
      provider: source.provider,
      remote_scope: source.remote_scope,
    });
  }

  /** Inserts a queued run with its job; a second active run of the same source answers 409. */
  private newRun(r: Pick<RunRow, 'source_key' | 'source_id' | 'credential_id' | 'repository_id' | 'owner_id' | 'provider' | 'remote_scope'>): RunRow {
    const now = this.now();
    const runId = crypto.randomUUID();
    try {
      this.deps.db.transaction(() => {
        this.store.insert({ ...r, run_id: runId, status: 'queued', created_at: now, updated_at: now });
        if (r.source_id) this.deps.credentials.store.setLastRun(r.source_id, runId, now);
        this.enqueue(runId, 'queued');
      })();
    } catch (e) {
      // Two starts at the same moment: the partial unique index lets one through (migration 0034).
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        const active = this.store.active(r.repository_id, r.source_key);
        throw new Conflict('An import of this source into this repository is already going on.', 'import_run_active', active ? { run_id: active.run_id } : undefined);
      }
      throw e;
    }
    return this.store.get(runId)!;
  }

  private enqueue(runId: string, status: 'queued'): void {
    this.deps.db.transaction(() => {
      const { job } = this.deps.jobs.enqueue(runImportJob, { run_id: runId }, { ownerId: this.store.get(runId)!.owner_id });
      this.store.setStatus(runId, status, this.now(), { job_id: job.id, problem: null });
    })();
  }

  private async bindSource(actor: Actor, repositoryId: string, credentialId: string, scope: Record<string, string>): Promise<SourceRow> {
    const cred = this.connected(actor, credentialId, 'body.credential_id');
    const provider = this.deps.providers.require(cred.provider, 'body.credential_id');
    let checked: Record<string, string>;
    try {
      checked = await provider.checkScope(this.deps.credentials.stateOf(cred), scope, AbortSignal.timeout(60_000));
    } catch (e) {
      throw toDomainError(e);
    }
    const scopeKey = JSON.stringify(Object.fromEntries(Object.entries(checked).sort(([a], [b]) => (a < b ? -1 : 1))));
    const store = this.deps.credentials.store;
    const existing = store.sourceByScope(repositoryId, credentialId, scopeKey);
    if (existing) return existing;
    const now = this.now();
    const row: SourceRow = {
      source_id: crypto.randomUUID(),
      repository_id: repositoryId,
      credential_id: credentialId,
      owner_id: actor.userId,
      provider: cred.provider,
      remote_scope: JSON.stringify(checked),
      scope_key: scopeKey,
      enabled: 1,
      last_import_run_id: null,
      created_at: now,
      updated_at: now,
    };
    store.insertSource(row);
    return row;
  }

  /** The caller's credential, connected (else 409: reconnect first). */
  private connected(actor: Actor, credentialId: string, field = 'body.credential_id') {
    const cred = this.deps.credentials.owned(actor, credentialId, field);
    if (cred.status !== 'connected') throw new Conflict(`${cred.display_name} is not connected (${cred.status}). Reconnect it first.`, 'credential_not_connected');
    return cred;
  }

  private repository(id: string, mustBeReachable: boolean) {
    const repo = this.deps.repositories.byId(id);
    if (!repo) throw new NotFound(`Repository ${id} does not exist.`, 'repository_not_found');
    if (mustBeReachable && repo.status !== 'active') throw new Unavailable(`Repository ${repo.name} cannot be reached right now (${repo.status}).`, 'repository_unavailable');
    return repo;
  }

  private owned(actor: Actor, id: string): RunRow {
    return this.store.get(this.deps.access.require(actor, 'import_run', id, 'own'))!;
  }

  private sourceStatus(s: SourceRow) {
    const cred = this.deps.credentials.store.get(s.credential_id);
    const latest = this.store.latestOfSource(s.source_id);
    return {
      source_id: s.source_id,
      credential: cred ? this.deps.credentials.view(cred) : null,
      enabled: s.enabled === 1,
      last_import_run_id: s.last_import_run_id,
      latest_run: latest ? toRun(latest) : null,
      owner_id: s.owner_id,
      provider: s.provider,
      remote_scope: scopeOf(s),
    };
  }

  /** Staging a finished run left (a crash between the end and the clean-up): removed at start. */
  async tidyStaging(): Promise<void> {
    for (const repo of this.deps.repositories.all()) {
      const root = path.join(repo.path, IMPORT_STAGING);
      const names = await fs.promises.readdir(root).catch(() => [] as string[]);
      for (const name of names) {
        const run = this.store.get(name);
        if (!run || run.status === 'completed') await fs.promises.rm(path.join(root, name), { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }
}
