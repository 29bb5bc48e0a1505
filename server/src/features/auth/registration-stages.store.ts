/** Registrations under way when new accounts need a second factor (migration 0033's registration_stages). */
import type { Db } from '../../platform/db/connection.ts';

export interface StageRow {
  token_hash: string;
  username: string;
  display_name: string;
  password_hash: string;
  /** The invite or setup code given at the start, sealed with the install's key (checked again at the end). */
  invite_code: string | null;
  setup_code: string | null;
  totp_secret: string | null;
  created_at: number;
  expires_at: number;
}

export class RegistrationStagesStore {
  constructor(private readonly db: Db) {}

  insertStage(row: StageRow): void {
    this.db
      .prepare(
        `INSERT INTO registration_stages (token_hash, username, display_name, password_hash, invite_code, setup_code, totp_secret, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
      )
      .run(row.token_hash, row.username, row.display_name, row.password_hash, row.invite_code, row.setup_code, row.created_at, row.expires_at);
  }

  stage(tokenHash: string, now: number): StageRow | undefined {
    return this.db.prepare('SELECT * FROM registration_stages WHERE token_hash = ? AND expires_at > ?').get(tokenHash, now) as StageRow | undefined;
  }

  setStageSecret(tokenHash: string, sealedSecret: string): void {
    this.db.prepare('UPDATE registration_stages SET totp_secret = ? WHERE token_hash = ?').run(sealedSecret, tokenHash);
  }

  /** Ends a stage (its account was created); false when another request ended it first. */
  deleteStage(tokenHash: string): boolean {
    return this.db.prepare('DELETE FROM registration_stages WHERE token_hash = ?').run(tokenHash).changes === 1;
  }

  prune(now: number): void {
    this.db.prepare('DELETE FROM registration_stages WHERE expires_at < ?').run(now);
  }
}
