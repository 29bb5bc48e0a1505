/**
 * The admin "Install" action's downloads: each model fetched in the background through model-fetch.ts
 * (resume from the `.part`, sha256 check, atomic placement), from HEARTH_MODELS_BASE_URL when set, else
 * from the registry's pinned source URLs.
 *
 * Decisions (the contract is silent):
 * - One download per model at a time: asking again while it runs joins the running one.
 * - Installs are not jobs of the job queue: a model is not a catalog row, a download is one per model
 *   and cancellable here, and what survives a restart is the `.part` itself; after a restart an
 *   administrator presses Install again and the download resumes from the `.part` (as models:fetch does).
 * - A failed install (a wrong hash, a 404, the network gone after the retries) leaves the model `failed`
 *   with the cause until it is installed again (Retry) or the server restarts; nothing wrong is placed.
 * - Cancel stops the download and keeps the `.part`, so Install later continues where it stopped.
 * - After a model is placed, `onInstalled` listeners hear of it: features that were waiting for it
 *   (indexers) load it without a restart.
 * - A machine that cannot reach the source (offline: `source_unreachable`) has the manual way (issue
 *   24): the administrator uploads each file from the Models page (`acceptUpload`: streamed to a staging
 *   file beside its place, never more than the registry's size, sha256 checked, renamed into place), or
 *   puts the files in the models folder by hand and presses Check again (`verify`). Either way, once
 *   every file of a model is there and right, the listeners hear of it as after a download.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ModelCatalog } from './model-catalog.ts';
import { fetchModels, type FetchOptions } from './model-fetch.ts';
import { modelEntry } from './model-manifest.ts';

/** Beside the file's place while an upload streams in (not `.part`: that is a download's). */
const UPLOAD_SUFFIX = '.upload';
/** How much past a file's size an upload is still read (and dropped) before its answer. */
const DRAIN_BYTES = 1 << 20;

export type UploadOutcome =
  | { ok: true }
  | { ok: false; reason: 'too_large' | 'incomplete' | 'checksum_mismatch' | 'installing'; message: string };

export interface InstallProgress {
  phase: 'downloading' | 'failed' | 'cancelled';
  /** Bytes of the model present (files done + what arrived of the current one). */
  received: number;
  bytes: number;
  error: string | null;
  /** `source_unreachable` when the download never reached its source (the Models page offers the manual way). */
  code: 'source_unreachable' | null;
}

export type InstalledListener = (modelIds: string[]) => void;

export interface InstallerOptions {
  baseUrl: string | null;
  /** Passed to fetchModels (tests shorten the waits). */
  fetch?: Pick<FetchOptions, 'attempts' | 'idleTimeoutMs' | 'retryDelayMs'>;
}

export class ModelInstaller {
  private readonly progress = new Map<string, InstallProgress>();
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private readonly listeners = new Set<InstalledListener>();

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly opts: InstallerOptions,
  ) {}

  /** What an install of `id` is doing, or did last (null when none was asked for since the start). */
  state(id: string): InstallProgress | null {
    return this.progress.get(id) ?? null;
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Starts installing `id` in the background; while one runs, asking again joins it (one download). */
  install(id: string): void {
    const entry = modelEntry(id);
    if (!entry) throw new Error(`${id} is not in the model registry`);
    if (this.running.has(id)) return;
    const bytes = entry.files.reduce((n, f) => n + f.bytes, 0);
    const abort = new AbortController();
    const sizes = new Map(entry.files.map((f) => [f.path, f.bytes]));
    const finished = new Set<string>();
    const state: InstallProgress = { phase: 'downloading', received: 0, bytes, error: null, code: null };
    this.progress.set(id, state);
    const done = (async () => {
      // Files already installed count as present from the start.
      const status = await this.catalog.status(id);
      for (const f of status.files) if (f.state === 'ready') finished.add(f.path);
      const doneBytes = () => [...finished].reduce((n, p) => n + (sizes.get(p) ?? 0), 0);
      state.received = doneBytes();
      const result = await fetchModels(this.catalog, {
        ...this.opts.fetch,
        ids: [id],
        baseUrl: this.opts.baseUrl,
        signal: abort.signal,
        onProgress: (p) => {
          if (p.phase === 'done') finished.add(p.path);
          state.received = doneBytes() + (p.phase === 'data' || p.phase === 'start' || p.phase === 'retry' ? p.received : 0);
        },
      });
      if (result.failed.length) {
        state.phase = 'failed';
        state.error = [...new Set(result.failed.map((f) => f.error))].join('; ');
        state.code = result.failed.some((f) => f.code === 'source_unreachable') ? 'source_unreachable' : null;
        return;
      }
      this.progress.delete(id);
      this.installed(id);
    })()
      .catch((e: unknown) => {
        if (abort.signal.aborted) {
          state.phase = 'cancelled';
          state.error = null;
        } else {
          state.phase = 'failed';
          state.error = (e as Error).message;
        }
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, { done, abort });
  }

  private installed(id: string): void {
    for (const listener of this.listeners) {
      try {
        listener([id]);
      } catch {
        // a listener's failure is its own (it logs); the install itself succeeded
      }
    }
  }

  /**
   * The file `index` of model `id`, from an administrator's upload: streamed to `<file>.upload`,
   * refused past the registry's size, checked against its sha256, then flushed and renamed into place
   * (the model is there whole or not at all). Nothing of a refused upload is kept.
   */
  async acceptUpload(id: string, index: number, body: AsyncIterable<Uint8Array>): Promise<UploadOutcome> {
    const file = modelEntry(id)!.files[index]!;
    if (this.running.has(id)) return { ok: false, reason: 'installing', message: `${id} is being downloaded now: cancel the install first, or wait for it.` };
    const dest = this.catalog.pathOf(file);
    const staging = dest + UPLOAD_SUFFIX;
    await fs.mkdir(path.dirname(dest), { recursive: true });
    const hash = crypto.createHash('sha256');
    let received = 0;
    const out = await fs.open(staging, 'w');
    let placed = false;
    try {
      for await (const chunk of body) {
        received += chunk.length;
        // Past the size nothing more is written; a little more is read (and dropped) so that the answer
        // reaches a client still sending, and no more than that, so an endless body cannot hold us.
        if (received > file.bytes + DRAIN_BYTES) break;
        if (received > file.bytes) continue;
        hash.update(chunk);
        await out.write(chunk);
      }
      if (received > file.bytes) return { ok: false, reason: 'too_large', message: `${file.path} is ${file.bytes} bytes; this upload is larger, so it is not that file.` };
      if (received !== file.bytes) return { ok: false, reason: 'incomplete', message: `${file.path} is ${file.bytes} bytes; ${received} arrived.` };
      const digest = hash.digest('hex');
      if (digest !== file.sha256) {
        return { ok: false, reason: 'checksum_mismatch', message: `${file.path}: sha256 ${digest} does not match the registry's ${file.sha256}; nothing was installed.` };
      }
      await out.sync();
      await out.close();
      await fs.rename(staging, dest);
      placed = true;
    } finally {
      if (!placed) {
        await out.close().catch(() => undefined);
        await fs.rm(staging, { force: true });
      }
    }
    await this.verify(id);
    return { ok: true };
  }

  /**
   * "Check again": forgets the last failed or cancelled install of `id` (unless one runs) so its state is
   * what the files say, and when they are all there and right, tells the listeners it is installed.
   */
  async verify(id: string): Promise<void> {
    if (this.running.has(id)) return;
    this.progress.delete(id);
    if ((await this.catalog.status(id)).state === 'ready') this.installed(id);
  }

  /** Stops a running install of `id` (its `.part` is kept for the next install); false when none runs. */
  cancel(id: string): boolean {
    const running = this.running.get(id);
    if (!running) return false;
    running.abort.abort(new Error('cancelled by an administrator'));
    return true;
  }

  /** Resolves when the install of `id` (if any) has ended. */
  async whenDone(id: string): Promise<void> {
    await this.running.get(id)?.done;
  }

  /** Hears of every model placed by an install (after it was verified and renamed into place). */
  onInstalled(listener: InstalledListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every download (shutdown) and waits for them to end. */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.abort.abort(new Error('the server is stopping'));
    await Promise.all(all.map((r) => r.done));
  }
}
