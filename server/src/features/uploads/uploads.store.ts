/** SQL of the upload feature: sessions, receipts, and the read-only look-ups it needs elsewhere. */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { Problem } from '../../platform/http/problem.ts';
import type { AccessScope, PermittedReceiptId, PermittedUploadSessionId } from '../../platform/access/index.ts';

export type SessionStatus = 'pending' | 'uploading' | 'merging' | 'completed' | 'failed';
export type ReceiptStatus = 'uploading' | 'processing' | 'queued' | 'completed' | 'duplicate' | 'failed';
export const TERMINAL_RECEIPT: readonly ReceiptStatus[] = ['completed', 'duplicate', 'failed'];

export interface SessionRow {
  session_id: string;
  owner_id: number;
  repository_id: string;
  filename: string;
  content_type: string | null;
  total_size: number;
  total_chunks: number;
  /** Size of every chunk but the last; 0 until the client said it or the first chunk told. */
  chunk_size: number;
  received_chunks: string;
  bytes_received: number;
  client_hash: string | null;
  /** The file's modification time as the client said (createUploadSession's `last_modified`), for its asset. */
  file_modified_time: number | null;
  file_modified_offset_minutes: number | null;
  status: SessionStatus;
  problem: string | null;
  receipt_id: string | null;
  created_at: number;
  last_activity: number;
}

export interface ReceiptRow {
  receipt_id: string;
  owner_id: number;
  file_name: string;
  size: number | null;
  content_hash: string | null;
  asset_id: string | null;
  status: ReceiptStatus;
  problem: string | null;
  created_at: number;
  updated_at: number;
}

/** The problem object kept on receipts and sessions: what the client needs, nothing internal. */
export type StoredProblem = Pick<Problem, 'type' | 'title' | 'status' | 'detail' | 'code'> & { retryable: boolean };

export class UploadsStore {
  constructor(private readonly db: Db) {}

  // ------------------------------------------------------------------ repositories (read only)

  repository(id: string): { repository_id: string; path: string; status: string } | undefined {
    return this.db.prepare('SELECT repository_id, path, status FROM repositories WHERE repository_id = ?').get(id) as
      | { repository_id: string; path: string; status: string }
      | undefined;
  }

  allRepositories(): { repository_id: string; path: string }[] {
    return this.db.prepare('SELECT repository_id, path FROM repositories').all() as { repository_id: string; path: string }[];
  }

  // ------------------------------------------------------------------ receipts

  insertReceipt(r: Pick<ReceiptRow, 'receipt_id' | 'owner_id' | 'file_name' | 'size' | 'status'>, now: number): void {
    this.db
      .prepare(
        `INSERT INTO upload_receipts (receipt_id, owner_id, file_name, size, status, created_at, updated_at)
         VALUES (@receipt_id, @owner_id, @file_name, @size, @status, @now, @now)`,
      )
      .run({ ...r, now });
  }

  updateReceipt(
    receiptId: string,
    f: { status: ReceiptStatus; size?: number | null; content_hash?: string | null; asset_id?: string | null; problem?: StoredProblem | null; file_name?: string },
    now: number,
  ): void {
    this.db
      .prepare(
        `UPDATE upload_receipts SET status = @status,
           size = coalesce(@size, size), content_hash = coalesce(@content_hash, content_hash),
           asset_id = coalesce(@asset_id, asset_id), file_name = coalesce(@file_name, file_name),
           problem = @problem, updated_at = @now
         WHERE receipt_id = @id`,
      )
      .run({
        id: receiptId,
        status: f.status,
        size: f.size ?? null,
        content_hash: f.content_hash ?? null,
        asset_id: f.asset_id ?? null,
        file_name: f.file_name ?? null,
        problem: f.problem ? JSON.stringify(f.problem) : null,
        now,
      });
  }

  /** A receipt still `uploading` whose file became the asset `assetId`: from now on it follows its asset. */
  settleReceipt(receiptId: string, assetId: string, now: number): void {
    this.db
      .prepare(`UPDATE upload_receipts SET status = 'processing', asset_id = ?, problem = NULL, updated_at = ? WHERE receipt_id = ? AND status = 'uploading'`)
      .run(assetId, now, receiptId);
  }

  /**
   * The receipts of one asset in one of the `from` states take the state its processing reached (receipt-follower.ts):
   * a receipt that is already terminal otherwise (a duplicate, or settled before) stays as it is.
   */
  followAsset(assetId: string, from: readonly ReceiptStatus[], to: { status: ReceiptStatus; problem: StoredProblem | null }, now: number): void {
    prepared(
      this.db,
      `UPDATE upload_receipts SET status = @status, problem = @problem, updated_at = @now
       WHERE asset_id = @asset AND status IN (SELECT value FROM json_each(@from))`,
    ).run({ status: to.status, problem: to.problem ? JSON.stringify(to.problem) : null, now, asset: assetId, from: JSON.stringify(from) });
  }

  /** The receipts of these ids (checked by the access layer; unknown ones are not there to find). */
  receipts(ids: readonly PermittedReceiptId[]): ReceiptRow[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(`SELECT r.* FROM json_each(?) j CROSS JOIN upload_receipts r ON r.receipt_id = j.value`)
      .all(JSON.stringify(ids)) as ReceiptRow[];
  }

  /** Processing state of assets, for receipts whose pipeline result the receipt does not show yet. */
  assetStates(assetIds: readonly string[]): Map<string, string> {
    if (assetIds.length === 0) return new Map();
    const rows = this.db
      .prepare(`SELECT a.asset_id, a.state FROM assets a JOIN json_each(?) j ON j.value = a.asset_id`)
      .all(JSON.stringify(assetIds)) as { asset_id: string; state: string }[];
    return new Map(rows.map((r) => [r.asset_id, r.state]));
  }

  // ------------------------------------------------------------------ sessions

  session(id: string): SessionRow | undefined {
    return this.db.prepare('SELECT * FROM upload_sessions WHERE session_id = ?').get(id) as SessionRow | undefined;
  }

  insertSession(s: Omit<SessionRow, 'received_chunks' | 'bytes_received' | 'problem' | 'created_at' | 'last_activity'>, now: number): void {
    this.db
      .prepare(
        `INSERT INTO upload_sessions (session_id, owner_id, repository_id, filename, content_type, total_size, total_chunks,
           chunk_size, client_hash, file_modified_time, file_modified_offset_minutes, status, receipt_id, created_at, last_activity)
         VALUES (@session_id, @owner_id, @repository_id, @filename, @content_type, @total_size, @total_chunks,
           @chunk_size, @client_hash, @file_modified_time, @file_modified_offset_minutes, @status, @receipt_id, @now, @now)`,
      )
      .run({ ...s, now });
  }

  /** Records which chunks are on disk (and the chunk size once known); pending → uploading. */
  setSessionChunks(id: string, received: number[], bytes: number, chunkSize: number, now: number): void {
    this.db
      .prepare(
        `UPDATE upload_sessions SET received_chunks = ?, bytes_received = ?, chunk_size = ?, last_activity = ?,
           status = CASE WHEN status = 'pending' AND ? > 0 THEN 'uploading' ELSE status END
         WHERE session_id = ?`,
      )
      .run(JSON.stringify(received), bytes, chunkSize, now, received.length, id);
  }

  /** Sets the chunk size if still unknown; returns the size in force afterwards. */
  fixChunkSize(id: string, chunkSize: number): number {
    this.db.prepare('UPDATE upload_sessions SET chunk_size = ? WHERE session_id = ? AND chunk_size = 0').run(chunkSize, id);
    return (this.db.prepare('SELECT chunk_size FROM upload_sessions WHERE session_id = ?').get(id) as { chunk_size: number }).chunk_size;
  }

  touchSession(id: string, now: number): void {
    this.db.prepare('UPDATE upload_sessions SET last_activity = ? WHERE session_id = ?').run(now, id);
  }

  /** pending/uploading → merging, for exactly one caller. */
  claimMerge(id: string, now: number): boolean {
    return (
      this.db
        .prepare(`UPDATE upload_sessions SET status = 'merging', last_activity = ? WHERE session_id = ? AND status IN ('pending', 'uploading')`)
        .run(now, id).changes === 1
    );
  }

  finishSession(id: string, status: 'completed' | 'failed' | 'uploading', problem: StoredProblem | null, now: number): void {
    this.db
      .prepare('UPDATE upload_sessions SET status = ?, problem = ?, last_activity = ? WHERE session_id = ?')
      .run(status, problem ? JSON.stringify(problem) : null, now, id);
  }

  /** The sessions of these ids (checked by the access layer), oldest first. */
  sessions(ids: readonly PermittedUploadSessionId[]): SessionRow[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(`SELECT s.* FROM json_each(?) j CROSS JOIN upload_sessions s ON s.session_id = j.value ORDER BY s.created_at`)
      .all(JSON.stringify(ids)) as SessionRow[];
  }

  /** The sessions in `scope` that are active or were touched since `since`, oldest first (at most 1000). */
  recentSessions(scope: AccessScope<'upload_session'>, since: number): SessionRow[] {
    return this.db
      .prepare(
        `SELECT * FROM upload_sessions s WHERE ${scope.sql} AND (s.status IN ('pending', 'uploading', 'merging') OR s.last_activity >= @since)
         ORDER BY s.created_at LIMIT 1000`,
      )
      .all({ ...scope.params, since }) as SessionRow[];
  }

  /** Sessions a crash left merging go back to uploading (their chunks are still staged). */
  resetInterruptedMerges(now: number): number {
    return this.db.prepare(`UPDATE upload_sessions SET status = 'uploading', last_activity = ? WHERE status = 'merging'`).run(now).changes;
  }

  idleSessions(before: number): SessionRow[] {
    return this.db
      .prepare(`SELECT * FROM upload_sessions WHERE status IN ('pending', 'uploading') AND last_activity < ?`)
      .all(before) as SessionRow[];
  }

  /** Session ids of a repository whose staged chunks must be kept. */
  liveSessionIds(repositoryId: string): Set<string> {
    const rows = this.db
      .prepare(`SELECT session_id FROM upload_sessions WHERE repository_id = ? AND status IN ('pending', 'uploading', 'merging')`)
      .all(repositoryId) as { session_id: string }[];
    return new Set(rows.map((r) => r.session_id));
  }

  // ------------------------------------------------------------------ precheck

  /** The live assets in `scope` with this content (hash + size), optionally in one repository. */
  assetsByHash(
    scope: AccessScope<'asset'>,
    files: readonly { hash: string; size: number }[],
    repositoryId?: string,
  ): Map<string, { asset_id: string; original_filename: string }> {
    const out = new Map<string, { asset_id: string; original_filename: string }>();
    const stmt = this.db.prepare(
      `SELECT a.asset_id, a.original_filename FROM assets a
       WHERE a.repository_id IN (SELECT repository_id FROM repositories WHERE @repo IS NULL OR repository_id = @repo)
         AND a.hash = @hash AND a.file_size = @size AND ${scope.sql} AND a.is_deleted = 0
       ORDER BY a.asset_id LIMIT 1`,
    ); // the IN on the leading column lets SQLite use assets_hash (repository_id, hash, file_size)
    for (const f of files) {
      const row = stmt.get({ ...scope.params, repo: repositoryId ?? null, hash: f.hash, size: f.size }) as
        | { asset_id: string; original_filename: string }
        | undefined;
      if (row) out.set(`${f.hash}:${f.size}`, row);
    }
    return out;
  }
}
