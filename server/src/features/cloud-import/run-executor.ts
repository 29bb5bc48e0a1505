/**
 * One import run at work (the `cloud-import.run` job): list the source, decide per file, fetch what is new into the
 * repository's staging area, and hand each file with its source facts to the one door into the catalog
 * (features/intake). The door owns deduplication, the no-overwrite commit and crash safety; this file owns the
 * run's bookkeeping: cursors, counters, the report.
 *
 * Per file, in this order:
 * 1. already handled by this run (a resumed run) → passed over, counted before;
 * 2. a name that cannot be stored, or not a photo/video/audio name (media-names.ts) → `skipped` with its reason;
 * 3. the source's cursor holds this version → `unchanged` (not fetched). A person's deletion stands: an item
 *    imported before whose photo was deleted is not brought back by the next run;
 * 4. fetched into `.hearth/staging/imports/<run>/<item>` (resumed from the bytes already there: HTTP Range),
 *    retried with backoff on failures the provider calls retryable, then hashed and admitted:
 *    `created`/`restored` → `imported`; content the member already has → `skipped` (`already_in_library`, its
 *    facts heard again by the door); not a readable media file → `skipped` (`unsupported`);
 * 5. anything else that goes wrong with one file → `failed` with its reason; the run goes on.
 * The cursor and the run's file record are written together after the door answered, so a kill between the
 * commit and them makes the resumed run fetch the file again and the door answer "already there" for it: every
 * file is catalogued once.
 *
 * Pairs (issue 28): an item the source calls an edited copy (`editOf`) or a companion (`companionOf`: a Live
 * Photo's clip, a RAW alternative) of another is paired with it through the door once both are assets, by the
 * source's cursors (`pairUp`), in the same transaction as the cursor: whichever of the two arrives second states it.
 *
 * The run fails as a whole only when the source cannot be listed (signed out, unreachable): the credential then
 * shows the provider's refusal. Counters are flushed every second and at the end. One file's bytes never sit in
 * memory: providers stream to disk.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../platform/db/connection.ts';
import type { Logger } from '../../platform/logger.ts';
import { ProviderError, type ListingProblem, type RemoteItem, type RemoteLibrary } from '../../adapters/cloud/provider.ts';
import { DETECT_HEAD_BYTES } from '../../adapters/media/detect.ts';
import { STAGING_DIR, sanitizeFileName, type CatalogDoor, type Intake, type SourceFacts } from '../intake/index.ts';
import type { CredentialsService } from './credentials.service.ts';
import { problem, toStoredProblem, type StoredProblem } from './import-problems.ts';
import { badRemoteName, mayBeMedia } from './media-names.ts';
import type { ProviderRegistry } from './providers.ts';
import type { FileOutcome, RunCounters, RunRow, RunsStore } from './runs.store.ts';
import { openTakeout } from '../../adapters/cloud/takeout/index.ts';
import { TAKEOUT_PROVIDER, isUntitledAlbum, resolveParts } from './takeout-source.ts';

/**
 * What an import does for its member after a file came in, beyond the door's facts (the container builds it over
 * the assets and tags features, acting as the member): the source's trash and its names for people.
 */
export interface ImportFollowUps {
  /** Moves the member's asset to the Trash (the source had it in its trash). */
  trash(ownerId: number, assetId: string): void;
  /** Tags the member's asset with these names (people named at the source, "Archived"). */
  tag(ownerId: number, assetId: string, names: readonly string[]): void;
}

/** The tag an item archived at its source gets: Hearth has no archive of its own, and the tag lets it be found. */
export const ARCHIVED_TAG = 'Archived';

/** Where a run's downloads wait inside the repository (cleared when the run ends, kept while it can resume). */
export const IMPORT_STAGING = path.join(STAGING_DIR, 'imports');

/** The repositories as an import needs them (features/repositories' service). */
export interface RepositoryLookup {
  byId(id: string): { repository_id: string; name: string; path: string; status: string } | undefined;
  all(): { repository_id: string; path: string }[];
}

export interface ExecutorDeps {
  db: Db;
  repositories: RepositoryLookup;
  runs: RunsStore;
  credentials: CredentialsService;
  providers: ProviderRegistry;
  door: CatalogDoor;
  intake: Pick<Intake, 'hashFile'>;
  log: Logger;
  now: () => number;
  followUps?: ImportFollowUps;
  /** Files handled at once (default: REMOTE_FILES_AT_ONCE, or LOCAL_FILES_AT_ONCE for archives on this machine). */
  concurrency?: number;
  /** Attempts per file for retryable failures (default 4) and the first backoff (default 1 s, doubling). */
  attempts?: number;
  backoffMs?: number;
}

export interface RunControl {
  signal: AbortSignal;
  progress(fraction: number, message?: string): void;
}

const FLUSH_MS = 1000;

/**
 * Files in flight at once from a remote (WebDAV, iCloud): 4, as rclone's default transfers. A home connection and a
 * NAS serve a few streams best; more only queue at the remote.
 */
export const REMOTE_FILES_AT_ONCE = 4;
/**
 * Files in flight at once from archives on this machine (Takeout): 6. Each file's time is mostly waiting (the
 * thread pool, the hash worker, the commit's flush, the event loop while indexing runs beside), not work, so more
 * in flight is more throughput; each holds at most one entry in memory (8 MiB, takeout/zip-part.ts).
 */
export const LOCAL_FILES_AT_ONCE = 6;

export class RunExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  /** Runs (or resumes) the run. Returns when it is completed, failed or stopped by its signal. */
  async execute(runId: string, ctl: RunControl): Promise<void> {
    const { runs, now } = this.deps;
    const run = runs.get(runId);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return; // cancelled or interrupted meanwhile
    runs.setStatus(runId, 'running', now(), { started: true, problem: null });
    const work = new RunWork(this.deps, run, ctl);
    try {
      await work.go();
    } finally {
      work.flush();
    }
  }
}

/** The state of one execution of a run. */
class RunWork {
  private readonly counters: RunCounters;
  private readonly handled: Set<string>;
  private readonly staging: string;
  private lastFlush = 0;
  private readonly log: Logger;
  private readonly scope: Record<string, string>;

  constructor(
    private readonly deps: ExecutorDeps,
    private readonly run: RunRow,
    private readonly ctl: RunControl,
  ) {
    // Counted again from the run's file record: the flushed counters may lag behind a kill (a resumed run).
    this.counters = { ...deps.runs.countedFiles(run.run_id), downloaded_count: run.downloaded_count, downloaded_bytes: run.downloaded_bytes };
    this.handled = deps.runs.handled(run.run_id);
    const repo = deps.repositories.byId(run.repository_id);
    this.staging = repo ? path.join(repo.path, IMPORT_STAGING, run.run_id) : '';
    this.log = deps.log.child({ run_id: run.run_id });
    this.scope = JSON.parse(run.remote_scope) as Record<string, string>;
  }

  async go(): Promise<void> {
    const { runs, credentials, providers, now } = this.deps;
    const run = this.run;
    const repo = this.deps.repositories.byId(run.repository_id);
    if (!repo || repo.status !== 'active') return this.fail(problem('repository_unavailable', 503, 'The repository cannot be reached right now. Resume the import when it is back.', true));
    await fs.promises.mkdir(this.staging, { recursive: true });
    let library: RemoteLibrary | undefined;
    let credentialId: string | null = null;
    try {
      if (run.provider === TAKEOUT_PROVIDER) {
        const parts = JSON.parse(this.scope.parts ?? '[]') as string[];
        library = await openTakeout(await resolveParts(repo.path, parts), { workDir: path.join(this.staging, 'work'), signal: this.ctl.signal });
      } else {
        const cred = run.credential_id ? credentials.store.get(run.credential_id) : undefined;
        if (!cred) return this.fail(problem('cloud_credential_not_found', 409, 'The connection this import used was removed.'));
        if (cred.status !== 'connected') return this.fail(problem('credential_not_connected', 409, `${cred.display_name} is not connected. Reconnect it, then resume the import.`));
        const provider = providers.find(cred.provider);
        if (!provider) return this.fail(problem('unknown_provider', 409, `This server no longer offers ${cred.provider} imports.`));
        credentialId = cred.credential_id;
        library = provider.open(credentials.stateOf(cred), this.scope, (s) => credentials.saveState(cred.credential_id, s));
      }
      await this.pump(library);
    } catch (e) {
      if (this.ctl.signal.aborted) return this.stopped();
      const p = toStoredProblem(e);
      if (credentialId && e instanceof ProviderError && (e.code === 'auth_failed' || e.code === 'session_expired' || e.code === 'web_access_off')) credentials.markFailed(credentialId, p);
      this.log.warn({ code: p.code }, 'import run failed');
      return this.fail(p);
    } finally {
      await library?.close().catch(() => undefined);
    }
    if (this.ctl.signal.aborted) return this.stopped();
    this.flush();
    if (runs.transition(run.run_id, ['running'], 'completed', now(), { finished: true, problem: null })) {
      await fs.promises.rm(this.staging, { recursive: true, force: true }).catch(() => undefined);
      this.log.info(this.counters, 'import run completed');
    }
  }

  /** Lists and handles files with a few at a time in flight; the listing itself is pulled by the workers. */
  private async pump(library: RemoteLibrary): Promise<void> {
    const it = library.list(this.ctl.signal)[Symbol.asyncIterator]();
    const worker = async () => {
      for (;;) {
        if (this.ctl.signal.aborted) return;
        const next = await it.next();
        if (next.done) return;
        await this.handle(library, next.value);
      }
    };
    const width = this.deps.concurrency ?? (this.run.provider === TAKEOUT_PROVIDER ? LOCAL_FILES_AT_ONCE : REMOTE_FILES_AT_ONCE);
    this.admitWidth = width;
    await Promise.all(Array.from({ length: width }, worker));
    await Promise.all(this.admitting);
  }

  /**
   * Admissions run beside the downloads: a worker hands its staged file over and fetches the next one, so the
   * remote keeps `width` streams busy while files already here are hashed and committed (each file's time is about
   * half fetch, half admission, and both are mostly waiting). At most `width` admissions at once: a worker waits for
   * a slot before handing over, so staged files stay bounded at twice the width.
   */
  private readonly admitting = new Set<Promise<void>>();
  private admitWidth = 1;

  private async handOver(item: RemoteItem, staged: string): Promise<void> {
    while (this.admitting.size >= this.admitWidth) await Promise.race(this.admitting);
    const admission: Promise<void> = this.admit(item, staged)
      .catch((e: unknown) => {
        if (this.ctl.signal.aborted) return; // not handled: a resume does it
        const p = toStoredProblem(e);
        this.record(item, 'failed', p.code, p.detail);
      })
      .finally(() => this.admitting.delete(admission));
    this.admitting.add(admission);
  }

  private async handle(library: RemoteLibrary, entry: RemoteItem | ListingProblem): Promise<void> {
    if ('problem' in entry) {
      const id = `listing:${entry.where}`;
      if (this.handled.has(id)) return;
      return this.record({ id, name: path.posix.basename(entry.where) || entry.where, folder: [], size: null }, 'skipped', 'listing_problem', entry.reason);
    }
    const item = entry;
    if (this.handled.has(item.id)) return;
    this.counters.total_seen++;
    const bad = badRemoteName(item.name);
    if (bad) return this.record(item, 'skipped', 'bad_name', bad);
    if (!mayBeMedia(item.name)) return this.record(item, 'skipped', 'not_media', 'Not a photo, video or audio file by its name.');
    const cursor = this.deps.runs.cursor(this.run.source_key, item.id);
    if (cursor && cursor.version === item.version) {
      // Brought in before: its pair is stated again if it never was (a run before pairs existed); a no-op otherwise.
      this.pairUp(item, cursor.asset_id);
      return this.record(item, 'unchanged', null, null, cursor.asset_id);
    }
    try {
      const staged = await this.fetch(library, item);
      await this.handOver(item, staged);
    } catch (e) {
      if (this.ctl.signal.aborted) return; // not handled: a resume does it
      const p = toStoredProblem(e);
      this.record(item, 'failed', p.code, p.detail);
    }
  }

  /** Downloads into the run's staging, resuming from what is there, retrying what the provider says may pass. */
  private async fetch(library: RemoteLibrary, item: RemoteItem): Promise<string> {
    const dest = path.join(this.staging, crypto.createHash('sha256').update(item.id).digest('hex').slice(0, 32));
    const attempts = this.deps.attempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      const offset = await fs.promises.stat(dest).then((s) => s.size, () => 0);
      try {
        await library.download(item, dest, { offset, signal: this.ctl.signal });
        break;
      } catch (e) {
        if (!(e instanceof ProviderError) || !e.retryable || attempt >= attempts || this.ctl.signal.aborted) throw e;
        this.log.info({ item: item.id, attempt, code: e.code }, 'download failed; trying again');
        await sleep((this.deps.backoffMs ?? 1000) * 2 ** (attempt - 1), this.ctl.signal);
      }
    }
    const size = (await fs.promises.stat(dest)).size;
    this.counters.downloaded_count++;
    this.counters.downloaded_bytes += size;
    return dest;
  }

  private async admit(item: RemoteItem, staged: string): Promise<void> {
    const size = (await fs.promises.stat(staged)).size;
    const { hash } = await this.deps.intake.hashFile(staged, size);
    const head = await readHead(staged);
    const repo = this.deps.repositories.byId(this.run.repository_id)!;
    const out = await this.deps.door.admit({
      source: 'import',
      ownerId: this.run.owner_id,
      repository: { repository_id: repo.repository_id, path: repo.path },
      file: { kind: 'staged', path: staged, hash, size, head },
      facts: this.factsOf(item),
      ref: `import:${this.run.run_id}:${crypto.createHash('sha256').update(item.id).digest('hex').slice(0, 16)}`,
    });
    await fs.promises.rm(staged, { force: true }); // the door took it or left it; either way it is no longer ours
    let outcome: FileOutcome;
    let code: string | null = null;
    let reason: string | null = null;
    let assetId: string | null = null;
    switch (out.outcome) {
      case 'created':
      case 'restored':
      case 'moved':
        outcome = 'imported';
        assetId = out.assetId;
        break;
      case 'updated':
      case 'unchanged':
      case 'duplicate':
        outcome = 'skipped';
        code = 'already_in_library';
        reason = 'You already have this photo or video (the same bytes): it was not stored twice.';
        assetId = out.assetId;
        break;
      case 'unsupported':
        outcome = 'skipped';
        code = 'unsupported';
        reason = out.reason;
        break;
    }
    if (outcome === 'imported' && assetId) this.followUp(item, assetId);
    const said = saidOf(item);
    this.deps.db.transaction(() => {
      this.deps.runs.saveCursor({
        source_key: this.run.source_key,
        remote_id: item.id,
        version: item.version,
        asset_id: assetId,
        content_hash: hash,
        run_id: this.run.run_id,
        updated_at: this.deps.now(),
        pair_with: said?.with ?? null,
        pair_as: said?.as ?? null,
      });
      this.pairUp(item, assetId);
      this.record(item, outcome, code, reason, assetId, size);
    })();
  }

  /**
   * States the pairs this item completes (an edited copy and its original, a Live Photo's clip and its still) to the
   * door, by the source's cursors: the item's own partner when it is in already, and the items of this source that
   * said they belong with this one and came in before it (earlier in the run, in an earlier run). So whichever of
   * the two arrives second states the pair, and saying it again is a no-op (features/assets/ingest/source-pairs.ts).
   * Whether the file was new or one the member had does not matter: it is a fact about the two files, not a
   * decision of the member's. A refusal or failure is logged, not the file's: the file is in.
   */
  private pairUp(item: RemoteItem, assetId: string | null): void {
    if (!assetId) return;
    const { runs, door } = this.deps;
    const pairs: { assetId: string; partnerId: string; as: 'edit' | 'companion' }[] = [];
    const said = saidOf(item);
    const partner = said ? runs.cursor(this.run.source_key, said.with)?.asset_id : null;
    if (said && partner) pairs.push({ assetId, partnerId: partner, as: said.as });
    for (const waiting of runs.pairedWith(this.run.source_key, item.id)) {
      if (waiting.asset_id && waiting.pair_as) pairs.push({ assetId: waiting.asset_id, partnerId: assetId, as: waiting.pair_as });
    }
    for (const p of pairs) {
      try {
        door.pair({ ownerId: this.run.owner_id, source: `import:${this.run.provider}`, ...p });
      } catch (e) {
        this.log.warn({ err: e, item: item.id }, 'pairing an imported file with its original or still failed');
      }
    }
  }

  /**
   * What the source says beyond the door's facts, for a file this run brought in (never for one the member had:
   * their Trash and tags are theirs to decide). A failure here is logged, not the file's: the photo is in.
   */
  private followUp(item: RemoteItem, assetId: string): void {
    const f = item.facts;
    const tags = [...(f.people ?? []), ...(f.archived ? [ARCHIVED_TAG] : [])];
    try {
      if (tags.length) this.deps.followUps?.tag(this.run.owner_id, assetId, tags);
      if (f.trashed) this.deps.followUps?.trash(this.run.owner_id, assetId);
    } catch (e) {
      this.log.warn({ err: e, item: item.id }, 'applying the source’s trash or people to an imported file failed');
    }
  }

  private factsOf(item: RemoteItem): SourceFacts {
    const f = item.facts;
    const albums = (f.albumNames ?? []).filter((a) => this.scope.untitled_albums === 'true' || !isUntitledAlbum(a));
    const name = sanitizeFileName(item.name) ?? undefined;
    return {
      ...(f.capturedAt ? { capturedAt: f.capturedAt } : {}),
      ...(f.gps !== undefined ? { gps: f.gps } : {}),
      ...(f.description ? { description: f.description } : {}),
      ...(f.favorite !== undefined ? { favorite: f.favorite } : {}),
      ...(albums.length ? { albumNames: albums } : {}),
      ...(f.fileModified !== undefined ? { fileModified: f.fileModified } : {}),
      ...(name ? { originalName: name } : {}),
      sourceRef: { source: `${this.run.provider}:${this.run.source_key}`, id: item.id, version: item.version },
    };
  }

  private record(item: Pick<RemoteItem, 'id' | 'name' | 'folder' | 'size'>, outcome: FileOutcome, code: string | null, reason: string | null, assetId: string | null = null, size: number | null = item.size): void {
    const c = this.counters;
    if (outcome === 'imported') c.imported_count++;
    else if (outcome === 'unchanged') c.unchanged_count++;
    else if (outcome === 'skipped') c.skipped_count++;
    else c.failed_count++;
    this.handled.add(item.id);
    this.deps.runs.recordFile({ run_id: this.run.run_id, remote_id: item.id, name: item.name, folder: item.folder.join('/'), outcome, reason_code: code, reason, asset_id: assetId, size, at: this.deps.now() });
    if (this.deps.now() - this.lastFlush >= FLUSH_MS) this.flush();
  }

  flush(): void {
    this.lastFlush = this.deps.now();
    this.deps.runs.flushCounters(this.run.run_id, this.counters, this.lastFlush);
    const c = this.counters;
    const done = c.imported_count + c.unchanged_count + c.skipped_count + c.failed_count;
    this.ctl.progress(c.total_seen ? done / c.total_seen : 0, `${done} of ${c.total_seen} files looked at so far`);
  }

  private fail(p: StoredProblem): void {
    this.flush();
    this.deps.runs.transition(this.run.run_id, ['running', 'queued'], 'failed', this.deps.now(), { problem: p, finished: true });
  }

  /** The signal ended the work: a cancel already set the run's status; a shutdown leaves it to start-up (interrupted). */
  private stopped(): void {
    this.flush();
  }
}

/** What the source says this item belongs with: an edited copy of its original, else a companion of its still or original. */
function saidOf(item: RemoteItem): { with: string; as: 'edit' | 'companion' } | null {
  const f = item.facts;
  if (f.editOf && f.editOf !== item.id) return { with: f.editOf, as: 'edit' };
  if (f.companionOf && f.companionOf !== item.id) return { with: f.companionOf, as: 'companion' };
  return null;
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(DETECT_HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}
