/**
 * Scanning: scans asked for by members, their history as each reader may see it, and the
 * `repositories.scan-repository` job that walks a repository (scanner.ts) once its watcher is ready,
 * writing through the same serial lane as the watcher.
 */
import type { WalkOptions } from '../../adapters/fs/walk.ts';
import type { Actor } from '../../platform/http/context.ts';
import { NotFound } from '../../platform/http/errors.ts';
import { PermanentError, type JobContext } from '../../platform/jobs/registry.ts';
import { JobCancelledError, RunnerStoppingError } from '../../platform/jobs/runner.ts';
import type { RepositoriesContext } from './repositories.context.ts';
import type { ScanJobArgs } from './repositories.jobs.ts';
import type { ScanRow } from './repositories.store.ts';
import { toScanView, type RepositoryScanView } from './repositories.view.ts';
import type { RepositoryRegistry } from './registration.ts';
import { emptyProblems, encodeScanProblems, renderScanError, scanNote, scanProblemAssets } from './scan-problems.ts';
import { scanRepositoryTree } from './scanner.ts';
import type { ScanScheduler } from './scheduling.ts';
import type { RepositoryWatching } from './watching.ts';

export interface ScanRequestResult {
  scan: RepositoryScanView;
  /** False when a scan of the repository was already queued or running: that one is returned. */
  created: boolean;
}

export class RepositoryScans {
  /** Per repository, files found not to be media (by path and size/mtime), so rescans skip them. */
  private readonly notMedia = new Map<string, Map<string, string>>();

  /**
   * How scans read folders. Tests replace it to make a folder fail as root would not (chmod does not
   * stop root); leave undefined in production.
   */
  walkFs: Pick<WalkOptions, 'readDir' | 'stat'> | undefined;

  constructor(
    private readonly ctx: RepositoriesContext,
    private readonly registry: RepositoryRegistry,
    private readonly watching: RepositoryWatching,
    private readonly scheduler: ScanScheduler,
  ) {}

  /** Queues a scan (or returns the one already queued or running). Members may ask too. */
  requestScan(actor: Actor, id: string, body: { force?: boolean | undefined }): ScanRequestResult {
    if (!this.ctx.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const { scan, created } = this.scheduler.enqueueScan(actor.userId, id, 'manual', body.force ?? false);
    return { scan: this.scanView(actor, scan), created };
  }

  listScans(actor: Actor, id: string, limit: number, offset: number) {
    if (!this.ctx.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const { rows, total } = this.ctx.store.listScans(id, limit, offset);
    return { scans: rows.map((s) => this.scanView(actor, s)), limit, offset, total };
  }

  latestScan(actor: Actor, id: string): { scan: RepositoryScanView | null } {
    if (!this.ctx.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const s = this.ctx.store.latestScan(id);
    return { scan: s ? this.scanView(actor, s) : null };
  }

  /** A scan as `actor` may read it: its problems name only what the reader may know (scan-problems.ts). */
  private scanView(actor: Actor, s: ScanRow): RepositoryScanView {
    const pending = s.status === 'queued' || s.status === 'running';
    const owners = this.ctx.store.assetOwners(scanProblemAssets(s.error));
    const error = renderScanError(s.error, { userId: actor.userId, isAdmin: actor.role === 'admin' }, owners);
    return toScanView({ ...s, error }, pending ? this.ctx.store.scanJob(s.scan_id) : undefined);
  }

  /** The `repositories.scan-repository` job. */
  async runScan(args: ScanJobArgs, ctx: JobContext): Promise<unknown> {
    const scan = this.ctx.store.scan(args.scan_id);
    if (!scan || (scan.status !== 'queued' && scan.status !== 'running')) return { scan_id: args.scan_id, skipped: 'the scan is no longer pending' };
    const fail = (error: string) => {
      this.ctx.store.finishScan(args.scan_id, { status: 'failed', error: scanNote(error) }, this.ctx.now());
      return { scan_id: args.scan_id, status: 'failed', error };
    };
    const repo = this.ctx.store.byId(args.repository_id);
    if (!repo) return fail('The repository is no longer registered.');
    this.ctx.store.markRunning(args.scan_id, this.ctx.now());
    const reach = this.scheduler.refresh(repo);
    if (reach.status !== 'active') return fail(`Not scanned: ${reach.message}`);
    const door = this.ctx.deps?.door;
    if (!door) return fail('Not scanned: the catalog ingest service is not available.');
    const ownerId = this.registry.ownerFor(repo);
    if (ownerId === undefined) return fail('Not scanned: there is no administrator account yet to own the files.');

    let notMedia = this.notMedia.get(repo.repository_id);
    if (!notMedia || notMedia.size > 200_000) {
      notMedia = new Map();
      this.notMedia.set(repo.repository_id, notMedia);
    }
    const started = Date.now();
    try {
      // Watching starts before the walk: whatever changes from here on is reported by the watcher,
      // and what was there before is seen by the walk (the two dedupe through the catalog), so a copy
      // into a folder that is being registered or scanned never waits for the next periodic scan.
      await this.watching.watcherReady(repo.repository_id, ctx.signal);
      const watcher = this.watching.watcherOf(repo.repository_id);
      const out = await scanRepositoryTree({
        repositoryId: repo.repository_id,
        root: repo.path,
        ownerId,
        force: args.force,
        door,
        lane: this.watching.lane(repo.repository_id),
        catalog: () => this.ctx.store.catalog(repo.repository_id),
        isReachable: () => this.scheduler.checkReachability(repo.repository_id)?.status === 'active',
        stabilityMs: this.ctx.opts.stabilityMs,
        watcherQuiet: watcher ? () => watcher.quiet() : undefined,
        notMedia,
        walkFs: this.walkFs,
        signal: ctx.signal,
        progress: (f, m) => ctx.progress(f, m),
        onCounts: (c) => this.ctx.store.saveCounts(args.scan_id, c),
      });
      this.ctx.store.finishScan(args.scan_id, { status: 'completed', counts: out.counts, complete_walk: out.completeWalk, error: out.error }, this.ctx.now());
      ctx.log.info({ repository_id: repo.repository_id, ms: Date.now() - started, complete_walk: out.completeWalk, ...out.counts }, 'repository scanned');
      return { scan_id: args.scan_id, complete_walk: out.completeWalk, ...out.counts };
    } catch (e) {
      if (!this.ctx.db.open) throw e;
      const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : undefined;
      if (reason instanceof JobCancelledError) {
        this.ctx.store.finishScan(args.scan_id, { status: 'cancelled', error: scanNote('Cancelled.') }, this.ctx.now());
        throw e;
      }
      if (reason instanceof RunnerStoppingError) {
        this.ctx.store.requeueScan(args.scan_id); // runs again at the next start
        throw e;
      }
      const message = (e instanceof Error ? e.message : String(e)).split(repo.path).join('');
      this.ctx.store.finishScan(args.scan_id, { status: 'failed', error: encodeScanProblems({ ...emptyProblems(), failure: message }) }, this.ctx.now());
      if (reason) throw e; // timeout: the runner records it
      throw new PermanentError(message, { cause: e });
    }
  }
}
