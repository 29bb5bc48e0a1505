/**
 * The upload queue: files the person added, each sent as a chunked upload session and followed to
 * its final state. It lives outside React (one per signed-in account), so uploads continue while the
 * person looks at other pages; components read it through useUploads().
 *
 * Per file:
 *   0. a new file is hashed and checked against the library (precheck.ts): one already there is not
 *      sent at all ("Already in your library");
 *   1. createUploadSession (resuming the session remembered for this file, if any): the server says
 *      which chunks it already has;
 *   2. the missing chunks go to batchUploadAssets as `chunk_{session}_{index}_{total}`, several at
 *      once (getUploadConfig: chunk_size, max_concurrent), by XMLHttpRequest for progress events;
 *      network failures and busy answers (503 + Retry-After) are retried with a pause;
 *   3. after the last chunk the server assembles, hashes and commits the file, then processes it:
 *      the receipt is followed (see receipts.ts) until completed, duplicate or failed.
 * After a reload, files that were on their way show as paused until the same file is added again
 * (browsers cannot reopen a file by themselves); then only the missing chunks are sent.
 */
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import type { components } from '../../api/schema';
import { session } from '../../api/session';
import { NETWORK_LOST, plainWords, type FailureFacts } from './plain-words';
import { alreadyInLibrary } from './precheck';
import { ReceiptFollower, type ReceiptState } from './receipts';
import { fileKey, ResumeStore, type ResumeRecord } from './resume-store';
import { randomId } from '../../lib/random-code';
import { isAbort, NetworkError, postForm, sleep } from './transport';

type UploadConfig = { chunk_size: number; max_concurrent: number };
type Problem = components['schemas']['UploadProblem'];
/** The parts of createUploadSession's answer the queue uses. */
interface SessionAnswer {
  session_id: string;
  receipt_id: string;
  status: 'pending' | 'uploading' | 'merging' | 'completed' | 'failed';
  received_chunks: number[];
  problem: Problem | null;
  result: { status: 'processing' | 'duplicate'; message: string; restored_from_trash?: boolean } | null;
}
type BatchResult = components['schemas']['BatchUploadResult'];

/**
 * `checking`: being compared with the library before it is sent (precheck.ts).
 * `restored`: the file was the person's own asset in the Trash; the server brought it back instead
 * of storing it twice (a duplicate with `restored_from_trash`).
 */
export type UploadState = 'paused' | 'waiting' | 'checking' | 'uploading' | 'processing' | 'done' | 'duplicate' | 'restored' | 'failed';

/** The file is in the library: stored and processed, already there, or back from the Trash. */
export function isFinished(state: UploadState): boolean {
  return state === 'done' || state === 'duplicate' || state === 'restored';
}

export interface UploadItem {
  id: string;
  name: string;
  /** Folder-relative path for files from a folder pick or drop; otherwise the name. */
  path: string;
  size: number;
  state: UploadState;
  /** Bytes the server has or that are on their way (0..size). */
  bytesSent: number;
  /** Why it failed (in plain words, plain-words.ts), or what a duplicate or pause means. */
  message: string | null;
  /** The problem code behind a failure ('network' when the connection was lost), for the list's order and its retries. */
  code: string | null;
  /** The file itself while it is at hand (for its thumbnail in the list); null after a reload. */
  file: File | null;
  /** A Retry button makes sense (the file is at hand, or the server has it). */
  canRetry: boolean;
  /** The file must be added again to go on. */
  needsFile: boolean;
  assetId: string | null;
}

interface Entry extends UploadItem {
  key: string;
  /** The last failure may pass when tried again (a lost connection, a tool's hiccup), as the server judged it. */
  retryable: boolean;
  lastModified: number;
  file: File | null;
  sessionId: string | null;
  /**
   * The session this file is opening: its id is chosen here, before the server is asked, so that a retry after
   * an answer lost on the way back (the server made the session, the page never heard) resumes that session
   * instead of leaving it behind and starting a second one.
   */
  opening: SessionParams | null;
  receiptId: string | null;
  failedStage: 'upload' | 'processing' | null;
  run: AbortController | null;
  unfollow: (() => void) | null;
}

/** How one upload session is laid out: its id (chosen by this page) and its chunks. */
interface SessionParams {
  sessionId: string;
  chunkSize: number;
  totalChunks: number;
}

class UploadFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code: string | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** A lost connection is tried again by itself after this pause (and as soon as the browser is back online). */
const NETWORK_RETRY_MS = 20_000;

/** Files uploading at once; their chunk requests share the server's max_concurrent. */
const FILE_CONCURRENCY = 2;
const MAX_ATTEMPTS = 5;
const MAX_BUSY_WAITS = 60;
const PAUSED_MESSAGE = 'Paused: add the file again to resume.';
const RESTORED_MESSAGE = 'Restored from your Trash: it is back in your library, not stored twice.';
const ALREADY_MESSAGE = 'Already in your library; not sent again.';
const TERMINAL: UploadState[] = ['done', 'duplicate', 'restored', 'failed'];

const backoff = (attempt: number) => Math.min(500 * 2 ** attempt, 15_000);

function problemCode(body: unknown): string | null {
  return typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : null;
}

function problemDetail(body: unknown): string | null {
  return typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string' ? body.detail : null;
}

/** A counting semaphore: chunk requests of all files together stay within the server's max_concurrent. */
class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private capacity: number) {}

  resize(n: number): void {
    this.capacity = n;
    this.drain();
  }

  acquire(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.drain();
    });
  }

  release(): void {
    this.busy--;
    this.drain();
  }

  private drain(): void {
    while (this.busy < this.capacity && this.waiting.length) {
      this.busy++;
      this.waiting.shift()!();
    }
  }
}

export class UploadQueue {
  private entries: Entry[] = [];
  private snapshot: UploadItem[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly settledListeners = new Set<(item: UploadItem) => void>();
  private readonly store: ResumeStore;
  private readonly receipts = new ReceiptFollower();
  private config: Promise<UploadConfig> | null = null;
  private readonly slots = new Slots(2);
  private active = 0;
  private emitTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(userId: number) {
    this.store = new ResumeStore(userId);
    void this.restore();
  }

  // ------------------------------------------------------------ observing

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): UploadItem[] => this.snapshot;

  /** Called when a file reaches done, duplicate or failed. */
  onSettled(listener: (item: UploadItem) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  private emit(): void {
    clearTimeout(this.emitTimer);
    this.emitTimer = undefined;
    this.snapshot = this.entries.map((e) => ({
      id: e.id,
      name: e.name,
      path: e.path,
      size: e.size,
      state: e.state,
      bytesSent: e.bytesSent,
      message: e.message,
      code: e.code,
      file: e.file,
      // Retry only where trying again can help: not for a damaged or unsupported file (the server said so).
      canRetry: e.state === 'failed' && e.retryable && (e.failedStage === 'processing' ? !!e.assetId : !!e.file),
      needsFile: !e.file && (e.state === 'paused' || (e.state === 'failed' && e.failedStage === 'upload')),
      assetId: e.assetId,
    }));
    for (const l of this.listeners) l();
  }

  /** Progress events come fast: redraw at most ten times a second. */
  private emitSoon(): void {
    this.emitTimer ??= setTimeout(() => this.emit(), 100);
  }

  // ------------------------------------------------------------ actions

  add(files: File[]): void {
    for (const file of files) {
      const key = fileKey(file);
      const path = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
      const waiting = this.entries.find((e) => e.key === key && !e.file && (e.state === 'paused' || e.state === 'failed'));
      if (waiting) {
        // The same file as a paused (or failed) upload: resume it.
        Object.assign(waiting, { file, path, state: 'waiting', message: null, code: null, failedStage: null });
        continue;
      }
      if (this.entries.some((e) => e.key === key && !TERMINAL.includes(e.state))) continue; // already on its way
      this.entries.push({
        id: randomId(),
        key,
        name: file.name,
        path,
        size: file.size,
        lastModified: file.lastModified,
        file,
        state: 'waiting',
        bytesSent: 0,
        message: null,
        code: null,
        retryable: true,
        canRetry: false,
        needsFile: false,
        assetId: null,
        sessionId: null,
        opening: null,
        receiptId: null,
        failedStage: null,
        run: null,
        unfollow: null,
      });
    }
    this.emit();
    this.pump();
  }

  retry(id: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e || e.state !== 'failed') return;
    if (e.failedStage === 'processing' && e.assetId) {
      void this.reprocess(e);
      return;
    }
    if (!e.file) return;
    Object.assign(e, { state: 'waiting', message: null, code: null, failedStage: null });
    this.emit();
    this.pump();
  }

  /** Drops a paused or failed upload from the list (and forgets its session). */
  forget(id: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e || !(e.state === 'paused' || TERMINAL.includes(e.state))) return;
    this.store.remove(e.key);
    e.unfollow?.();
    this.entries = this.entries.filter((x) => x !== e);
    this.emit();
  }

  clearFinished(): void {
    this.entries = this.entries.filter((e) => !isFinished(e.state));
    this.emit();
  }

  dispose(): void {
    this.disposed = true;
    for (const e of this.entries) e.run?.abort();
    this.receipts.stop();
    clearTimeout(this.emitTimer);
    this.listeners.clear();
    this.settledListeners.clear();
  }

  // ------------------------------------------------------------ restoring after a reload

  private async restore(): Promise<void> {
    const records = this.store.all();
    if (!records.length) return;
    for (const r of records) {
      this.entries.push({
        id: randomId(),
        key: r.key,
        name: r.name,
        path: r.name,
        size: r.size,
        lastModified: r.lastModified,
        file: null,
        state: 'paused',
        bytesSent: r.totalChunks ? Math.min(r.size, r.receivedChunks * r.chunkSize) : 0,
        message: PAUSED_MESSAGE,
        code: null,
        retryable: true,
        canRetry: false,
        needsFile: true,
        assetId: null,
        sessionId: r.sessionId,
        opening: null,
        receiptId: r.receiptId,
        failedStage: null,
        run: null,
        unfollow: null,
      });
    }
    this.emit();
    let sessions: { session_id: string; status: string; bytes_done: number; receipt_id: string | null; problem: { detail: string } | null }[];
    try {
      const ids = records.map((r) => r.sessionId).slice(0, 1000);
      sessions = (await request(api.GET('/api/v1/uploads/sessions', { params: { query: { session_ids: ids.join(',') } } }))).sessions;
    } catch {
      return; // offline: they stay paused and resume when the file is added again
    }
    if (this.disposed) return;
    for (const r of records) {
      const e = this.entries.find((x) => x.key === r.key && x.state === 'paused' && !x.file);
      if (!e) continue;
      const s = sessions.find((x) => x.session_id === r.sessionId);
      if (!s) {
        // The server no longer has it (expired and cleaned up): adding the file again starts afresh.
        e.message = 'Paused: add the file again to upload it.';
        e.bytesSent = 0;
        continue;
      }
      if (s.status === 'completed' || s.status === 'merging') {
        // Sent completely before the reload: only the processing is left to watch.
        Object.assign(e, { state: 'processing', bytesSent: e.size, message: null, receiptId: s.receipt_id ?? r.receiptId });
        this.follow(e);
      } else if (s.status === 'failed') {
        this.store.remove(r.key);
        Object.assign(e, { state: 'failed', failedStage: 'upload', sessionId: null, message: s.problem?.detail ?? 'The upload failed.' });
      } else {
        e.bytesSent = Math.min(e.size, s.bytes_done);
      }
    }
    this.emit();
  }

  // ------------------------------------------------------------ running

  private pump(): void {
    if (this.disposed) return;
    while (this.active < FILE_CONCURRENCY) {
      const next = this.entries.find((e) => e.state === 'waiting' && e.file);
      if (!next) return;
      this.active++;
      next.state = 'uploading';
      void this.upload(next).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private loadConfig(): Promise<UploadConfig> {
    this.config ??= request(api.GET('/api/v1/uploads/config')).then(
      (c) => {
        this.slots.resize(Math.max(1, c.max_concurrent));
        return c;
      },
      (e: unknown) => {
        this.config = null;
        throw e;
      },
    );
    return this.config;
  }

  private async upload(e: Entry): Promise<void> {
    const run = new AbortController();
    e.run = run;
    Object.assign(e, { message: null, code: null, failedStage: null, bytesSent: 0 });
    this.emit();
    try {
      // A file not on its way yet (no session remembered for it) is compared with the library first.
      if (e.file && !this.store.get(e.key)) {
        e.state = 'checking';
        this.emit();
        const existing = await alreadyInLibrary(e.file, run.signal);
        if (existing !== null) {
          e.assetId = existing || null;
          return this.settle(e, 'duplicate', ALREADY_MESSAGE);
        }
        e.state = 'uploading';
        this.emit();
      }
      const cfg = await this.loadConfig();
      const { answer, totalChunks, chunkSize } = await this.openSession(e, cfg);
      if (answer.status === 'failed')
        throw new UploadFailure(answer.problem?.detail ?? 'The server could not take this file.', false, answer.problem?.code ?? null, answer.problem?.status ?? null);
      if (answer.status === 'completed' || answer.status === 'merging') {
        e.bytesSent = e.size;
        if (answer.result?.status === 'duplicate') return this.settleDuplicate(e, answer.result);
        return this.toProcessing(e);
      }
      const final = await this.sendChunks(e, answer, totalChunks, chunkSize, cfg, run.signal);
      if (final?.status === 'duplicate') return this.settleDuplicate(e, final);
      this.toProcessing(e);
    } catch (err) {
      if (this.disposed || run.signal.aborted) return;
      const retryable = err instanceof UploadFailure ? err.retryable : !(err instanceof ApiError && err.status >= 400 && err.status < 500);
      const detail = err instanceof UploadFailure || err instanceof ApiError ? err.message : 'The upload stopped unexpectedly.';
      const code = err instanceof UploadFailure || err instanceof ApiError ? err.code : null;
      const status = err instanceof UploadFailure ? err.status : err instanceof ApiError ? err.status : null;
      this.fail(e, 'upload', { detail, retryable, code, status });
    } finally {
      e.run = null;
    }
  }

  /** Creates the session, or resumes the one remembered for this file. */
  private async openSession(e: Entry, cfg: UploadConfig): Promise<{ answer: SessionAnswer; totalChunks: number; chunkSize: number }> {
    const rec = this.store.get(e.key);
    const fresh = (): SessionParams => {
      const totalChunks = Math.max(1, Math.ceil(e.size / Math.max(1, cfg.chunk_size)));
      // A file of one chunk declares its own size as the chunk size: the server takes a single chunk
      // only when it is exactly the declared chunk size (it refuses a 160 KB chunk of a session
      // declared with 20 MiB chunks).
      const chunkSize = totalChunks === 1 ? Math.max(1, e.size) : cfg.chunk_size;
      return { sessionId: randomId(), chunkSize, totalChunks };
    };
    const create = (p: SessionParams): Promise<SessionAnswer> => {
      e.opening = p;
      return request(
        api.POST('/api/v1/uploads/sessions', {
          body: {
            session_id: p.sessionId,
            filename: e.name,
            total_size: e.size,
            total_chunks: p.totalChunks,
            chunk_size: p.chunkSize,
            ...(e.file?.type ? { content_type: e.file.type.slice(0, 255) } : {}),
            // When the file was last modified, in this device's zone: the date of a photo or video with none
            // inside (the server marks it `file_modified`, to check). Browsers report 0 when they do not know.
            ...(e.lastModified > 0 ? { last_modified: localIso(e.lastModified) } : {}),
          },
        }),
      );
    };
    // Resume what the server may have: the session remembered for this file, else the one this page asked for
    // last time whose answer never came back.
    const earlier = rec && rec.size === e.size ? { sessionId: rec.sessionId, chunkSize: rec.chunkSize, totalChunks: rec.totalChunks } : e.opening;
    let params = earlier ?? fresh();
    let answer: SessionAnswer;
    try {
      answer = await create(params);
      // An earlier session that failed meanwhile (expired, rejected): start a new one.
      if (earlier && answer.status === 'failed') answer = await create((params = fresh()));
    } catch (err) {
      // The earlier session is gone or belongs to something else: start a new one.
      if (!earlier || !(err instanceof ApiError) || (err.status !== 404 && err.status !== 409)) throw err;
      answer = await create((params = fresh()));
    }
    e.sessionId = answer.session_id;
    e.opening = null;
    e.receiptId = answer.receipt_id;
    this.remember(e, params.totalChunks, params.chunkSize, answer.received_chunks.length);
    return { answer, totalChunks: params.totalChunks, chunkSize: params.chunkSize };
  }

  private remember(e: Entry, totalChunks: number, chunkSize: number, receivedChunks: number): void {
    if (!e.sessionId || !e.receiptId) return;
    const record: ResumeRecord = {
      key: e.key,
      name: e.name,
      size: e.size,
      lastModified: e.lastModified,
      sessionId: e.sessionId,
      receiptId: e.receiptId,
      totalChunks,
      chunkSize,
      receivedChunks,
      updatedAt: Date.now(),
    };
    this.store.put(record);
  }

  private async sendChunks(e: Entry, answer: SessionAnswer, total: number, chunkSize: number, cfg: UploadConfig, signal: AbortSignal): Promise<BatchResult | null> {
    const sizeOf = (i: number) => Math.min(chunkSize, e.size - i * chunkSize);
    const have = new Set(answer.received_chunks);
    const missing = Array.from({ length: total }, (_, i) => i).filter((i) => !have.has(i));
    let base = [...have].reduce((sum, i) => sum + (i < total ? sizeOf(i) : 0), 0);
    const inFlight = new Map<number, number>();
    const show = () => {
      let sent = base;
      for (const v of inFlight.values()) sent += v;
      e.bytesSent = Math.min(e.size, sent);
      this.emitSoon();
    };
    show();
    let final: BatchResult | null = null;
    let next = 0;
    let stored = have.size;
    // Stops the other chunks of this file when one fails for good (and everything on dispose).
    const stop = new AbortController();
    signal.addEventListener('abort', () => stop.abort(), { once: true });
    const both = stop.signal;
    const worker = async () => {
      while (next < missing.length) {
        const i = missing[next++]!;
        await this.slots.acquire();
        try {
          const r = await this.sendChunk(e, i, total, chunkSize, (fraction) => {
            inFlight.set(i, Math.round(fraction * sizeOf(i)));
            show();
          }, both);
          inFlight.delete(i);
          base += sizeOf(i);
          stored++;
          show();
          if (r.status === 'processing' || r.status === 'duplicate') final = r;
          if (stored < total) this.remember(e, total, chunkSize, stored);
        } catch (err) {
          inFlight.delete(i);
          stop.abort();
          throw err;
        } finally {
          this.slots.release();
        }
      }
    };
    const workers = Array.from({ length: Math.max(1, Math.min(cfg.max_concurrent, missing.length)) }, worker);
    const outcomes = await Promise.allSettled(workers);
    // Report the first real failure, not the aborts it caused in the other workers.
    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as unknown);
    if (failures.length) throw failures.find((f) => !isAbort(f)) ?? failures[0];
    return final;
  }

  private async sendChunk(e: Entry, index: number, total: number, chunkSize: number, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<BatchResult> {
    const file = e.file!;
    const blob = file.slice(index * chunkSize, Math.min(e.size, (index + 1) * chunkSize));
    const field = `chunk_${e.sessionId}_${index}_${total}`;
    let attempt = 0;
    let busy = 0;
    for (;;) {
      let res;
      try {
        res = await postForm(
          '/api/v1/uploads/batch',
          () => {
            const form = new FormData();
            form.append(field, blob, e.name);
            return form;
          },
          onProgress,
          signal,
        );
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        onProgress(0);
        if (++attempt >= MAX_ATTEMPTS) throw new UploadFailure('The connection to Hearth was lost.', true, NETWORK_LOST);
        await sleep(backoff(attempt), signal);
        continue;
      }
      if (res.status === 503 || res.status === 429) {
        // The server is busy with other uploads: wait as long as it asks.
        onProgress(0);
        if (++busy > MAX_BUSY_WAITS) throw new UploadFailure('Hearth is too busy to take the file right now.', true, 'uploads_busy', res.status);
        await sleep((res.retryAfterSeconds ?? 2) * 1000, signal);
        continue;
      }
      if (res.status >= 500 || res.status === 0) {
        onProgress(0);
        if (++attempt >= MAX_ATTEMPTS) throw new UploadFailure(problemDetail(res.body) ?? 'Hearth could not store the file.', true, problemCode(res.body), res.status);
        await sleep(backoff(attempt), signal);
        continue;
      }
      if (res.status !== 200) {
        const retryable = res.status === 401 || res.status === 408;
        throw new UploadFailure(problemDetail(res.body) ?? `The upload was refused (HTTP ${res.status}).`, retryable, problemCode(res.body), res.status);
      }
      const r = (res.body as { results?: BatchResult[] }).results?.[0];
      if (!r) throw new UploadFailure('Hearth gave an answer the app does not understand.', true);
      if (r.success) return r;
      const p = r.problem;
      if (p?.retryable && ++attempt < MAX_ATTEMPTS) {
        onProgress(0);
        await sleep(backoff(attempt), signal);
        continue;
      }
      throw new UploadFailure(p?.detail ?? (r.message || 'The server refused this part of the file.'), p?.retryable ?? false, p?.code ?? null, p?.status ?? null);
    }
  }

  // ------------------------------------------------------------ after the upload

  private toProcessing(e: Entry): void {
    Object.assign(e, { state: 'processing', bytesSent: e.size, message: null });
    this.emit();
    this.follow(e);
  }

  private follow(e: Entry): void {
    if (!e.receiptId) return this.fail(e, 'processing', { detail: 'Hearth gave no receipt for this file.', retryable: false });
    e.unfollow?.();
    e.unfollow = this.receipts.follow(e.receiptId, (st) => this.onReceipt(e, st));
  }

  private onReceipt(e: Entry, st: ReceiptState): void {
    if (st.asset_id) e.assetId = st.asset_id;
    if (st.status === 'completed') return this.settle(e, 'done', null);
    if (st.status === 'duplicate') return this.settle(e, 'duplicate', duplicateMessage(null));
    if (st.status === 'failed') {
      // Stored but not processable (corrupt, unsupported): reprocessing may help only if it was a tool failure.
      const stage = st.asset_id ? 'processing' : 'upload';
      return this.fail(e, stage, {
        detail: st.problem?.detail ?? 'The file could not be processed.',
        retryable: st.problem?.retryable ?? false,
        code: st.problem?.code ?? null,
        status: st.problem?.status ?? null,
      });
    }
    if (st.status === 'uploading' && st.problem) {
      // Assembling the file failed on the server's side; resuming the session tries again.
      e.unfollow?.();
      e.unfollow = null;
      return this.fail(e, 'upload', { detail: st.problem.detail, retryable: true, code: st.problem.code, status: st.problem.status });
    }
  }

  /** Retry of a file that was stored but failed processing: reprocess the asset and watch it. */
  private async reprocess(e: Entry): Promise<void> {
    const assetId = e.assetId!;
    Object.assign(e, { state: 'processing', message: null, failedStage: null });
    this.emit();
    try {
      await request(api.POST('/api/v1/assets/{id}/reprocess', { params: { path: { id: assetId } }, body: {} }));
      for (let i = 0; !this.disposed; i++) {
        await sleep(Math.min(1_000 + i * 250, 5_000));
        const a = await request(
          api.GET('/api/v1/assets/{id}', {
            params: { path: { id: assetId }, query: { include_thumbnails: 'false', include_tags: 'false', include_albums: 'false', include_species: 'false' } },
          }),
        );
        if (a.state === 'ready') return this.settle(e, 'done', null);
        if (a.state === 'failed') return this.fail(e, 'processing', { detail: a.last_error ?? 'The file could not be processed.', retryable: true });
      }
    } catch (err) {
      if (!this.disposed) this.fail(e, 'processing', { detail: err instanceof ApiError ? err.message : 'Reprocessing could not be started.', retryable: true, code: err instanceof ApiError ? err.code : null });
    }
  }

  /** Already in the library: not stored again, or brought back from the person's Trash. */
  private settleDuplicate(e: Entry, r: { message: string; restored_from_trash?: boolean }): void {
    if (r.restored_from_trash) return this.settle(e, 'restored', RESTORED_MESSAGE);
    this.settle(e, 'duplicate', duplicateMessage(r.message));
  }

  private settle(e: Entry, state: 'done' | 'duplicate' | 'restored', message: string | null): void {
    e.unfollow?.();
    e.unfollow = null;
    this.store.remove(e.key);
    Object.assign(e, { state, message, bytesSent: e.size, failedStage: null });
    this.emit();
    this.notifySettled(e);
  }

  private fail(e: Entry, stage: 'upload' | 'processing', facts: Partial<FailureFacts> & { detail: string; retryable: boolean }): void {
    const { retryable } = facts;
    const code = facts.code ?? null;
    e.unfollow?.();
    e.unfollow = null;
    // A failure the server reported as final cannot be resumed: forget the session.
    if (!retryable || stage === 'processing') this.store.remove(e.key);
    Object.assign(e, { state: 'failed', failedStage: stage, code, retryable, message: plainWords({ code, status: facts.status ?? null, retryable, detail: facts.detail }) });
    if (!retryable && stage === 'upload') Object.assign(e, { sessionId: null, opening: null });
    this.emit();
    this.notifySettled(e);
    if (code === NETWORK_LOST && stage === 'upload') this.retryWhenOnline(e);
  }

  /** "Will retry": a file whose connection was lost goes again by itself, when the browser is back online or after a pause. */
  private retryWhenOnline(e: Entry): void {
    const again = () => {
      clearTimeout(timer);
      window.removeEventListener('online', again);
      if (!this.disposed && e.state === 'failed' && e.code === NETWORK_LOST && this.entries.includes(e)) this.retry(e.id);
    };
    const timer = setTimeout(again, NETWORK_RETRY_MS);
    window.addEventListener('online', again);
  }

  /** Every failed file that can be tried again. */
  retryFailed(): void {
    for (const e of this.entries) if (e.state === 'failed') this.retry(e.id);
  }

  private notifySettled(e: Entry): void {
    const item = this.snapshot.find((i) => i.id === e.id);
    if (item) for (const l of this.settledListeners) l(item);
  }
}

function duplicateMessage(server: string | null | undefined): string {
  return server && /already/i.test(server) ? server : 'Already in your library; not stored again.';
}

// ------------------------------------------------------------ one queue per signed-in account

let queue: UploadQueue | null = null;
let queueUser: number | null = null;

session.onUserChange((user) => {
  if (queue && user?.user_id !== queueUser) {
    queue.dispose();
    queue = null;
    queueUser = null;
  }
});

export function uploadQueue(userId: number): UploadQueue {
  if (!queue || queueUser !== userId) {
    queue?.dispose();
    queue = new UploadQueue(userId);
    queueUser = userId;
  }
  return queue;
}

/** An instant as ISO 8601 with this device's offset at that instant ("2024-05-01T14:30:00+02:00"). */
export function localIso(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${offset < 0 ? '-' : '+'}${pad(offset / 60)}:${pad(offset % 60)}`;
}
