/** SQL of repositories and their scans. Times are epoch milliseconds. */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { ACTIVE_STATES } from '../../platform/jobs/registry.ts';
import { nextTurn } from '../../platform/cache/slices.ts';

/** Catalog rows per page of a scan's read (a few ms each). */
const CATALOG_PAGE_ROWS = 2048;

export type RepositoryStatus = 'active' | 'offline' | 'error';

export interface RepositoryRow {
  repository_id: string;
  name: string;
  path: string;
  role: 'primary' | 'regular';
  status: RepositoryStatus;
  /** `<reason>: <message>` when not active (see reachability.ts). */
  status_detail: string | null;
  default_owner_id: number | null;
  created_at: number;
  updated_at: number;
}

export type ScanMode = 'periodic' | 'manual' | 'startup';
export type ScanStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ScanCounts {
  files_seen: number;
  added: number;
  updated: number;
  moved: number;
  deleted: number;
  skipped: number;
  failed: number;
}

export interface ScanRow extends ScanCounts {
  scan_id: string;
  repository_id: string;
  mode: ScanMode;
  status: ScanStatus;
  complete_walk: number;
  error: string | null;
  requested_by: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface ScanJobInfo {
  id: number;
  state: string;
  progress: number | null;
  progress_message: string | null;
}

/** What the catalog holds for a repository's files (read-only here: writes go through Ingest). */
export interface CatalogEntry {
  asset_id: string;
  storage_path: string;
  file_size: number;
  file_mtime: number | null;
  is_deleted: number;
}

export const SCAN_JOB_KIND = 'repositories.scan-repository';

export class RepositoriesStore {
  constructor(private readonly db: Db) {}

  all(): RepositoryRow[] {
    return this.db
      .prepare("SELECT * FROM repositories ORDER BY role = 'primary' DESC, name COLLATE NOCASE, repository_id")
      .all() as RepositoryRow[];
  }

  byId(id: string): RepositoryRow | undefined {
    return prepared(this.db, 'SELECT * FROM repositories WHERE repository_id = ?').get(id) as RepositoryRow | undefined;
  }

  insert(r: Omit<RepositoryRow, 'status' | 'status_detail'>): void {
    this.db
      .prepare(
        `INSERT INTO repositories (repository_id, name, path, role, default_owner_id, created_at, updated_at)
         VALUES (@repository_id, @name, @path, @role, @default_owner_id, @created_at, @updated_at)`,
      )
      .run(r);
  }

  /** Points a repository at the folder it moved to (relocate): its files' paths are relative, so they follow. */
  setPath(id: string, path: string, now: number): void {
    this.db.prepare('UPDATE repositories SET path = ?, updated_at = ? WHERE repository_id = ?').run(path, now, id);
  }

  /** Returns true when something changed. */
  setStatus(id: string, status: RepositoryStatus, detail: string | null, now: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE repositories SET status = @status, status_detail = @detail, updated_at = @now
           WHERE repository_id = @id AND (status <> @status OR status_detail IS NOT @detail)`,
        )
        .run({ id, status, detail, now }).changes > 0
    );
  }

  /** The oldest active administrator: owner of scanned files when a repository names no default owner. */
  firstAdminId(): number | undefined {
    const row = prepared(this.db, "SELECT user_id FROM users WHERE role = 'admin' AND is_active = 1 ORDER BY user_id LIMIT 1")
      .get() as { user_id: number } | undefined;
    return row?.user_id;
  }

  userIsActive(userId: number): boolean {
    return prepared(this.db, 'SELECT 1 FROM users WHERE user_id = ? AND is_active = 1').get(userId) !== undefined;
  }

  /**
   * The repository's catalogued files, read a page at a time (by path, on the (repository_id, storage_path)
   * key) with a turn of the event loop between pages: one `.all()` of a large library's rows held the loop for
   * hundreds of ms at every scan (issue 25 point 4). The pages are separate snapshots: a file indexed or moved
   * meanwhile goes through the scan's serial lane anyway, and the missing-files pass re-checks each path on disk.
   */
  async catalog(repositoryId: string): Promise<CatalogEntry[]> {
    const page = this.db.prepare(
      `SELECT asset_id, storage_path, file_size, file_mtime, is_deleted FROM assets
       WHERE repository_id = ? AND storage_path > ? ORDER BY storage_path LIMIT ${CATALOG_PAGE_ROWS}`,
    );
    const out: CatalogEntry[] = [];
    for (let after = ''; ; ) {
      const rows = page.all(repositoryId, after) as CatalogEntry[];
      for (const r of rows) out.push(r);
      if (rows.length < CATALOG_PAGE_ROWS) return out;
      after = rows[rows.length - 1]!.storage_path;
      await nextTurn();
    }
  }

  /** The owners of these assets (unknown ids are left out). */
  assetOwners(assetIds: readonly string[]): Map<string, number> {
    if (!assetIds.length) return new Map();
    const rows = this.db
      .prepare(`SELECT asset_id, owner_id FROM assets WHERE asset_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(assetIds)) as { asset_id: string; owner_id: number }[];
    return new Map(rows.map((r) => [r.asset_id, r.owner_id]));
  }

  // ------------------------------------------------------------------ scans

  insertScan(s: Pick<ScanRow, 'scan_id' | 'repository_id' | 'mode' | 'requested_by' | 'created_at'>): void {
    this.db
      .prepare(
        `INSERT INTO repository_scans (scan_id, repository_id, mode, status, requested_by, created_at)
         VALUES (@scan_id, @repository_id, @mode, 'queued', @requested_by, @created_at)`,
      )
      .run(s);
  }

  scan(scanId: string): ScanRow | undefined {
    return this.db.prepare('SELECT * FROM repository_scans WHERE scan_id = ?').get(scanId) as ScanRow | undefined;
  }

  /** The queued or running scan of a repository (at most one: a partial unique index). */
  pendingScan(repositoryId: string): ScanRow | undefined {
    return this.db
      .prepare("SELECT * FROM repository_scans WHERE repository_id = ? AND status IN ('queued', 'running')")
      .get(repositoryId) as ScanRow | undefined;
  }

  pendingScans(): ScanRow[] {
    return this.db.prepare("SELECT * FROM repository_scans WHERE status IN ('queued', 'running')").all() as ScanRow[];
  }

  latestScan(repositoryId: string): ScanRow | undefined {
    return this.db
      .prepare('SELECT * FROM repository_scans WHERE repository_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
      .get(repositoryId) as ScanRow | undefined;
  }

  listScans(repositoryId: string, limit: number, offset: number): { rows: ScanRow[]; total: number } {
    const rows = this.db
      .prepare('SELECT * FROM repository_scans WHERE repository_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?')
      .all(repositoryId, limit, offset) as ScanRow[];
    const { n } = this.db.prepare('SELECT count(*) AS n FROM repository_scans WHERE repository_id = ?').get(repositoryId) as { n: number };
    return { rows, total: n };
  }

  /** Repositories with a running scan (for `activity`). */
  scanningIds(): Set<string> {
    const rows = this.db.prepare("SELECT repository_id FROM repository_scans WHERE status = 'running'").all() as { repository_id: string }[];
    return new Set(rows.map((r) => r.repository_id));
  }

  /** queued → running (also running → running when a job re-runs after a restart). */
  markRunning(scanId: string, now: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE repository_scans SET status = 'running', started_at = @now, finished_at = NULL, error = NULL,
             complete_walk = 0, files_seen = 0, added = 0, updated = 0, moved = 0, deleted = 0, skipped = 0, failed = 0
           WHERE scan_id = @scanId AND status IN ('queued', 'running')`,
        )
        .run({ scanId, now }).changes > 0
    );
  }

  saveCounts(scanId: string, c: ScanCounts): void {
    this.db
      .prepare(
        `UPDATE repository_scans SET files_seen = @files_seen, added = @added, updated = @updated, moved = @moved,
           deleted = @deleted, skipped = @skipped, failed = @failed
         WHERE scan_id = @scanId AND status = 'running'`,
      )
      .run({ scanId, ...c });
  }

  finishScan(
    scanId: string,
    f: { status: Exclude<ScanStatus, 'queued' | 'running'>; counts?: ScanCounts; complete_walk?: boolean; error?: string | null },
    now: number,
  ): void {
    const c = f.counts;
    this.db
      .prepare(
        `UPDATE repository_scans SET status = @status, finished_at = @now, error = @error,
           complete_walk = coalesce(@complete_walk, complete_walk),
           files_seen = coalesce(@files_seen, files_seen), added = coalesce(@added, added), updated = coalesce(@updated, updated),
           moved = coalesce(@moved, moved), deleted = coalesce(@deleted, deleted), skipped = coalesce(@skipped, skipped),
           failed = coalesce(@failed, failed)
         WHERE scan_id = @scanId AND status IN ('queued', 'running')`,
      )
      .run({
        scanId,
        now,
        status: f.status,
        error: f.error ?? null,
        complete_walk: f.complete_walk === undefined ? null : f.complete_walk ? 1 : 0,
        files_seen: c?.files_seen ?? null,
        added: c?.added ?? null,
        updated: c?.updated ?? null,
        moved: c?.moved ?? null,
        deleted: c?.deleted ?? null,
        skipped: c?.skipped ?? null,
        failed: c?.failed ?? null,
      });
  }

  /** Back to queued (the job was interrupted by a stop and will run again). */
  requeueScan(scanId: string): void {
    this.db.prepare("UPDATE repository_scans SET status = 'queued' WHERE scan_id = ? AND status = 'running'").run(scanId);
  }

  /** The newest job of a scan (its args carry the scan id). */
  scanJob(scanId: string): ScanJobInfo | undefined {
    return this.db
      .prepare(
        `SELECT id, state, progress, progress_message FROM jobs
         WHERE kind = ? AND json_extract(args, '$.scan_id') = ? ORDER BY id DESC LIMIT 1`,
      )
      .get(SCAN_JOB_KIND, scanId) as ScanJobInfo | undefined;
  }

  isActiveJobState(state: string | undefined): boolean {
    return state !== undefined && (ACTIVE_STATES as readonly string[]).includes(state);
  }
}
