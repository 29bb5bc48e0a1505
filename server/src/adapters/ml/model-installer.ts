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
 */
import type { ModelCatalog } from './model-catalog.ts';
import { fetchModels, type FetchOptions } from './model-fetch.ts';
import { modelEntry } from './model-manifest.ts';

export interface InstallProgress {
  phase: 'downloading' | 'failed' | 'cancelled';
  /** Bytes of the model present (files done + what arrived of the current one). */
  received: number;
  bytes: number;
  error: string | null;
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
    const state: InstallProgress = { phase: 'downloading', received: 0, bytes, error: null };
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
        state.error = result.failed.map((f) => f.error).join('; ');
        return;
      }
      this.progress.delete(id);
      for (const listener of this.listeners) {
        try {
          listener([id]);
        } catch {
          // a listener's failure is its own (it logs); the install itself succeeded
        }
      }
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
