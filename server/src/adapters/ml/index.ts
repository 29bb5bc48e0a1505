/**
 * The ML runtime: the model registry (model-manifest.ts), what of it is installed and verified
 * (model-catalog.ts, model-files.ts), the inference threads (inference-pool.ts), and the downloader
 * `models:fetch` and the admin "Install" action share (model-fetch.ts).
 *
 * Features run models only through `MlRuntime.run`, which gives onnxruntime nothing but a file the
 * catalog verified (size and sha256), and never on the HTTP thread.
 */
import path from 'node:path';
import { ModelCatalog, nodeModulesResolver, type PackageResolver } from './model-catalog.ts';
import { ModelFileChecker } from './model-files.ts';
import { InferencePool, type Feeds, type Lane, type PoolDiagnostics, type Reduction, type Tensor } from './inference-pool.ts';
import { ModelInstaller, type InstalledListener, type InstallerOptions } from './model-installer.ts';
import type { Isolation } from './inference-runner.ts';
import { CAPABILITY_MODELS, type Capability } from './model-manifest.ts';

export { ModelCatalog, type CapabilityStatus, type ModelStatus, type ModelState } from './model-catalog.ts';
export { InferencePool, DEFAULT_IDLE_MS, DEFAULT_BACKGROUND_NICE, type PoolLifecycle, type Feeds, type Tensor, type TensorArray, type PoolDiagnostics, type Reduction, type PixelExpansion, expandPixels } from './inference-pool.ts';
export type { Isolation } from './inference-runner.ts';
export { ModelFileChecker, sha256File, PART_SUFFIX } from './model-files.ts';
export {
  MODELS,
  CAPABILITY_MODELS,
  capabilityModels,
  clipModels,
  modelEntry,
  requiredModelIds,
  type Capability,
  type ClipModels,
  type ModelEntry,
  type ModelFile,
} from './model-manifest.ts';
export { ClipTokenizer, START_OF_TEXT, END_OF_TEXT, CONTEXT_LENGTH } from './clip-tokenizer.ts';
export { ClipEncoder, type ImageSource } from './clip.ts';
export { InferenceError, ModelUnavailableError, PoolClosedError } from './errors.ts';
export { fetchModels, type FetchProgress, type FetchResult, FetchError } from './model-fetch.ts';
export { ModelInstaller, type InstallProgress, type InstalledListener } from './model-installer.ts';

export interface MlRuntimeOptions {
  modelsDir: string;
  /** The repository's `models/` folder, where the shipped face models are (null: none). */
  shippedModelsDir?: string | null;
  /** The data folder: the digests of checked model files are kept there (models-verified.json). */
  dataDir: string | null;
  maxWorkers?: number | null;
  packages?: PackageResolver;
  /** How long inference threads wait for work before releasing their models (HEARTH_ML_IDLE_S; default DEFAULT_IDLE_MS). */
  idleMs?: number;
  /** Where inference runs: child processes (default) or worker threads (inference-runner.ts). */
  isolation?: Isolation;
  /** The nice value of the workers that index (HEARTH_ML_NICE; default DEFAULT_BACKGROUND_NICE; see InferencePool). */
  backgroundNice?: number;
  /** Called when indexing has been idle long enough that every inference worker ended (see InferencePool). */
  onIdle?: () => void;
  /** Test only (HEARTH_CLIP_STANDIN=1): the semantic tasks run the colour-only stand-in CLIP. */
  clipStandin?: boolean;
  /** Where the admin Install action downloads from (HEARTH_MODELS_BASE_URL; null: the registry's source URLs). */
  modelsBaseUrl?: string | null;
  /** Retries and timeouts of the installs' downloads (tests shorten them). */
  installFetch?: InstallerOptions['fetch'];
}

export class MlRuntime {
  readonly checker: ModelFileChecker;
  readonly catalog: ModelCatalog;
  readonly pool: InferencePool;
  /** The admin Install action's downloads (their progress shows in the catalog's states). */
  readonly installer: ModelInstaller;

  constructor(opts: MlRuntimeOptions) {
    this.checker = new ModelFileChecker(opts.dataDir ? path.join(opts.dataDir, 'models-verified.json') : null);
    this.catalog = new ModelCatalog(opts.modelsDir, this.checker, opts.packages ?? nodeModulesResolver(), opts.clipStandin ?? false, opts.shippedModelsDir ?? null);
    this.installer = new ModelInstaller(this.catalog, { baseUrl: opts.modelsBaseUrl ?? null, fetch: opts.installFetch });
    this.catalog.installs = this.installer;
    this.pool = new InferencePool({
      maxWorkers: opts.maxWorkers,
      idleMs: opts.idleMs,
      isolation: opts.isolation,
      backgroundNice: opts.backgroundNice,
      onIdle: opts.onIdle,
      resolve: async (id) => {
        const { file, bytes, entry } = await this.catalog.sessionFile(id);
        return { file, bytes, sha256: entry.files[0]!.sha256, task: entry.task };
      },
    });
  }

  /** Runs a registry model on a worker thread (see InferencePool.run: `interactive` when a person waits). */
  run(modelId: string, feeds: Feeds, lane: Lane = 'background', reduce: Reduction | null = null): Promise<Record<string, Tensor>> {
    return this.pool.run(modelId, feeds, lane, reduce);
  }

  /**
   * Whether every model of a capability is installed and verified (sizes and sha256; checked once, then answered
   * from the kept digests): the features build their indexers only then, and their jobs wait otherwise.
   */
  async capabilityReady(capability: Capability): Promise<boolean> {
    const states = await Promise.all(CAPABILITY_MODELS[capability].map(async (id) => (await this.catalog.status(id)).state));
    return states.every((s) => s === 'ready');
  }

  /** The runtime as administrators see it: the pool's figures and every registry model's state. */
  async diagnostics(): Promise<PoolDiagnostics & { models_dir: string; models: Awaited<ReturnType<ModelCatalog['all']>> }> {
    return { ...this.pool.diagnostics(), models_dir: this.catalog.dir, models: await this.catalog.all() };
  }

  /**
   * Hears of models placed by the admin Install action (verified and in the models folder), so that a
   * feature waiting for them (an indexer) loads them without a restart. Returns the unsubscribe.
   */
  onModelsInstalled(listener: InstalledListener): () => void {
    return this.installer.onInstalled(listener);
  }

  /** Stops the installs' downloads (their parts are kept), then drains the pool (see InferencePool.close). */
  async close(deadlineMs?: number): Promise<void> {
    await this.installer.close();
    return this.pool.close(deadlineMs);
  }
}
export { ctcGreedySteps, expandPixelPlanes } from './tensor-kernels.ts';
