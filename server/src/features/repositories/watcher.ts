/**
 * Folder watching for one repository: file changes reach the catalog within seconds, between scans.
 *
 * - add / change (reported once the file has stopped changing, see adapters/fs/watch.ts) →
 *   the door (`door.admit`, source `watch`). A new path whose content is that of a catalogued file
 *   whose own path is gone is a move: the catalog writer keeps the asset (id, albums, likes) and takes the
 *   new path, and the new name when the file itself was renamed.
 * - an add the door caused itself (a file an upload or an import commits here) → passed over: the door catalogues
 *   it (features/intake/own-commits.ts).
 * - unlink → held, and applied (`door.missing`, the Trash with reason `missing`) only once
 *   no unlink came for `unlinkGraceMs` AND no write is in flight anywhere in the tree (bounded by
 *   MAX_UNLINK_WAIT_MS). A move shows up as unlink(old) and add(new) in either order, the add only
 *   once the new file is quiet; waiting for the tree to be quiet means the add is indexed (and the
 *   asset moved) before the removal is looked at, so a renamed or moved file, or every file of a
 *   renamed folder, never passes through the Trash. A path that is back, or whose asset has
 *   moved on, is not marked missing.
 * - Before anything is marked missing the repository is checked again: when the folder itself
 *   went away (disk unplugged, share unmounted, folder deleted), chokidar reports every file as
 *   unlinked; those are dropped, the repository is reported offline and nothing leaves the catalog.
 * - A file that changed again while it was being hashed (FileChangingError) is left: its write
 *   will be reported again once it is quiet.
 *
 * All catalog writes of a repository run one at a time through its SerialLane, shared with scans.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watchTree, type TreeEvent, type TreeWatcher } from '../../adapters/fs/watch.ts';
import type { Logger } from '../../platform/logger.ts';
import { FileChangingError } from '../assets/index.ts';
import type { CatalogDoor } from '../intake/index.ts';
import { isIgnoredRel } from './ignore.ts';

/** Runs async tasks one after another, in the order they were given. */
export class SerialLane {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(task: () => T | Promise<T>): Promise<T> {
    this.pending++;
    const p = this.tail.then(task);
    this.tail = p.then(
      () => this.pending--,
      () => this.pending--,
    );
    return p;
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once every task given so far (and any given meanwhile) has finished. */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}

export interface RepositoryWatcherOptions {
  repositoryId: string;
  root: string;
  lane: SerialLane;
  door: CatalogDoor | undefined;
  /** Owner of new assets; undefined while the installation has no administrator. */
  ownerId: () => number | undefined;
  /** Re-checks the repository folder; false when it is gone or unreadable. */
  isReachable: () => boolean;
  /** The root folder itself disappeared or came back, or the watcher failed. */
  onRootEvent: (why: string) => void;
  stabilityMs: number;
  unlinkGraceMs: number;
  log: Logger;
  polling?: boolean;
}

/** Removals wait for writes in flight at most this long (a long copy elsewhere must not hold a deletion forever). */
const MAX_UNLINK_WAIT_MS = 60_000;
/** How often a held removal looks again whether the tree has become quiet. */
const QUIET_POLL_MS = 100;

export class RepositoryWatcher {
  private tree: TreeWatcher | null = null;
  private readonly pendingUnlinks = new Set<string>();
  private unlinkTimer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private lastUnlinkAt = 0;
  private closed = false;

  constructor(private readonly o: RepositoryWatcherOptions) {}

  /** Starts watching; resolves once events are being delivered. */
  start(): Promise<void> {
    this.tree = watchTree(this.o.root, {
      ignore: isIgnoredRel,
      stabilityMs: this.o.stabilityMs,
      polling: this.o.polling ?? false,
      // A file the door is committing (an upload, an import) is catalogued by the door itself.
      ownWrite: (rel) => this.o.door?.ownCommit(this.o.repositoryId, rel) ?? false,
      onEvent: (e) => this.onEvent(e),
      onError: (err) => {
        const code = (err as { code?: string }).code;
        this.o.log.warn(
          { err: err.message, code },
          code === 'ENOSPC'
            ? 'folder watching hit the system limit of watched folders (raise fs.inotify.max_user_watches); periodic scans still catch changes'
            : 'folder watcher error',
        );
        this.o.onRootEvent('watcher error');
      },
    });
    return this.tree.ready;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.unlinkTimer) clearTimeout(this.unlinkTimer);
    this.unlinkTimer = null;
    // Dropped, not applied: the scan at the next start reconciles what was pending.
    this.pendingUnlinks.clear();
    await this.tree?.close();
  }

  private onEvent(e: TreeEvent): void {
    if (this.closed) return;
    switch (e.type) {
      case 'add':
      case 'change':
        if (e.rel === '') return;
        this.pendingUnlinks.delete(e.rel);
        this.o.lane.run(() => this.index(e.rel)).catch((err: unknown) => this.failed(err, e.rel));
        return;
      case 'unlink':
        if (e.rel === '') return;
        this.pendingUnlinks.add(e.rel);
        this.armUnlinkTimer();
        return;
      case 'unlinkDir':
      case 'addDir':
        if (e.rel === '') this.o.onRootEvent(e.type === 'unlinkDir' ? 'folder removed' : 'folder back');
        return;
    }
  }

  private armUnlinkTimer(): void {
    const now = Date.now();
    if (!this.unlinkTimer) this.firstPendingAt = now;
    else clearTimeout(this.unlinkTimer);
    this.lastUnlinkAt = now;
    this.unlinkTimer = setTimeout(() => this.unlinkTimerFired(), this.o.unlinkGraceMs);
    this.unlinkTimer.unref();
  }

  /** The grace is over: apply the removals once nothing is being written (see the file's doc). */
  private unlinkTimerFired(): void {
    this.unlinkTimer = null;
    if (this.closed || this.pendingUnlinks.size === 0) return;
    const now = Date.now();
    const waitedTooLong = now - this.firstPendingAt >= MAX_UNLINK_WAIT_MS;
    const graceLeft = this.lastUnlinkAt + this.o.unlinkGraceMs - now;
    if (!waitedTooLong && (graceLeft > 0 || this.writesInFlight > 0)) {
      this.unlinkTimer = setTimeout(() => this.unlinkTimerFired(), Math.max(QUIET_POLL_MS, graceLeft));
      this.unlinkTimer.unref();
      return;
    }
    // Queued behind every add already reported, so a move's new path is indexed first. Only the
    // removals due now: one seen while this waits in the lane gets its own grace.
    const due = [...this.pendingUnlinks];
    this.pendingUnlinks.clear();
    this.o.lane.run(() => this.applyUnlinks(due)).catch((err: unknown) => this.failed(err));
  }

  /** Files seen changing in the tree whose writes have not settled yet. */
  get writesInFlight(): number {
    return this.tree?.writesInFlight ?? 0;
  }

  /**
   * Resolves once no write is in flight in the tree (or after `maxMs`), so that what the watcher is
   * about to report is in the lane before a scan decides what is missing.
   */
  async quiet(maxMs = MAX_UNLINK_WAIT_MS): Promise<void> {
    const until = Date.now() + maxMs;
    while (!this.closed && this.writesInFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, QUIET_POLL_MS));
  }

  private failed(err: unknown, rel?: string): void {
    if (this.closed) return; // the catalog may be closing with the server
    this.o.log.warn({ err, path: rel }, 'handling a watched change failed (the next scan reconciles)');
  }

  private async applyUnlinks(rels: string[]): Promise<void> {
    if (rels.length === 0 || this.closed) return;
    if (!this.o.isReachable()) {
      this.o.log.warn({ files: rels.length }, 'repository unreachable: removals seen by the watcher are ignored');
      return;
    }
    const door = this.o.door;
    if (!door) return;
    for (const rel of rels) {
      if (fs.existsSync(path.join(this.o.root, ...rel.split('/')))) continue; // back already
      try {
        if (door.missing(this.o.repositoryId, rel)) this.o.log.info({ path: rel }, 'file removed from a watched repository');
      } catch (err) {
        this.o.log.warn({ err, path: rel }, 'marking a removed file missing failed');
      }
    }
  }

  private async index(rel: string): Promise<void> {
    if (this.closed) return;
    const door = this.o.door;
    const ownerId = this.o.ownerId();
    if (!door || ownerId === undefined) {
      this.o.log.debug({ path: rel }, 'file change not indexed: no catalog door or no owner yet (the next scan will)');
      return;
    }
    try {
      const out = await door.admit({ source: 'watch', ownerId, repository: { repository_id: this.o.repositoryId, path: this.o.root }, file: { kind: 'in-place', relPath: rel } });
      this.o.log.debug({ path: rel, outcome: out.outcome }, 'watched file indexed');
    } catch (err) {
      if (err instanceof FileChangingError) {
        this.o.log.debug({ path: rel }, 'watched file changed while it was read: indexed once its write settles');
        return;
      }
      this.o.log.warn({ err, path: rel }, 'indexing a watched file failed (the next scan retries)');
    }
  }
}
