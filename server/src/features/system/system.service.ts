/**
 * Health, public capabilities and runtime diagnostics.
 *
 * Capabilities report what this build and this install can do right now, truthfully: a task is
 * `enabled` when the administrator left it on, and `available` only when its model is installed and
 * its runtime loaded. Hearth runs its models in-process; it never discovers remote ML nodes, so the
 * node counts are 0 and `discovery_state` is `disabled`.
 *
 * Runtime diagnostics (administrators): the contract's ML backends and nodes (none: models run
 * in-process, see above) and, beyond the contract's fields, `caches`: the library caches' counters
 * (entries, bytes against their budget, hits, misses, invalidations, evictions) and where the
 * change journal reader stands, so that "is the library answering from its caches?" can be checked
 * on a running install.
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { CacheCounters } from '../../platform/cache/kept-cache.ts';

export interface CacheDiagnostics {
  journal: { position: number | null; rebuilds: number; blocking_rebuilds: number; updates: number; chunks: number; rebuilding: boolean };
  caches: CacheCounters[];
}

export const VERSION = '0.1.0';

export interface MlTaskAvailability {
  semantic_image_embed: boolean;
  semantic_text_embed: boolean;
  face_recognition: boolean;
  ocr: boolean;
  bioclip_classify: boolean;
}

export class SystemService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsStore,
    /** Which ML tasks have a loaded model; nothing is wired to a model yet. */
    private readonly mlAvailability: () => MlTaskAvailability,
    /** The library caches' counters (container.ts). */
    private readonly cacheDiagnostics: () => CacheDiagnostics,
  ) {}

  diagnostics() {
    return {
      backends: [],
      captured_at: new Date().toISOString(),
      counts: { active: 0, connecting: 0, discovered: 0, incompatible: 0, pending: 0, unavailable: 0 },
      discovery_state: 'disabled' as const,
      nodes: [],
      caches: this.cacheDiagnostics(),
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

  capabilities() {
    const ml = this.settings.section('ml');
    const llm = this.settings.section('llm');
    const avail = this.mlAvailability();
    const configured = llm.provider !== 'none' && !!llm.base_url && !!llm.model_name;
    const task = (enabled: boolean, available: boolean) => ({ enabled, available: enabled && available });
    return {
      llm: {
        // The agent is not part of this build yet: it is never reported as enabled.
        agent_enabled: false,
        availability: configured ? ('unchecked' as const) : ('not_configured' as const),
        configured,
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
        tasks: {
          bioclip_classify: task(ml.species_enabled, avail.bioclip_classify),
          face_recognition: task(ml.face_enabled, avail.face_recognition),
          ocr: task(ml.ocr_enabled, avail.ocr),
          semantic_image_embed: task(ml.semantic_enabled, avail.semantic_image_embed),
          semantic_text_embed: task(ml.semantic_enabled, avail.semantic_text_embed),
        },
      },
    };
  }
}
