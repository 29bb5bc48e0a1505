/**
 * SQL for the second factor (migration 0032): enabled authenticators, enrolments under way, recovery
 * codes, sign-in challenges and step-up proofs. Tokens arrive here already hashed; secrets sealed.
 */
import type { Db } from '../../platform/db/connection.ts';

export interface TotpRow {
  user_id: number;
  secret: string;
  last_step: number;
  enabled_at: number;
}

export interface TotpSetupRow {
  token_hash: string;
  user_id: number;
  secret: string;
  expires_at: number;
}

/** The kinds of second factor an account can have (passkeys: issue 27, point 2). */
export type SecondFactorKind = 'totp' | 'passkey';

export class MfaStore {
  constructor(private readonly db: Db) {}

  // ------------------------------------------------------------------ authenticators

  totp(userId: number): TotpRow | undefined {
    return this.db.prepare('SELECT * FROM totp_credentials WHERE user_id = ?').get(userId) as TotpRow | undefined;
  }

  /** Which of `userIds` have a second factor, and which: for the administrator's list of accounts. */
  secondFactorsOf(userIds: readonly number[]): Map<number, SecondFactorKind[]> {
    const out = new Map<number, SecondFactorKind[]>();
    if (!userIds.length) return out;
    const marks = userIds.map(() => '?').join(',');
    const rows = this.db
      .prepare(
        `SELECT user_id, 'totp' AS kind FROM totp_credentials WHERE user_id IN (${marks})
         UNION ALL SELECT DISTINCT user_id, 'passkey' FROM passkeys WHERE user_id IN (${marks})`,
      )
      .all(...userIds, ...userIds) as { user_id: number; kind: SecondFactorKind }[];
    for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.kind]);
    return out;
  }

  /** How many passkeys the account has (the passkeys table is PasskeysStore's; this is the count MFA needs). */
  passkeyCount(userId: number): number {
    return (this.db.prepare('SELECT count(*) AS n FROM passkeys WHERE user_id = ?').get(userId) as { n: number }).n;
  }

  insertTotp(userId: number, sealedSecret: string, step: number, now: number): void {
    this.db
      .prepare('INSERT INTO totp_credentials (user_id, secret, last_step, enabled_at) VALUES (?, ?, ?, ?)')
      .run(userId, sealedSecret, step, now);
  }

  /**
   * Records `step` as the last accepted one; false when that step or a later one was already used
   * (a replay, or the same code sent twice at once: only one of them gets here first).
   */
  advanceTotpStep(userId: number, step: number): boolean {
    return this.db.prepare('UPDATE totp_credentials SET last_step = ? WHERE user_id = ? AND last_step < ?').run(step, userId, step).changes === 1;
  }

  deleteTotp(userId: number): boolean {
    return this.db.prepare('DELETE FROM totp_credentials WHERE user_id = ?').run(userId).changes === 1;
  }

  // ------------------------------------------------------------------ enrolment

  /** A new setup replaces the account's previous one. */
  putSetup(row: TotpSetupRow): void {
    this.db.prepare('DELETE FROM totp_setups WHERE user_id = ?').run(row.user_id);
    this.db
      .prepare('INSERT INTO totp_setups (token_hash, user_id, secret, expires_at) VALUES (?, ?, ?, ?)')
      .run(row.token_hash, row.user_id, row.secret, row.expires_at);
  }

  /** The account's live setup with this token (another account's token is no setup at all). */
  setup(tokenHash: string, userId: number, now: number): TotpSetupRow | undefined {
    return this.db
      .prepare('SELECT * FROM totp_setups WHERE token_hash = ? AND user_id = ? AND expires_at > ?')
      .get(tokenHash, userId, now) as TotpSetupRow | undefined;
  }

  deleteSetups(userId: number): void {
    this.db.prepare('DELETE FROM totp_setups WHERE user_id = ?').run(userId);
  }

  // ------------------------------------------------------------------ recovery codes

  replaceRecoveryCodes(userId: number, hashes: readonly string[], now: number): void {
    this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(userId);
    const insert = this.db.prepare('INSERT INTO recovery_codes (user_id, code_hash, generated_at) VALUES (?, ?, ?)');
    for (const h of hashes) insert.run(userId, h, now);
  }

  /** Spends a recovery code; false when it is not one of the account's, or was used already. */
  useRecoveryCode(userId: number, hash: string, now: number): boolean {
    return this.db
      .prepare('UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
      .run(now, userId, hash).changes === 1;
  }

  recoveryCodeSummary(userId: number): { remaining: number; generated_at: number | null } {
    return this.db
      .prepare('SELECT count(*) FILTER (WHERE used_at IS NULL) AS remaining, max(generated_at) AS generated_at FROM recovery_codes WHERE user_id = ?')
      .get(userId) as { remaining: number; generated_at: number | null };
  }

  deleteRecoveryCodes(userId: number): void {
    this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(userId);
  }

  // ------------------------------------------------------------------ sign-in challenges

  insertChallenge(tokenHash: string, userId: number, now: number, expiresAt: number): void {
    this.db
      .prepare('INSERT INTO mfa_challenges (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(tokenHash, userId, now, expiresAt);
  }

  /** The account of a live, unused challenge. */
  challengeUser(tokenHash: string, now: number): number | null {
    const row = this.db
      .prepare('SELECT user_id FROM mfa_challenges WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
      .get(tokenHash, now) as { user_id: number } | undefined;
    return row?.user_id ?? null;
  }

  /** Spends a challenge; false when another request spent it first. */
  spendChallenge(tokenHash: string, now: number): boolean {
    return this.db.prepare('UPDATE mfa_challenges SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(now, tokenHash).changes === 1;
  }

  // ------------------------------------------------------------------ step-up proofs

  insertProof(p: { token_hash: string; user_id: number; action: string; now: number; expires_at: number }): void {
    this.db
      .prepare('INSERT INTO security_proofs (token_hash, user_id, action, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(p.token_hash, p.user_id, p.action, p.now, p.expires_at);
  }

  /** Spends a proof made by this account for this action, still fresh; false otherwise. */
  spendProof(tokenHash: string, userId: number, action: string, now: number): boolean {
    return this.db
      .prepare(
        `UPDATE security_proofs SET used_at = ?
         WHERE token_hash = ? AND user_id = ? AND action = ? AND used_at IS NULL AND expires_at > ?`,
      )
      .run(now, tokenHash, userId, action, now).changes === 1;
  }

  // ------------------------------------------------------------------ the whole account

  /**
   * Forgets every second factor of an account and what was under way with them (an administrator's
   * access reset), passkeys included.
   */
  clearSecondFactors(userId: number): void {
    this.deleteTotp(userId);
    this.deleteSetups(userId);
    this.deleteRecoveryCodes(userId);
    this.db.prepare('DELETE FROM mfa_challenges WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM security_proofs WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM passkeys WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM webauthn_ceremonies WHERE user_id = ?').run(userId);
  }

  /** Housekeeping: rows that can no longer be used. */
  prune(now: number): void {
    this.db.prepare('DELETE FROM totp_setups WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM mfa_challenges WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM security_proofs WHERE expires_at < ?').run(now);
  }
}
