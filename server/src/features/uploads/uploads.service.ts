/**
 * Uploads: files stream into the target repository's staging folder, are hashed (BLAKE3) on the
 * way, and are handed to the one door into the catalog (features/intake/door.ts), which commits them
 * into the repository without ever overwriting, catalogues them and queues their processing.
 *
 * This class is the feature's face (the router, the container and the jobs use it): it admits
 * requests (a server-wide cap on uploads in flight, and a share of it per member) and hands each operation to the part that
 * holds it:
 *
 *   whole-file-uploads.ts  single upload and batch (multipart, busboy, never buffered)
 *   chunk-sessions.ts      chunked sessions: chunks written at their offsets in one data file,
 *                          resumable after a dropped connection or a restart (chunk-layout.ts),
 *                          flushed to disk behind their answers (chunk-sync.ts)
 *   commit.ts              the last step of all paths: checks, the door, the receipt
 *   receipts.ts            receipts, their SSE stream, the precheck
 *   staging-cleanup.ts     the cleanup job (idle sessions, orphan staging files)
 *   startup-recovery.ts    what a crash left (staging, receipts, committed uploads), settled at start
 * Staging, the write sink, BLAKE3, content detection, the no-overwrite commit and its crash-safety record
 * are the intake's (features/intake), shared with folder scans, the watcher and the next sources.
 *
 * Nothing is written outside `.hearth/staging/` before the commit; every failure removes the
 * staging files it made.
 */
import os from 'node:os';
import type { Readable } from 'node:stream';
import v8 from 'node:v8';
import { DomainError } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import type { Logger } from '../../platform/logger.ts';
import { ChunkSessions } from './chunk-sessions.ts';
import { Committer } from './commit.ts';
import { catalogueCommitted, settleInterruptedUploads, settleReceipt, type UploadsRecovery } from './startup-recovery.ts';
import { Receipts } from './receipts.ts';
import { cleanupStaging } from './staging-cleanup.ts';
import { tuningForMemory, type ClientTuning, type UploadLimits } from './uploads.config.ts';
import { toDomainError, type UploadsContext, type UploadsDeps } from './uploads.context.ts';
import type { BatchResult, ReceiptState, SessionAnswer, SessionInput, UploadResult } from './uploads.results.ts';
import { UploadsStore } from './uploads.store.ts';
import { WholeFileUploads } from './whole-file-uploads.ts';
import { blake3Backend } from '../intake/index.ts';

export { toStoredProblem, type UploadsDeps } from './uploads.context.ts';
export type { BatchResult, ReceiptState, SessionAnswer, SessionInput, UploadResult } from './uploads.results.ts';
export { chunkSizeFits, expectedChunkSize, impliedChunkSize } from './chunk-layout.ts';
export { parseBatchField } from './whole-file-uploads.ts';

/**
 * Uploads make V8 sweep array buffers as part of each young-generation collection instead of on a
 * helper thread. Why: an upload turns every 64 KiB socket read into a short-lived Buffer (1 GiB is
 * 16 000 of them). Swept concurrently, their memory is counted as still in use until the helper
 * thread gets to them; on a busy machine it lags, V8 sees "external memory pressure" and runs a full
 * mark-compact every ~64 MB received, which keeps the helper busier still. Traces of 1 GiB uploads
 * showed 20–37 mark-compacts instead of 1–2 in about half the runs, costing 0.5–1.5 s of CPU per
 * GiB; with this flag it settled on 1–2 in nearly all runs. The flag only moves the freeing of dead
 * array buffers onto the collector's main pause (microseconds per buffer); it changes nothing
 * else. Process-wide, so it is set once, when the uploads feature starts.
 */
let arrayBufferSweepingTuned = false;
function sweepArrayBuffersInline(log: Logger): void {
  if (arrayBufferSweepingTuned) return;
  arrayBufferSweepingTuned = true;
  try {
    v8.setFlagsFromString('--no-concurrent-array-buffer-sweeping');
  } catch (e) {
    log.warn({ err: e }, 'could not tune V8 array buffer sweeping; uploads may spend more time collecting garbage');
  }
}

export class UploadsService {
  readonly store: UploadsStore;
  readonly limits: UploadLimits;
  private readonly ctx: UploadsContext;
  private readonly recovered: UploadsRecovery;
  private readonly log: Logger;
  private readonly sessions: ChunkSessions;
  private readonly wholeFiles: WholeFileUploads;
  private readonly receiptsOf: Receipts;
  private inFlight = 0;
  private readonly inFlightBy = new Map<number, number>();
  private maintenance: NodeJS.Timeout | null = null;
  private stopFirst: () => void = () => undefined;

  constructor(deps: UploadsDeps) {
    this.store = new UploadsStore(deps.db);
    this.limits = deps.limits;
    this.log = deps.log;
    this.ctx = { deps, store: this.store, limits: deps.limits, log: deps.log, now: deps.now ?? Date.now };
    const committer = new Committer(this.ctx, deps.door);
    this.sessions = new ChunkSessions(this.ctx, committer);
    this.wholeFiles = new WholeFileUploads(this.ctx, committer, this.sessions);
    this.receiptsOf = new Receipts(this.ctx);
    sweepArrayBuffersInline(this.log);
    const reset = this.store.resetInterruptedMerges(this.ctx.now());
    if (reset) this.log.warn({ sessions: reset }, 'upload sessions interrupted while merging go back to uploading');
    // A power cut may have lost chunks that were answered but not flushed yet: they are asked for again.
    const lost = this.sessions.dropUnflushedOfOtherBoots();
    if (lost) this.log.warn({ chunks: lost }, 'chunks not flushed to disk before the machine went down are asked for again');
    // Built at start, before any request: what the last stop left in staging belongs to no request.
    this.recovered = settleInterruptedUploads(this.ctx, deps.commits);
  }

  /**
   * Catalogues, for their uploaders, the uploads the last stop left committed but not catalogued.
   * Call once the ingest is ready (after start); resolves when done, never throws.
   */
  catalogueCommittedUploads(): Promise<void> {
    const committed = this.recovered.committed.splice(0);
    return committed.length ? catalogueCommitted(this.ctx, this.ctx.deps.commits, committed) : Promise.resolve();
  }

  /**
   * A committed upload is now the asset `assetId` (the catalog write that claimed its commit record, in that
   * transaction): its receipt follows its asset from here.
   */
  settleReceipt(receiptId: string, assetId: string): void {
    settleReceipt(this.ctx, receiptId, assetId);
  }

  /** Poll and heartbeat intervals of the receipt stream (tests shorten them). */
  get streamTiming(): { pollMs: number; heartbeatMs: number } {
    return this.receiptsOf.streamTiming;
  }

  config(): ClientTuning {
    return tuningForMemory(os.totalmem(), this.limits);
  }

  /** One file as multipart (field `file`); `contentHash`: the client's BLAKE3 (X-Content-Hash). */
  async uploadSingle(actor: Actor, body: Readable, contentType: string | undefined, contentHash?: string): Promise<UploadResult> {
    try {
      WholeFileUploads.checkContentHash(contentHash);
    } catch (e) {
      body.resume();
      throw e;
    }
    return this.admitted(actor, body, () => this.wholeFiles.single(actor, body, contentType, contentHash));
  }

  /** Whole files (`single_{id}`) and session chunks (`chunk_{id}_{index}_{total}`) in one multipart body. */
  async uploadBatch(actor: Actor, body: Readable, contentType: string | undefined): Promise<{ results: BatchResult[] }> {
    return this.admitted(actor, body, () => this.wholeFiles.batch(actor, body, contentType));
  }

  /** Creates a chunk session, or resumes one (same id, same file): reports what is already stored. */
  createSession(actor: Actor, input: SessionInput): Promise<{ created: boolean; session: SessionAnswer }> {
    return this.sessions.create(actor, input);
  }

  /** Progress of the caller's sessions (the given ids, or the active and recent ones). */
  progress(actor: Actor, sessionIds?: string[]) {
    return this.sessions.progress(actor, sessionIds);
  }

  /** Advisory: which candidates the caller already has (same BLAKE3 and size). */
  precheck(actor: Actor, input: { files: { hash: string; size: number; file_name?: string | undefined }[]; repository_id?: string | undefined }) {
    return this.receiptsOf.precheck(actor, input);
  }

  /** The caller's receipts among `ids`; others' and unknown ids are left out. */
  receipts(actor: Actor, ids: string[]): { operations: ReceiptState[] } {
    return this.receiptsOf.receipts(actor, ids);
  }

  /** Follows receipts until all are terminal (see Receipts.watch). */
  watchReceipts(actor: Actor, ids: string[], send: (event: string, data: unknown) => Promise<void>, signal: AbortSignal): Promise<void> {
    return this.receiptsOf.watch(actor, ids, send, signal);
  }

  /** Fails idle sessions (removing their staging) and removes orphan staging files, both past the staging age. */
  cleanupStaging(): Promise<{ failed_sessions: number; removed_files: number }> {
    return cleanupStaging(this.ctx, this.sessions);
  }

  /** Queues the cleanup now (after a minute) and every hour while the server runs. */
  startMaintenance(enqueue: () => void, everyMs = 3_600_000): void {
    const tick = () => {
      try {
        enqueue();
      } catch (e) {
        this.log.warn({ err: e }, 'could not queue the upload staging cleanup');
      }
    };
    const first = setTimeout(tick, 60_000);
    first.unref();
    // The native BLAKE3 is loaded now, not by the first upload: its loader asks Node for a process
    // report to tell glibc from musl, about 0.2 s of the event loop that the first chunk otherwise waited for.
    setImmediate(() => blake3Backend()).unref();
    this.maintenance = setInterval(tick, everyMs);
    this.maintenance.unref();
    this.stopFirst = () => clearTimeout(first);
  }

  /** Stops the maintenance timer and the hashing ahead of sessions. */
  async stop(): Promise<void> {
    this.stopFirst();
    if (this.maintenance) clearInterval(this.maintenance);
    this.maintenance = null;
    await this.sessions.stop();
  }

  /**
   * Admission: a server-wide cap on upload requests in flight, and a share of it per member, so one
   * member's requests (or stalled bodies sent in their name) cannot take every slot. A slot is held
   * until the request's work ends, which the multipart parser guarantees: the client going away,
   * the body ending early or stalling past the idle timeout all end it (multipart.ts).
   */
  private async admitted<T>(actor: Actor, body: Readable, fn: () => Promise<T>): Promise<T> {
    const mine = this.inFlightBy.get(actor.userId) ?? 0;
    if (this.inFlight >= this.limits.maxInFlight || mine >= this.limits.maxInFlightPerUser) {
      body.resume();
      const detail =
        mine >= this.limits.maxInFlightPerUser
          ? `You are already sending ${mine} uploads at once, as many as one member may. Retry when one of them is answered.`
          : 'The server is receiving as many uploads as it can. Retry in a moment.';
      throw new DomainError(503, 'uploads_busy', detail, { retryable: true, retryAfterSeconds: 2 });
    }
    this.inFlight++;
    this.inFlightBy.set(actor.userId, mine + 1);
    try {
      return await fn();
    } catch (e) {
      throw toDomainError(e);
    } finally {
      this.inFlight--;
      const left = (this.inFlightBy.get(actor.userId) ?? 1) - 1;
      if (left > 0) this.inFlightBy.set(actor.userId, left);
      else this.inFlightBy.delete(actor.userId);
    }
  }

  /** Upload requests in flight, in all and by member (tests and diagnostics). */
  slotsInUse(): { total: number; byUser: Record<number, number> } {
    return { total: this.inFlight, byUser: Object.fromEntries(this.inFlightBy) };
  }
}
