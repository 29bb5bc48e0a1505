/** The passkeys table and the WebAuthn ceremonies under way (migration 0033). */
import type { Db } from '../../platform/db/connection.ts';

export interface PasskeyRow {
  passkey_id: number;
  user_id: number;
  credential_id: string;
  public_key: Buffer;
  sign_count: number;
  transports: string;
  label: string;
  rp_id: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

export type CeremonyPurpose = 'login' | 'enrol' | 'step_up' | 'register';

export interface CeremonyRow {
  token_hash: string;
  purpose: CeremonyPurpose;
  user_id: number | null;
  mfa_challenge: string | null;
  /** The registration stage (its token's hash) a `register` ceremony belongs to. */
  stage: string | null;
  challenge: string;
  origin: string;
  rp_id: string;
  expires_at: number;
}

export class PasskeysStore {
  constructor(private readonly db: Db) {}

  // ------------------------------------------------------------------ passkeys

  /** An account's passkeys made for `rpId` (all of them when null), oldest first. */
  ofUser(userId: number, rpId: string | null = null): PasskeyRow[] {
    return (
      rpId === null
        ? this.db.prepare('SELECT * FROM passkeys WHERE user_id = ? ORDER BY passkey_id').all(userId)
        : this.db.prepare('SELECT * FROM passkeys WHERE user_id = ? AND rp_id = ? ORDER BY passkey_id').all(userId, rpId)
    ) as PasskeyRow[];
  }

  count(userId: number): number {
    return (this.db.prepare('SELECT count(*) AS n FROM passkeys WHERE user_id = ?').get(userId) as { n: number }).n;
  }

  byCredentialId(credentialId: string): PasskeyRow | undefined {
    return this.db.prepare('SELECT * FROM passkeys WHERE credential_id = ?').get(credentialId) as PasskeyRow | undefined;
  }

  insert(p: Omit<PasskeyRow, 'passkey_id' | 'last_used_at'>): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO passkeys (user_id, credential_id, public_key, sign_count, transports, label, rp_id, backed_up, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(p.user_id, p.credential_id, p.public_key, p.sign_count, p.transports, p.label, p.rp_id, p.backed_up, p.created_at).lastInsertRowid,
    );
  }

  /**
   * Records a use: the new counter, only if it did not go backwards meanwhile (two sign-ins with one
   * assertion race here; the second finds the counter already moved and is refused).
   */
  recordUse(passkeyId: number, previousCount: number, newCount: number, now: number): boolean {
    return (
      this.db
        .prepare('UPDATE passkeys SET sign_count = ?, last_used_at = ? WHERE passkey_id = ? AND sign_count = ?')
        .run(newCount, now, passkeyId, previousCount).changes === 1
    );
  }

  delete(userId: number, passkeyId: number): boolean {
    return this.db.prepare('DELETE FROM passkeys WHERE passkey_id = ? AND user_id = ?').run(passkeyId, userId).changes === 1;
  }

  deleteAll(userId: number): void {
    this.db.prepare('DELETE FROM passkeys WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM webauthn_ceremonies WHERE user_id = ?').run(userId);
  }

  // ------------------------------------------------------------------ ceremonies

  insertCeremony(row: CeremonyRow, now: number): void {
    this.db
      .prepare(
        `INSERT INTO webauthn_ceremonies (token_hash, purpose, user_id, mfa_challenge, stage, challenge, origin, rp_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(row.token_hash, row.purpose, row.user_id, row.mfa_challenge, row.stage, row.challenge, row.origin, row.rp_id, now, row.expires_at);
  }

  /** Takes a live ceremony of `purpose` for good: it answers once, right or wrong. */
  takeCeremony(tokenHash: string, purpose: CeremonyPurpose, now: number): CeremonyRow | undefined {
    const row = this.db
      .prepare('SELECT * FROM webauthn_ceremonies WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?')
      .get(tokenHash, purpose, now) as CeremonyRow | undefined;
    if (!row) return undefined;
    const spent = this.db.prepare('UPDATE webauthn_ceremonies SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(now, tokenHash).changes === 1;
    return spent ? row : undefined;
  }

  prune(now: number): void {
    this.db.prepare('DELETE FROM webauthn_ceremonies WHERE expires_at < ?').run(now);
  }
}
