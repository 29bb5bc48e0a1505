/**
 * Staged registration: where the household asks every new account for a second factor
 * (`registration.require_second_factor`), an account is created only once its second factor is
 * enrolled.
 *
 *   startStagedRegistration (name, password, invite) ──▶ stage_token (STAGE_TTL_MS)
 *     ├─ beginStagedTotpSetup ──▶ key + QR ──▶ completeStagedTotpRegistration (first code) ──▶ account, TOTP,
 *     │                                                                         recovery codes, session
 *     └─ beginStagedPasskeyRegistration ──▶ options ──▶ verifyStagedPasskeyRegistration ──▶ account, passkey, session
 *
 * Rules, and the decisions where the contract shows nothing:
 * - The start checks everything registration checks (invite link or code, setup code for the first
 *   account, a free name) without writing an account; the end checks it all again in the transaction
 *   that creates the account and its second factor, so nothing is ever half-made.
 * - A stage reserves nothing: the name stays free until an account is created (the first to finish
 *   wins; the other gets 409 `username_taken`). An abandoned stage expires and is pruned with its sealed
 *   key; the invite link stays unused.
 * - The stage holds the password's hash and the invite and setup codes sealed with the install's key.
 * - Staged registration works whether or not the setting is on (a member may choose it); with the
 *   setting on, plain `register` answers 403 `second_factor_required` for every account but the first.
 */
import { randomToken, sha256, type KeyRing } from '../../platform/crypto/keys.ts';
import { hashPassword } from '../../platform/crypto/passwords.ts';
import { seal, unseal } from '../../platform/crypto/sealed.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import { Forbidden, Unauthorized } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthService, ClientInfo, IssuedSession, RegistrationInput } from './auth.service.ts';
import type { MfaService } from './mfa.service.ts';
import { toPasskey, type CeremonyAnswer, type PasskeysService } from './passkeys.service.ts';
import type { RelyingParty } from './relying-party.ts';
import { RegistrationStagesStore, type StageRow } from './registration-stages.store.ts';
import { TOTP_ISSUER, totpUri } from './totp.ts';
import { qrSvg } from '../../adapters/qr/index.ts';

export const STAGE_TTL_MS = 15 * 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

export class StagedRegistrationService {
  readonly store: RegistrationStagesStore;
  private readonly sealKey: Buffer;

  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly mfa: MfaService,
    private readonly passkeys: PasskeysService,
    keys: KeyRing,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new RegistrationStagesStore(db);
    this.sealKey = keys.key('registration-stage');
  }

  async start(input: RegistrationInput, client: ClientInfo) {
    this.auth.limits.register.check(client.ip);
    const now = this.now();
    tx(this.db, () => this.auth.admit(input, '', client, now, true, undefined, true));
    const token = randomToken();
    const tokenHash = sha256(token);
    const sealed = (v: string | undefined) => (v === undefined ? null : seal(this.sealKey, v, `stage:${tokenHash}`));
    this.store.insertStage({
      token_hash: tokenHash,
      username: input.username,
      display_name: input.display_name ?? input.username,
      password_hash: await hashPassword(input.password),
      invite_code: sealed(input.invite_code),
      setup_code: sealed(input.setup_code),
      totp_secret: null,
      created_at: now,
      expires_at: now + STAGE_TTL_MS,
    });
    return { stage_token: token, expires_at: iso(now + STAGE_TTL_MS), methods: ['totp', 'passkey'] };
  }

  async beginTotp(input: { stage_token: string }) {
    const stage = this.stage(input.stage_token);
    const { secret, sealed } = this.mfa.newStagedSecret(stage.token_hash);
    this.store.setStageSecret(stage.token_hash, sealed);
    const uri = totpUri(secret, stage.username);
    return { account_name: stage.username, issuer: TOTP_ISSUER, otpauth_uri: uri, qr_svg: await qrSvg(uri), secret, expires_at: iso(stage.expires_at) };
  }

  async completeTotp(input: { stage_token: string; code: string }, client: ClientInfo) {
    const stage = this.stage(input.stage_token);
    if (!stage.totp_secret) throw new Forbidden('Set up the authenticator app first (beginStagedTotpSetup).', 'totp_setup_missing');
    this.mfa.limiter.check(client.ip, stage.username);
    const { secret, step } = await this.mfa.matchStagedCode(stage.token_hash, stage.totp_secret, input.code);
    if (step === null) {
      this.mfa.limiter.fail(client.ip, stage.username);
      throw new Forbidden('That code is not right. Type the code your authenticator shows now.', 'mfa_code_invalid');
    }
    this.mfa.limiter.succeed(stage.username);
    const now = this.now();
    let codes: string[] = [];
    const { user, bootstrapAdmin } = this.create(stage, client, now, (userId) => {
      codes = this.mfa.enrolNewAccount(userId, secret, step, now);
    });
    const session = this.auth.issueSession(user, client, bootstrapAdmin, ['password', 'totp']);
    return { session, recovery_codes: codes, generated_at: iso(now) };
  }

  async beginPasskey(party: RelyingParty, input: { stage_token: string }) {
    const stage = this.stage(input.stage_token);
    return this.passkeys.beginStagedEnrolment(party, stage);
  }

  async completePasskey(input: CeremonyAnswer<RegistrationResponseJSON> & { label?: string | undefined }, client: ClientInfo) {
    const { stageHash, made } = await this.passkeys.checkStagedEnrolment(input, client);
    const stage = this.store.stage(stageHash, this.now());
    if (!stage) throw new Unauthorized('This registration has expired. Start again.', 'stage_invalid');
    const now = this.now();
    let passkeyId = 0;
    const { user, bootstrapAdmin } = this.create(stage, client, now, (userId) => {
      passkeyId = this.passkeys.insertMade(userId, made, input.label, client, now);
    });
    const session: IssuedSession = this.auth.issueSession(user, client, bootstrapAdmin, ['password', 'passkey']);
    const credential = toPasskey(this.passkeys.store.ofUser(user.user_id).find((p) => p.passkey_id === passkeyId)!);
    return { session, credential };
  }

  /** Creates the account and its second factor in one transaction, checking the stage's details again. */
  private create(stage: StageRow, client: ClientInfo, now: number, enrol: (userId: number) => void) {
    const open = (v: string | null) => (v === null ? undefined : unseal(this.sealKey, v, `stage:${stage.token_hash}`));
    const input: RegistrationInput = {
      username: stage.username,
      password: '',
      display_name: stage.display_name,
      invite_code: open(stage.invite_code),
      setup_code: open(stage.setup_code),
    };
    return tx(this.db, () => {
      if (!this.store.deleteStage(stage.token_hash)) throw new Unauthorized('This registration was already completed. Sign in.', 'stage_invalid');
      const { user, bootstrapAdmin } = this.auth.admit(input, stage.password_hash, client, now, true, (row) => enrol(row.user_id));
      this.log.info({ user_id: user!.user_id }, 'account registered with its second factor');
      return { user: user!, bootstrapAdmin };
    });
  }

  private stage(token: string): StageRow {
    const stage = this.store.stage(sha256(token), this.now());
    if (!stage) throw new Unauthorized('This registration has expired or was completed. Start again.', 'stage_invalid');
    return stage;
  }
}
