/**
 * The moves of a host action, shared by the members' side (host-actions.service.ts) and the home
 * machine's side (approval.ts): each move is one guarded UPDATE (from the statuses it may leave, version
 * bumped), then published live (host-action-events.ts). Also expiry, the version check and the replay of
 * a repeated `request_id`.
 */
import { Conflict, DomainError, NotFound } from '../../platform/http/errors.ts';
import type { HostActionEvents } from './host-action-events.ts';
import { WAITING, type HostActionChange, type HostActionRecord, type HostActionStatus, type HostActionsStore } from './host-actions.store.ts';

/** How long a new (or retried) action waits for the person at the home machine: 15 minutes. */
export const PENDING_TTL_MS = 15 * 60_000;
/** How long an action with a conflict waits for the member's decision: 24 hours (they may be away from the app). */
export const DECISION_TTL_MS = 24 * 60 * 60_000;

/** What a member's changing request may carry: an id to make a repeat harmless, the version it saw. */
export interface Precondition {
  request_id?: string | undefined;
  expected_version?: number | undefined;
}

export class HostActionLifecycle {
  constructor(
    readonly store: HostActionsStore,
    readonly events: HostActionEvents,
    readonly now: () => number,
  ) {}

  /** Moves the action (from one of `from`) to `to`, publishes it, and answers the new row. */
  move(id: string, from: readonly HostActionStatus[], to: HostActionStatus, change: HostActionChange = {}): HostActionRecord {
    if (!this.store.transition(id, from, to, change, this.now())) {
      throw new Conflict('This action changed meanwhile: read it again.', 'host_action_changed');
    }
    const row = this.store.byId(id)!;
    this.events.publish(row);
    return row;
  }

  /** Expires every waiting action whose time is up (the sweep, and every read first); answers how many. */
  expireDue(): number {
    let n = 0;
    for (const id of this.store.dueIds(this.now())) {
      if (this.store.transition(id, WAITING, 'expired', { completed_at: this.now() }, this.now())) {
        n++;
        this.events.publish(this.store.byId(id)!);
      }
    }
    return n;
  }

  /** The action (expired first if its time is up), or 404. Callers that answer a member check access first. */
  load(id: string): HostActionRecord {
    this.expireDue();
    const row = this.store.byId(id);
    if (!row) throw new NotFound('No such host action.', 'host_action_not_found');
    return row;
  }

  /** A repeat of the request that last changed the action: answered with the action as it is, changing nothing. */
  isReplay(row: HostActionRecord, p: Precondition): boolean {
    return p.request_id !== undefined && row.request_id === p.request_id;
  }

  /** 409 `stale_version` when the member saw another version than the action's. */
  checkVersion(row: HostActionRecord, p: Precondition): void {
    if (p.expected_version !== undefined && p.expected_version !== row.version) {
      throw new DomainError(409, 'stale_version', `This action changed since you read it (it is at version ${row.version}, you sent ${p.expected_version}): read it again.`);
    }
  }

  /** The precondition's own fields, to record with the change it made. */
  stamp(p: Precondition): HostActionChange {
    return { request_id: p.request_id ?? null, expected_version: p.expected_version ?? null };
  }
}
