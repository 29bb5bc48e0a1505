/**
 * Scheduling: reachability and when scans run. Every repository is checked at start, on every
 * scheduler tick and before each scan (reachability.ts); an active one is watched and gets a startup
 * scan, then a periodic one `library.scan_interval_seconds` after the previous finished, and one when
 * it comes back after being away. One scan per repository is queued or running at a time.
 */
import crypto from 'node:crypto';
import type { Actor } from '../../platform/http/context.ts';
import { tx } from '../../platform/db/connection.ts';
import { Conflict } from '../../platform/http/errors.ts';
import { checkRepositoryFolder, encodeDetail, type Reachability } from './reachability.ts';
import type { RepositoriesContext } from './repositories.context.ts';
import { scanRepository, type ScanJobArgs } from './repositories.jobs.ts';
import type { RepositoryRow, ScanMode, ScanRow } from './repositories.store.ts';
import type { RepositoryRegistry } from './registration.ts';
import { scanNote } from './scan-problems.ts';
import type { RepositoryWatching } from './watching.ts';

export class ScanScheduler {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: RepositoriesContext,
    private readonly registry: RepositoryRegistry,
    private readonly watching: RepositoryWatching,
  ) {}

  /** Checks a repository's folder now, records the result, and starts or stops its watcher. */
  checkReachability(id: string): Reachability | undefined {
    const row = this.ctx.store.byId(id);
    return row ? this.refresh(row) : undefined;
  }

  /** Checks a repository's folder, records the result, and starts or stops its watcher. */
  refresh(row: RepositoryRow): Reachability {
    const r = checkRepositoryFolder(row.path, row.repository_id);
    const changed = this.ctx.store.setStatus(row.repository_id, r.status, encodeDetail(r), this.ctx.now());
    if (changed) {
      if (r.status === 'active') this.ctx.log.info({ repository_id: row.repository_id }, 'repository reachable again');
      else this.ctx.log.warn({ repository_id: row.repository_id, reachability: r.status, reason: r.reason }, `repository paused: ${r.message}`);
    }
    if (this.ctx.started) {
      if (r.status === 'active') {
        this.watching.ensureWatcher(row);
        // Back after being away: reconcile what happened meanwhile.
        if (changed && row.status !== 'active' && this.registry.ownerFor(row) !== undefined) this.enqueueScan(null, row.repository_id, 'periodic', false);
      } else {
        void this.watching.stopWatcher(row.repository_id);
      }
    }
    return r;
  }

  /** A folder was just registered: while running, check it and queue its first scan. */
  onRegistered(row: RepositoryRow, actor: Actor): void {
    if (!this.ctx.started) return;
    this.refresh(row);
    if (this.ctx.store.byId(row.repository_id)!.status === 'active') this.enqueueScan(actor.userId, row.repository_id, 'manual', false);
  }

  /**
   * At server start: scans left queued or running without a job are closed as failed; every
   * repository is checked; active ones are watched and get a startup scan; the scheduler starts.
   */
  start(): void {
    if (this.ctx.started || !this.ctx.deps) return;
    this.ctx.started = true;
    const now = this.ctx.now();
    for (const s of this.ctx.store.pendingScans()) {
      if (!this.ctx.store.isActiveJobState(this.ctx.store.scanJob(s.scan_id)?.state)) {
        this.ctx.store.finishScan(s.scan_id, { status: 'failed', error: scanNote('Interrupted: Hearth stopped before this scan finished.') }, now);
      }
    }
    for (const row of this.ctx.store.all()) {
      try {
        const r = this.refresh(row);
        if (r.status === 'active' && this.registry.ownerFor(row) !== undefined) this.enqueueScan(null, row.repository_id, 'startup', false);
      } catch (err) {
        this.ctx.log.error({ err, repository_id: row.repository_id }, 'starting a repository failed');
      }
    }
    this.timer = setInterval(() => this.tick(), this.ctx.opts.tickMs);
    this.timer.unref();
  }

  /** Stops the scheduler's timer (watchers and scans are stopped by their owners). */
  stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * One scheduler round: re-check every repository; queue a periodic scan for each active one whose
   * last scan finished at least `library.scan_interval_seconds` ago (never a second one while one is
   * queued or running).
   */
  tick(now = this.ctx.now()): void {
    if (!this.ctx.started || !this.ctx.deps || !this.ctx.db.open) return;
    const interval = this.ctx.deps.settings.section('library').scan_interval_seconds * 1000;
    for (const row of this.ctx.store.all()) {
      try {
        if (this.refresh(row).status !== 'active' || this.registry.ownerFor(row) === undefined) continue;
        if (this.ctx.store.pendingScan(row.repository_id)) continue;
        const last = this.ctx.store.latestScan(row.repository_id);
        if (!last || (last.finished_at ?? last.created_at) + interval <= now) this.enqueueScan(null, row.repository_id, 'periodic', false);
      } catch (err) {
        this.ctx.log.error({ err, repository_id: row.repository_id }, 'scheduling a scan failed');
      }
    }
  }

  /** Queues a scan of a repository, or returns the one already queued or running. */
  enqueueScan(requestedBy: number | null, id: string, mode: ScanMode, force: boolean): { scan: ScanRow; created: boolean } {
    if (!this.ctx.deps) throw new Error('repositories: scanning needs the job queue');
    const jobs = this.ctx.deps.jobs;
    return tx(this.ctx.db, () => {
      const pending = this.ctx.store.pendingScan(id);
      if (pending) {
        const job = this.ctx.store.scanJob(pending.scan_id);
        if (this.ctx.store.isActiveJobState(job?.state)) return { scan: pending, created: false };
        // Its job was cancelled or deleted without it: close it so the repository is not stuck.
        this.ctx.store.finishScan(
          pending.scan_id,
          job?.state === 'cancelled' ? { status: 'cancelled', error: scanNote('Cancelled.') } : { status: 'failed', error: scanNote('Interrupted: its job ended without running it.') },
          this.ctx.now(),
        );
      }
      const scanId = crypto.randomUUID();
      this.ctx.store.insertScan({ scan_id: scanId, repository_id: id, mode, requested_by: requestedBy, created_at: this.ctx.now() });
      const args: ScanJobArgs = { scan_id: scanId, repository_id: id, force };
      const { job, inserted } = jobs.enqueue(scanRepository, args, { ownerId: requestedBy });
      if (!inserted) {
        // A job of this repository is still active for another scan row: that scan is the one.
        this.ctx.db.prepare('DELETE FROM repository_scans WHERE scan_id = ?').run(scanId);
        const other = this.ctx.store.scan((job.args as ScanJobArgs).scan_id);
        if (other) return { scan: other, created: false };
        throw new Conflict('A scan of this repository is already under way.', 'scan_in_progress');
      }
      return { scan: this.ctx.store.scan(scanId)!, created: true };
    });
  }
}
