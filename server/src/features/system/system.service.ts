/**
 * Health, public capabilities and runtime diagnostics.
 *
 * Capabilities report what this build and this install can do right now, truthfully: a task is
 * `enabled` when the administrator left it on, and `available` only when every model it needs is in
 * the models folder with the registry's size and sha256, and onnxruntime is installed. Beyond the
 * contract's `{enabled, available}`, each task says why it is not available (`reason`: `disabled`,
 * `not_installed`, `downloading` with `progress_percent`, `failed` with the cause in `detail`) and
 * which registry models it needs; `classify` (zero-shot tags with CLIP) is reported beside the
 * contract's tasks. A switched-off task is `disabled` whatever its models' state. Hearth runs its
 * models in-process; it never discovers remote ML nodes, so the node counts are 0 and
 * `discovery_state` is `disabled`.
 *
 * Runtime diagnostics (administrators): the contract's ML backends and nodes (none: models run
 * in-process, see above) and, beyond the contract's fields, `ml`: the in-process runtime (execution
 * provider, threads, models loaded with bytes and load times, queue depth, average inference time
 * per model and task, each registry model's state), and `caches`: the library caches' counters
 * (entries, bytes against their budget, hits, misses, invalidations, evictions) and where the
 * change journal reader stands, so that "is the library answering from its caches?" can be checked
 * on a running install; and `media_tools`: whether ffmpeg and ffprobe are found, where, and how many files
 * wait for them (`reason: tool_missing`, with the install hint).
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { Capability, CapabilityStatus, MlRuntime } from '../../adapters/ml/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { CacheCounters } from '../../platform/cache/kept-cache.ts';
import type { MediaToolsReport } from '../assets/index.ts';

export interface CacheDiagnostics {
  journal: { position: number | null; rebuilds: number; blocking_rebuilds: number; updates: number; chunks: number; rebuilding: boolean };
  caches: CacheCounters[];
}

export const VERSION = '0.1.0';

type MlSwitch = 'semantic_enabled' | 'face_enabled' | 'ocr_enabled' | 'species_enabled';

/** The ML setting that switches each reported task. */
const TASK_SWITCH: Record<Capability, MlSwitch> = {
  bioclip_classify: 'species_enabled',
  classify: 'semantic_enabled',
  face_recognition: 'face_enabled',
  ocr: 'ocr_enabled',
  semantic_image_embed: 'semantic_enabled',
  semantic_text_embed: 'semantic_enabled',
};

export class SystemService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsStore,
    /** The ML runtime: its models' states and its figures. */
    private readonly ml: Pick<MlRuntime, 'catalog' | 'diagnostics' | 'pool'>,
    /** The library caches' counters (container.ts). */
    private readonly cacheDiagnostics: () => CacheDiagnostics,
    /** ffmpeg/ffprobe and the files waiting for them (features/assets, waiting-for-tools.ts). */
    private readonly mediaTools: () => MediaToolsReport,
    /** The model settings' state: not configured, not tested, or how the last test of them went (features/settings). */
    private readonly llmAvailability: () => 'ready' | 'unchecked' | 'not_configured' | 'unreachable',
  ) {}

  async diagnostics() {
    return {
      backends: [],
      captured_at: new Date().toISOString(),
      counts: { active: 0, connecting: 0, discovered: 0, incompatible: 0, pending: 0, unavailable: 0 },
      discovery_state: 'disabled' as const,
      nodes: [],
      ml: await this.ml.diagnostics(),
      caches: this.cacheDiagnostics(),
      media_tools: this.mediaTools(),
    };
  }

  private async mlTasks() {
    const switches = this.settings.section('ml');
    const states = await this.ml.catalog.capabilities();
    const runtimeProblem = this.ml.pool.runtimeProblem;
    const task = (name: Capability) => {
      const s: CapabilityStatus = states[name];
      const enabled = switches[TASK_SWITCH[name]];
      if (!enabled) {
        return { enabled, available: false, reason: 'disabled' as const, progress_percent: null, detail: `switched off in the ML settings (${TASK_SWITCH[name]})`, models: s.models };
      }
      if (s.ready && runtimeProblem) return { enabled, available: false, reason: 'failed' as const, progress_percent: null, detail: runtimeProblem, models: s.models };
      return { enabled, available: s.ready, reason: s.reason, progress_percent: s.progress_percent, detail: s.detail, models: s.models };
    };
    return {
      bioclip_classify: task('bioclip_classify'),
      classify: task('classify'),
      face_recognition: task('face_recognition'),
      ocr: task('ocr'),
      semantic_image_embed: task('semantic_image_embed'),
      semantic_text_embed: task('semantic_text_embed'),
    };
  }

  health() {
    let database: 'ok' | 'error' = 'ok';
    try {
      this.db.prepare('SELECT 1').get();
    } catch {
      database = 'error';
    }
    return {
      status: database === 'ok' ? ('ok' as const) : ('degraded' as const),
      version: VERSION,
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
      database,
    };
  }

  async capabilities() {
    const llm = this.settings.section('llm');
    const tasks = await this.mlTasks();
    const availability = this.llmAvailability();
    return {
      llm: {
        // On when an administrator turned the assistant on (features/agent): it answers without a model too.
        agent_enabled: llm.agent_enabled,
        availability,
        configured: availability !== 'not_configured',
        model_name: llm.model_name,
        provider: llm.provider,
      },
      ml: {
        active_node_count: 0,
        connecting_node_count: 0,
        discovered_node_count: 0,
        discovery_state: 'disabled' as const,
        incompatible_node_count: 0,
        pending_node_count: 0,
        unavailable_node_count: 0,
        tasks,
      },
    };
  }
}
