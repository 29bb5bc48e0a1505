/** SQL of import runs, their per-file record (the report) and the per-source cursors. No rules here (runs.service.ts). */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { StoredProblem } from './import-problems.ts';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
export const ACTIVE_RUN: readonly RunStatus[] = ['queued', 'running'];
export type FileOutcome = 'imported' | 'unchanged' | 'skipped' | 'failed';

export interface RunRow {
  run_id: string;
  source_key: string;
  source_id: string | null;
  credential_id: string | null;
  repository_id: string;
  owner_id: number;
  provider: string;
  remote_scope: string;
  status: RunStatus;
  total_seen: number;
  downloaded_count: number;
  imported_count: number;
  unchanged_count: number;
  skipped_count: number;
  failed_count: number;
  downloaded_bytes: number;
  problem: string | null;
  job_id: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

/** The counters a run flushes while it runs. */
export type RunCounters = Pick<RunRow, 'total_seen' | 'downloaded_count' | 'imported_count' | 'unchanged_count' | 'skipped_count' | 'failed_count' | 'downloaded_bytes'>;

export interface RunFileRow {
  run_id: string;
  remote_id: string;
  name: string;
  folder: string;
  outcome: FileOutcome;
  reason_code: string | null;
  reason: string | null;
  asset_id: string | null;
  size: number | null;
  at: number;
}

export interface CursorRow {
  source_key: string;
  remote_id: string;
  version: string;
  asset_id: string | null;
  content_hash: string | null;
  run_id: string;
  updated_at: number;
  /** The remote item this one said it belongs with (RemoteFacts.editOf / companionOf, migration 0036), and how. */
  pair_with: string | null;
  pair_as: 'edit' | 'companion' | null;
}

export class RunsStore {
  constructor(private readonly db: Db) {}

  get(id: string): RunRow | undefined {
    return prepared(this.db, 'SELECT * FROM import_runs WHERE run_id = ?').get(id) as RunRow | undefined;
  }

  insert(row: Omit<RunRow, keyof RunCounters | 'problem' | 'job_id' | 'started_at' | 'finished_at'>): void {
    this.db
      .prepare(
        `INSERT INTO import_runs (run_id, source_key, source_id, credential_id, repository_id, owner_id, provider, remote_scope, status, created_at, updated_at)
         VALUES (@run_id, @source_key, @source_id, @credential_id, @repository_id, @owner_id, @provider, @remote_scope, @status, @created_at, @updated_at)`,
      )
      .run(row);
  }

  /** The active run of a repository and source, if one is queued or running. */
  active(repositoryId: string, sourceKey: string): RunRow | undefined {
    return this.db.prepare("SELECT * FROM import_runs WHERE repository_id = ? AND source_key = ? AND status IN ('queued', 'running')").get(repositoryId, sourceKey) as RunRow | undefined;
  }

  activeOfCredential(credentialId: string): RunRow[] {
    return this.db.prepare("SELECT * FROM import_runs WHERE credential_id = ? AND status IN ('queued', 'running')").all(credentialId) as RunRow[];
  }

  latestOfSource(sourceKey: string): RunRow | undefined {
    return this.db.prepare('SELECT * FROM import_runs WHERE source_key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1').get(sourceKey) as RunRow | undefined;
  }

  /** A member's runs (undefined: everyone's), newest first. */
  list(ownerId: number | undefined, limit: number, offset: number): { rows: RunRow[]; total: number } {
    const where = ownerId === undefined ? '' : 'WHERE owner_id = @owner';
    const params = { owner: ownerId ?? null, limit, offset };
    return {
      rows: this.db.prepare(`SELECT * FROM import_runs ${where} ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`).all(params) as RunRow[],
      total: (this.db.prepare(`SELECT count(*) FROM import_runs ${where}`).pluck().get(params) as number) ?? 0,
    };
  }

  setStatus(id: string, status: RunStatus, now: number, f: { problem?: StoredProblem | null; job_id?: number | null; started?: boolean; finished?: boolean } = {}): void {
    this.db
      .prepare(
        `UPDATE import_runs SET status = @status, updated_at = @now,
           problem = CASE WHEN @set_problem THEN @problem ELSE problem END,
           job_id = CASE WHEN @set_job THEN @job_id ELSE job_id END,
           started_at = CASE WHEN @started THEN coalesce(started_at, @now) ELSE started_at END,
           finished_at = CASE WHEN @finished THEN @now WHEN @status IN ('queued', 'running') THEN NULL ELSE finished_at END
         WHERE run_id = @id`,
      )
      .run({
        id,
        status,
        now,
        set_problem: f.problem !== undefined ? 1 : 0,
        problem: f.problem ? JSON.stringify(f.problem) : null,
        set_job: f.job_id !== undefined ? 1 : 0,
        job_id: f.job_id ?? null,
        started: f.started ? 1 : 0,
        finished: f.finished ? 1 : 0,
      });
  }

  /** Moves a run from one status to another only if it is still in `from`; whether it did. */
  transition(id: string, from: readonly RunStatus[], to: RunStatus, now: number, f: { problem?: StoredProblem | null; finished?: boolean } = {}): boolean {
    const res = this.db
      .prepare(
        `UPDATE import_runs SET status = @to, updated_at = @now,
           problem = CASE WHEN @set_problem THEN @problem ELSE problem END,
           finished_at = CASE WHEN @finished THEN @now ELSE finished_at END
         WHERE run_id = @id AND status IN (SELECT value FROM json_each(@from))`,
      )
      .run({ id, to, now, from: JSON.stringify(from), set_problem: f.problem !== undefined ? 1 : 0, problem: f.problem ? JSON.stringify(f.problem) : null, finished: f.finished ? 1 : 0 });
    return res.changes > 0;
  }

  flushCounters(id: string, c: RunCounters, now: number): void {
    prepared(
      this.db,
        `UPDATE import_runs SET total_seen = @total_seen, downloaded_count = @downloaded_count, imported_count = @imported_count,
           unchanged_count = @unchanged_count, skipped_count = @skipped_count, failed_count = @failed_count,
           downloaded_bytes = @downloaded_bytes, updated_at = @now WHERE run_id = @id`,
      )
      .run({ ...c, id, now });
  }

  /** Runs a stop left queued or running. */
  unfinished(): RunRow[] {
    return this.db.prepare("SELECT * FROM import_runs WHERE status IN ('queued', 'running')").all() as RunRow[];
  }

  // ------------------------------------------------------------------ the run's files

  /**
   * The counters as the run's file record says (exact, where the flushed counters may lag a second behind a kill):
   * a resumed run starts from these. Listing problems are not files seen.
   */
  countedFiles(runId: string): Pick<RunCounters, 'total_seen' | 'imported_count' | 'unchanged_count' | 'skipped_count' | 'failed_count'> {
    const rows = this.db.prepare("SELECT outcome, count(*) AS n, sum(remote_id LIKE 'listing:%') AS listing FROM import_run_files WHERE run_id = ? GROUP BY outcome").all(runId) as { outcome: FileOutcome; n: number; listing: number }[];
    const by = (o: FileOutcome) => rows.find((r) => r.outcome === o)?.n ?? 0;
    return {
      total_seen: rows.reduce((s, r) => s + r.n - r.listing, 0),
      imported_count: by('imported'),
      unchanged_count: by('unchanged'),
      skipped_count: by('skipped'),
      failed_count: by('failed'),
    };
  }

  /** The remote ids this run already handled (a resumed run passes over them). */
  handled(runId: string): Set<string> {
    return new Set(this.db.prepare('SELECT remote_id FROM import_run_files WHERE run_id = ?').pluck().all(runId) as string[]);
  }

  recordFile(row: RunFileRow): void {
    prepared(
      this.db,
        `INSERT INTO import_run_files (run_id, remote_id, name, folder, outcome, reason_code, reason, asset_id, size, at)
         VALUES (@run_id, @remote_id, @name, @folder, @outcome, @reason_code, @reason, @asset_id, @size, @at)
         ON CONFLICT (run_id, remote_id) DO UPDATE SET outcome = excluded.outcome, reason_code = excluded.reason_code,
           reason = excluded.reason, asset_id = excluded.asset_id, size = excluded.size, at = excluded.at`,
      )
      .run(row);
  }

  /** The report: the files of a run by outcome (default skipped and failed), in the order they were met. */
  files(runId: string, outcomes: readonly FileOutcome[], limit: number, offset: number): { rows: RunFileRow[]; total: number } {
    const params = { run: runId, outcomes: JSON.stringify(outcomes), limit, offset };
    const where = 'run_id = @run AND outcome IN (SELECT value FROM json_each(@outcomes))';
    return {
      rows: this.db.prepare(`SELECT * FROM import_run_files WHERE ${where} ORDER BY at, remote_id LIMIT @limit OFFSET @offset`).all(params) as RunFileRow[],
      total: this.db.prepare(`SELECT count(*) FROM import_run_files WHERE ${where}`).pluck().get(params) as number,
    };
  }

  // ------------------------------------------------------------------ cursors

  cursor(sourceKey: string, remoteId: string): CursorRow | undefined {
    return prepared(this.db, 'SELECT * FROM import_cursors WHERE source_key = ? AND remote_id = ?').get(sourceKey, remoteId) as CursorRow | undefined;
  }

  saveCursor(row: CursorRow): void {
    prepared(
      this.db,
        `INSERT INTO import_cursors (source_key, remote_id, version, asset_id, content_hash, run_id, updated_at, pair_with, pair_as)
         VALUES (@source_key, @remote_id, @version, @asset_id, @content_hash, @run_id, @updated_at, @pair_with, @pair_as)
         ON CONFLICT (source_key, remote_id) DO UPDATE SET version = excluded.version, asset_id = excluded.asset_id,
           content_hash = excluded.content_hash, run_id = excluded.run_id, updated_at = excluded.updated_at,
           pair_with = excluded.pair_with, pair_as = excluded.pair_as`,
      )
      .run(row);
  }

  /** The items of a source that said they belong with this remote item and became assets (their partner arrives). */
  pairedWith(sourceKey: string, remoteId: string): CursorRow[] {
    return prepared(this.db, 'SELECT * FROM import_cursors WHERE source_key = ? AND pair_with = ? AND asset_id IS NOT NULL ORDER BY remote_id').all(sourceKey, remoteId) as CursorRow[];
  }

  forgetSource(sourceKey: string): void {
    this.db.prepare('DELETE FROM import_cursors WHERE source_key = ?').run(sourceKey);
  }
}
