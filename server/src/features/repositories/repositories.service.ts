/**
 * Repositories: folders of media that Hearth indexes in place, never moving or rewriting a file.
 *
 * This service is a thin facade over its four parts, keeping one public API for routers, jobs and
 * the composition root: registration.ts (the catalog of repositories), watching.ts (folder
 * watchers), scheduling.ts (reachability and when scans run) and scanning.ts (the scan job).
 *
 * - The storage root (`<dataDir>/storage`, marker `.hearth-root`) holds the default primary
 *   repository, created on first start. Other folders anywhere on the machine become repositories
 *   when an administrator registers them: the folder must already hold a `.hearth-repo` marker
 *   (marker.ts), whose id becomes the repository id. Registering creates only the hidden `.hearth/`.
 * - Reachability (reachability.ts) is checked at start, before every scan and on every scheduler
 *   tick; an offline or unreadable repository is reported, its watcher stopped, and nothing of it
 *   leaves the catalog until it is back (then it is watched and scanned again).
 * - Every active repository is watched (watcher.ts) and scanned (scanner.ts) as a durable job
 *   (`repositories.scan-repository`): once at start, every `library.scan_interval_seconds` after the
 *   previous scan finished, and on request. One scan per repository is queued or running at a time.
 *   The watcher is started (and ready) before a scan walks, so nothing written while a repository is
 *   being registered or scanned falls between the two.
 * - Scanned and watched files belong to the repository's `default_owner_id`, or else to the oldest
 *   active administrator. Repositories are shared by the household; what each member sees of them
 *   is decided per asset by its owner. Paths are shown to administrators only.
 */
import type { WalkOptions } from '../../adapters/fs/walk.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { DomainError, NotFound } from '../../platform/http/errors.ts';
import type { JobContext } from '../../platform/jobs/registry.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Reachability } from './reachability.ts';
import { RepositoryRegistry, type CreateRepositoryInput, type FolderPlacement, type OpenFolderInput } from './registration.ts';
import { withDefaults, type RepositoriesContext, type RepositoriesDeps, type RepositoriesOptions } from './repositories.context.ts';
import type { ScanJobArgs } from './repositories.jobs.ts';
import { RepositoriesStore, type RepositoryRow } from './repositories.store.ts';
import type { RepositoryScanView, RepositoryView } from './repositories.view.ts';
import { RepositoryScans, type ScanRequestResult } from './scanning.ts';
import { ScanScheduler } from './scheduling.ts';
import { RepositoryWatching } from './watching.ts';

export type { RepositoryRow } from './repositories.store.ts';
export type { CreateRepositoryInput, FolderPlacement, OpenFolderInput } from './registration.ts';
export type { RepositoriesDeps, RepositoriesOptions } from './repositories.context.ts';
export type { ScanRequestResult } from './scanning.ts';

/**
 * What another feature needs to ask of repositories: does one exist, and the one answer when it does not.
 * Features take this (not the whole service) so the question is asked one way everywhere.
 */
export type RepositoryLookup = Pick<RepositoriesService, 'require' | 'exists'>;

export class RepositoriesService {
  private readonly ctx: RepositoriesContext;
  private readonly registry: RepositoryRegistry;
  private readonly watching: RepositoryWatching;
  private readonly scheduler: ScanScheduler;
  private readonly scans: RepositoryScans;

  constructor(
    db: Db,
    storageRoot: string,
    log: Logger,
    deps?: RepositoriesDeps,
    options: RepositoriesOptions = {},
    now: () => number = Date.now,
  ) {
    this.ctx = { db, store: new RepositoriesStore(db), storageRoot, log, deps, opts: withDefaults(options), now, started: false };
    this.registry = new RepositoryRegistry(
      this.ctx,
      (row, actor) => this.scheduler.onRegistered(row, actor),
      (row, actor) => {
        // The old folder's watcher goes (its entry is dropped at once), then the new folder is checked, watched and scanned.
        void this.watching.stopWatcher(row.repository_id);
        this.scheduler.onRegistered(row, actor);
      },
    );
    this.watching = new RepositoryWatching(this.ctx, {
      ownerFor: (row) => this.registry.ownerFor(row),
      checkReachability: (id) => this.scheduler.checkReachability(id),
    });
    this.scheduler = new ScanScheduler(this.ctx, this.registry, this.watching);
    this.scans = new RepositoryScans(this.ctx, this.registry, this.watching, this.scheduler);
  }

  /**
   * How scans read folders. Tests replace it to make a folder fail as root would not (chmod does not
   * stop root); leave undefined in production.
   */
  get walkFs(): Pick<WalkOptions, 'readDir' | 'stat'> | undefined {
    return this.scans.walkFs;
  }
  set walkFs(walkFs: Pick<WalkOptions, 'readDir' | 'stat'> | undefined) {
    this.scans.walkFs = walkFs;
  }

  // ------------------------------------------------------------------ registration (registration.ts)

  byId(id: string): RepositoryRow | undefined {
    return this.registry.byId(id);
  }
  /** Whether the repository is registered (a job whose repository went away skips its work). */
  exists(id: string): boolean {
    return this.registry.byId(id) !== undefined;
  }
  /**
   * The one lookup of a repository a caller names, with the one answer when there is none: 404
   * `repository_not_found`, 'No such repository.'. `field` (`query.repository_id`, `body.repository_id`)
   * adds a field error naming where the id came from, for the operations whose answers always named it.
   *
   * Named exceptions (they answer 422 `repository_not_found` and keep it, since clients see that answer):
   * - requestIndexRebuild (features/indexing: an unknown repository in the body is a bad request there);
   * - rebuildLocationClusters (features/places/location-clusters.service.ts, the same reason).
   * Both ask `exists` and throw their own Invalid.
   */
  require(id: string, field?: string): RepositoryRow {
    const row = this.registry.byId(id);
    if (row) return row;
    if (field === undefined) throw new NotFound('No such repository.', 'repository_not_found');
    throw new DomainError(404, 'repository_not_found', 'No such repository.', { errors: [{ field, message: 'not found' }] });
  }
  primary(): RepositoryRow | undefined {
    return this.registry.primary();
  }
  all(): RepositoryRow[] {
    return this.registry.all();
  }
  /** The id of the data folder's storage root; null (and logged) when its marker is unusable. */
  rootId(): string | null {
    return this.registry.rootId();
  }
  /** Creates `<storage>/primary` with its marker and registers it, unless a primary exists. */
  ensurePrimary(): RepositoryRow {
    return this.registry.ensurePrimary();
  }
  list(actor: Actor): { repositories: RepositoryView[] } {
    return this.registry.list(actor);
  }
  /** Repositories an index rebuild can be scoped to: those Hearth can read now. */
  listForReindex(actor: Actor): { repositories: RepositoryView[] } {
    return this.registry.listForReindex(actor);
  }
  view(actor: Actor, id: string): RepositoryView {
    return this.registry.view(actor, id);
  }
  /** Registers an existing folder holding a `.hearth-repo` marker; watched and scanned once running. */
  create(actor: Actor, input: CreateRepositoryInput): RepositoryView {
    return this.registry.create(actor, input);
  }
  /** How a folder (a real path) sits among the registered repositories: free, registered, a copy, inside or around one. */
  placementOf(dir: string): FolderPlacement {
    return this.registry.placementOf(dir);
  }
  /** Registers a folder a person chose on the home machine (features/host-actions), writing its marker when needed. */
  open(actor: Actor, input: OpenFolderInput): RepositoryRow {
    return this.registry.open(actor, input);
  }
  /** Points a repository at the folder it moved to (that folder's marker carries its id). */
  relocate(actor: Actor, id: string, dir: string): RepositoryRow {
    return this.registry.relocate(actor, id, dir);
  }
  /** Who owns files found in a repository: its default owner, else the oldest active administrator. */
  ownerFor(row: RepositoryRow): number | undefined {
    return this.registry.ownerFor(row);
  }

  // ------------------------------------------------------------------ watching (watching.ts)

  /** Resolves when every watcher started so far delivers events. */
  watchersReady(): Promise<void> {
    return this.watching.watchersReady();
  }
  isWatching(id: string): boolean {
    return this.watching.isWatching(id);
  }
  /** Stops watching one repository until startWatching (scans go on). */
  stopWatching(id: string): Promise<void> {
    return this.watching.stopWatching(id);
  }
  startWatching(id: string): Promise<void> {
    return this.watching.startWatching(id);
  }
  /** Resolves when the watcher and scans of a repository have no catalog write pending. */
  whenSettled(id: string): Promise<void> {
    return this.watching.whenSettled(id);
  }

  // ------------------------------------------------------------------ scheduling (scheduling.ts)

  /** Checks a repository's folder now, records the result, and starts or stops its watcher. */
  checkReachability(id: string): Reachability | undefined {
    return this.scheduler.checkReachability(id);
  }
  /** At server start: closes orphaned scans, checks every repository, watches and scans, schedules. */
  start(): void {
    this.scheduler.start();
  }
  /** Stops the scheduler and every watcher (scans are jobs: the job runner stops them). */
  async stop(): Promise<void> {
    this.ctx.started = false;
    this.scheduler.stopTimer();
    await this.watching.stopAll();
  }
  /** One scheduler round: re-check every repository and queue the periodic scans that are due. */
  tick(now = this.ctx.now()): void {
    this.scheduler.tick(now);
  }

  // ------------------------------------------------------------------ scans (scanning.ts)

  /** Queues a scan (or returns the one already queued or running). Members may ask too. */
  requestScan(actor: Actor, id: string, body: { force?: boolean | undefined }): ScanRequestResult {
    return this.scans.requestScan(actor, id, body);
  }
  listScans(actor: Actor, id: string, limit: number, offset: number) {
    return this.scans.listScans(actor, id, limit, offset);
  }
  latestScan(actor: Actor, id: string): { scan: RepositoryScanView | null } {
    return this.scans.latestScan(actor, id);
  }
  /** The `repositories.scan-repository` job. */
  runScan(args: ScanJobArgs, ctx: JobContext): Promise<unknown> {
    return this.scans.runScan(args, ctx);
  }
}
