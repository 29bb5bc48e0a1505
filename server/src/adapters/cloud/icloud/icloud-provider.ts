/**
 * The iCloud Photos provider: signs a member in to Apple (password once, then a verification code when the
 * account has two-factor authentication), keeps only the resulting web session, and opens the primary
 * photo library for import runs. See sign-in.ts for the protocol and library.ts for the listing.
 */
import crypto from 'node:crypto';
import { ProviderError, type CloudProvider, type ProviderState, type RemoteLibrary, type SignInOutcome } from '../provider.ts';
import { needsCode } from './account.ts';
import { AppleHttp, type FetchLike } from './apple-http.ts';
import { ICLOUD_DESCRIPTOR } from './descriptor.ts';
import { resolveEndpoints, type ICloudEndpoints } from './endpoints.ts';
import { ICloudLibrary, SESSION_OVER } from './library.ts';
import { maskAppleId, readSession, SESSION_MS, type ICloudDomain, type ICloudSession } from './session.ts';
import { AppleSignIn } from './sign-in.ts';

export interface ICloudProviderOptions {
  /** Apple's addresses (tests point them at a replay server on loopback). */
  endpoints?: Partial<ICloudEndpoints>;
  /** The HTTP client (default: the global fetch). */
  fetch?: FetchLike;
  /** The client id a new sign-in presents to Apple (default: a fresh `auth-<uuid>`, as the web client makes). */
  clientId?: () => string;
  /** The clock, for the session's expiry. */
  now?: () => number;
}

/**
 * A trust that ends within this is not carried into a new sign-in with the password: signing in on it would keep its
 * end (Apple skips the code but does not extend the trust), so the member who signs in again ahead of the end, as the
 * Import page invites them to, is asked for a code and a new period of about 90 days begins. The same 14 days as the
 * credential's `session_expires_soon` (features/cloud-import/cloud-import.view.ts), which brings that invitation.
 */
export const RENEW_WITHIN_MS = 14 * 24 * 60 * 60 * 1000;

function field(inputs: Record<string, string>, name: string): string {
  const v = inputs[name];
  return typeof v === 'string' ? v : '';
}

export class ICloudProvider implements CloudProvider {
  readonly descriptor = ICLOUD_DESCRIPTOR;
  private readonly endpoints: ICloudEndpoints;
  private readonly fetchImpl: FetchLike;
  private readonly newClientId: () => string;
  private readonly now: () => number;

  constructor(options: ICloudProviderOptions = {}) {
    this.endpoints = resolveEndpoints(options.endpoints);
    this.fetchImpl = options.fetch ?? fetch;
    this.newClientId = options.clientId ?? (() => `auth-${crypto.randomUUID()}`);
    this.now = options.now ?? Date.now;
  }

  async signIn(inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome> {
    const appleId = field(inputs, 'username').trim();
    if (!appleId || appleId.length > 320 || /\s/.test(appleId)) throw new ProviderError('bad_input', 'Enter the Apple Account (its email address or phone number).', false, { field: 'username' });
    const password = field(inputs, 'password');
    if (!password) throw new ProviderError('bad_input', 'Enter the Apple Account password.', false, { field: 'password' });
    const domain = this.domainOf(inputs, 'com');
    return this.withPassword({ domain, appleId, clientId: this.newClientId(), cookies: [], auth: {} }, password, signal);
  }

  async verifyChallenge(state: ProviderState, inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome> {
    const code = field(inputs, 'code').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) throw new ProviderError('bad_input', 'The verification code has 6 digits.', false, { field: 'code' });
    const session = readSession(state.session);
    const flow = this.flow(session);
    await flow.verifyCode(code, signal);
    const data = await flow.accountLogin(signal);
    if (!data) throw new ProviderError('session_expired', 'Apple did not accept the sign-in after the code: sign in again.');
    if (needsCode(data)) throw new ProviderError('auth_failed', 'Apple still asks for a verification code: enter the latest code Apple sent.');
    session.trustedAt = this.now();
    return { status: 'connected', state: this.stateOf(session) };
  }

  async reconnect(state: ProviderState, inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome> {
    const password = field(inputs, 'password');
    if (password) {
      // A new sign-in, keeping the old cookies and trust token: Apple may then skip the code.
      let previous: ICloudSession | null = null;
      try {
        previous = readSession(state.session);
      } catch {
        previous = null;
      }
      const appleId = previous?.appleId ?? state.displayName;
      const domain = this.domainOf(inputs, previous?.domain ?? (state.publicConfig.domain === 'cn' ? 'cn' : 'com'));
      // A trust about to end is left behind, cookies and token, for a new one (RENEW_WITHIN_MS).
      const kept = previous?.trustedAt !== undefined && previous.trustedAt + SESSION_MS - this.now() > RENEW_WITHIN_MS ? previous : null;
      const trustToken = kept?.auth.trustToken;
      const session: ICloudSession = {
        domain,
        appleId,
        clientId: previous?.clientId ?? this.newClientId(),
        cookies: kept?.cookies ?? [],
        auth: trustToken ? { trustToken } : {},
        ...(kept?.trustedAt !== undefined ? { trustedAt: kept.trustedAt } : {}),
      };
      return this.withPassword(session, password, signal);
    }
    const session = readSession(state.session);
    const flow = this.flow(session);
    const data = (await flow.validate(signal)) ?? (await flow.accountLogin(signal));
    if (!data || needsCode(data)) throw new ProviderError('session_expired', SESSION_OVER);
    session.trustedAt ??= this.now();
    return { status: 'connected', state: this.stateOf(session) };
  }

  async checkScope(state: ProviderState, scope: Record<string, string>, signal: AbortSignal): Promise<Record<string, string>> {
    signal.throwIfAborted();
    readSession(state.session);
    const unknown = Object.keys(scope).find((k) => scope[k] !== undefined && scope[k] !== '');
    if (unknown) throw new ProviderError('bad_input', 'iCloud Photos imports the whole primary library: it takes no scope.', false, { field: unknown });
    return { library: 'primary', title: 'iCloud Photos library' };
  }

  open(state: ProviderState, _scope: Record<string, string>, onState?: (state: ProviderState) => void): RemoteLibrary {
    const session = readSession(state.session);
    return new ICloudLibrary(session, this.endpoints, this.fetchImpl, onState ? (s) => onState(this.stateOf(s)) : undefined);
  }

  private domainOf(inputs: Record<string, string>, fallback: ICloudDomain): ICloudDomain {
    const domain = field(inputs, 'domain') || fallback;
    if (domain !== 'com' && domain !== 'cn') throw new ProviderError('bad_input', 'Choose the iCloud region: outside mainland China, or mainland China.', false, { field: 'domain' });
    return domain;
  }

  private flow(session: ICloudSession): AppleSignIn {
    return new AppleSignIn(session, this.endpoints, new AppleHttp(session, this.fetchImpl));
  }

  private async withPassword(session: ICloudSession, password: string, signal: AbortSignal): Promise<SignInOutcome> {
    const flow = this.flow(session);
    const trustBefore = session.auth.trustToken;
    await flow.withPassword(password, signal);
    const data = await flow.accountLogin(signal);
    if (!data) throw new ProviderError('auth_failed', 'Apple did not accept the sign-in.');
    if (needsCode(data)) {
      const challenge = await flow.challenge(signal);
      return { status: 'challenge_required', state: this.stateOf(session), challenge };
    }
    // Signed in on the strength of an earlier trust: that trust still ends when it did.
    const sameTrust = trustBefore !== undefined && session.auth.trustToken === trustBefore && session.trustedAt !== undefined;
    if (!sameTrust) session.trustedAt = this.now();
    return { status: 'connected', state: this.stateOf(session) };
  }

  private stateOf(session: ICloudSession): ProviderState {
    return {
      identity: session.appleId.toLowerCase(),
      displayName: session.appleId,
      publicConfig: { apple_id: maskAppleId(session.appleId), domain: session.domain },
      secrets: {},
      session: { ...session, cookies: [...session.cookies], auth: { ...session.auth } },
      sessionExpiresAt: session.trustedAt !== undefined ? session.trustedAt + SESSION_MS : null,
    };
  }
}
