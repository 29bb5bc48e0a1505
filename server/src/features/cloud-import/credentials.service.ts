/**
 * Cloud credentials: a member's accounts at import providers (contract: Cloud credential states).
 *
 * Rules and decisions where the contract is silent:
 * - A credential belongs to the member who connected it. Its owner does everything with it; an administrator
 *   LISTS every member's (the contract) but acts on none of them: connecting, reconnecting and removing need
 *   the account's own password or session, which is the member's. Anyone else's id answers 404
 *   `cloud_credential_not_found`, like a missing one.
 * - States: `pending_challenge` (signed in, waiting for a verification code) → `connected`; `disconnect` →
 *   `disconnected` (no new import starts; a running one is cancelled); a provider that refuses the stored session
 *   or password mid-run → `error` with its problem. `reconnect` from any state: without a password the stored
 *   session (and stored secrets) is tried, else a new sign-in. Remove deletes the credential with its session,
 *   unbinds it from every repository (its sources go, with their cursors) and cancels its runs; imported photos
 *   stay (they are the member's).
 * - One credential per member and account: connecting the same account again (same provider identity) signs the
 *   existing credential in again instead of making a second one.
 * - Secrets and sessions are sealed at rest (platform/crypto/sealed.ts) with the credential id as context, never
 *   returned, never logged; a provider's failure is answered as `cloud_<code>` (import-problems.ts).
 */
import crypto from 'node:crypto';
import type { Actor } from '../../platform/http/context.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Access } from '../../platform/access/index.ts';
import { Conflict, Invalid } from '../../platform/http/errors.ts';
import { seal, unseal } from '../../platform/crypto/sealed.ts';
import type { Challenge, ProviderState, SignInOutcome } from '../../adapters/cloud/provider.ts';
import { CredentialsStore, type CredentialRow } from './credentials.store.ts';
import { toDomainError, toStoredProblem, type StoredProblem } from './import-problems.ts';
import type { ProviderRegistry } from './providers.ts';
import { toChallenge, toCredential, type Credential } from './cloud-import.view.ts';

/** What is sealed in a credential row: everything of the provider state that is not public, and a pending challenge. */
interface SealedState {
  identity: string;
  secrets: Record<string, string>;
  session: unknown;
  challenge?: Challenge;
}

export interface CredentialAnswer {
  auth_status: 'connected' | 'challenge_required';
  challenge: ReturnType<typeof toChallenge> | null;
  credential: Credential;
}

/** How long one provider call may take before the person gets an answer. */
const PROVIDER_CALL_MS = 60_000;

export interface CredentialsDeps {
  db: Db;
  /** Whose credential is whose (platform/access: the owner only). */
  access: Access;
  providers: ProviderRegistry;
  /** The key credentials are sealed with (KeyRing 'cloud-credential'). */
  sealKey: Buffer;
  log: Logger;
  /** Cancels the active runs of a credential (disconnect, remove): the runs service. */
  cancelRunsOf?: (credentialId: string, reason: string) => void;
  now?: () => number;
}

export class CredentialsService {
  readonly store: CredentialsStore;
  private readonly now: () => number;

  constructor(private readonly deps: CredentialsDeps) {
    this.store = new CredentialsStore(deps.db);
    this.now = deps.now ?? Date.now;
  }

  providers() {
    return { providers: this.deps.providers.descriptors() };
  }

  list(actor: Actor): { credentials: Credential[] } {
    const rows = this.store.list(actor.role === 'admin' ? undefined : actor.userId);
    return { credentials: rows.map((r) => this.view(r)) };
  }

  async create(actor: Actor, body: { provider: string; display_name?: string | undefined; inputs: Record<string, string> }): Promise<CredentialAnswer> {
    const provider = this.deps.providers.require(body.provider);
    const outcome = await this.call(() => provider.signIn(body.inputs, AbortSignal.timeout(PROVIDER_CALL_MS)));
    const identityHash = sha256(`${provider.descriptor.id}\n${outcome.state.identity}`);
    const existing = this.store.byIdentity(actor.userId, provider.descriptor.id, identityHash);
    const now = this.now();
    const id = existing?.credential_id ?? crypto.randomUUID();
    const displayName = body.display_name?.trim() || existing?.display_name || outcome.state.displayName;
    if (!existing) {
      this.deps.db.transaction(() =>
        this.store.insert({
          credential_id: id,
          owner_id: actor.userId,
          provider: provider.descriptor.id,
          identity_hash: identityHash,
          display_name: displayName,
          status: 'pending_challenge',
          public_config: '{}',
          sealed_state: this.sealState(id, { identity: outcome.state.identity, secrets: {}, session: null }),
          problem: null,
          session_expires_at: null,
          created_at: now,
          updated_at: now,
        }),
      )();
    } else if (body.display_name?.trim()) {
      this.store.update(id, { display_name: displayName }, now);
    }
    this.keep(id, outcome);
    this.deps.log.info({ credential_id: id, provider: provider.descriptor.id, status: outcome.status }, existing ? 'cloud credential signed in again' : 'cloud credential created');
    return this.answer(id, outcome);
  }

  async verifyChallenge(actor: Actor, id: string, inputs: Record<string, string>): Promise<Omit<CredentialAnswer, 'challenge'>> {
    const row = this.owned(actor, id);
    if (row.status !== 'pending_challenge') throw new Conflict('This account is not waiting for a verification code. Reconnect it to get a new one.', 'no_challenge_pending');
    const provider = this.deps.providers.require(row.provider, 'path.id');
    const state = this.stateOf(row);
    const outcome = await this.call(() => provider.verifyChallenge(state, inputs, AbortSignal.timeout(PROVIDER_CALL_MS)));
    this.keep(id, outcome);
    const { challenge: _c, ...rest } = this.answer(id, outcome);
    return rest;
  }

  async reconnect(actor: Actor, id: string, inputs: Record<string, string>): Promise<CredentialAnswer> {
    const row = this.owned(actor, id);
    const provider = this.deps.providers.require(row.provider, 'path.id');
    let outcome: SignInOutcome;
    try {
      outcome = await this.call(() => provider.reconnect(this.stateOf(row), inputs, AbortSignal.timeout(PROVIDER_CALL_MS)));
    } catch (e) {
      // The provider refused: the credential shows why until it is reconnected.
      const p = toStoredProblem(e);
      if (!p.retryable) this.store.update(id, { status: 'error', problem: p }, this.now());
      throw e;
    }
    if (outcome.state.identity !== this.stateOf(row).identity) {
      throw new Invalid('These sign-in details are for another account. Add it as a new connection instead.', [{ field: 'body.inputs', message: 'another account' }], 'cloud_account_changed');
    }
    this.keep(id, outcome);
    return this.answer(id, outcome);
  }

  /** The folders inside `folder` at the provider (a folder picker), for providers whose scope is a folder. */
  async folders(actor: Actor, id: string, folder: string): Promise<{ folder: string; folders: { name: string; path: string }[] }> {
    const row = this.owned(actor, id);
    if (row.status !== 'connected') throw new Conflict(`${row.display_name} is not connected (${row.status}). Reconnect it first.`, 'credential_not_connected');
    const provider = this.deps.providers.require(row.provider, 'path.id');
    if (!provider.browse) throw new Invalid(`${provider.descriptor.title} has no folders to choose from.`, [], 'cloud_folders_not_offered');
    const browse = provider.browse.bind(provider);
    const folders = await this.call(() => browse(this.stateOf(row), folder, AbortSignal.timeout(PROVIDER_CALL_MS)));
    return { folder, folders };
  }

  disconnect(actor: Actor, id: string): { message: string } {
    const row = this.owned(actor, id);
    this.deps.cancelRunsOf?.(id, 'The connection was disconnected.');
    this.store.update(id, { status: 'disconnected', problem: null }, this.now());
    return { message: `${row.display_name} is disconnected: no import starts with it until it is reconnected.` };
  }

  remove(actor: Actor, id: string): { message: string } {
    const row = this.owned(actor, id);
    this.deps.cancelRunsOf?.(id, 'The connection was removed.');
    // Sources go with it (ON DELETE CASCADE), their cursors first.
    this.deps.db.transaction(() => {
      this.store.forgetCursorsOf(id);
      this.store.delete(id);
    })();
    this.deps.log.info({ credential_id: id }, 'cloud credential removed');
    return { message: `${row.display_name} is removed, with its stored session. Photos it imported stay in the library.` };
  }

  // ------------------------------------------------------------------ for the runs

  /** The caller's own credential; anyone else's answers 404 like a missing one (administrators included). */
  owned(actor: Actor, id: string, field?: string): CredentialRow {
    return this.store.get(this.deps.access.require(actor, 'cloud_credential', id, 'own', field))!;
  }

  stateOf(row: CredentialRow): ProviderState {
    const sealed = JSON.parse(unseal(this.deps.sealKey, row.sealed_state, row.credential_id)) as SealedState;
    return {
      identity: sealed.identity,
      displayName: row.display_name,
      publicConfig: JSON.parse(row.public_config) as Record<string, string>,
      secrets: sealed.secrets,
      session: sealed.session,
      sessionExpiresAt: row.session_expires_at,
    };
  }

  /** A run's provider refreshed the session: keep it. */
  saveState(id: string, state: ProviderState): void {
    const row = this.store.get(id);
    if (!row) return;
    this.store.update(id, { sealed_state: this.sealState(id, { identity: state.identity, secrets: state.secrets, session: state.session }), public_config: JSON.stringify(state.publicConfig), session_expires_at: state.sessionExpiresAt ?? null }, this.now());
  }

  /** A run met a refusal of the stored session or password: the credential shows it until reconnected. */
  markFailed(id: string, problem: StoredProblem): void {
    if (this.store.get(id)) this.store.update(id, { status: 'error', problem }, this.now());
  }

  view(row: CredentialRow): Credential {
    return toCredential(row, this.deps.providers.title(row.provider), this.now());
  }

  // ------------------------------------------------------------------ inside

  private keep(id: string, outcome: SignInOutcome): void {
    const s = outcome.state;
    const sealed: SealedState = { identity: s.identity, secrets: s.secrets, session: s.session, ...(outcome.status === 'challenge_required' ? { challenge: outcome.challenge } : {}) };
    this.store.update(
      id,
      {
        status: outcome.status === 'connected' ? 'connected' : 'pending_challenge',
        public_config: JSON.stringify(s.publicConfig),
        sealed_state: this.sealState(id, sealed),
        session_expires_at: s.sessionExpiresAt ?? null,
        problem: null,
      },
      this.now(),
    );
  }

  private answer(id: string, outcome: SignInOutcome): CredentialAnswer {
    const row = this.store.get(id)!;
    return {
      auth_status: outcome.status,
      challenge: outcome.status === 'challenge_required' ? toChallenge(outcome.challenge) : null,
      credential: this.view(row),
    };
  }

  private sealState(id: string, s: SealedState): string {
    return seal(this.deps.sealKey, JSON.stringify(s), id);
  }

  /** A provider call, its failure answered as a problem (never a 500, never a secret). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw toDomainError(e);
    }
  }
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
