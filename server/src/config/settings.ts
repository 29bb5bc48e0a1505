/**
 * Durable administrator settings, stored in the `settings` table (one JSON row per section) so they
 * survive restarts and can change without one. Defaults live here; the table only holds what an
 * administrator changed.
 *
 * Secrets (the LLM API key, the registration invite code) are write-only: a patch may set or clear
 * them, but reads only say whether one is configured. They are sealed with the installation's settings key
 * (platform/crypto/sealed.ts, as cloud-import seals provider secrets: AES-256-GCM) and bound to their name, so a
 * copied catalog alone does not leak them and one sealed secret copied onto another's row does not open.
 */
import crypto from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Db } from '../platform/db/connection.ts';
import { prepared } from '../platform/db/prepared.ts';
import { seal, unseal } from '../platform/crypto/sealed.ts';

export const RegistrationSettings = z.object({
  /**
   * `closed`: only the first account (the administrator) can register; later household members need
   * an invite code. `invite_code`: anyone who knows the administrator's invite code can register.
   */
  mode: z.enum(['closed', 'invite_code']),
  /**
   * New accounts (not the first) are created only once their second factor (an authenticator app or a
   * passkey) is enrolled: staged registration (features/auth/staged-registration.service.ts).
   */
  require_second_factor: z.boolean().openapi({
    description: 'New accounts (not the first) need a second factor: registration is staged and the account exists only once an authenticator app or a passkey is enrolled.',
  }),
});
/**
 * The kinds of model server the assistant can use (adapters/llm/providers.ts holds what differs between them;
 * this list repeats its names, since config may not import adapters). `none`: no model; the assistant answers with
 * its planner alone.
 */
export const LLM_PROVIDERS = ['none', 'openai', 'ollama', 'lmstudio', 'llamacpp', 'custom'] as const;
export const LlmSettings = z.object({
  agent_enabled: z.boolean(),
  provider: z.enum(LLM_PROVIDERS).openapi({
    description: '`none` (no model), `openai`, `ollama`, `lmstudio`, `llamacpp`, or `custom` (any other OpenAI-compatible server; needs `base_url`).',
  }),
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .max(2_000)
    .nullable()
    .openapi({ description: "The server's OpenAI-compatible address, usually ending in /v1. null: the provider's usual address (Ollama http://127.0.0.1:11434/v1, LM Studio :1234, llama.cpp :8080, OpenAI's API)." }),
  model_name: z.string().max(200).nullable(),
  connect_timeout_s: z.number().int().min(1).max(120).openapi({ description: 'Seconds to wait for a connection to the model server (1–120).' }),
  idle_timeout_s: z
    .number()
    .int()
    .min(1)
    .max(900)
    .openapi({ description: 'Seconds of silence allowed while the model works, before its answer begins and between its chunks (1–900). A local model on a CPU may need minutes for a long prompt.' }),
});
export const MlSettings = z.object({
  semantic_enabled: z.boolean(),
  face_enabled: z.boolean(),
  ocr_enabled: z.boolean(),
  species_enabled: z.boolean(),
  /** Video frames embedded for semantic search (reference "Video frame sampling"; features/semantic/video-frames.ts). */
  video_max_frames: z.number().int().min(1).max(32).openapi({ description: 'At most this many frames of a video are embedded for semantic search (1–32).' }),
  video_long_threshold_s: z
    .number()
    .int()
    .min(5)
    .max(3_600)
    .openapi({ description: 'Videos at least this long (seconds, 5–3600) are sampled uniformly without scene detection.' }),
  video_scene_threshold: z
    .number()
    .min(0.05)
    .max(0.95)
    .openapi({ description: "ffmpeg's scene-change score (0.05–0.95) that starts a new shot when sampling a video's frames." }),
});
export const LibrarySettings = z.object({
  scan_interval_seconds: z.number().int().min(30).max(86_400),
});
export const NetworkSettings = z.object({
  /**
   * "Let other devices on this network use Hearth": true listens on every interface (0.0.0.0 and
   * [::]), false only on 127.0.0.1. Off until an administrator turns it on; the listener switches
   * while the server runs (features/system/network.service.ts).
   */
  allow_other_devices: z.boolean(),
});

export const TrashSettings = z.object({
  /**
   * Days an item stays in the Trash before it is deleted for good, with its file (the
   * `assets.purge-expired-trash` job, features/assets/trash); 0 keeps items until someone empties the
   * Trash. Household-wide: one rule for every member, set by an administrator.
   */
  retention_days: z.number().int().min(0).max(36_500),
});

const SECTIONS = {
  registration: RegistrationSettings,
  llm: LlmSettings,
  ml: MlSettings,
  library: LibrarySettings,
  network: NetworkSettings,
  trash: TrashSettings,
} as const;
type Sections = { [K in keyof typeof SECTIONS]: z.infer<(typeof SECTIONS)[K]> };

const DEFAULTS: Sections = {
  registration: { mode: 'closed', require_second_factor: false },
  llm: { agent_enabled: false, provider: 'none', base_url: null, model_name: null, connect_timeout_s: 10, idle_timeout_s: 120 },
  ml: {
    semantic_enabled: true,
    face_enabled: true,
    ocr_enabled: true,
    species_enabled: true,
    video_max_frames: 8,
    video_long_threshold_s: 300,
    video_scene_threshold: 0.4,
  },
  library: { scan_interval_seconds: 300 },
  network: { allow_other_devices: false },
  trash: { retention_days: 30 },
};

/** Secret names, each written through the patch and reported as `<name>_configured`. */
const SECRETS = { registration: 'invite_code', llm: 'api_key' } as const;
type SecretName = 'registration.invite_code' | 'llm.api_key';

export const SystemSettingsSchema = z
  .object({
    registration: RegistrationSettings.extend({ invite_code_configured: z.boolean() }),
    llm: LlmSettings.extend({ api_key_configured: z.boolean() }),
    ml: MlSettings,
    library: LibrarySettings,
    network: NetworkSettings.extend({
      fixed_by_environment: z.boolean().openapi({
        description: 'HEARTH_HOST is set: the server listens where it says, whatever `allow_other_devices` says, and the setting cannot be changed.',
      }),
    }),
    trash: TrashSettings,
    updated_at: z.string().nullable(),
  })
  .openapi('SystemSettings');
export type SystemSettings = z.infer<typeof SystemSettingsSchema>;

const secret = z.string().min(1).max(500).nullable();
export const SystemSettingsPatchSchema = z
  .strictObject({
    registration: RegistrationSettings.partial().extend({ invite_code: secret.optional() }).strict().optional(),
    llm: LlmSettings.partial().extend({ api_key: secret.optional() }).strict().optional(),
    ml: MlSettings.partial().strict().optional(),
    library: LibrarySettings.partial().strict().optional(),
    network: NetworkSettings.partial().strict().optional(),
    trash: TrashSettings.partial().strict().optional(),
  })
  .openapi('SystemSettingsPatch', {
    description:
      'Partial update. Secrets (`invite_code`, `api_key`) are write-only: a string sets, null clears. ' +
      'A change of `llm.provider` or `llm.base_url` that moves the model to another server (another origin) clears the saved `api_key` unless the same patch gives one: a key is only sent to the server it was entered for. ' +
      '`network.allow_other_devices` moves the listener at once (no restart); it answers 409 `network_fixed_by_environment` when HEARTH_HOST is set, ' +
      'and 503 `listener_unavailable` (nothing changed) when the new address cannot be listened on. ' +
      '`trash.retention_days` (0..36500, 0 = keep until the Trash is emptied) applies from the next hourly purge; a negative or fractional value answers 422 naming `body.trash.retention_days`.',
  });
export type SystemSettingsPatch = z.infer<typeof SystemSettingsPatchSchema>;

function secretContext(name: SecretName): string {
  return `settings:${name}`;
}

/** A stored section as this version reads it: values an older version wrote under other names are renamed. */
function upgradeSection(name: string, stored: unknown): unknown {
  if (name === 'llm' && stored && typeof stored === 'object' && (stored as { provider?: unknown }).provider === 'openai_compatible') {
    // Before the provider kinds, every server was `openai_compatible`: it is a `custom` one now.
    return { ...stored, provider: 'custom' };
  }
  return stored;
}

export class SettingsStore {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    settingsKey: Buffer,
    /**
     * Facts of the process shown beside the settings (HEARTH_HOST given or not), and whether the ML tasks are on
     * where the settings never said (HEARTH_ML_DEFAULT_ON; absent: on).
     */
    private readonly facts: { hostFixed: boolean; mlDefaultOn?: boolean } = { hostFixed: false },
  ) {
    this.key = settingsKey;
  }

  private read(key: string): { value: unknown; updated_at: number } | undefined {
    // Kept prepared (platform/db/prepared.ts): read per file at ingest (isTaskEnabled, once per task and asset).
    const row = prepared(this.db, 'SELECT value, updated_at FROM settings WHERE key = ?').get(key) as
      | { value: string; updated_at: number }
      | undefined;
    return row ? { value: JSON.parse(row.value), updated_at: row.updated_at } : undefined;
  }

  private write(key: string, value: unknown, by: number | null, now: number): void {
    this.db
      .prepare(
        `INSERT INTO settings (key, value, updated_at, updated_by) VALUES (?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      )
      .run(key, JSON.stringify(value), now, by);
  }

  private remove(key: string): void {
    this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  }

  section<K extends keyof Sections>(name: K): Sections[K] {
    const stored = upgradeSection(name, this.read(name)?.value);
    // Merge over defaults so a setting added in a later version gets its default, not undefined.
    return SECTIONS[name].parse({ ...this.defaults(name), ...(stored as object | undefined) }) as Sections[K];
  }

  private defaults<K extends keyof Sections>(name: K): Sections[K] {
    if (name !== 'ml' || this.facts.mlDefaultOn !== false) return DEFAULTS[name];
    return { ...DEFAULTS.ml, semantic_enabled: false, face_enabled: false, ocr_enabled: false, species_enabled: false } as Sections[K];
  }

  /**
   * When indexing was paused on the home machine (features/jobs/indexing-pause.ts), or null: kept across restarts,
   * so a machine paused for the evening stays paused after a reboot until someone resumes it.
   */
  indexingPausedAt(): number | null {
    const v = this.read('indexing.paused')?.value as { at?: unknown } | undefined;
    return typeof v?.at === 'number' ? v.at : null;
  }

  setIndexingPausedAt(at: number | null): void {
    if (at === null) this.remove('indexing.paused');
    else this.write('indexing.paused', { at }, null, at);
  }

  secret(name: SecretName): string | null {
    const stored = this.read(`secret.${name}`)?.value;
    if (stored === undefined) return null;
    if (typeof stored === 'string') return unseal(this.key, stored, secretContext(name));
    // Written before secrets were sealed with their name as context: AES-256-GCM with no associated data.
    const legacy = stored as { iv: string; tag: string; data: string };
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(legacy.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(legacy.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(legacy.data, 'base64')), decipher.final()]).toString('utf8');
  }

  private setSecret(name: SecretName, value: string | null, by: number | null, now: number): void {
    if (value === null) return this.remove(`secret.${name}`);
    this.write(`secret.${name}`, seal(this.key, value, secretContext(name)), by, now);
  }

  view(): SystemSettings {
    const updated = this.db.prepare('SELECT max(updated_at) AS t FROM settings').get() as { t: number | null };
    return {
      registration: { ...this.section('registration'), invite_code_configured: this.secret('registration.invite_code') !== null },
      llm: { ...this.section('llm'), api_key_configured: this.secret('llm.api_key') !== null },
      ml: this.section('ml'),
      library: this.section('library'),
      network: { ...this.section('network'), fixed_by_environment: this.facts.hostFixed },
      trash: this.section('trash'),
      updated_at: updated.t ? new Date(updated.t).toISOString() : null,
    };
  }

  apply(patch: SystemSettingsPatch, by: number | null, now = Date.now()): SystemSettings {
    this.db
      .transaction(() => {
        for (const name of Object.keys(SECTIONS) as (keyof Sections)[]) {
          const p = patch[name] as Record<string, unknown> | undefined;
          if (!p) continue;
          const secretField = (SECRETS as Record<string, string | undefined>)[name];
          const { [secretField ?? '']: secretValue, ...plain } = p;
          if (secretField && secretValue !== undefined) {
            this.setSecret(`${name}.${secretField}` as SecretName, secretValue as string | null, by, now);
          }
          if (Object.keys(plain).length > 0) {
            const next = SECTIONS[name].parse({ ...this.section(name), ...plain });
            this.write(name, next, by, now);
          }
        }
      })
      .immediate();
    return this.view();
  }
}
