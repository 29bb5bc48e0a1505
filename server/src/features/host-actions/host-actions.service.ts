/**
 * Host actions: a member asks the home machine to do what only it can (the contract's `open_repository`:
 * add a folder there as a repository); the person at that machine approves it with the folder of their
 * choice, through the host channel only (host-channel.server.ts, approval.ts). A path never crosses the
 * network: requests carry none, answers and events show none.
 *
 * States (the contract shows `pending`; the rest are decided here):
 *
 *   pending ──(the home machine lists it)──▶ presented ──(approved with a folder)──▶ running
 *   running ──▶ completed                    (the folder is a repository now: result.repository_id)
 *   running ──▶ needs_decision               (a conflict: result.conflict; decideHostActionRecovery)
 *   needs_decision ──(relocate, add_separate)──▶ running ──▶ completed | failed | needs_decision (it changed)
 *   running ──▶ failed                       (registering failed; problem, retryable; nothing registered)
 *   pending, presented, needs_decision ──▶ cancelled  (cancelHostAction, the `cancel` resolution: cancel_reason
 *                                                      `member_cancelled`; denied at the home machine: `host_denied`)
 *   pending, presented, needs_decision ──▶ expired    (expires_at passed)
 *   failed, expired, cancelled ──(retryHostAction)──▶ pending (presented again, fresh expires_at, same code)
 *
 * - `version` starts at 1 and bumps on every change. `expected_version`: on create, 0 (or absent) means "no
 *   action under this key yet"; on cancel, retry and decide, the version the member saw. Another value is
 *   409 `stale_version`. `request_id`: a changing request whose id is the one that last changed the action is a
 *   repeat and is answered with the action as it is (nothing done twice).
 * - Expiry: 15 minutes for the home machine to answer (PENDING_TTL_MS, again after a retry), 24 hours for a
 *   member to settle a conflict (DECISION_TTL_MS). Enforced by every read and by a sweep every 30 s.
 * - Idempotency-Key: one action per member and key. The same key with the same body answers the original
 *   action (200), whatever became of it; with another body, 422 `idempotency_key_reused`.
 * - `code`: 6 random digits, shown in the member's answers and beside the request on the home machine, so the
 *   person there can tell which request they approve.
 * - Access: a member sees and acts on their own actions only (platform/access, kind `host_action`); another's
 *   is 404. An administrator's list (and live stream) holds every member's actions, but an administrator
 *   opens and acts only on their own, as with cloud connections.
 */
import crypto from 'node:crypto';
import type { Access } from '../../platform/access/index.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Invalid } from '../../platform/http/errors.ts';
import type { HostApproval } from './approval.ts';
import type { HostActionRecord, HostActionStatus } from './host-actions.store.ts';
import { toHostActionView, type HostActionConflict, type HostActionView, type Resolution } from './host-actions.view.ts';
import { PENDING_TTL_MS, type HostActionLifecycle, type Precondition } from './lifecycle.ts';

export interface CreateHostActionInput {
  kind: 'open_repository';
  name: string;
  purpose: HostActionView['purpose'];
  request_id?: string | undefined;
  expected_version?: number | undefined;
}

export interface DecisionInput extends Precondition {
  resolution: Resolution;
}

/** The sweep's period: an action is expired at most this long after its time (reads expire it at once). */
export const SWEEP_MS = 30_000;

export class HostActionsService {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly access: Access,
    private readonly lifecycle: HostActionLifecycle,
    /** The home machine's side (the host channel's handlers use it directly). */
    readonly host: HostApproval,
  ) {}

  /** The live feed of changes (the members' stream and the host channel's subscribe). */
  get events() {
    return this.lifecycle.events;
  }

  list(actor: Actor, q: { status?: HostActionStatus | undefined; limit: number }): HostActionView[] {
    this.lifecycle.expireDue();
    const scope = actor.role === 'admin' ? null : this.access.scope(actor, 'host_action', 'read', 'h');
    return this.lifecycle.store.list(scope, { statuses: q.status ? [q.status] : null, limit: q.limit }).map(toHostActionView);
  }

  get(actor: Actor, id: string): HostActionView {
    return toHostActionView(this.mine(actor, id, 'read'));
  }

  create(actor: Actor, key: string, input: CreateHostActionInput): { created: boolean; action: HostActionView } {
    const { store, now } = this.lifecycle;
    const hash = requestHash(input);
    const existing = store.byKey(actor.userId, key);
    if (existing) {
      if (existing.request_hash !== hash) {
        throw new Invalid(
          'This Idempotency-Key was used for another request: send a new key for a new request.',
          [{ field: 'header.idempotency-key', message: 'used for another request', code: 'idempotency_key_reused' }],
          'idempotency_key_reused',
        );
      }
      this.lifecycle.expireDue();
      return { created: false, action: toHostActionView(store.byId(existing.action_id)!) };
    }
    if (input.expected_version !== undefined && input.expected_version !== 0) {
      throw new DomainError(409, 'stale_version', `No action exists under this Idempotency-Key yet (version 0), you sent ${input.expected_version}.`);
    }
    const id = crypto.randomUUID();
    const at = now();
    store.insert({
      action_id: id,
      owner_id: actor.userId,
      idempotency_key: key,
      request_hash: hash,
      kind: input.kind,
      name: input.name,
      purpose: input.purpose,
      code: String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'),
      status: 'pending',
      version: 1,
      request_id: input.request_id ?? null,
      expected_version: input.expected_version ?? null,
      host_path: null,
      conflict: null,
      problem: null,
      cancel_reason: null,
      repository_id: null,
      root_id: null,
      expires_at: at + PENDING_TTL_MS,
      created_at: at,
      updated_at: at,
      completed_at: null,
    });
    const row = store.byId(id)!;
    this.lifecycle.events.publish(row);
    return { created: true, action: toHostActionView(row) };
  }

  /** Cancels a waiting action; cancelling a cancelled one answers it as it is. */
  cancel(actor: Actor, id: string, p: Precondition): HostActionView {
    const row = this.mine(actor, id, 'change');
    if (this.lifecycle.isReplay(row, p) || row.status === 'cancelled') return toHostActionView(row);
    this.lifecycle.checkVersion(row, p);
    if (!['pending', 'presented', 'needs_decision'].includes(row.status)) {
      throw new Conflict(`This action is ${row.status.replace('_', ' ')}: only a waiting action can be cancelled.`, 'host_action_not_cancellable');
    }
    return toHostActionView(this.cancelled(row, p));
  }

  /** Presents a failed, expired or cancelled action on the home machine again (a fresh expiry, the same code). */
  retry(actor: Actor, id: string, p: Precondition): HostActionView {
    const row = this.mine(actor, id, 'change');
    if (this.lifecycle.isReplay(row, p)) return toHostActionView(row);
    this.lifecycle.checkVersion(row, p);
    const from: HostActionStatus[] = ['failed', 'expired', 'cancelled'];
    if (!from.includes(row.status)) throw new Conflict(`This action is ${row.status.replace('_', ' ')}: only a failed, expired or cancelled action can be asked again.`, 'host_action_not_retryable');
    const { now } = this.lifecycle;
    return toHostActionView(
      this.lifecycle.move(row.action_id, from, 'pending', {
        ...this.lifecycle.stamp(p),
        expires_at: now() + PENDING_TTL_MS,
        host_path: null,
        conflict: null,
        problem: null,
        cancel_reason: null,
        completed_at: null,
      }),
    );
  }

  /** Settles a conflict with one of the resolutions it allows (approval.ts carries it out). */
  decide(actor: Actor, id: string, d: DecisionInput): HostActionView {
    const row = this.mine(actor, id, 'change');
    if (this.lifecycle.isReplay(row, d)) return toHostActionView(row);
    this.lifecycle.checkVersion(row, d);
    if (row.status !== 'needs_decision') throw new Conflict(`This action is ${row.status.replace('_', ' ')}: there is no conflict to decide.`, 'host_action_not_awaiting_decision');
    const conflict = JSON.parse(row.conflict!) as HostActionConflict;
    if (!conflict.allowed_resolutions.includes(d.resolution)) {
      throw new Invalid(
        `This conflict allows ${conflict.allowed_resolutions.join(', ')}, not ${d.resolution}.`,
        [{ field: 'body.resolution', message: `one of ${conflict.allowed_resolutions.join(', ')}`, code: 'resolution_not_allowed' }],
        'resolution_not_allowed',
      );
    }
    if (d.resolution === 'cancel') return toHostActionView(this.cancelled(row, d));
    return toHostActionView(this.host.carryOut(row, d.resolution, this.lifecycle.stamp(d)));
  }

  /** Expires what is due now (the sweep). */
  sweep(): number {
    return this.lifecycle.expireDue();
  }

  startSweeper(periodMs = SWEEP_MS): void {
    this.sweeper ??= setInterval(() => this.sweep(), periodMs);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /**
   * Follows the actions `actor` may read: `send` gets each one's view when it changes, until `signal` aborts.
   * A member's own; an administrator's, everyone's (as the list).
   */
  async watch(actor: Actor, send: (view: HostActionView) => Promise<void>, signal: AbortSignal): Promise<void> {
    const mayRead = (row: HostActionRecord) => actor.role === 'admin' || this.access.permitted(actor, 'host_action', [row.action_id], 'read').length === 1;
    let chain = Promise.resolve();
    const off = this.events.on((row) => {
      if (mayRead(row)) chain = chain.then(() => send(toHostActionView(row))).catch(() => undefined);
    });
    try {
      await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    } finally {
      off();
    }
  }

  private cancelled(row: HostActionRecord, p: Precondition): HostActionRecord {
    return this.lifecycle.move(row.action_id, ['pending', 'presented', 'needs_decision'], 'cancelled', {
      ...this.lifecycle.stamp(p),
      cancel_reason: 'member_cancelled',
      completed_at: this.lifecycle.now(),
    });
  }

  /** The actor's own action (expired first if due), or 404 exactly as if it did not exist. */
  private mine(actor: Actor, id: string, permission: 'read' | 'change'): HostActionRecord {
    this.access.require(actor, 'host_action', id, permission);
    return this.lifecycle.load(id);
  }
}

/** The request a key stands for: the body's fields, in a fixed order. */
function requestHash(i: CreateHostActionInput): string {
  const canonical = JSON.stringify([i.kind, i.name, i.purpose, i.request_id ?? null, i.expected_version ?? null]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}
