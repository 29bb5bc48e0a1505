/**
 * Uploads: files stream into the target repository's staging folder, are hashed (BLAKE3) on the
 * way, and are committed into the repository without ever overwriting, then handed to the ingest
 * (`Ingest.indexFile`), which catalogues them and queues their processing.
 *
 * Paths: single uploads and batches are multipart (busboy, never buffered); chunked uploads are
 * durable sessions (upload_sessions) whose chunks are files in the session's staging folder, so a
 * dropped connection or a server restart resumes where it stopped. Only chunk files that exist on
 * disk with their expected size count as received. The chunk size is the client's (told in the
 * session, or learnt from the first chunk: every chunk but the last has it). The file is assembled
 * from the chunks in order while they still arrive (mergeAhead), so the last chunk's request has
 * little left to do; bytes are hashed on a worker thread (sink.ts).
 *
 * Receipts (upload_receipts) follow each file: `uploading` → `processing` (committed, asset queued)
 * → `completed` (the pipeline finished; the pipeline sets it through the receipt id) | `duplicate`
 * (the repository already holds this content: nothing stored) | `failed` (with a problem).
 * Terminal: completed, duplicate, failed.
 *
 * Duplicates: identity is (repository, BLAKE3, size). The duplicate check and the commit run under
 * an in-process lock per (repository, hash), so two uploads of the same content at the same time
 * end with one stored copy and one `duplicate`. The existing asset's id is reported only when the
 * caller owns it (another member's asset id says nothing useful and would leak).
 *
 * Nothing is written outside `.hearth/staging/` before the commit; every failure removes the
 * staging files it made. Sessions idle past the staging age are failed and their chunks removed by
 * the `uploads.clean-staging` job, which also removes orphan staging files of that age.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { detectBytes, type DetectedType } from '../../adapters/media/detect.ts';
import type { Db } from '../../platform/db/connection.ts';
import { Conflict, DomainError, Invalid, NotFound, PayloadTooLarge, Unavailable } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { problemTitle } from '../../platform/http/problem.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Ingest } from '../assets/ingest.contract.ts';
import { parseMultipart, type MultipartLimits } from './multipart.ts';
import {
  KeyedLock,
  SESSIONS_DIR,
  SESSION_ID,
  Semaphore,
  TooLargeError,
  chunkPath,
  commitStaged,
  ChunkMerger,
  newStagingFile,
  partialChunkPath,
  receiveToFile,
  sanitizeFileName,
  sessionDir,
  stagingRoot,
  uploadFolder,
  type Received,
} from './staging.ts';
import { tuningForMemory, type ClientTuning, type UploadLimits } from './uploads.config.ts';
import {
  TERMINAL_RECEIPT,
  UploadsStore,
  type ReceiptRow,
  type ReceiptStatus,
  type SessionRow,
  type SessionStatus,
  type StoredProblem,
} from './uploads.store.ts';

const HASH_HEX = /^[0-9a-f]{64}$/;
/** Sessions merged ahead at once (each holds an open staging file and a hash state). */
const MAX_RUNNING_MERGES = 64;

/** What one uploaded file became (single upload, or one file of a batch). */
export interface UploadResult {
  content_hash: string;
  file_name: string;
  message: string;
  receipt_id: string;
  size: number;
  status: 'processing' | 'duplicate';
  /** The catalogued asset: the new one, or the existing one of a duplicate when the caller owns it. */
  asset_id: string | null;
}

export interface BatchResult {
  session_id: string;
  success: boolean;
  status: 'uploading' | 'processing' | 'duplicate' | 'failed';
  file_name: string | null;
  receipt_id: string | null;
  content_hash: string | null;
  size: number | null;
  message: string;
  asset_id: string | null;
  /** For chunk parts: which chunk this was, and how many of the session's chunks are now stored. */
  chunk_index: number | null;
  received_chunks: number | null;
  problem: StoredProblem | null;
}

export interface SessionAnswer {
  session_id: string;
  status: SessionStatus;
  total_chunks: number;
  chunk_size: number | null;
  received_chunks: number[];
  bytes_received: number;
  receipt_id: string;
  problem: StoredProblem | null;
  /** Set when this call finished the session (all chunks were already there): what the file became. */
  result: UploadResult | null;
}

export interface ReceiptState {
  receipt_id: string;
  file_name: string;
  status: ReceiptStatus;
  success: boolean;
  terminal: boolean;
  problem: StoredProblem | null;
  asset_id: string | null;
  content_hash: string | null;
  size: number | null;
  updated_at: string;
}

export interface SessionInput {
  session_id?: string | undefined;
  filename: string;
  total_size: number;
  total_chunks: number;
  chunk_size?: number | undefined;
  content_type?: string | undefined;
  repository_id?: string | undefined;
  client_hash?: string | undefined;
}

interface Repo {
  repository_id: string;
  path: string;
}

export interface UploadsDeps {
  db: Db;
  log: Logger;
  jobs: JobQueue;
  /** The catalog entry point; a getter so the container may build it in any order. */
  ingest: () => Ingest;
  primaryRepositoryId: () => string | undefined;
  limits: UploadLimits;
  now?: () => number;
}

/** Turns anything thrown into the problem kept on a receipt or a batch result. */
export function toStoredProblem(e: unknown): StoredProblem {
  if (e instanceof TooLargeError) e = new PayloadTooLarge(`The file is larger than the limit of ${e.limit} bytes.`);
  if (e instanceof DomainError) {
    return { type: `urn:hearth:problem:${e.code}`, title: problemTitle(e.status), status: e.status, detail: e.message, code: e.code, retryable: e.extra.retryable ?? (e.status >= 500 || e.status === 429) };
  }
  return { type: 'urn:hearth:problem:upload_failed', title: problemTitle(500), status: 500, detail: 'The server could not store the file. Try again.', code: 'upload_failed', retryable: true };
}

function toDomainError(e: unknown): unknown {
  return e instanceof TooLargeError ? new PayloadTooLarge(`The file is larger than the limit of ${e.limit} bytes.`) : e;
}

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

export class UploadsService {
  readonly store: UploadsStore;
  readonly limits: UploadLimits;
  /** Poll and heartbeat intervals of the receipt stream (tests shorten them). */
  readonly streamTiming = { pollMs: 500, heartbeatMs: 15_000 };
  private readonly lock = new KeyedLock();
  private readonly merges: Semaphore;
  private readonly now: () => number;
  private readonly log: Logger;
  private inFlight = 0;
  /** Sessions being merged ahead of their last chunk (see mergeAhead). */
  private readonly running = new Map<string, { merger: ChunkMerger | null; chain: Promise<void>; broken: boolean }>();
  private maintenance: NodeJS.Timeout | null = null;

  constructor(private readonly deps: UploadsDeps) {
    this.store = new UploadsStore(deps.db);
    this.limits = deps.limits;
    this.merges = new Semaphore(deps.limits.mergeConcurrency);
    this.now = deps.now ?? Date.now;
    this.log = deps.log;
    const reset = this.store.resetInterruptedMerges(this.now());
    if (reset) this.log.warn({ sessions: reset }, 'upload sessions interrupted while merging go back to uploading');
  }

  // ================================================================== configuration

  config(): ClientTuning {
    return tuningForMemory(os.totalmem(), this.limits);
  }

  // ================================================================== single upload

  /**
   * One file as multipart: optional text field `repository_id` (before the file), file field `file`.
   * `contentHash`: the client's BLAKE3 (X-Content-Hash); a mismatch fails with 422 and keeps nothing.
   */
  async uploadSingle(actor: Actor, body: Readable, contentType: string | undefined, contentHash?: string): Promise<UploadResult> {
    if (contentHash !== undefined && !HASH_HEX.test(contentHash.toLowerCase())) {
      body.resume();
      throw new Invalid('X-Content-Hash must be 64 hexadecimal characters (BLAKE3).', [{ field: 'header.x-content-hash', message: 'must be 64 hex characters' }]);
    }
    return this.admitted(body, async () => {
      let repositoryId: string | undefined;
      let result: UploadResult | undefined;
      await parseMultipart(body, { 'content-type': contentType }, this.multipartLimits(1), {
        field: (name, value, afterFile) => {
          if (name !== 'repository_id') return;
          if (afterFile) throw new Invalid('Send repository_id before the file.', [{ field: 'body.repository_id', message: 'must come before the file part' }]);
          repositoryId = value.trim() || undefined;
        },
        file: async (name, stream, info) => {
          if (name !== 'file') {
            stream.resume();
            throw new Invalid(`Unexpected file field "${name}": send the file as "file".`, [{ field: 'body.file', message: 'is required' }]);
          }
          const repo = this.repository(repositoryId);
          result = await this.receiveWhole(actor, repo, stream, info.filename, contentHash?.toLowerCase());
        },
      });
      if (!result) throw new Invalid('The form has no file: send it as the field "file".', [{ field: 'body.file', message: 'is required' }], 'file_missing');
      return result;
    });
  }

  // ================================================================== batch

  /**
   * Multipart with text field `repository_id` (optional, before the files) and file fields
   * `single_{session_id}` (a whole file; the id is the client's, echoed back) and
   * `chunk_{session_id}_{index}_{total}` (chunk `index`, 0-based, of a session made with
   * createUploadSession). Each file gets a result; one file failing does not fail the others.
   */
  async uploadBatch(actor: Actor, body: Readable, contentType: string | undefined): Promise<{ results: BatchResult[] }> {
    return this.admitted(body, async () => {
      let repositoryId: string | undefined;
      const results: BatchResult[] = [];
      await parseMultipart(body, { 'content-type': contentType }, this.multipartLimits(this.limits.maxFiles), {
        field: (name, value, afterFile) => {
          if (name !== 'repository_id') return;
          if (afterFile) throw new Invalid('Send repository_id before the files.', [{ field: 'body.repository_id', message: 'must come before the file parts' }]);
          repositoryId = value.trim() || undefined;
        },
        file: async (name, stream, info) => {
          const slot = results.length;
          const parsed = parseBatchField(name);
          results.push(emptyResult(parsed?.sessionId ?? name));
          try {
            if (!parsed) {
              throw new Invalid(`Unexpected file field "${name}": use single_{session_id} or chunk_{session_id}_{index}_{total}.`, [{ field: `body.${name}`, message: 'unknown field' }], 'bad_field_name');
            }
            if (parsed.kind === 'single') {
              const r = await this.receiveWhole(actor, this.repository(repositoryId), stream, info.filename);
              results[slot] = { ...emptyResult(parsed.sessionId), ...r, success: true };
            } else {
              results[slot] = await this.receiveChunk(actor, parsed.sessionId, parsed.index, parsed.total, stream);
            }
          } catch (e) {
            stream.resume();
            const problem = toStoredProblem(e);
            if (problem.status >= 500) this.log.error({ err: e, field: name }, 'batch upload part failed');
            results[slot] = { ...results[slot]!, success: false, status: 'failed', message: problem.detail, problem };
          }
        },
      });
      if (results.length === 0) throw new Invalid('The form has no file parts.', [{ field: 'body', message: 'needs at least one file part' }], 'file_missing');
      return { results };
    });
  }

  // ================================================================== sessions

  /** Creates a chunk session, or resumes one (same id, same file): reports what is already stored. */
  async createSession(actor: Actor, input: SessionInput): Promise<{ created: boolean; session: SessionAnswer }> {
    const filename = sanitizeFileName(input.filename);
    if (!filename) throw new Invalid('The file name is not usable.', [{ field: 'body.filename', message: 'must be a file name' }], 'bad_file_name');
    if (input.total_size < 1) throw new Invalid('The file is empty: there is nothing to upload.', [{ field: 'body.total_size', message: 'must be at least 1' }], 'empty_file');
    if (input.total_size > this.limits.maxFileBytes) throw new PayloadTooLarge(`The file is larger than the limit of ${this.limits.maxFileBytes} bytes.`);
    if (input.total_chunks > Math.min(this.limits.maxChunks, input.total_size)) {
      throw new Invalid(`A ${input.total_size}-byte file cannot have ${input.total_chunks} chunks.`, [{ field: 'body.total_chunks', message: `must be at most ${Math.min(this.limits.maxChunks, input.total_size)}` }]);
    }
    if (input.chunk_size !== undefined && !chunkSizeFits(input.total_size, input.total_chunks, input.chunk_size)) {
      throw new Invalid(`${input.total_chunks} chunks of ${input.chunk_size} bytes do not make ${input.total_size} bytes.`, [{ field: 'body.chunk_size', message: 'does not match total_size and total_chunks' }]);
    }
    const clientHash = input.client_hash?.toLowerCase();
    if (clientHash !== undefined && !HASH_HEX.test(clientHash)) throw new Invalid('client_hash must be 64 hexadecimal characters (BLAKE3).', [{ field: 'body.client_hash', message: 'must be 64 hex characters' }]);

    if (input.session_id !== undefined && !SESSION_ID.test(input.session_id)) {
      throw new Invalid('session_id must be 1–64 letters, digits or "-".', [{ field: 'body.session_id', message: 'bad session id' }], 'bad_session_id');
    }
    if (input.session_id) {
      const existing = this.store.session(input.session_id);
      if (existing) {
        if (existing.owner_id !== actor.userId) throw sessionNotFound();
        if (existing.total_size !== input.total_size || existing.total_chunks !== input.total_chunks || existing.filename !== filename) {
          throw new Conflict('This session belongs to another file (name, size or chunk count differ). Start a new session.', 'session_mismatch');
        }
        return { created: false, session: await this.resume(actor, existing) };
      }
    }
    const repo = this.repository(input.repository_id);
    const sessionId = input.session_id ?? crypto.randomUUID();
    const receiptId = uuidv7(this.now());
    const now = this.now();
    await fs.promises.mkdir(sessionDir(repo.path, sessionId), { recursive: true });
    this.deps.db.transaction(() => {
      this.store.insertReceipt({ receipt_id: receiptId, owner_id: actor.userId, file_name: filename, size: input.total_size, status: 'uploading' }, now);
      this.store.insertSession(
        {
          session_id: sessionId,
          owner_id: actor.userId,
          repository_id: repo.repository_id,
          filename,
          content_type: input.content_type ?? null,
          total_size: input.total_size,
          total_chunks: input.total_chunks,
          chunk_size: input.chunk_size ?? 0,
          client_hash: clientHash ?? null,
          status: 'pending',
          receipt_id: receiptId,
        },
        now,
      );
    })();
    return { created: true, session: this.sessionAnswer(this.store.session(sessionId)!, [], 0, null) };
  }

  /** Progress of the caller's sessions (the given ids, or the active and recent ones). */
  progress(actor: Actor, sessionIds?: string[]) {
    const rows = this.store.sessionsOf(actor.userId, sessionIds, this.now() - this.limits.stagingMaxAgeMs);
    const sessions = rows.map((s) => {
      const completed = s.status === 'completed' ? range(s.total_chunks) : (JSON.parse(s.received_chunks) as number[]);
      const done = s.status === 'completed' ? s.total_size : s.bytes_received;
      return {
        session_id: s.session_id,
        filename: s.filename,
        status: s.status,
        bytes_done: done,
        bytes_total: s.total_size,
        progress: s.total_size ? done / s.total_size : 0,
        received_chunks: completed.length,
        total_chunks: s.total_chunks,
        completed_chunks: completed,
        last_activity: new Date(s.last_activity).toISOString(),
        receipt_id: s.receipt_id,
        problem: s.problem ? (JSON.parse(s.problem) as StoredProblem) : null,
      };
    });
    const bytesDone = sessions.reduce((a, s) => a + s.bytes_done, 0);
    const bytesTotal = sessions.reduce((a, s) => a + s.bytes_total, 0);
    return {
      sessions,
      summary: {
        total_sessions: sessions.length,
        active_sessions: sessions.filter((s) => s.status === 'pending' || s.status === 'uploading' || s.status === 'merging').length,
        completed_files: sessions.filter((s) => s.status === 'completed').length,
        failed_sessions: sessions.filter((s) => s.status === 'failed').length,
        overall_progress: bytesTotal ? bytesDone / bytesTotal : 0,
      },
    };
  }

  // ================================================================== precheck and receipts

  /** Advisory: which candidates the caller already has (same BLAKE3 and size). They still get uploaded and verified. */
  precheck(actor: Actor, input: { files: { hash: string; size: number; file_name?: string | undefined }[]; repository_id?: string | undefined }) {
    const files = input.files.map((f) => ({ ...f, hash: f.hash.toLowerCase() }));
    const found = this.store.ownAssetsByHash(actor.userId, files, input.repository_id);
    const results = files.map((f) => {
      const hit = found.get(`${f.hash}:${f.size}`);
      return { hash: f.hash, file_name: f.file_name ?? hit?.original_filename ?? null, duplicate: !!hit, candidate: !hit, asset_id: hit?.asset_id ?? null };
    });
    return { duplicate_count: results.filter((r) => r.duplicate).length, results };
  }

  /** The caller's receipts among `ids`; others' and unknown ids are left out. */
  receipts(actor: Actor, ids: string[]): { operations: ReceiptState[] } {
    const rows = this.store.receiptsOf(actor.userId, ids);
    this.reconcileWithAssets(rows);
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.receipt_id)! - order.get(b.receipt_id)!);
    return { operations: rows.map(receiptState) };
  }

  /**
   * Follows receipts until all are terminal: `send('receipts', payload)` on every change (polled),
   * `send('heartbeat', …)` when quiet, `send('done', …)` at the end. Resolves when done or aborted.
   */
  async watchReceipts(actor: Actor, ids: string[], send: (event: string, data: unknown) => Promise<void>, signal: AbortSignal): Promise<void> {
    let last = '';
    let lastSent = Date.now();
    while (!signal.aborted) {
      const payload = this.receipts(actor, ids);
      const text = JSON.stringify(payload);
      if (text !== last) {
        await send('receipts', payload);
        last = text;
        lastSent = Date.now();
      }
      if (payload.operations.every((o) => o.terminal)) {
        await send('done', { receipt_ids: payload.operations.map((o) => o.receipt_id), all_terminal: true });
        return;
      }
      if (Date.now() - lastSent >= this.streamTiming.heartbeatMs) {
        await send('heartbeat', { at: new Date().toISOString() });
        lastSent = Date.now();
      }
      await sleep(this.streamTiming.pollMs, signal);
    }
  }

  // ================================================================== maintenance

  /** Fails idle sessions (removing their chunks) and removes orphan staging files, both past the staging age. */
  async cleanupStaging(): Promise<{ failed_sessions: number; removed_files: number }> {
    const cutoff = this.now() - this.limits.stagingMaxAgeMs;
    let failedSessions = 0;
    let removed = 0;
    for (const s of this.store.idleSessions(cutoff)) {
      const repo = this.store.repository(s.repository_id);
      const problem = toStoredProblem(new DomainError(410, 'session_expired', 'The upload session was idle too long; its chunks were removed. Start again.'));
      this.deps.db.transaction(() => {
        this.store.finishSession(s.session_id, 'failed', problem, this.now());
        if (s.receipt_id) this.store.updateReceipt(s.receipt_id, { status: 'failed', problem }, this.now());
      })();
      await this.dropRunningMerge(s.session_id);
      if (repo) await rm(sessionDir(repo.path, s.session_id));
      failedSessions++;
    }
    for (const repo of this.store.allRepositories()) {
      const root = stagingRoot(repo.path);
      const live = this.store.liveSessionIds(repo.repository_id);
      removed += await removeOlderThan(root, cutoff, (name) => name !== 'sessions');
      const sessionsRoot = path.join(repo.path, SESSIONS_DIR);
      let dirs: string[] = [];
      try {
        dirs = await fs.promises.readdir(sessionsRoot);
      } catch {
        continue;
      }
      for (const d of dirs) {
        if (live.has(d)) {
          // A live session keeps its chunks; only partial chunks a crash left behind go.
          removed += await removeOlderThan(path.join(sessionsRoot, d), cutoff, (name) => name.endsWith('.partial'));
          continue;
        }
        const st = await fs.promises.stat(path.join(sessionsRoot, d)).catch(() => null);
        if (st && st.mtimeMs < cutoff) {
          await rm(path.join(sessionsRoot, d));
          removed++;
        }
      }
    }
    if (failedSessions || removed) this.log.info({ failed_sessions: failedSessions, removed_files: removed }, 'upload staging cleaned');
    return { failed_sessions: failedSessions, removed_files: removed };
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
    this.maintenance = setInterval(tick, everyMs);
    this.maintenance.unref();
    this.stopFirst = () => clearTimeout(first);
  }

  private stopFirst: () => void = () => undefined;

  /** Stops the maintenance timer and the merges running ahead (their partial files are removed). */
  async stop(): Promise<void> {
    this.stopFirst();
    if (this.maintenance) clearInterval(this.maintenance);
    this.maintenance = null;
    await Promise.all([...this.running.keys()].map((id) => this.dropRunningMerge(id)));
  }

  // ================================================================== internals

  private multipartLimits(files: number): MultipartLimits {
    return {
      parts: this.limits.maxParts,
      files,
      fields: this.limits.maxFields,
      fieldSize: this.limits.maxFieldBytes,
      // busboy marks a file truncated when it *reaches* the limit: one more byte lets an exactly-max file through.
      fileSize: this.limits.maxFileBytes + 1,
    };
  }

  /** Server-wide cap on concurrent upload requests. */
  private async admitted<T>(body: Readable, fn: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.limits.maxInFlight) {
      body.resume();
      throw new DomainError(503, 'uploads_busy', 'The server is receiving as many uploads as it can. Retry in a moment.', { retryable: true, retryAfterSeconds: 2 });
    }
    this.inFlight++;
    try {
      return await fn();
    } catch (e) {
      throw toDomainError(e);
    } finally {
      this.inFlight--;
    }
  }

  private repository(id: string | undefined): Repo {
    const repoId = id ?? this.deps.primaryRepositoryId();
    if (!repoId) throw new Unavailable('There is no primary repository to upload into.', 'no_repository');
    const repo = this.store.repository(repoId);
    if (!repo) throw new NotFound(`Repository ${repoId} does not exist.`, 'repository_not_found');
    if (repo.status !== 'active') throw new Unavailable(`Repository ${repoId} cannot be reached right now (${repo.status}).`, 'repository_unavailable');
    return repo;
  }

  /** Streams a whole file into staging under a new receipt, then commits it (or reports the duplicate). */
  private async receiveWhole(actor: Actor, repo: Repo, stream: Readable, rawName: string, expectedHash?: string): Promise<UploadResult> {
    const name = sanitizeFileName(rawName);
    if (!name) {
      stream.resume();
      throw new Invalid('The file name is not usable (empty, "." or "..", or containing NUL).', [{ field: 'body.file', message: 'needs a usable file name' }], 'bad_file_name');
    }
    const receiptId = uuidv7(this.now());
    this.store.insertReceipt({ receipt_id: receiptId, owner_id: actor.userId, file_name: name, size: null, status: 'uploading' }, this.now());
    const staged = newStagingFile(repo.path);
    try {
      await fs.promises.mkdir(path.dirname(staged), { recursive: true });
      const got = await receiveToFile(stream, staged, this.limits.maxFileBytes);
      return await this.finalize(actor, repo, staged, got, name, receiptId, expectedHash);
    } catch (e) {
      await rm(staged);
      this.store.updateReceipt(receiptId, { status: 'failed', problem: toStoredProblem(e) }, this.now());
      throw e;
    }
  }

  /**
   * A staged, hashed file: checks (not empty, hash as announced, a media type we read), then under
   * the (repository, hash) lock: duplicate → dropped; else committed and indexed. Updates the
   * receipt on success; on failure throws (the caller fails the receipt and removes staging).
   */
  private async finalize(actor: Actor, repo: Repo, staged: string, got: Received, name: string, receiptId: string, expectedHash?: string): Promise<UploadResult> {
    if (got.size === 0) throw new Invalid('The file is empty.', [{ field: 'body.file', message: 'must not be empty' }], 'empty_file');
    this.store.updateReceipt(receiptId, { status: 'uploading', size: got.size, content_hash: got.hash }, this.now());
    if (expectedHash && expectedHash !== got.hash) {
      throw new Invalid('The file that arrived does not match the content hash the client announced: it was changed or cut in transit. Nothing was kept.', [{ field: 'header.x-content-hash', message: 'does not match the received content' }], 'content_hash_mismatch');
    }
    const type = detectBytes(got.head, name);
    if (!type) throw new DomainError(415, 'unsupported_media_type', `${name} is not a photo, video or audio file Hearth can read.`);
    const fileName = withExtension(name, type);
    const ingest = this.deps.ingest();

    return this.lock.run(`${repo.repository_id}:${got.hash}`, async () => {
      const base = { content_hash: got.hash, file_name: fileName, receipt_id: receiptId, size: got.size };
      const dup = ingest.findByHash(repo.repository_id, got.hash, got.size);
      if (dup) {
        await rm(staged);
        const own = dup.owner_id === actor.userId;
        this.store.updateReceipt(receiptId, { status: 'duplicate', asset_id: own ? dup.asset_id : null }, this.now());
        return { ...base, status: 'duplicate', asset_id: own ? dup.asset_id : null, message: own ? 'You already have this file; it was not stored again.' : 'This repository already holds this file; it was not stored again.' };
      }
      const relPath = await commitStaged(repo.path, staged, uploadFolder(new Date(this.now())), fileName);
      let outcome;
      try {
        outcome = await ingest.indexFile({ repositoryId: repo.repository_id, relPath, ownerId: actor.userId, source: 'upload', knownHash: got.hash, receiptId, originalFilename: name });
      } catch (e) {
        await rm(path.join(repo.path, relPath)); // not catalogued: take it back out, the client may retry
        throw e;
      }
      if (outcome.outcome === 'unsupported') {
        await rm(path.join(repo.path, relPath));
        throw new DomainError(415, 'unsupported_media_type', `${name} cannot be catalogued: ${outcome.reason}.`);
      }
      if (outcome.outcome === 'duplicate') {
        await rm(path.join(repo.path, relPath));
        this.store.updateReceipt(receiptId, { status: 'duplicate', asset_id: outcome.asset_id }, this.now());
        return { ...base, status: 'duplicate', asset_id: outcome.asset_id, message: 'This repository already holds this file; it was not stored again.' };
      }
      // created/updated/restored queue the pipeline, which completes the receipt; a move or an
      // unchanged file (indexed meanwhile by the folder watcher) is completed when its asset is ready.
      this.store.updateReceipt(receiptId, { status: 'processing', asset_id: outcome.asset_id }, this.now());
      return { ...base, status: 'processing', asset_id: outcome.asset_id, message: 'Stored; it is being processed.' };
    });
  }

  /** One chunk of a session into its staging folder; the last one to arrive merges and commits the file. */
  private async receiveChunk(actor: Actor, sessionId: string, index: number, total: number, stream: Readable): Promise<BatchResult> {
    if (!SESSION_ID.test(sessionId)) throw new Invalid('Bad session id.', [{ field: 'body.chunk', message: 'session id must be letters, digits and -' }], 'bad_session_id');
    const s = this.store.session(sessionId);
    if (!s || s.owner_id !== actor.userId) throw sessionNotFound();
    if (total !== s.total_chunks) throw new Invalid(`The session has ${s.total_chunks} chunks, not ${total}.`, [{ field: 'body.chunk', message: 'total does not match the session' }], 'chunk_total_mismatch');
    if (index >= total) throw new Invalid(`Chunk index ${index} is out of range (0..${total - 1}).`, [{ field: 'body.chunk', message: 'index out of range' }], 'chunk_index_out_of_range');
    assertReceiving(s);
    const repo = this.store.repository(s.repository_id);
    if (!repo) throw new NotFound('The session’s repository no longer exists.', 'repository_not_found');

    const target = chunkPath(repo.path, sessionId, index);
    const partial = partialChunkPath(repo.path, sessionId, index);
    const maxBytes = s.chunk_size > 0 ? expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size, index) : Math.min(s.total_size, this.limits.maxFileBytes);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const existingSize = async () => (await fs.promises.stat(target).catch(() => null))?.size;
    const conflict = (had: number, size: string) => new Conflict(`Chunk ${index} was already received with ${had} bytes; this one has ${size}.`, 'chunk_conflict');
    let got: Received;
    try {
      got = await receiveToFile(stream, partial, maxBytes, { hash: false });
    } catch (e) {
      if (!(e instanceof TooLargeError)) throw e;
      const had = await existingSize();
      if (had !== undefined) throw conflict(had, `more than ${maxBytes}`);
      throw new Invalid(`Chunk ${index} is larger than expected (${maxBytes} bytes).`, [{ field: 'body.chunk', message: 'wrong chunk size' }], 'chunk_size_mismatch');
    }
    try {
      const had = await existingSize();
      if (had !== undefined && had !== got.size) throw conflict(had, String(got.size));
      const implied = impliedChunkSize(s.total_size, s.total_chunks, index, got.size);
      if (implied === null) throw new Invalid(`Chunk ${index} has ${got.size} bytes, which cannot be part of ${s.total_chunks} chunks making ${s.total_size} bytes.`, [{ field: 'body.chunk', message: 'wrong chunk size' }], 'chunk_size_mismatch');
      // A one-chunk session may have been declared with any chunk size ≥ the file: the chunk is the file.
      const inForce = s.total_chunks === 1 ? implied : this.store.fixChunkSize(sessionId, implied);
      if (inForce !== implied) throw new Invalid(`Chunk ${index} has ${got.size} bytes; the session's chunks are ${inForce} bytes.`, [{ field: 'body.chunk', message: 'wrong chunk size' }], 'chunk_size_mismatch');
      assertReceiving(this.store.session(sessionId)!); // not merged meanwhile by another request
      // A repeat of the same size replaces the stored chunk (idempotent). The running merge may have
      // appended the old one already: start that over at the end rather than trust it.
      if (had !== undefined) await this.dropRunningMerge(sessionId);
      await fs.promises.rename(partial, target);
    } catch (e) {
      await rm(partial);
      throw e;
    }
    this.mergeAhead(sessionId, repo);
    const fresh = this.store.session(sessionId)!;
    const { received, bytes } = await this.chunksOnDisk(fresh, repo);
    this.store.setSessionChunks(sessionId, received, bytes, fresh.chunk_size, this.now());
    const base: BatchResult = {
      ...emptyResult(sessionId),
      success: true,
      status: 'uploading',
      file_name: s.filename,
      receipt_id: s.receipt_id,
      size: got.size,
      chunk_index: index,
      received_chunks: received.length,
      message: `Chunk ${index + 1} of ${total} stored.`,
    };
    if (received.length < total) return base;
    const r = await this.merge(actor, this.store.session(sessionId)!, repo);
    return r ? { ...base, ...r, success: true, size: r.size } : base;
  }

  /** Chunk files present with their expected size (others are removed: a crash can leave them). */
  private async chunksOnDisk(s: SessionRow, repo: Repo): Promise<{ received: number[]; bytes: number }> {
    const received: number[] = [];
    let bytes = 0;
    if (s.chunk_size <= 0) return { received, bytes };
    let names: string[] = [];
    try {
      names = await fs.promises.readdir(sessionDir(repo.path, s.session_id));
    } catch {
      return { received, bytes };
    }
    for (const n of names) {
      const m = /^(\d+)\.chunk$/.exec(n);
      if (!m) continue;
      const i = Number(m[1]);
      const st = await fs.promises.stat(path.join(sessionDir(repo.path, s.session_id), n)).catch(() => null);
      if (!st) continue;
      if (i < s.total_chunks && st.size === expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size, i)) {
        received.push(i);
        bytes += st.size;
      } else {
        await rm(path.join(sessionDir(repo.path, s.session_id), n));
      }
    }
    received.sort((a, b) => a - b);
    return { received, bytes };
  }

  private async resume(actor: Actor, s: SessionRow): Promise<SessionAnswer> {
    const repo = this.store.repository(s.repository_id);
    if (!repo) throw new NotFound('The session’s repository no longer exists.', 'repository_not_found');
    if (s.status === 'completed' || s.status === 'failed' || s.status === 'merging') {
      const received = s.status === 'completed' ? range(s.total_chunks) : (JSON.parse(s.received_chunks) as number[]);
      return this.sessionAnswer(s, received, s.status === 'completed' ? s.total_size : s.bytes_received, null);
    }
    const { received, bytes } = await this.chunksOnDisk(s, repo);
    this.store.setSessionChunks(s.session_id, received, bytes, s.chunk_size, this.now());
    let result: UploadResult | null = null;
    if (received.length === s.total_chunks) {
      try {
        result = await this.merge(actor, this.store.session(s.session_id)!, repo);
      } catch {
        /* the session now says why (failed, with its problem) */
      }
    }
    const fresh = this.store.session(s.session_id)!;
    const freshReceived = fresh.status === 'completed' ? range(fresh.total_chunks) : (JSON.parse(fresh.received_chunks) as number[]);
    return this.sessionAnswer(fresh, freshReceived, fresh.status === 'completed' ? fresh.total_size : fresh.bytes_received, result);
  }

  /**
   * All chunks are there: one caller merges (streaming, hashing) and commits. Returns null when
   * another request is already merging. A client-side fault (hash mismatch, empty, unsupported)
   * fails the session and removes its chunks; a server-side one puts it back to `uploading` so that
   * resuming the session tries again.
   */
  private async merge(actor: Actor, s: SessionRow, repo: Repo): Promise<UploadResult | null> {
    if (!this.store.claimMerge(s.session_id, this.now())) return null;
    const ahead = this.running.get(s.session_id);
    this.running.delete(s.session_id);
    await ahead?.chain;
    return this.merges.run(async () => {
      let merger = ahead && !ahead.broken ? ahead.merger : null;
      if (ahead?.merger && !merger) await ahead.merger.abort();
      const staged = merger?.file ?? newStagingFile(repo.path);
      try {
        const started = performance.now();
        const from = merger?.next ?? 0;
        merger ??= await ChunkMerger.start(staged);
        while (merger.next < s.total_chunks) await merger.append(chunkPath(repo.path, s.session_id, merger.next));
        const got = await merger.finish();
        this.log.info({ session_id: s.session_id, bytes: got.size, appended_ahead: from, ms: Math.round(performance.now() - started) }, 'upload session assembled');
        if (got.size !== s.total_size) throw new Invalid(`The chunks make ${got.size} bytes, not ${s.total_size}.`, [], 'size_mismatch');
        const result = await this.finalize(actor, repo, staged, got, s.filename, s.receipt_id!, s.client_hash ?? undefined);
        this.store.finishSession(s.session_id, 'completed', null, this.now());
        await rm(sessionDir(repo.path, s.session_id));
        return result;
      } catch (e) {
        await merger?.abort();
        await rm(staged);
        const problem = toStoredProblem(e);
        if (problem.status < 500) {
          this.deps.db.transaction(() => {
            this.store.finishSession(s.session_id, 'failed', problem, this.now());
            this.store.updateReceipt(s.receipt_id!, { status: 'failed', problem }, this.now());
          })();
          await rm(sessionDir(repo.path, s.session_id));
        } else {
          this.log.error({ err: e, session_id: s.session_id }, 'merging an upload session failed');
          this.store.finishSession(s.session_id, 'uploading', problem, this.now());
          this.store.updateReceipt(s.receipt_id!, { status: 'uploading', problem }, this.now());
        }
        throw e;
      }
    });
  }

  /**
   * Merging ahead: once chunk 0 is stored, the chunks that are stored contiguously from the start are
   * appended (and hashed) to the session's staging file while later chunks are still arriving, so
   * the merge at the end has little left to do. In memory only: after a restart, or when more
   * sessions run than MAX_RUNNING_MERGES, the merge simply starts at the end. Broken (a chunk that
   * was already appended was sent again, or an I/O error): dropped, the end merge starts over.
   */
  private mergeAhead(sessionId: string, repo: Repo): void {
    let r = this.running.get(sessionId);
    if (!r) {
      if (this.running.size >= MAX_RUNNING_MERGES) return;
      r = { merger: null, chain: Promise.resolve(), broken: false };
      this.running.set(sessionId, r);
    }
    const run = r;
    run.chain = run.chain
      .then(async () => {
        const s = this.store.session(sessionId);
        if (run.broken || !s || s.chunk_size <= 0 || (s.status !== 'pending' && s.status !== 'uploading')) {
          if (!run.merger && this.running.get(sessionId) === run) this.running.delete(sessionId);
          return;
        }
        for (;;) {
          const next = run.merger?.next ?? 0;
          if (next >= s.total_chunks) return;
          const file = chunkPath(repo.path, sessionId, next);
          const st = await fs.promises.stat(file).catch(() => null);
          if (!st || st.size !== expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size, next)) return;
          if (run.broken || this.running.get(sessionId) !== run) return;
          run.merger ??= await ChunkMerger.start(newStagingFile(repo.path));
          await run.merger.append(file);
        }
      })
      .catch((e: unknown) => {
        run.broken = true;
        this.log.warn({ err: e, session_id: sessionId }, 'merging ahead stopped; the session is merged at the end');
      });
  }

  /** Forgets the session's running merge and removes its partial file. */
  private async dropRunningMerge(sessionId: string): Promise<void> {
    const r = this.running.get(sessionId);
    if (!r) return;
    this.running.delete(sessionId);
    r.broken = true;
    await r.chain;
    await r.merger?.abort();
  }

  private sessionAnswer(s: SessionRow, received: number[], bytes: number, result: UploadResult | null): SessionAnswer {
    return {
      session_id: s.session_id,
      status: s.status,
      total_chunks: s.total_chunks,
      chunk_size: s.chunk_size || null,
      received_chunks: received,
      bytes_received: bytes,
      receipt_id: s.receipt_id!,
      problem: s.problem ? (JSON.parse(s.problem) as StoredProblem) : null,
      result,
    };
  }

  /**
   * A receipt still `processing` whose asset is already ready (or failed) was processed without
   * this receipt (e.g. the folder watcher indexed the committed file first): follow the asset.
   */
  private reconcileWithAssets(rows: ReceiptRow[]): void {
    const open = rows.filter((r) => r.status === 'processing' && r.asset_id);
    if (!open.length) return;
    const states = this.store.assetStates(open.map((r) => r.asset_id!));
    for (const r of open) {
      const st = states.get(r.asset_id!);
      if (st === 'ready') {
        this.store.updateReceipt(r.receipt_id, { status: 'completed' }, this.now());
        r.status = 'completed';
      } else if (st === 'failed') {
        const problem = toStoredProblem(new DomainError(422, 'processing_failed', 'The file was stored but could not be processed.'));
        this.store.updateReceipt(r.receipt_id, { status: 'failed', problem }, this.now());
        r.status = 'failed';
        r.problem = JSON.stringify(problem);
      }
    }
  }
}

// ==================================================================== helpers

function emptyResult(sessionId: string): BatchResult {
  return { session_id: sessionId, success: false, status: 'failed', file_name: null, receipt_id: null, content_hash: null, size: null, message: '', asset_id: null, chunk_index: null, received_chunks: null, problem: null };
}

function sessionNotFound(): NotFound {
  return new NotFound('No such upload session.', 'upload_session_not_found');
}

function assertReceiving(s: SessionRow): void {
  if (s.status === 'completed') throw new Conflict('This upload session is already complete.', 'session_completed');
  if (s.status === 'failed') throw new Conflict('This upload session failed; start a new one.', 'session_failed');
  if (s.status === 'merging') throw new Conflict('This upload session is being assembled; it takes no more chunks.', 'session_merging');
}

/** `single_{session_id}` or `chunk_{session_id}_{index}_{total}` (session ids have no '_'). */
export function parseBatchField(name: string): { kind: 'single'; sessionId: string } | { kind: 'chunk'; sessionId: string; index: number; total: number } | null {
  let m = /^single_([A-Za-z0-9-]{1,64})$/.exec(name);
  if (m) return { kind: 'single', sessionId: m[1]! };
  m = /^chunk_([A-Za-z0-9-]{1,64})_(\d{1,9})_(\d{1,9})$/.exec(name);
  if (m) {
    const index = Number(m[2]);
    const total = Number(m[3]);
    if (total < 1) return null;
    return { kind: 'chunk', sessionId: m[1]!, index, total };
  }
  return null;
}

/** Does a chunk size c split total bytes into exactly n chunks (all of c bytes but a non-empty last)? */
export function chunkSizeFits(total: number, n: number, c: number): boolean {
  return c >= 1 && c * (n - 1) < total && total <= c * n;
}

export function expectedChunkSize(total: number, n: number, c: number, index: number): number {
  return index < n - 1 ? c : total - c * (n - 1);
}

/** The chunk size a chunk of `size` bytes at `index` implies, or null when none fits. */
export function impliedChunkSize(total: number, n: number, index: number, size: number): number | null {
  if (size < 1) return null;
  let c: number;
  if (n === 1) c = total;
  else if (index < n - 1) c = size;
  else {
    if ((total - size) % (n - 1) !== 0) return null;
    c = (total - size) / (n - 1);
  }
  return chunkSizeFits(total, n, c) && expectedChunkSize(total, n, c, index) === size ? c : null;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function withExtension(name: string, type: DetectedType): string {
  return path.extname(name) ? name : `${name}.${type.ext}`;
}

function receiptState(r: ReceiptRow): ReceiptState {
  const terminal = TERMINAL_RECEIPT.includes(r.status);
  return {
    receipt_id: r.receipt_id,
    file_name: r.file_name,
    status: r.status,
    success: r.status === 'completed' || r.status === 'duplicate',
    terminal,
    problem: r.problem ? (JSON.parse(r.problem) as StoredProblem) : null,
    asset_id: r.asset_id,
    content_hash: r.content_hash,
    size: r.size,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

async function removeOlderThan(dir: string, cutoff: number, which: (name: string) => boolean): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    if (!which(name)) continue;
    const p = path.join(dir, name);
    const st = await fs.promises.lstat(p).catch(() => null);
    if (st && st.mtimeMs < cutoff) {
      await rm(p);
      n++;
    }
  }
  return n;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

