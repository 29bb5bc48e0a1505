/**
 * The administrator's model settings turned into a client: which server, which model, which key, which timeouts.
 * The assistant asks `client()` for each run (so a settings change applies to the next run without a restart);
 * the settings page's "Test connection" asks `validate()` (llm-validation.ts), with what the administrator typed
 * laid over what is saved.
 *
 * The saved API key is sent only to the server it was saved for. A test of settings that point somewhere else
 * must bring its own key: otherwise anyone holding an administrator's session could read the write-only key by
 * "testing" a server of their own.
 */
import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { LlmSettings, type SettingsStore, type SystemSettingsPatch } from '../../config/settings.ts';
import { LlmClient, PROVIDERS, localityOf, normaliseBaseUrl, type LlmEndpoint, type ModelLocality, type ProviderKind, type RetryPolicy } from '../../adapters/llm/index.ts';

/** What a "Test connection" may change for the test; absent fields are the saved ones. */
export const LlmCandidateSchema = z
  .strictObject({
    provider: LlmSettings.shape.provider.optional(),
    base_url: LlmSettings.shape.base_url.optional(),
    model_name: LlmSettings.shape.model_name.optional(),
    api_key: z.string().min(1).max(500).nullable().optional().openapi({
      description: "A key to test with (never stored by this operation); null: test without a key; absent: the saved key, sent only when the test's server is the saved one.",
    }),
    connect_timeout_s: LlmSettings.shape.connect_timeout_s.optional(),
    idle_timeout_s: LlmSettings.shape.idle_timeout_s.optional(),
  })
  .openapi('LlmSettingsCandidate');
export type LlmCandidate = z.infer<typeof LlmCandidateSchema>;

export type LlmTarget =
  | { configured: true; provider: ProviderKind; endpoint: LlmEndpoint; locality: ModelLocality; fingerprint: string }
  | { configured: false; provider: ProviderKind | 'none'; baseUrl: string | null; model: string | null; reason: string };

type Availability = 'ready' | 'unchecked' | 'not_configured' | 'unreachable';

export class LlmConnection {
  /** The outcome of the last test of the saved settings (by their fingerprint): what capabilities report. */
  private lastCheck: { fingerprint: string; ok: boolean } | null = null;

  constructor(
    private readonly settings: SettingsStore,
    /** Tests shorten the retries' waits; the server uses the client's defaults. */
    private readonly retry?: RetryPolicy,
  ) {}

  /** What the saved settings, with `candidate` laid over them, point at. */
  resolve(candidate: LlmCandidate = {}): LlmTarget {
    const saved = this.settings.section('llm');
    const savedKey = this.settings.secret('llm.api_key');
    const provider = candidate.provider ?? saved.provider;
    const baseUrlText = candidate.base_url !== undefined ? candidate.base_url : saved.base_url;
    const model = (candidate.model_name !== undefined ? candidate.model_name : saved.model_name)?.trim() || null;
    const unconfigured = (reason: string): LlmTarget => ({ configured: false, provider, baseUrl: baseUrlText, model, reason });
    if (provider === 'none') return unconfigured('No model server is chosen: choose Ollama, LM Studio, llama.cpp, OpenAI or another OpenAI-compatible server.');
    const facts = PROVIDERS[provider];
    const address = baseUrlText ?? facts.defaultBaseUrl;
    if (!address) return unconfigured(`Enter the address of the ${facts.title} (it usually ends in /v1).`);
    if (!model) return unconfigured('Enter the name of the model to use.');
    const baseUrl = normaliseBaseUrl(address);
    const savedOrigin = this.savedOrigin();
    let apiKey: string | null;
    if (candidate.api_key !== undefined) apiKey = candidate.api_key;
    else apiKey = savedOrigin === baseUrl.origin ? savedKey : null;
    const endpoint: LlmEndpoint = {
      baseUrl,
      model,
      apiKey,
      connectTimeoutMs: (candidate.connect_timeout_s ?? saved.connect_timeout_s) * 1000,
      idleTimeoutMs: (candidate.idle_timeout_s ?? saved.idle_timeout_s) * 1000,
      ...(this.retry ? { retry: this.retry } : {}),
    };
    return { configured: true, provider, endpoint, locality: localityOf(baseUrl), fingerprint: fingerprint(provider, endpoint) };
  }

  /** A client for the saved settings, or null when they name no model server: the assistant then plans alone. */
  client(): LlmClient | null {
    const target = this.resolve();
    return target.configured ? new LlmClient(target.endpoint) : null;
  }

  /** A client for a resolved target (a test of candidate settings). */
  clientFor(target: LlmTarget & { configured: true }): LlmClient {
    return new LlmClient(target.endpoint);
  }

  /** Capabilities' `llm.availability`: the last test of the saved settings, while they stay as tested. */
  availability(): Availability {
    const target = this.resolve();
    if (!target.configured) return 'not_configured';
    if (!this.lastCheck || this.lastCheck.fingerprint !== target.fingerprint) return 'unchecked';
    return this.lastCheck.ok ? 'ready' : 'unreachable';
  }

  /** Remembers a test's outcome when the settings tested are the saved ones. */
  recordCheck(target: LlmTarget, ok: boolean): void {
    const saved = this.resolve();
    if (target.configured && saved.configured && saved.fingerprint === target.fingerprint) this.lastCheck = { fingerprint: target.fingerprint, ok };
  }

  /**
   * A settings patch that moves the model to another server (another origin) without giving a key clears the
   * saved key, so it is never sent to a server it was not entered for. Moving within the origin keeps it.
   */
  keepKeyWithItsServer(patch: SystemSettingsPatch): SystemSettingsPatch {
    const llm = patch.llm;
    if (!llm || llm.api_key !== undefined || (llm.provider === undefined && llm.base_url === undefined)) return patch;
    if (this.settings.secret('llm.api_key') === null) return patch;
    const saved = this.settings.section('llm');
    const provider = llm.provider ?? saved.provider;
    const address = llm.base_url !== undefined ? llm.base_url : saved.base_url;
    const next = provider === 'none' ? null : (address ?? PROVIDERS[provider].defaultBaseUrl);
    const nextOrigin = next ? new URL(next).origin : null;
    // `none` keeps the key (turning the model off and on again needs no new key), and so does a key saved before
    // any server was: it was entered for the server chosen next.
    const savedOrigin = this.savedOrigin();
    if (provider === 'none' || savedOrigin === null || nextOrigin === savedOrigin) return patch;
    return { ...patch, llm: { ...llm, api_key: null } };
  }

  private savedOrigin(): string | null {
    const saved = this.settings.section('llm');
    if (saved.provider === 'none') return null;
    const address = saved.base_url ?? PROVIDERS[saved.provider].defaultBaseUrl;
    return address ? new URL(address).origin : null;
  }
}

/** Identifies the settings a test ran with (the key by its hash), so a later change makes the result stale. */
function fingerprint(provider: string, e: LlmEndpoint): string {
  const key = e.apiKey ? createHash('sha256').update(e.apiKey).digest('hex') : '';
  return createHash('sha256').update(JSON.stringify([provider, e.baseUrl.href, e.model, key])).digest('hex');
}
