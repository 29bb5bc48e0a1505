/** SQL of host actions. No rules here (host-actions.service.ts decides; the access layer scopes lists). */
import type { AccessScope } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';

export type HostActionStatus = 'pending' | 'presented' | 'running' | 'needs_decision' | 'completed' | 'failed' | 'cancelled' | 'expired';
export type CancelReason = 'member_cancelled' | 'host_denied';

export interface HostActionRow {
  action_id: string;
  owner_id: number;
  idempotency_key: string;
  request_hash: string;
  kind: 'open_repository';
  name: string;
  purpose: string;
  code: string;
  status: HostActionStatus;
  version: number;
  request_id: string | null;
  expected_version: number | null;
  /** The folder the person at the home machine chose. Server-side only: never put into an answer. */
  host_path: string | null;
  conflict: string | null;
  problem: string | null;
  cancel_reason: CancelReason | null;
  repository_id: string | null;
  root_id: string | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

/** A row with who asked (read from the accounts, for the answers and the person at the home machine). */
export interface HostActionRecord extends HostActionRow {
  username: string;
  display_name: string;
  owner_role: 'admin' | 'user';
}

/** What a transition may set besides the status (version and updated_at are bumped by `transition`). */
export type HostActionChange = Partial<
  Pick<HostActionRow, 'host_path' | 'conflict' | 'problem' | 'cancel_reason' | 'repository_id' | 'root_id' | 'expires_at' | 'completed_at' | 'request_id' | 'expected_version'>
>;

/** Statuses in which an action waits for someone (and so can expire). */
export const WAITING: readonly HostActionStatus[] = ['pending', 'presented', 'needs_decision'];

const SELECT = 'SELECT h.*, u.username, u.display_name, u.role AS owner_role FROM host_actions h JOIN users u ON u.user_id = h.owner_id';

export class HostActionsStore {
  constructor(private readonly db: Db) {}

  insert(row: HostActionRow): void {
    this.db
      .prepare(
        `INSERT INTO host_actions (action_id, owner_id, idempotency_key, request_hash, kind, name, purpose, code, status, version, request_id,
           expected_version, host_path, conflict, problem, cancel_reason, repository_id, root_id, expires_at, created_at, updated_at, completed_at)
         VALUES (@action_id, @owner_id, @idempotency_key, @request_hash, @kind, @name, @purpose, @code, @status, @version, @request_id,
           @expected_version, @host_path, @conflict, @problem, @cancel_reason, @repository_id, @root_id, @expires_at, @created_at, @updated_at, @completed_at)`,
      )
      .run(row);
  }

  byId(id: string): HostActionRecord | undefined {
    return this.db.prepare(`${SELECT} WHERE h.action_id = ?`).get(id) as HostActionRecord | undefined;
  }

  byKey(ownerId: number, key: string): HostActionRecord | undefined {
    return this.db.prepare(`${SELECT} WHERE h.owner_id = ? AND h.idempotency_key = ?`).get(ownerId, key) as HostActionRecord | undefined;
  }

  /** Newest first: the rows `scope` permits (a member's own), or every row (`scope` null: an administrator's list). */
  list(scope: AccessScope<'host_action'> | null, f: { statuses: readonly HostActionStatus[] | null; limit: number }): HostActionRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: f.limit };
    if (scope) {
      where.push(scope.sql);
      Object.assign(params, scope.params);
    }
    if (f.statuses) {
      where.push('h.status IN (SELECT value FROM json_each(@statuses))');
      params.statuses = JSON.stringify(f.statuses);
    }
    return this.db
      .prepare(`${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY h.created_at DESC, h.action_id LIMIT @limit`)
      .all(params) as HostActionRecord[];
  }

  /**
   * Moves an action from one of `from` to `to`, bumping its version; false when it was not in one of `from`
   * any more (someone else moved it first), so two transitions never both win.
   */
  transition(id: string, from: readonly HostActionStatus[], to: HostActionStatus, change: HostActionChange, now: number): boolean {
    const sets = ['status = @to', 'version = version + 1', 'updated_at = @now'];
    const params: Record<string, unknown> = { id, to, now, from: JSON.stringify(from) };
    for (const [k, v] of Object.entries(change)) {
      sets.push(`${k} = @${k}`);
      params[k] = v;
    }
    return (
      this.db
        .prepare(`UPDATE host_actions SET ${sets.join(', ')} WHERE action_id = @id AND status IN (SELECT value FROM json_each(@from))`)
        .run(params).changes === 1
    );
  }

  /** The ids of waiting actions whose time is up (the sweep and every read expire them). */
  dueIds(now: number): string[] {
    return this.db
      .prepare(`SELECT action_id FROM host_actions WHERE status IN (SELECT value FROM json_each(@waiting)) AND expires_at <= @now`)
      .pluck()
      .all({ waiting: JSON.stringify(WAITING), now }) as string[];
  }
}
