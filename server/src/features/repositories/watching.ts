/**
 * Watching: one folder watcher per active repository (watcher.ts), each writing through the
 * repository's serial lane, shared with its scans so the two never write the same file at once. A
 * watcher reports the folder itself vanishing or failing, and the repository is then checked again.
 */
import type { Reachability } from './reachability.ts';
import type { RepositoriesContext } from './repositories.context.ts';
import type { RepositoryRow } from './repositories.store.ts';
import { RepositoryWatcher, SerialLane } from './watcher.ts';

/** A scan waits at most this long for the repository's watcher to finish its initial listing. */
const WATCHER_READY_MAX_MS = 5 * 60_000;

/** What watching asks of the other parts of the service. */
export interface WatchingParts {
  ownerFor(row: RepositoryRow): number | undefined;
  checkReachability(id: string): Reachability | undefined;
}

export class RepositoryWatching {
  private readonly watchers = new Map<string, { watcher: RepositoryWatcher; ready: Promise<void> }>();
  private readonly lanes = new Map<string, SerialLane>();
  private readonly unwatched = new Set<string>();
  private readonly rootEventTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly ctx: RepositoriesContext,
    private readonly parts: WatchingParts,
  ) {}

  /** The watcher of a repository, when it is watched. */
  watcherOf(id: string): RepositoryWatcher | undefined {
    return this.watchers.get(id)?.watcher;
  }

  lane(id: string): SerialLane {
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = new SerialLane();
      this.lanes.set(id, lane);
    }
    return lane;
  }

  ensureWatcher(row: RepositoryRow): void {
    const id = row.repository_id;
    if (!this.ctx.opts.watch || !this.ctx.started || this.unwatched.has(id) || this.watchers.has(id)) return;
    const watcher = new RepositoryWatcher({
      repositoryId: id,
      root: row.path,
      lane: this.lane(id),
      door: this.ctx.deps?.door,
      ownerId: () => {
        const current = this.ctx.store.byId(id);
        return current ? this.parts.ownerFor(current) : undefined;
      },
      isReachable: () => this.parts.checkReachability(id)?.status === 'active',
      onRootEvent: (why) => this.onRootEvent(id, why),
      stabilityMs: this.ctx.opts.stabilityMs,
      unlinkGraceMs: this.ctx.opts.unlinkGraceMs,
      polling: this.ctx.opts.polling,
      log: this.ctx.log.child({ repository_id: id, part: 'watcher' }),
    });
    const failed = (err: unknown) =>
      this.ctx.log.warn({ repository_id: id, err }, 'watching the repository failed; periodic scans still catch changes');
    let ready: Promise<void>;
    try {
      ready = watcher.start().catch(failed);
    } catch (err) {
      failed(err);
      return;
    }
    this.watchers.set(id, { watcher, ready });
  }

  async stopWatcher(id: string): Promise<void> {
    const w = this.watchers.get(id);
    if (!w) return;
    this.watchers.delete(id);
    await w.watcher.close();
  }

  /** The folder itself disappeared or reappeared, or the watcher failed: check it shortly. */
  private onRootEvent(id: string, why: string): void {
    if (this.rootEventTimers.has(id)) return;
    const t = setTimeout(() => {
      this.rootEventTimers.delete(id);
      if (!this.ctx.started) return;
      this.ctx.log.debug({ repository_id: id, why }, 'checking the repository folder');
      try {
        this.parts.checkReachability(id);
      } catch (err) {
        this.ctx.log.error({ err, repository_id: id }, 'checking a repository failed');
      }
    }, 200);
    t.unref();
    this.rootEventTimers.set(id, t);
  }

  /**
   * Resolves when the repository's watcher (if any) delivers events, or after WATCHER_READY_MAX_MS
   * (a huge tree or a slow share: the scan goes on, and the periodic scans catch what it misses).
   */
  async watcherReady(id: string, signal: AbortSignal): Promise<void> {
    const w = this.watchers.get(id);
    if (!w) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      w.ready,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.ctx.log.warn({ repository_id: id }, 'the folder watcher is still listing the repository; scanning without waiting for it');
          resolve();
        }, WATCHER_READY_MAX_MS);
        onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    signal.throwIfAborted();
  }

  /** Resolves when every watcher started so far delivers events. */
  async watchersReady(): Promise<void> {
    await Promise.all([...this.watchers.values()].map((w) => w.ready));
  }

  isWatching(id: string): boolean {
    return this.watchers.has(id);
  }

  /** Stops watching one repository until startWatching (scans go on). */
  async stopWatching(id: string): Promise<void> {
    this.unwatched.add(id);
    await this.stopWatcher(id);
  }

  async startWatching(id: string): Promise<void> {
    this.unwatched.delete(id);
    const row = this.ctx.store.byId(id);
    if (row?.status === 'active') this.ensureWatcher(row);
    await this.watchers.get(id)?.ready;
  }

  /** Resolves when the watcher and scans of a repository have no catalog write pending. */
  async whenSettled(id: string): Promise<void> {
    await this.lanes.get(id)?.idle();
  }

  /** Stops every watcher and lets their pending catalog writes finish (at most 2 s). */
  async stopAll(): Promise<void> {
    for (const t of this.rootEventTimers.values()) clearTimeout(t);
    this.rootEventTimers.clear();
    const ids = [...this.watchers.keys()];
    await Promise.all(ids.map((id) => this.stopWatcher(id)));
    // Let a catalog write of the watchers finish before the catalog closes (scans are stopped by the runner).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.lanes.values()].map((l) => l.idle())),
      new Promise((resolve) => (timer = setTimeout(resolve, 2000))),
    ]);
    clearTimeout(timer);
  }
}
