/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: enrolment for a signed-in member, sign-in with a
 * passkey on its own or as the second step after a password, step-up proofs, listing and removal.
 *
 * Rules, and the decisions where the contract shows nothing:
 * - Every ceremony begins with a one-time `challenge_token` (stored hashed, CEREMONY_TTL_MS, spent by its
 *   first answer, right or wrong) that holds the challenge, the origin and the relying party id it began
 *   at (relying-party.ts). The authenticator's answer must carry that challenge and origin and be signed
 *   for that rp id; the passkey's signature counter must go up (when either side is non-zero), or the
 *   passkey may be a copy: 401 `passkey_counter`.
 * - User verification is required (the device's PIN, fingerprint or face): a passkey alone then proves
 *   two things, so a sign-in with it needs no password, and it counts as a second factor.
 * - A passkey does not make the password insufficient on its own: it works only at the address it was
 *   made for, and a browser refuses WebAuthn on a LAN address over plain HTTP, so an account whose only
 *   second factor was a passkey would be locked out there. With two-step sign-in (TOTP) on, the second
 *   step accepts a passkey as well as a code (`mfa_methods` lists `passkey`).
 * - beginPasskeyLogin with a user name lists that account's passkeys for this address; an unknown name
 *   gets the same answer with none listed (the browser then offers any passkey it holds for this
 *   address), so the answer does not tell whether the account exists.
 * - Adding a passkey signs this device in anew (the contract's `session`); removing one needs a
 *   `security_token` for `delete_passkey` and ends every other session (the passkey may be on a lost
 *   device), and signs this one in anew.
 * - Wrong answers count in the second-factor limiter (per address, and per account where known).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { tx, type Db } from '../../platform/db/connection.ts';
import { randomToken, sha256 } from '../../platform/crypto/keys.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Forbidden, NotFound, Unauthorized } from '../../platform/http/errors.ts';
import type { FailureLimiter } from '../../platform/http/rate-limit.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuthService, ClientInfo, IssuedSession, PasswordChangeRequired } from './auth.service.ts';
import { MfaStore } from './mfa.store.ts';
import { PasskeysStore, type CeremonyRow, type PasskeyRow } from './passkeys.store.ts';
import type { RelyingParty } from './relying-party.ts';

export const CEREMONY_TTL_MS = 5 * 60_000;
const RP_NAME = 'Hearth';

export interface Passkey {
  passkey_id: number;
  label: string;
  transports: string[];
  created_at: string;
  last_used_at: string | null;
  rp_id: string;
}

/** A passkey whose creation was checked, ready to store. */
export interface MadePasskey {
  info: VerifiedRegistration['registrationInfo'];
  rpId: string;
  transports: string[];
}
type VerifiedRegistration = Extract<Awaited<ReturnType<typeof verifyRegistrationResponse>>, { verified: true }>;

/** A browser's answer to a ceremony, with the token that began it. */
export interface CeremonyAnswer<T> {
  challenge_token: string;
  credential: T;
}

/** What PasskeysService needs of the step-up proofs (MfaService). */
export interface SecurityProofs {
  spendSecurityProof(actor: Actor, token: string, action: 'delete_passkey'): void;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toPasskey(r: PasskeyRow): Passkey {
  return {
    passkey_id: r.passkey_id,
    label: r.label,
    transports: JSON.parse(r.transports) as string[],
    created_at: iso(r.created_at)!,
    last_used_at: iso(r.last_used_at),
    rp_id: r.rp_id,
  };
}

/** The stable, opaque WebAuthn user handle of an account (no name or number a passkey list would show). */
function userHandle(userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(sha256(`hearth-user:${userId}`), 'hex').subarray(0, 16));
}

export class PasskeysService {
  readonly store: PasskeysStore;
  private readonly mfa: MfaStore;

  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly proofs: SecurityProofs,
    private readonly limiter: FailureLimiter,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new PasskeysStore(db);
    this.mfa = new MfaStore(db);
  }

  list(actor: Actor): { credentials: Passkey[]; total: number } {
    const rows = this.store.ofUser(actor.userId);
    return { credentials: rows.map(toPasskey), total: rows.length };
  }

  // ---------------------------------------------------------------- enrolment

  async beginEnrolment(actor: Actor, party: RelyingParty) {
    this.requireAvailable(party);
    const user = this.auth.users.byId(actor.userId)!;
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: party.rpId,
      userName: user.username,
      userDisplayName: user.display_name || user.username,
      userID: userHandle(user.user_id),
      attestationType: 'none',
      excludeCredentials: this.store.ofUser(user.user_id, party.rpId).map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) as string[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { challenge_token: this.startCeremony('enrol', party, options.challenge, user.user_id), options };
  }

  async verifyEnrolment(actor: Actor, input: CeremonyAnswer<RegistrationResponseJSON> & { label?: string | undefined }, client: ClientInfo): Promise<{ credential: Passkey; session: IssuedSession }> {
    this.limiter.check(client.ip, actor.username);
    const ceremony = this.takeCeremony(input.challenge_token, 'enrol', actor.userId);
    const made = await this.checkCreation(ceremony, input.credential, client, actor.username);
    const passkeyId = tx(this.db, () => this.insertMade(actor.userId, made, input.label, client, this.now()));
    this.log.info({ user_id: actor.userId, passkey_id: passkeyId, rp_id: ceremony.rp_id }, 'passkey added');
    const session = this.renewSession(actor, client, false);
    const row = this.store.ofUser(actor.userId).find((p) => p.passkey_id === passkeyId)!;
    return { credential: toPasskey(row), session };
  }

  // ---------------------------------------------------------------- staged registration

  /** Options to make the first passkey of an account not created yet (its registration stage). */
  async beginStagedEnrolment(party: RelyingParty, stage: { token_hash: string; username: string; display_name: string }) {
    this.requireAvailable(party);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: party.rpId,
      userName: stage.username,
      userDisplayName: stage.display_name,
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { challenge_token: this.startCeremony('register', party, options.challenge, null, null, stage.token_hash), options };
  }

  /** Checks the answer to a stage's passkey ceremony: the stage it belongs to and the passkey made. */
  async checkStagedEnrolment(input: CeremonyAnswer<RegistrationResponseJSON>, client: ClientInfo): Promise<{ stageHash: string; made: MadePasskey }> {
    this.limiter.check(client.ip);
    const ceremony = this.takeCeremony(input.challenge_token, 'register', null);
    return { stageHash: ceremony.stage!, made: await this.checkCreation(ceremony, input.credential, client, undefined) };
  }

  /** Stores a checked passkey for an account, inside the caller's transaction (a new account's too). */
  insertMade(userId: number, made: MadePasskey, label: string | undefined, client: ClientInfo, now: number): number {
    const info = made.info;
    if (this.store.byCredentialId(info.credential.id)) throw new Conflict('This passkey is already added.', 'passkey_exists');
    return this.store.insert({
      user_id: userId,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey),
      sign_count: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? made.transports ?? []),
      label: label?.trim() || defaultLabel(client.userAgent),
      rp_id: made.rpId,
      backed_up: info.credentialBackedUp ? 1 : 0,
      created_at: now,
    });
  }

  private async checkCreation(ceremony: CeremonyRow, credential: RegistrationResponseJSON, client: ClientInfo, subject: string | undefined): Promise<MadePasskey> {
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: credential,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: ceremony.origin,
        expectedRPID: ceremony.rp_id,
        requireUserVerification: true,
      });
    } catch (e) {
      this.limiter.fail(client.ip, subject);
      throw new Forbidden(`The passkey could not be added: ${(e as Error).message}`, 'passkey_invalid');
    }
    if (!verified.verified) {
      this.limiter.fail(client.ip, subject);
      throw new Forbidden('The passkey could not be added: the authenticator’s answer did not verify.', 'passkey_invalid');
    }
    if (subject) this.limiter.succeed(subject);
    return { info: verified.registrationInfo, rpId: ceremony.rp_id, transports: credential.response.transports ?? [] };
  }

  /** Removes a passkey (spends a `delete_passkey` proof); every other session ends, this one is signed in anew. */
  remove(actor: Actor, passkeyId: number, securityToken: string, client: ClientInfo): IssuedSession {
    tx(this.db, () => {
      if (!this.store.ofUser(actor.userId).some((p) => p.passkey_id === passkeyId)) throw new NotFound('There is no such passkey on your account.', 'passkey_not_found');
      this.proofs.spendSecurityProof(actor, securityToken, 'delete_passkey');
      this.store.delete(actor.userId, passkeyId);
    });
    this.log.info({ user_id: actor.userId, passkey_id: passkeyId }, 'passkey removed; other sessions ended');
    return this.renewSession(actor, client, true);
  }

  // ---------------------------------------------------------------- sign-in

  /**
   * Options for signing in: by user name (its passkeys for this address, none listed for an unknown
   * name) or as the second step of a password sign-in (`mfa_token`: that account's passkeys).
   */
  async beginLogin(party: RelyingParty, input: { username?: string | undefined; mfa_token?: string | undefined }) {
    this.requireAvailable(party);
    let userId: number | null = null;
    if (input.mfa_token !== undefined) {
      userId = this.mfa.challengeUser(sha256(input.mfa_token), this.now());
      if (userId === null) throw new Unauthorized('This sign-in has expired. Sign in again with your password.', 'mfa_token_invalid');
    } else if (input.username !== undefined) {
      const user = this.auth.users.byUsername(input.username);
      if (user?.is_active) userId = user.user_id;
    }
    const allow = userId === null ? [] : this.store.ofUser(userId, party.rpId);
    const options = await generateAuthenticationOptions({
      rpID: party.rpId,
      allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) as string[] })),
      userVerification: 'required',
    });
    const mfaChallenge = input.mfa_token !== undefined ? sha256(input.mfa_token) : null;
    return { challenge_token: this.startCeremony('login', party, options.challenge, input.mfa_token !== undefined ? userId : null, mfaChallenge), options };
  }

  async verifyLogin(input: CeremonyAnswer<AuthenticationResponseJSON>, client: ClientInfo): Promise<IssuedSession | PasswordChangeRequired> {
    this.limiter.check(client.ip);
    const ceremony = this.takeCeremony(input.challenge_token, 'login', null);
    const passkey = await this.checkAssertion(ceremony, input.credential, client);
    const user = this.auth.users.byId(passkey.user_id)!;
    if (ceremony.mfa_challenge !== null && !this.mfa.spendChallenge(ceremony.mfa_challenge, this.now())) {
      throw new Unauthorized('This sign-in was already completed or has expired. Sign in again.', 'mfa_token_invalid');
    }
    if (!user.is_active) throw new Forbidden('This account is disabled. Ask the administrator.', 'account_disabled');
    if (user.must_change_password) return this.auth.passwordChangeRequired(user);
    this.log.info({ user_id: user.user_id, passkey_id: passkey.passkey_id, second_step: ceremony.mfa_challenge !== null }, 'signed in with a passkey');
    return this.auth.issueSession(user, client, false, ceremony.mfa_challenge !== null ? ['password', 'passkey'] : ['passkey']);
  }

  // ---------------------------------------------------------------- step-up

  async beginStepUp(actor: Actor, party: RelyingParty) {
    this.requireAvailable(party);
    const mine = this.store.ofUser(actor.userId, party.rpId);
    if (!mine.length) throw new Conflict('You have no passkey for this address: confirm another way.', 'no_passkey');
    const options = await generateAuthenticationOptions({
      rpID: party.rpId,
      allowCredentials: mine.map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) as string[] })),
      userVerification: 'required',
    });
    return { challenge_token: this.startCeremony('step_up', party, options.challenge, actor.userId), options };
  }

  /** Checks a step-up answer by the actor's own passkey; throws 403 when it is not one. */
  async checkStepUp(actor: Actor, input: CeremonyAnswer<AuthenticationResponseJSON>, client: ClientInfo): Promise<void> {
    this.limiter.check(client.ip, actor.username);
    const ceremony = this.takeCeremony(input.challenge_token, 'step_up', actor.userId, Forbidden);
    await this.checkAssertion(ceremony, input.credential, client, Forbidden);
  }

  // ---------------------------------------------------------------- shared

  private requireAvailable(party: RelyingParty): void {
    if (party.unavailableReason === 'ip_address') {
      throw new Conflict(`Passkeys need Hearth opened by a name, not an address like ${new URL(party.origin).hostname}.`, 'passkey_unavailable');
    }
    if (party.unavailableReason === 'insecure_transport') {
      throw new Conflict('Passkeys need Hearth opened over HTTPS (or at localhost on this computer).', 'passkey_unavailable');
    }
  }

  private startCeremony(
    purpose: CeremonyRow['purpose'],
    party: RelyingParty,
    challenge: string,
    userId: number | null,
    mfaChallenge: string | null = null,
    stage: string | null = null,
  ): string {
    const token = randomToken();
    const now = this.now();
    this.store.insertCeremony(
      { token_hash: sha256(token), purpose, user_id: userId, mfa_challenge: mfaChallenge, stage, challenge, origin: party.origin, rp_id: party.rpId, expires_at: now + CEREMONY_TTL_MS },
      now,
    );
    return token;
  }

  private takeCeremony(token: string, purpose: CeremonyRow['purpose'], userId: number | null, Problem: typeof Unauthorized | typeof Forbidden = Forbidden): CeremonyRow {
    const ceremony = this.store.takeCeremony(sha256(token), purpose, this.now());
    if (!ceremony || (userId !== null && ceremony.user_id !== userId)) {
      throw new Problem('This passkey request has expired or was already answered. Try again.', 'challenge_invalid');
    }
    return ceremony;
  }

  /** Verifies an assertion against the ceremony and the stored passkey, and records the use. */
  private async checkAssertion(
    ceremony: CeremonyRow,
    response: AuthenticationResponseJSON,
    client: ClientInfo,
    Problem: typeof Unauthorized | typeof Forbidden = Unauthorized,
  ): Promise<PasskeyRow> {
    const passkey = typeof response?.id === 'string' ? this.store.byCredentialId(response.id) : undefined;
    const subject = passkey ? this.auth.users.byId(passkey.user_id)?.username : undefined;
    const refuse = (message: string, code: string): never => {
      this.limiter.fail(client.ip, subject);
      throw new Problem(message, code);
    };
    if (!passkey || passkey.rp_id !== ceremony.rp_id || (ceremony.user_id !== null && passkey.user_id !== ceremony.user_id)) {
      return refuse('This passkey is not known here. Sign in another way, or add the passkey again.', 'passkey_invalid');
    }
    if (subject) this.limiter.check(client.ip, subject);
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: ceremony.origin,
        expectedRPID: ceremony.rp_id,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: passkey.sign_count, transports: JSON.parse(passkey.transports) as string[] },
        requireUserVerification: true,
      });
    } catch (e) {
      const message = (e as Error).message;
      if (/counter/i.test(message)) {
        this.log.warn({ user_id: passkey.user_id, passkey_id: passkey.passkey_id }, 'passkey counter went backwards: refused');
        return refuse('This passkey’s counter went backwards, as a copied passkey’s would. Remove it and add it again.', 'passkey_counter');
      }
      return refuse(`The passkey’s answer did not verify: ${message}`, 'passkey_invalid');
    }
    if (!result.verified) return refuse('The passkey’s answer did not verify.', 'passkey_invalid');
    if (!this.store.recordUse(passkey.passkey_id, passkey.sign_count, result.authenticationInfo.newCounter, this.now())) {
      return refuse('This passkey was used by another sign-in at the same moment. Try again.', 'passkey_counter');
    }
    if (subject) this.limiter.succeed(subject);
    return passkey;
  }

  /** Replaces the asking session with a new one for this device; `endOthers`: every other session ends too. */
  private renewSession(actor: Actor, client: ClientInfo, endOthers: boolean): IssuedSession {
    const methods = this.auth.sessionMethods(actor.sessionId);
    const now = this.now();
    if (endOthers) this.auth.store.revokeAllSessions(actor.userId, 'passkey_removed', now);
    else this.auth.store.revokeSession(actor.sessionId, 'renewed', now);
    return this.auth.issueSession(this.auth.users.byId(actor.userId)!, client, false, methods);
  }
}

/** "Chrome on Android": a passkey's name when the person gives none, from the browser that added it. */
function defaultLabel(userAgent: string | null): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : null;
  const system = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux|CrOS/.test(ua) ? 'Linux' : null;
  return browser && system ? `${browser} on ${system}` : browser ?? system ?? 'Passkey';
}
