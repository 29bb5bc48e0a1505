/**
 * Repositories: folders of media that Hearth indexes in place, never moving or rewriting a file.
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
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describeFsError, errnoCode, isSameOrInside, realOrResolved } from '../../adapters/fs/paths.ts';
import type { WalkOptions } from '../../adapters/fs/walk.ts';
import type { SettingsStore } from '../../config/settings.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Invalid, NotFound } from '../../platform/http/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { PermanentError, type JobContext } from '../../platform/jobs/registry.ts';
import { JobCancelledError, RunnerStoppingError } from '../../platform/jobs/runner.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Ingest } from '../assets/index.ts';
import { MARKER_FILE, MarkerSchema, SYSTEM_DIR, ensureRootMarker, exampleMarker, readMarker, writeMarker, type Marker } from './marker.ts';
import { checkRepositoryFolder, encodeDetail, type Reachability } from './reachability.ts';
import { scanRepository, type ScanJobArgs } from './repositories.jobs.ts';
import { RepositoriesStore, type RepositoryRow, type ScanMode, type ScanRow } from './repositories.store.ts';
import { toRepositoryView, toScanView, type RepositoryScanView, type RepositoryView } from './repositories.view.ts';
import { emptyProblems, encodeScanProblems, renderScanError, scanNote, scanProblemAssets } from './scan-problems.ts';
import { scanRepositoryTree } from './scanner.ts';
import { RepositoryWatcher, SerialLane } from './watcher.ts';

export type { RepositoryRow } from './repositories.store.ts';

export interface RepositoriesDeps {
  jobs: JobQueue;
  settings: Pick<SettingsStore, 'section'>;
  /** The catalog's entry point (built after this service: hence a getter). */
  ingest: () => Ingest | undefined;
  /** The data folder: no repository may be registered inside it (outside the storage root). */
  dataDir?: string;
}

export interface RepositoriesOptions {
  /** Watch active repositories (default true). */
  watch?: boolean;
  /** A file must stop changing for this long before it is indexed (default 1000 ms). */
  stabilityMs?: number;
  /** Removals wait this long, so that a move's unlink and add are seen together (default 2000 ms). */
  unlinkGraceMs?: number;
  /** Scheduler tick: reachability checks and due periodic scans (default 15 s). */
  tickMs?: number;
  /** Stat polling instead of native file events. */
  polling?: boolean;
}

/** A scan waits at most this long for the repository's watcher to finish its initial listing. */
const WATCHER_READY_MAX_MS = 5 * 60_000;

export interface CreateRepositoryInput {
  name: string;
  path: string;
}

export interface ScanRequestResult {
  scan: RepositoryScanView;
  /** False when a scan of the repository was already queued or running: that one is returned. */
  created: boolean;
}

export class RepositoriesService {
  private readonly store: RepositoriesStore;
  private readonly opts: Required<RepositoriesOptions>;
  private readonly watchers = new Map<string, { watcher: RepositoryWatcher; ready: Promise<void> }>();
  private readonly lanes = new Map<string, SerialLane>();
  private readonly notMedia = new Map<string, Map<string, string>>();
  private readonly unwatched = new Set<string>();
  private readonly rootEventTimers = new Map<string, NodeJS.Timeout>();
  private rootIdCache: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private started = false;

  /**
   * How scans read folders. Tests replace it to make a folder fail as root would not (chmod does not
   * stop root); leave undefined in production.
   */
  walkFs: Pick<WalkOptions, 'readDir' | 'stat'> | undefined;

  constructor(
    private readonly db: Db,
    private readonly storageRoot: string,
    private readonly log: Logger,
    private readonly deps?: RepositoriesDeps,
    options: RepositoriesOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.store = new RepositoriesStore(db);
    this.opts = {
      watch: options.watch ?? true,
      stabilityMs: options.stabilityMs ?? 1000,
      unlinkGraceMs: options.unlinkGraceMs ?? 2000,
      tickMs: options.tickMs ?? 15_000,
      polling: options.polling ?? false,
    };
  }

  // ------------------------------------------------------------------ catalog of repositories

  byId(id: string): RepositoryRow | undefined {
    return this.store.byId(id);
  }

  primary(): RepositoryRow | undefined {
    return this.db.prepare("SELECT * FROM repositories WHERE role = 'primary'").get() as RepositoryRow | undefined;
  }

  all(): RepositoryRow[] {
    return this.store.all();
  }

  /**
   * The id of the data folder's storage root (its `.hearth-root` marker, written on first use); null
   * (and logged) when the marker cannot be read or written: root ids are informative, never fatal.
   */
  rootId(): string | null {
    if (this.rootIdCache === null) {
      try {
        this.rootIdCache = ensureRootMarker(this.storageRoot, () => crypto.randomUUID()).id;
      } catch (err) {
        this.log.error({ err }, 'the storage root marker cannot be read or written; repositories are listed without root_id');
        return null;
      }
    }
    return this.rootIdCache;
  }

  /** Creates `<storage>/primary` with its marker and registers it, unless a primary exists. */
  ensurePrimary(): RepositoryRow {
    this.rootId();
    const existing = this.primary();
    if (existing) return existing;
    const dir = path.join(this.storageRoot, 'primary');
    fs.mkdirSync(path.join(dir, SYSTEM_DIR), { recursive: true });
    const marker = fs.existsSync(path.join(dir, MARKER_FILE))
      ? readMarker(dir)
      : { format: 'hearth-repository' as const, version: 1 as const, id: crypto.randomUUID(), name: 'Primary', created_at: new Date().toISOString() };
    if (!fs.existsSync(path.join(dir, MARKER_FILE))) writeMarker(dir, marker);
    const now = this.now();
    this.db
      .prepare('INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(marker.id, marker.name, dir, 'primary', now, now);
    this.log.info({ repository_id: marker.id, path: dir }, 'primary repository created');
    return this.primary()!;
  }

  list(actor: Actor): { repositories: RepositoryView[] } {
    return { repositories: this.views(actor, this.store.all()) };
  }

  /** Repositories an index rebuild can be scoped to: those Hearth can read now. */
  listForReindex(actor: Actor): { repositories: RepositoryView[] } {
    return { repositories: this.views(actor, this.store.all().filter((r) => r.status === 'active')) };
  }

  view(actor: Actor, id: string): RepositoryView {
    const row = this.store.byId(id);
    if (!row) throw new NotFound('No such repository.', 'repository_not_found');
    return this.views(actor, [row])[0]!;
  }

  private views(actor: Actor, rows: RepositoryRow[]): RepositoryView[] {
    const scanning = this.store.scanningIds();
    const storage = realOrResolved(this.storageRoot);
    const rootId = this.rootId();
    return rows.map((r) =>
      toRepositoryView(r, {
        isAdmin: actor.role === 'admin',
        rootId: isSameOrInside(storage, realOrResolved(r.path)) ? rootId : null,
        scanning: scanning.has(r.repository_id),
      }),
    );
  }

  /**
   * Registers an existing folder that already holds a `.hearth-repo` marker. Refuses (409) a folder
   * already registered, a copy of a registered repository (same marker id), and a folder inside or
   * around another repository; refuses (422) a folder without a valid marker, explaining how to make
   * one. Creates only the hidden `.hearth/` folder, then starts watching and queues a first scan.
   */
  create(actor: Actor, input: CreateRepositoryInput): RepositoryView {
    const name = input.name.trim();
    const requested = input.path.trim();
    const bad = (message: string, fieldMessage: string, code = 'invalid_repository_path') =>
      new Invalid(message, [{ field: 'body.path', message: fieldMessage, code }], code);
    if (!path.isAbsolute(requested)) throw bad("Give the folder's absolute path on the server, for example /srv/photos.", 'must be an absolute path');

    let dir: string;
    try {
      dir = fs.realpathSync.native(requested);
      if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      fs.readdirSync(dir);
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOENT') throw bad('There is no folder at this path on the server.', 'no such folder', 'folder_not_found');
      if (code === 'ENOTDIR') throw bad('This path is a file, not a folder.', 'not a folder', 'not_a_folder');
      if (code === 'EACCES' || code === 'EPERM') {
        throw bad('Hearth may not read this folder (permission denied): give the user running Hearth read access.', 'permission denied', 'permission_denied');
      }
      throw bad(`The folder cannot be opened (${describeFsError(e)}).`, describeFsError(e), 'folder_unreadable');
    }

    const existing = this.store.all();
    this.assertPlaceable(dir, existing);
    const marker = this.readMarkerForRegistration(dir, name || path.basename(dir));
    const same = existing.find((r) => r.repository_id === marker.id);
    if (same) {
      throw new Conflict(
        `This folder's ${MARKER_FILE} carries the id of the repository "${same.name}", which is already registered. If the folder is a copy, give its marker a new id (any new UUID) and add it again.`,
        'repository_already_registered',
      );
    }

    const now = this.now();
    try {
      tx(this.db, () => {
        this.store.insert({
          repository_id: marker.id,
          name: name || marker.name,
          path: dir,
          role: 'regular',
          default_owner_id: null,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (e) {
      if (/UNIQUE|PRIMARYKEY/i.test((e as { code?: string }).code ?? '')) throw new Conflict('This repository was registered meanwhile.', 'repository_already_registered');
      throw e;
    }
    try {
      fs.mkdirSync(path.join(dir, SYSTEM_DIR), { recursive: true });
    } catch (e) {
      this.log.warn({ repository_id: marker.id, err: describeFsError(e) }, 'cannot create .hearth/ in the repository (read-only?): uploads and edits to it will fail');
    }
    this.log.info({ repository_id: marker.id, path: dir, by: actor.userId }, 'repository registered');
    const row = this.store.byId(marker.id)!;
    if (this.started) {
      this.refresh(row);
      if (this.store.byId(marker.id)!.status === 'active') this.enqueueScan(actor.userId, marker.id, 'manual', false);
    }
    return this.view(actor, marker.id);
  }

  private assertPlaceable(dir: string, existing: RepositoryRow[]): void {
    for (const r of existing) {
      const other = realOrResolved(r.path);
      if (other === dir) throw new Conflict(`This folder is already registered as the repository "${r.name}".`, 'path_already_registered');
      if (isSameOrInside(other, dir)) {
        throw new Conflict(`This folder is inside the repository "${r.name}": a file can belong to one repository only.`, 'repository_nested');
      }
      if (isSameOrInside(dir, other)) {
        throw new Conflict(`This folder contains the repository "${r.name}": a file can belong to one repository only.`, 'repository_nested');
      }
    }
    const dataDir = this.deps?.dataDir ? realOrResolved(this.deps.dataDir) : null;
    if (dataDir && isSameOrInside(dataDir, dir) && !isSameOrInside(realOrResolved(this.storageRoot), dir)) {
      throw new Conflict("This folder is inside Hearth's data folder (catalog, caches, backups): choose a folder of your own.", 'inside_data_folder');
    }
    if (dataDir && isSameOrInside(dir, dataDir)) {
      throw new Conflict("This folder contains Hearth's data folder: choose a folder of your own.", 'repository_nested');
    }
  }

  private readMarkerForRegistration(dir: string, name: string): Marker {
    const how = `Create a file named ${MARKER_FILE} in the folder with this content (any new UUID as id): ${JSON.stringify(
      exampleMarker(crypto.randomUUID(), name),
    )} and add the folder again. Hearth indexes the files where they are and never moves or rewrites them.`;
    let raw: string;
    try {
      raw = fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8');
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') {
        throw new Invalid(
          `This folder has no ${MARKER_FILE} marker, so it cannot be registered as a repository. ${how}`,
          [{ field: 'body.path', message: `has no ${MARKER_FILE} marker`, code: 'marker_missing' }],
          'marker_missing',
        );
      }
      throw new Invalid(`The ${MARKER_FILE} marker cannot be read (${describeFsError(e)}).`, [{ field: 'body.path', message: 'marker unreadable', code: 'marker_invalid' }], 'marker_invalid');
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Invalid(`The ${MARKER_FILE} marker is not valid JSON. ${how}`, [{ field: 'body.path', message: 'marker is not JSON', code: 'marker_invalid' }], 'marker_invalid');
    }
    const parsed = MarkerSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'marker'}: ${i.message}`).join('; ');
      throw new Invalid(`The ${MARKER_FILE} marker is not a Hearth repository marker (${issues}). ${how}`, [{ field: 'body.path', message: 'marker is invalid', code: 'marker_invalid' }], 'marker_invalid');
    }
    return parsed.data;
  }

  // ------------------------------------------------------------------ reachability and watching

  /** Checks a repository's folder now, records the result, and starts or stops its watcher. */
  checkReachability(id: string): Reachability | undefined {
    const row = this.store.byId(id);
    return row ? this.refresh(row) : undefined;
  }

  private refresh(row: RepositoryRow): Reachability {
    const r = checkRepositoryFolder(row.path, row.repository_id);
    const changed = this.store.setStatus(row.repository_id, r.status, encodeDetail(r), this.now());
    if (changed) {
      if (r.status === 'active') this.log.info({ repository_id: row.repository_id }, 'repository reachable again');
      else this.log.warn({ repository_id: row.repository_id, reachability: r.status, reason: r.reason }, `repository paused: ${r.message}`);
    }
    if (this.started) {
      if (r.status === 'active') {
        this.ensureWatcher(row);
        // Back after being away: reconcile what happened meanwhile.
        if (changed && row.status !== 'active' && this.ownerFor(row) !== undefined) this.enqueueScan(null, row.repository_id, 'periodic', false);
      } else {
        void this.stopWatcher(row.repository_id);
      }
    }
    return r;
  }

  private lane(id: string): SerialLane {
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = new SerialLane();
      this.lanes.set(id, lane);
    }
    return lane;
  }

  private ensureWatcher(row: RepositoryRow): void {
    const id = row.repository_id;
    if (!this.opts.watch || !this.started || this.unwatched.has(id) || this.watchers.has(id)) return;
    const watcher = new RepositoryWatcher({
      repositoryId: id,
      root: row.path,
      lane: this.lane(id),
      ingest: () => this.deps?.ingest(),
      ownerId: () => {
        const current = this.store.byId(id);
        return current ? this.ownerFor(current) : undefined;
      },
      isReachable: () => this.checkReachability(id)?.status === 'active',
      onRootEvent: (why) => this.onRootEvent(id, why),
      stabilityMs: this.opts.stabilityMs,
      unlinkGraceMs: this.opts.unlinkGraceMs,
      polling: this.opts.polling,
      log: this.log.child({ repository_id: id, part: 'watcher' }),
    });
    const failed = (err: unknown) =>
      this.log.warn({ repository_id: id, err }, 'watching the repository failed; periodic scans still catch changes');
    let ready: Promise<void>;
    try {
      ready = watcher.start().catch(failed);
    } catch (err) {
      failed(err);
      return;
    }
    this.watchers.set(id, { watcher, ready });
  }

  private async stopWatcher(id: string): Promise<void> {
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
      if (!this.started) return;
      this.log.debug({ repository_id: id, why }, 'checking the repository folder');
      try {
        this.checkReachability(id);
      } catch (err) {
        this.log.error({ err, repository_id: id }, 'checking a repository failed');
      }
    }, 200);
    t.unref();
    this.rootEventTimers.set(id, t);
  }

  /**
   * Resolves when the repository's watcher (if any) delivers events, or after WATCHER_READY_MAX_MS
   * (a huge tree or a slow share: the scan goes on, and the periodic scans catch what it misses).
   */
  private async watcherReady(id: string, signal: AbortSignal): Promise<void> {
    const w = this.watchers.get(id);
    if (!w) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      w.ready,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.log.warn({ repository_id: id }, 'the folder watcher is still listing the repository; scanning without waiting for it');
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
    const row = this.store.byId(id);
    if (row?.status === 'active') this.ensureWatcher(row);
    await this.watchers.get(id)?.ready;
  }

  /** Resolves when the watcher and scans of a repository have no catalog write pending. */
  async whenSettled(id: string): Promise<void> {
    await this.lanes.get(id)?.idle();
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * At server start: scans left queued or running without a job are closed as failed; every
   * repository is checked; active ones are watched and get a startup scan; the scheduler starts.
   */
  start(): void {
    if (this.started || !this.deps) return;
    this.started = true;
    const now = this.now();
    for (const s of this.store.pendingScans()) {
      if (!this.store.isActiveJobState(this.store.scanJob(s.scan_id)?.state)) {
        this.store.finishScan(s.scan_id, { status: 'failed', error: scanNote('Interrupted: Hearth stopped before this scan finished.') }, now);
      }
    }
    for (const row of this.store.all()) {
      try {
        const r = this.refresh(row);
        if (r.status === 'active' && this.ownerFor(row) !== undefined) this.enqueueScan(null, row.repository_id, 'startup', false);
      } catch (err) {
        this.log.error({ err, repository_id: row.repository_id }, 'starting a repository failed');
      }
    }
    this.timer = setInterval(() => this.tick(), this.opts.tickMs);
    this.timer.unref();
  }

  /** Stops the scheduler and every watcher (scans are jobs: the job runner stops them). */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
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

  /**
   * One scheduler round: re-check every repository; queue a periodic scan for each active one whose
   * last scan finished at least `library.scan_interval_seconds` ago (never a second one while one is
   * queued or running).
   */
  tick(now = this.now()): void {
    if (!this.started || !this.deps || !this.db.open) return;
    const interval = this.deps.settings.section('library').scan_interval_seconds * 1000;
    for (const row of this.store.all()) {
      try {
        if (this.refresh(row).status !== 'active' || this.ownerFor(row) === undefined) continue;
        if (this.store.pendingScan(row.repository_id)) continue;
        const last = this.store.latestScan(row.repository_id);
        if (!last || (last.finished_at ?? last.created_at) + interval <= now) this.enqueueScan(null, row.repository_id, 'periodic', false);
      } catch (err) {
        this.log.error({ err, repository_id: row.repository_id }, 'scheduling a scan failed');
      }
    }
  }

  /** Who owns files found in a repository: its default owner, else the oldest active administrator. */
  ownerFor(row: RepositoryRow): number | undefined {
    if (row.default_owner_id !== null && this.store.userIsActive(row.default_owner_id)) return row.default_owner_id;
    return this.store.firstAdminId();
  }

  // ------------------------------------------------------------------ scans

  /** Queues a scan (or returns the one already queued or running). Members may ask too. */
  requestScan(actor: Actor, id: string, body: { force?: boolean | undefined }): ScanRequestResult {
    if (!this.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const { scan, created } = this.enqueueScan(actor.userId, id, 'manual', body.force ?? false);
    return { scan: this.scanView(actor, scan), created };
  }

  listScans(actor: Actor, id: string, limit: number, offset: number) {
    if (!this.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const { rows, total } = this.store.listScans(id, limit, offset);
    return { scans: rows.map((s) => this.scanView(actor, s)), limit, offset, total };
  }

  latestScan(actor: Actor, id: string): { scan: RepositoryScanView | null } {
    if (!this.store.byId(id)) throw new NotFound('No such repository.', 'repository_not_found');
    const s = this.store.latestScan(id);
    return { scan: s ? this.scanView(actor, s) : null };
  }

  /** A scan as `actor` may read it: its problems name only what the reader may know (scan-problems.ts). */
  private scanView(actor: Actor, s: ScanRow): RepositoryScanView {
    const pending = s.status === 'queued' || s.status === 'running';
    const owners = this.store.assetOwners(scanProblemAssets(s.error));
    const error = renderScanError(s.error, { userId: actor.userId, isAdmin: actor.role === 'admin' }, owners);
    return toScanView({ ...s, error }, pending ? this.store.scanJob(s.scan_id) : undefined);
  }

  private enqueueScan(requestedBy: number | null, id: string, mode: ScanMode, force: boolean): { scan: ScanRow; created: boolean } {
    if (!this.deps) throw new Error('repositories: scanning needs the job queue');
    const jobs = this.deps.jobs;
    return tx(this.db, () => {
      const pending = this.store.pendingScan(id);
      if (pending) {
        const job = this.store.scanJob(pending.scan_id);
        if (this.store.isActiveJobState(job?.state)) return { scan: pending, created: false };
        // Its job was cancelled or deleted without it: close it so the repository is not stuck.
        this.store.finishScan(
          pending.scan_id,
          job?.state === 'cancelled' ? { status: 'cancelled', error: scanNote('Cancelled.') } : { status: 'failed', error: scanNote('Interrupted: its job ended without running it.') },
          this.now(),
        );
      }
      const scanId = crypto.randomUUID();
      this.store.insertScan({ scan_id: scanId, repository_id: id, mode, requested_by: requestedBy, created_at: this.now() });
      const args: ScanJobArgs = { scan_id: scanId, repository_id: id, force };
      const { job, inserted } = jobs.enqueue(scanRepository, args, { ownerId: requestedBy });
      if (!inserted) {
        // A job of this repository is still active for another scan row: that scan is the one.
        this.db.prepare('DELETE FROM repository_scans WHERE scan_id = ?').run(scanId);
        const other = this.store.scan((job.args as ScanJobArgs).scan_id);
        if (other) return { scan: other, created: false };
        throw new Conflict('A scan of this repository is already under way.', 'scan_in_progress');
      }
      return { scan: this.store.scan(scanId)!, created: true };
    });
  }

  /** The `repositories.scan-repository` job. */
  async runScan(args: ScanJobArgs, ctx: JobContext): Promise<unknown> {
    const scan = this.store.scan(args.scan_id);
    if (!scan || (scan.status !== 'queued' && scan.status !== 'running')) return { scan_id: args.scan_id, skipped: 'the scan is no longer pending' };
    const fail = (error: string) => {
      this.store.finishScan(args.scan_id, { status: 'failed', error: scanNote(error) }, this.now());
      return { scan_id: args.scan_id, status: 'failed', error };
    };
    const repo = this.store.byId(args.repository_id);
    if (!repo) return fail('The repository is no longer registered.');
    this.store.markRunning(args.scan_id, this.now());
    const reach = this.refresh(repo);
    if (reach.status !== 'active') return fail(`Not scanned: ${reach.message}`);
    const ingest = this.deps?.ingest();
    if (!ingest) return fail('Not scanned: the catalog ingest service is not available.');
    const ownerId = this.ownerFor(repo);
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
      await this.watcherReady(repo.repository_id, ctx.signal);
      const watcher = this.watchers.get(repo.repository_id)?.watcher;
      const out = await scanRepositoryTree({
        repositoryId: repo.repository_id,
        root: repo.path,
        ownerId,
        force: args.force,
        ingest,
        lane: this.lane(repo.repository_id),
        catalog: () => this.store.catalog(repo.repository_id),
        isReachable: () => this.checkReachability(repo.repository_id)?.status === 'active',
        stabilityMs: this.opts.stabilityMs,
        watcherQuiet: watcher ? () => watcher.quiet() : undefined,
        notMedia,
        walkFs: this.walkFs,
        signal: ctx.signal,
        progress: (f, m) => ctx.progress(f, m),
        onCounts: (c) => this.store.saveCounts(args.scan_id, c),
      });
      this.store.finishScan(args.scan_id, { status: 'completed', counts: out.counts, complete_walk: out.completeWalk, error: out.error }, this.now());
      ctx.log.info({ repository_id: repo.repository_id, ms: Date.now() - started, complete_walk: out.completeWalk, ...out.counts }, 'repository scanned');
      return { scan_id: args.scan_id, complete_walk: out.completeWalk, ...out.counts };
    } catch (e) {
      if (!this.db.open) throw e;
      const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : undefined;
      if (reason instanceof JobCancelledError) {
        this.store.finishScan(args.scan_id, { status: 'cancelled', error: scanNote('Cancelled.') }, this.now());
        throw e;
      }
      if (reason instanceof RunnerStoppingError) {
        this.store.requeueScan(args.scan_id); // runs again at the next start
        throw e;
      }
      const message = (e instanceof Error ? e.message : String(e)).split(repo.path).join('');
      this.store.finishScan(args.scan_id, { status: 'failed', error: encodeScanProblems({ ...emptyProblems(), failure: message }) }, this.now());
      if (reason) throw e; // timeout: the runner records it
      throw new PermanentError(message, { cause: e });
    }
  }
}
