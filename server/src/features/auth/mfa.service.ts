/**
 * The second factor: TOTP enrolment, recovery codes, the second step of a sign-in (verifyMfa) and
 * step-up proofs (verifyRecentSecurity).
 *
 * Rules, and the decisions where the contract shows nothing:
 * - The TOTP seed is sealed with the install's key (platform/crypto/sealed.ts) and shown once, by
 *   beginTotpSetup. A code is accepted from one step before to one step after the server's clock, and
 *   once: the step of the last accepted code is kept per account, and a code of that step or an
 *   earlier one is refused (`mfa_code_reused`).
 * - Recovery codes: ten, shown once (enableTotp, regenerateRecoveryCodes), stored as HMACs, each
 *   usable once in place of a TOTP code (sign-in and step-up alike). Disabling TOTP deletes them.
 * - Step-up: beginTotpSetup, disableTotp and regenerateRecoveryCodes each spend a `security_token`
 *   made by verifyRecentSecurity for that `action`, by the same account, within PROOF_TTL_MS. It is
 *   made from a TOTP code or a recovery code when the account has a second factor (the password is
 *   then refused: `second_factor_required`), from the password when it has none. enableTotp's proof
 *   is its `setup_token`: it exists only because beginTotpSetup spent a proof minutes before, it is
 *   bound to the same account and spent on use, and asking a second proof between scanning the QR
 *   code and typing its first code would ask for a code of an authenticator not set up yet.
 * - enableTotp and regenerateRecoveryCodes end every session of the account and sign this device in
 *   anew (the `session` of their answers): sessions opened before the second factor existed, or with
 *   a recovery code that may have leaked, do not live on. disableTotp keeps the sessions (its answer
 *   has none to give).
 * - Wrong codes count in their own failure limiter, per address and per account, with the password
 *   limiter's policy (8 failures a minute lock the account's second step for 5 minutes). A locked
 *   account answers 429 without checking the code. A step-up by password counts on the login limiter.
 * - Problems: sign-in (public) answers 401 for a bad `mfa_token` or code; signed-in operations answer
 *   403 for a bad code, proof or setup token (401 there would read as "signed out" to a client).
 * - Passkeys (passkeys.service.ts) are another way to make a proof (`passkey`: a step-up ceremony's
 *   answer), whether or not TOTP is on; they show in `available_methods` and `passkey_count`.
 */
import { qrSvg } from '../../adapters/qr/index.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import { randomToken, sha256, type KeyRing } from '../../platform/crypto/keys.ts';
import { verifyPassword } from '../../platform/crypto/passwords.ts';
import { seal, unseal } from '../../platform/crypto/sealed.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Forbidden, Invalid, Unauthorized } from '../../platform/http/errors.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import type { Logger } from '../../platform/logger.ts';
import type { UserRow } from '../users/index.ts';
import type { AuthMethod, AuthService, ClientInfo, IssuedSession, PasswordChangeRequired } from './auth.service.ts';
import { MfaStore } from './mfa.store.ts';
import { newRecoveryCodes, normalizeRecoveryCode, recoveryCodeHash } from './recovery-codes.ts';
import { TOTP_ISSUER, matchTotpStep, newTotpSecret, totpUri } from './totp.ts';

export const SETUP_TTL_MS = 10 * 60_000;
export const PROOF_TTL_MS = 5 * 60_000;

/** What a `security_token` can be spent on (one action each). */
export const SECURITY_ACTIONS = ['begin_totp_setup', 'disable_totp', 'regenerate_recovery_codes', 'delete_passkey'] as const;
export type SecurityAction = (typeof SECURITY_ACTIONS)[number];

/** A second factor as presented: a TOTP code or a recovery code. */
export interface FactorInput {
  code?: string | undefined;
  recovery_code?: string | undefined;
}

/** Checks a passkey step-up answer (PasskeysService.checkStepUp), given after construction. */
export interface PasskeyStepUp {
  checkStepUp(actor: Actor, input: { challenge_token: string; credential: never }, client: ClientInfo): Promise<void>;
}

export interface MfaStatus {
  totp_enabled: boolean;
  available_methods: string[];
  passkey_count: number;
  recovery_codes_remaining: number;
  recovery_codes_generated_at: string | null;
  session: { signed_in_at: string; methods: string[] };
}

export interface FreshCodes {
  generated_at: string;
  recovery_codes: string[];
  session: IssuedSession;
  status: MfaStatus;
}

type FactorCheck = { ok: true; method: AuthMethod } | { ok: false; code: 'mfa_code_invalid' | 'mfa_code_reused' };

const iso = (ms: number) => new Date(ms).toISOString();

export class MfaService {
  readonly store: MfaStore;
  readonly limiter: FailureLimiter;
  private readonly secretKey: Buffer;
  private readonly codeKey: Buffer;
  private passkeys: PasskeyStepUp | null = null;

  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    keys: KeyRing,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new MfaStore(db);
    this.limiter = new FailureLimiter('mfa', undefined, now);
    this.secretKey = keys.key('totp-secret');
    this.codeKey = keys.key('recovery-code');
  }

  /** Lets step-up proofs be made with a passkey (the container wires PasskeysService here). */
  usePasskeys(passkeys: PasskeyStepUp): void {
    this.passkeys = passkeys;
  }

  // ---------------------------------------------------------------- status

  status(actor: Actor): MfaStatus {
    return this.statusOf(actor.userId, actor.sessionId);
  }

  private statusOf(userId: number, sessionId: string): MfaStatus {
    const totp = this.store.totp(userId) !== undefined;
    const codes = this.store.recoveryCodeSummary(userId);
    const passkeys = this.store.passkeyCount(userId);
    const session = this.auth.store.session(sessionId);
    return {
      totp_enabled: totp,
      // What verifyRecentSecurity (and, signed out, verifyMfa) accepts from this account.
      available_methods: [...(totp ? (codes.remaining > 0 ? ['totp', 'recovery_code'] : ['totp']) : ['password']), ...(passkeys > 0 ? ['passkey'] : [])],
      passkey_count: passkeys,
      recovery_codes_remaining: codes.remaining,
      recovery_codes_generated_at: codes.generated_at === null ? null : iso(codes.generated_at),
      session: { signed_in_at: iso(session?.created_at ?? this.now()), methods: this.auth.sessionMethods(sessionId) },
    };
  }

  // ---------------------------------------------------------------- enrolment

  async beginTotpSetup(actor: Actor, input: { security_token: string }) {
    const secret = newTotpSecret();
    const setupToken = randomToken();
    const expiresAt = this.now() + SETUP_TTL_MS;
    tx(this.db, () => {
      if (this.store.totp(actor.userId)) {
        throw new Conflict('Two-step sign-in is already on. Turn it off first to move it to another authenticator.', 'totp_already_enabled');
      }
      this.spendSecurityProof(actor, input.security_token, 'begin_totp_setup');
      this.store.putSetup({ token_hash: sha256(setupToken), user_id: actor.userId, secret: this.sealSecret(actor.userId, secret), expires_at: expiresAt });
    });
    const uri = totpUri(secret, actor.username);
    return {
      account_name: actor.username,
      issuer: TOTP_ISSUER,
      otpauth_uri: uri,
      // Drawn here, on the home machine: the key never goes to a QR service, and the page needs no encoder.
      qr_svg: await qrSvg(uri),
      secret,
      setup_token: setupToken,
      expires_at: iso(expiresAt),
    };
  }

  async enableTotp(actor: Actor, input: { setup_token: string; code: string }, client: ClientInfo): Promise<FreshCodes> {
    this.limiter.check(client.ip, actor.username);
    const setup = this.store.setup(sha256(input.setup_token), actor.userId, this.now());
    if (!setup) {
      this.limiter.fail(client.ip, actor.username);
      throw new Forbidden('This setup has expired or was already used. Start again.', 'setup_token_invalid');
    }
    const step = await matchTotpStep(this.openSecret(actor.userId, setup.secret), input.code, this.now());
    if (step === null) {
      this.limiter.fail(client.ip, actor.username);
      throw new Forbidden('That code is not right. Type the code your authenticator shows now.', 'mfa_code_invalid');
    }
    this.limiter.succeed(actor.username);
    const now = this.now();
    const codes = newRecoveryCodes();
    tx(this.db, () => {
      if (this.store.totp(actor.userId)) throw new Conflict('Two-step sign-in is already on.', 'totp_already_enabled');
      if (!this.store.setup(setup.token_hash, actor.userId, now)) throw new Forbidden('This setup was already used. Start again.', 'setup_token_invalid');
      this.store.deleteSetups(actor.userId);
      this.store.insertTotp(actor.userId, setup.secret, step, now);
      this.storeCodes(actor.userId, codes, now);
      this.auth.store.revokeAllSessions(actor.userId, 'totp_enabled', now);
    });
    this.log.info({ user_id: actor.userId }, 'two-step sign-in turned on; other sessions ended');
    return this.freshCodes(actor, codes, now, client, 'totp');
  }

  disableTotp(actor: Actor, input: { security_token: string }): MfaStatus {
    tx(this.db, () => {
      if (!this.store.totp(actor.userId)) throw new Conflict('Two-step sign-in is not on.', 'totp_not_enabled');
      this.spendSecurityProof(actor, input.security_token, 'disable_totp');
      this.store.deleteTotp(actor.userId);
      this.store.deleteSetups(actor.userId);
      this.store.deleteRecoveryCodes(actor.userId);
    });
    this.log.info({ user_id: actor.userId }, 'two-step sign-in turned off; recovery codes deleted');
    return this.status(actor);
  }

  regenerateRecoveryCodes(actor: Actor, input: { security_token: string }, client: ClientInfo): FreshCodes {
    const now = this.now();
    const codes = newRecoveryCodes();
    tx(this.db, () => {
      if (!this.store.totp(actor.userId)) throw new Conflict('Recovery codes come with two-step sign-in: turn it on first.', 'totp_not_enabled');
      this.spendSecurityProof(actor, input.security_token, 'regenerate_recovery_codes');
      this.storeCodes(actor.userId, codes, now);
      this.auth.store.revokeAllSessions(actor.userId, 'recovery_codes_regenerated', now);
    });
    this.log.info({ user_id: actor.userId }, 'recovery codes regenerated; other sessions ended');
    return this.freshCodes(actor, codes, now, client);
  }

  private freshCodes(actor: Actor, codes: string[], now: number, client: ClientInfo, add?: AuthMethod): FreshCodes {
    const methods = this.auth.sessionMethods(actor.sessionId);
    if (add && !methods.includes(add)) methods.push(add);
    const session = this.auth.issueSession(this.user(actor.userId), client, false, methods);
    return { generated_at: iso(now), recovery_codes: codes, session, status: this.statusOf(actor.userId, session.sessionId) };
  }

  // ---------------------------------------------------------------- step-up

  async verifyRecentSecurity(
    actor: Actor,
    input: FactorInput & { action: SecurityAction; password?: string | undefined; passkey?: { challenge_token: string; credential: unknown } | undefined },
    client: ClientInfo,
  ): Promise<{ security_token: string; expires_at: string }> {
    const given = [input.code, input.recovery_code, input.password, input.passkey].filter((v) => v !== undefined).length;
    if (given !== 1) {
      throw new Invalid('Give exactly one of code, recovery_code, password or passkey.', [
        { field: 'body', message: 'needs exactly one of code, recovery_code, password, passkey', code: 'one_proof' },
      ]);
    }
    if (input.passkey !== undefined) {
      if (!this.passkeys) throw new Conflict('Passkeys are not available here.', 'passkey_unavailable');
      await this.passkeys.checkStepUp(actor, input.passkey as { challenge_token: string; credential: never }, client);
    } else if (this.store.totp(actor.userId)) {
      if (input.password !== undefined) {
        throw new Forbidden('This account has two-step sign-in: confirm with a code from your authenticator or a recovery code.', 'second_factor_required');
      }
      this.limiter.check(client.ip, actor.username);
      const check = await this.checkFactor(actor.userId, input);
      if (!check.ok) {
        this.limiter.fail(client.ip, actor.username);
        throw new Forbidden(factorMessage(check.code), check.code);
      }
      this.limiter.succeed(actor.username);
    } else {
      if (input.password === undefined) {
        throw new Conflict('This account has no second factor yet: confirm with your password.', 'no_second_factor');
      }
      this.auth.limits.login.check(client.ip, actor.username);
      if (!(await verifyPassword(input.password, this.user(actor.userId).password_hash))) {
        this.auth.limits.login.fail(client.ip, actor.username);
        throw new Forbidden('The password is not right.', 'wrong_password');
      }
      this.auth.limits.login.succeed(actor.username);
    }
    const token = randomToken();
    const now = this.now();
    this.store.insertProof({ token_hash: sha256(token), user_id: actor.userId, action: input.action, now, expires_at: now + PROOF_TTL_MS });
    return { security_token: token, expires_at: iso(now + PROOF_TTL_MS) };
  }

  /** Spends a `security_token` made for `action` by this account, or answers 403 `security_token_invalid`. */
  spendSecurityProof(actor: Actor, token: string, action: SecurityAction): void {
    if (!this.store.spendProof(sha256(token), actor.userId, action, this.now())) {
      throw new Forbidden('Confirm it is you again: this confirmation has expired, was used, or was made for something else.', 'security_token_invalid');
    }
  }

  // ---------------------------------------------------------------- the second step of a sign-in

  async verifyMfa(input: FactorInput & { mfa_token: string }, client: ClientInfo): Promise<IssuedSession | PasswordChangeRequired> {
    this.limiter.check(client.ip);
    const tokenHash = sha256(input.mfa_token);
    const userId = this.store.challengeUser(tokenHash, this.now());
    const user = userId === null ? undefined : this.auth.users.byId(userId);
    if (!user) {
      this.limiter.fail(client.ip);
      throw new Unauthorized('This sign-in has expired. Sign in again with your password.', 'mfa_token_invalid');
    }
    this.limiter.check(client.ip, user.username);
    const check = await this.checkFactor(user.user_id, input, () => {
      if (!this.store.spendChallenge(tokenHash, this.now())) throw new Unauthorized('This sign-in was already completed. Sign in again.', 'mfa_token_invalid');
    });
    if (!check.ok) {
      this.limiter.fail(client.ip, user.username);
      throw new Unauthorized(factorMessage(check.code), check.code);
    }
    this.limiter.succeed(user.username);
    const fresh = this.user(user.user_id);
    if (!fresh.is_active) throw new Forbidden('This account is disabled. Ask the administrator.', 'account_disabled');
    if (fresh.must_change_password) return this.auth.passwordChangeRequired(fresh);
    this.log.info({ user_id: user.user_id, method: check.method }, 'signed in with a second factor');
    return this.auth.issueSession(fresh, client, false, ['password', check.method]);
  }

  // ---------------------------------------------------------------- shared

  /**
   * Checks a TOTP code or a recovery code and, when right, uses it up (the code's step, or the
   * recovery code) in one transaction with `alsoSpend` (the sign-in challenge).
   */
  private async checkFactor(userId: number, input: FactorInput, alsoSpend: () => void = () => {}): Promise<FactorCheck> {
    if ((input.code === undefined) === (input.recovery_code === undefined)) {
      throw new Invalid('Give a code from your authenticator or a recovery code.', [{ field: 'body', message: 'needs exactly one of code, recovery_code', code: 'one_code' }]);
    }
    const totp = this.store.totp(userId);
    if (!totp) return { ok: false, code: 'mfa_code_invalid' };
    if (input.code !== undefined) {
      const step = await matchTotpStep(this.openSecret(userId, totp.secret), input.code, this.now());
      if (step === null) return { ok: false, code: 'mfa_code_invalid' };
      return tx(this.db, (): FactorCheck => {
        if (!this.store.advanceTotpStep(userId, step)) return { ok: false, code: 'mfa_code_reused' };
        alsoSpend();
        return { ok: true, method: 'totp' };
      });
    }
    const normalized = normalizeRecoveryCode(input.recovery_code!);
    if (normalized === null) return { ok: false, code: 'mfa_code_invalid' };
    return tx(this.db, (): FactorCheck => {
      if (!this.store.useRecoveryCode(userId, recoveryCodeHash(this.codeKey, userId, normalized), this.now())) return { ok: false, code: 'mfa_code_invalid' };
      alsoSpend();
      return { ok: true, method: 'recovery_code' };
    });
  }

  private storeCodes(userId: number, codes: readonly string[], now: number): void {
    this.store.replaceRecoveryCodes(userId, codes.map((c) => recoveryCodeHash(this.codeKey, userId, normalizeRecoveryCode(c)!)), now);
  }

  // ---------------------------------------------------------------- staged registration

  /** A new TOTP seed for a registration stage, sealed and bound to that stage (staged-registration.service.ts). */
  newStagedSecret(stageHash: string): { secret: string; sealed: string } {
    const secret = newTotpSecret();
    return { secret, sealed: seal(this.secretKey, secret, `stage:${stageHash}`) };
  }

  /** The step the code matches for a stage's sealed seed, or null. */
  async matchStagedCode(stageHash: string, sealed: string, code: string): Promise<{ secret: string; step: number | null }> {
    const secret = unseal(this.secretKey, sealed, `stage:${stageHash}`);
    return { secret, step: await matchTotpStep(secret, code, this.now()) };
  }

  /** Turns TOTP on for a new account (its stage's seed and first code's step) with ten recovery codes; inside the caller's transaction. */
  enrolNewAccount(userId: number, secret: string, step: number, now: number): string[] {
    this.store.insertTotp(userId, this.sealSecret(userId, secret), step, now);
    const codes = newRecoveryCodes();
    this.storeCodes(userId, codes, now);
    return codes;
  }

  private sealSecret(userId: number, secret: string): string {
    return seal(this.secretKey, secret, `totp:${userId}`);
  }

  private openSecret(userId: number, sealed: string): string {
    return unseal(this.secretKey, sealed, `totp:${userId}`);
  }

  private user(userId: number): UserRow {
    return this.auth.users.byId(userId)!;
  }
}

function factorMessage(code: 'mfa_code_invalid' | 'mfa_code_reused'): string {
  return code === 'mfa_code_reused'
    ? 'That code was already used. Wait for the next code of your authenticator.'
    : 'That code is not right.';
}
