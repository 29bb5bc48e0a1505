/** SQL of cloud credentials and the sources bound to repositories. No rules here (credentials.service.ts). */
import type { Db } from '../../platform/db/connection.ts';
import type { StoredProblem } from './import-problems.ts';

export type CredentialStatus = 'connected' | 'pending_challenge' | 'disconnected' | 'error';

export interface CredentialRow {
  credential_id: string;
  owner_id: number;
  provider: string;
  identity_hash: string;
  display_name: string;
  status: CredentialStatus;
  public_config: string;
  sealed_state: string;
  problem: string | null;
  session_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SourceRow {
  source_id: string;
  repository_id: string;
  credential_id: string;
  owner_id: number;
  provider: string;
  remote_scope: string;
  scope_key: string;
  enabled: number;
  last_import_run_id: string | null;
  created_at: number;
  updated_at: number;
}

export class CredentialsStore {
  constructor(private readonly db: Db) {}

  get(id: string): CredentialRow | undefined {
    return this.db.prepare('SELECT * FROM cloud_credentials WHERE credential_id = ?').get(id) as CredentialRow | undefined;
  }

  /** Every credential (`ownerId` undefined: an administrator's list), newest first. */
  list(ownerId: number | undefined): CredentialRow[] {
    return ownerId === undefined
      ? (this.db.prepare('SELECT * FROM cloud_credentials ORDER BY created_at DESC, credential_id').all() as CredentialRow[])
      : (this.db.prepare('SELECT * FROM cloud_credentials WHERE owner_id = ? ORDER BY created_at DESC, credential_id').all(ownerId) as CredentialRow[]);
  }

  byIdentity(ownerId: number, provider: string, identityHash: string): CredentialRow | undefined {
    return this.db.prepare('SELECT * FROM cloud_credentials WHERE owner_id = ? AND provider = ? AND identity_hash = ?').get(ownerId, provider, identityHash) as CredentialRow | undefined;
  }

  insert(row: CredentialRow): void {
    this.db
      .prepare(
        `INSERT INTO cloud_credentials (credential_id, owner_id, provider, identity_hash, display_name, status, public_config, sealed_state, problem, session_expires_at, created_at, updated_at)
         VALUES (@credential_id, @owner_id, @provider, @identity_hash, @display_name, @status, @public_config, @sealed_state, @problem, @session_expires_at, @created_at, @updated_at)`,
      )
      .run(row);
  }

  update(id: string, f: Partial<Pick<CredentialRow, 'status' | 'display_name' | 'public_config' | 'sealed_state' | 'session_expires_at' | 'identity_hash'>> & { problem?: StoredProblem | null }, now: number): void {
    const sets: string[] = ['updated_at = @now'];
    const params: Record<string, unknown> = { id, now };
    for (const [k, v] of Object.entries(f)) {
      sets.push(`${k} = @${k}`);
      params[k] = k === 'problem' ? (v === null ? null : JSON.stringify(v)) : v;
    }
    this.db.prepare(`UPDATE cloud_credentials SET ${sets.join(', ')} WHERE credential_id = @id`).run(params);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM cloud_credentials WHERE credential_id = ?').run(id);
  }

  // ------------------------------------------------------------------ sources

  source(id: string): SourceRow | undefined {
    return this.db.prepare('SELECT * FROM cloud_sources WHERE source_id = ?').get(id) as SourceRow | undefined;
  }

  sourcesOfRepository(repositoryId: string): SourceRow[] {
    return this.db.prepare('SELECT * FROM cloud_sources WHERE repository_id = ? ORDER BY created_at, source_id').all(repositoryId) as SourceRow[];
  }

  sourcesOfCredential(credentialId: string): SourceRow[] {
    return this.db.prepare('SELECT * FROM cloud_sources WHERE credential_id = ? ORDER BY created_at, source_id').all(credentialId) as SourceRow[];
  }

  sourceByScope(repositoryId: string, credentialId: string, scopeKey: string): SourceRow | undefined {
    return this.db.prepare('SELECT * FROM cloud_sources WHERE repository_id = ? AND credential_id = ? AND scope_key = ?').get(repositoryId, credentialId, scopeKey) as SourceRow | undefined;
  }

  insertSource(row: SourceRow): void {
    this.db
      .prepare(
        `INSERT INTO cloud_sources (source_id, repository_id, credential_id, owner_id, provider, remote_scope, scope_key, enabled, last_import_run_id, created_at, updated_at)
         VALUES (@source_id, @repository_id, @credential_id, @owner_id, @provider, @remote_scope, @scope_key, @enabled, @last_import_run_id, @created_at, @updated_at)`,
      )
      .run(row);
  }

  setLastRun(sourceId: string, runId: string, now: number): void {
    this.db.prepare('UPDATE cloud_sources SET last_import_run_id = ?, updated_at = ? WHERE source_id = ?').run(runId, now, sourceId);
  }

  /** The cursors of every source of a credential (removed with it: a new connection of the account starts over). */
  forgetCursorsOf(credentialId: string): void {
    this.db.prepare('DELETE FROM import_cursors WHERE source_key IN (SELECT source_id FROM cloud_sources WHERE credential_id = ?)').run(credentialId);
  }
}
