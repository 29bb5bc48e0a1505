/**
 * The home machine's side of host actions, reached only through the host channel (host-channel.server.ts),
 * and the carrying out of a member's decision on a conflict. This is the only code that sees the folder's
 * path: it takes it from the person at the home machine, keeps it in the action's row (`host_path`), hands
 * it to the repositories feature's one door (open, relocate) and never puts it into an answer, an event,
 * a problem or a log line above debug.
 *
 * Approving: the folder is checked first (absolute, exists, a folder, readable, no symbolic link loop,
 * not Hearth's data folder nor inside nor around it, a marker that reads if it has one); a refusal there
 * is a 422 to the person and leaves the action as it was (they may choose another folder). Then the action
 * runs: a folder in the way of a repository (or a risky one) makes it `needs_decision` with
 * `result.conflict`; a free folder is registered (a marker written when it has none) and the action is
 * `completed`; a failure of the registration itself makes it `failed` (retryable), nothing registered.
 *
 * Conflicts and what each allows (decided here, the contract is silent):
 * - `already_registered` (the very folder of a repository): `cancel` only; there is nothing to add.
 * - `moved_or_copied` (its marker names a registered repository found elsewhere): `relocate` (it moved:
 *   repoint that repository, its photos keep their ids; never the primary one), `add_separate` (it is a
 *   copy: its marker gets a new id and it becomes a repository of its own), `cancel`. Hearth never guesses
 *   which; `original_still_present` warns when the registered one is still at its place.
 * - `inside_repository`, `contains_repository`: `cancel` only. A file belongs to one repository: adding
 *   a nested folder separately would catalogue its files twice, so it is never safe.
 * - `risky_folder` (nothing in the way, but a system folder or a very large tree): `add_separate` (add it
 *   anyway) or `cancel`.
 */
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Invalid } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { resolveFolder, type FolderPlacement, type RepositoriesService } from '../repositories/index.ts';
import { assertOutsideDataFolder, riskWarnings, type RiskOptions } from './folder-risks.ts';
import { WAITING, type HostActionRecord } from './host-actions.store.ts';
import { toHostView, type HostActionConflict, type HostActionForHost, type HostActionProblem, type Resolution, type RiskWarning } from './host-actions.view.ts';
import { DECISION_TTL_MS, type HostActionLifecycle } from './lifecycle.ts';

export type RepositoryDoor = Pick<RepositoriesService, 'placementOf' | 'open' | 'relocate' | 'view'>;

export interface ApprovalDeps {
  lifecycle: HostActionLifecycle;
  repositories: RepositoryDoor;
  dataDir: string;
  risks: RiskOptions;
  log: Logger;
}

/** The member who asked, as the repositories feature takes a caller (for its log and the first scan's requester). */
function askedBy(row: HostActionRecord): Actor {
  return { userId: row.owner_id, username: row.username, role: row.owner_role, sessionId: 'host-action', via: 'bearer' };
}

export class HostApproval {
  /** The bounds of the risk checks (folder-risks.ts); a test may lower `largeTreeEntries` to make a small tree "very large". */
  readonly risks: RiskOptions;

  constructor(private readonly d: ApprovalDeps) {
    this.risks = { ...d.risks };
  }

  /**
   * The actions of `status` (without one: those waiting, i.e. pending, presented or needing a decision),
   * oldest first; reading them moves `pending` ones to `presented`.
   */
  list(status: HostActionRecord['status'] | undefined): HostActionForHost[] {
    const { lifecycle } = this.d;
    lifecycle.expireDue();
    const rows = lifecycle.store.list(null, { statuses: status ? [status] : WAITING, limit: 200 }).reverse();
    return rows.map((r) => toHostView(r.status === 'pending' ? lifecycle.move(r.action_id, ['pending'], 'presented') : r));
  }

  get(id: string): HostActionForHost {
    return toHostView(this.d.lifecycle.load(id));
  }

  /** The person at the home machine chose `requested` for the action: see the header for what follows. */
  approve(id: string, requested: unknown): HostActionForHost {
    const { lifecycle } = this.d;
    const row = lifecycle.load(id);
    this.assertOpen(row);
    if (typeof requested !== 'string' || requested.trim() === '') throw new Invalid('Send the folder as `path`.', [{ field: 'path', message: 'is required' }], 'path_required');
    if (!isAbsolute(requested)) throw new Invalid("Give the folder's absolute path.", [{ field: 'path', message: 'must be an absolute path' }], 'path_not_absolute');
    const dir = resolveFolder(requested);
    assertOutsideDataFolder(dir, this.d.dataDir);
    const placement = this.d.repositories.placementOf(dir);
    const risks = riskWarnings(dir, this.risks);
    const running = lifecycle.move(id, ['pending', 'presented'], 'running', { host_path: dir });
    this.d.log.debug({ action_id: id, path: dir }, 'host action approved');
    return toHostView(this.settle(running, dir, placement, risks, null));
  }

  /**
   * At start: actions a stop left `running` (the process ended between the approval and its answer). Approval
   * runs synchronously, so the folder either became a repository before the stop or nothing was registered: when
   * the folder is a repository now, the action is completed with it; otherwise it failed (retryable: the member
   * asks again, or the home machine approves again after a retry). Never left `running` for ever.
   */
  recoverInterrupted(): number {
    const { lifecycle } = this.d;
    const rows = lifecycle.store.list(null, { statuses: ['running'], limit: 1000 });
    for (const row of rows) {
      let placement: FolderPlacement | null = null;
      try {
        placement = row.host_path ? this.d.repositories.placementOf(resolveFolder(row.host_path)) : null;
      } catch {
        placement = null; // the folder is gone or unreadable: nothing to complete with
      }
      if (placement?.kind === 'same_folder') {
        const repo = placement.repository;
        const rootId = this.d.repositories.view(askedBy(row), repo.repository_id).root_id;
        lifecycle.move(row.action_id, ['running'], 'completed', { repository_id: repo.repository_id, root_id: rootId, conflict: null, completed_at: lifecycle.now() });
      } else {
        const problem: HostActionProblem = { code: 'host_action_interrupted', detail: 'Hearth stopped while adding the folder, and nothing was added. Ask again to retry.', retryable: true };
        lifecycle.move(row.action_id, ['running'], 'failed', { problem: JSON.stringify(problem), completed_at: lifecycle.now() });
      }
    }
    return rows.length;
  }

  /** The person at the home machine refused the action. */
  deny(id: string): HostActionForHost {
    const row = this.d.lifecycle.load(id);
    this.assertOpen(row, true);
    return toHostView(this.d.lifecycle.move(id, ['pending', 'presented', 'needs_decision'], 'cancelled', { cancel_reason: 'host_denied', completed_at: this.d.lifecycle.now() }));
  }

  /**
   * Carries out a member's decision on a conflict (host-actions.service.ts checked who asks, the version and
   * that the resolution is allowed). The folder is looked at again: when what is in the way changed meanwhile,
   * the action asks again with the new conflict instead of acting on the old one.
   */
  carryOut(row: HostActionRecord, resolution: Exclude<Resolution, 'cancel'>, stamp: object): HostActionRecord {
    const { lifecycle } = this.d;
    const running = lifecycle.move(row.action_id, ['needs_decision'], 'running', stamp);
    let dir: string;
    let placement: FolderPlacement;
    try {
      dir = resolveFolder(row.host_path!);
      placement = this.d.repositories.placementOf(dir);
    } catch (e) {
      return this.fail(running, e);
    }
    return this.settle(running, dir, placement, riskWarnings(dir, this.risks), { resolution, previous: JSON.parse(row.conflict!) as HostActionConflict });
  }

  /** From `running`: a conflict to decide, or the folder registered (or relocated), or failed. */
  private settle(running: HostActionRecord, dir: string, placement: FolderPlacement, risks: RiskWarning[], decision: { resolution: Exclude<Resolution, 'cancel'>; previous: HostActionConflict } | null): HostActionRecord {
    const { lifecycle } = this.d;
    const conflict = this.conflictFor(running, placement, risks);
    const decided = decision && conflict && conflict.type === decision.previous.type && conflict.repository_id === decision.previous.repository_id && conflict.allowed_resolutions.includes(decision.resolution);
    if (conflict && !decided) {
      return lifecycle.move(running.action_id, ['running'], 'needs_decision', { conflict: JSON.stringify(conflict), expires_at: lifecycle.now() + DECISION_TTL_MS });
    }
    try {
      const actor = askedBy(running);
      const repo =
        decision?.resolution === 'relocate' && placement.kind === 'copy_of'
          ? this.d.repositories.relocate(actor, placement.repository.repository_id, dir)
          : this.d.repositories.open(actor, { dir, name: running.name, defaultOwnerId: running.owner_id, freshIdentity: placement.kind === 'copy_of' });
      const rootId = this.d.repositories.view(actor, repo.repository_id).root_id;
      return lifecycle.move(running.action_id, ['running'], 'completed', { repository_id: repo.repository_id, root_id: rootId, conflict: null, completed_at: lifecycle.now() });
    } catch (e) {
      return this.fail(running, e);
    }
  }

  private fail(running: HostActionRecord, e: unknown): HostActionRecord {
    // Problems of the repositories feature name no path (only repositories by name): they may be shown.
    const problem: HostActionProblem =
      e instanceof DomainError
        ? { code: e.code, detail: e.message, retryable: true }
        : { code: 'registration_failed', detail: 'The folder could not be added (the server logged why). Ask again to retry.', retryable: true };
    if (!(e instanceof DomainError)) this.d.log.error({ err: e, action_id: running.action_id }, 'host action failed');
    return this.d.lifecycle.move(running.action_id, ['running'], 'failed', { problem: JSON.stringify(problem), completed_at: this.d.lifecycle.now() });
  }

  private conflictFor(row: HostActionRecord, p: FolderPlacement, risks: RiskWarning[]): HostActionConflict | null {
    const rootOf = (id: string) => this.d.repositories.view(askedBy(row), id).root_id;
    switch (p.kind) {
      case 'same_folder':
        return { type: 'already_registered', repository_id: p.repository.repository_id, root_id: rootOf(p.repository.repository_id), allowed_resolutions: ['cancel'], risk_warnings: risks };
      case 'copy_of':
        return {
          type: 'moved_or_copied',
          repository_id: p.repository.repository_id,
          root_id: rootOf(p.repository.repository_id),
          allowed_resolutions: p.repository.role === 'primary' ? ['add_separate', 'cancel'] : ['relocate', 'add_separate', 'cancel'],
          risk_warnings: p.originalPresent ? [...risks, 'original_still_present'] : risks,
        };
      case 'inside':
      case 'contains':
        return { type: p.kind === 'inside' ? 'inside_repository' : 'contains_repository', repository_id: p.repository.repository_id, root_id: rootOf(p.repository.repository_id), allowed_resolutions: ['cancel'], risk_warnings: risks };
      case 'free':
        return risks.some((r) => r === 'system_folder' || r === 'very_large_tree') ? { type: 'risky_folder', repository_id: null, root_id: null, allowed_resolutions: ['add_separate', 'cancel'], risk_warnings: risks } : null;
    }
  }

  /** 409 unless the action still waits for the home machine (or, for a denial, for anyone). */
  private assertOpen(row: HostActionRecord, denying = false): void {
    const why: Partial<Record<HostActionRecord['status'], [string, string]>> = {
      expired: ['host_action_expired', 'This request expired: the member can ask again.'],
      cancelled: ['host_action_cancelled', 'This request was cancelled.'],
      completed: ['host_action_finished', 'This request is done already.'],
      failed: ['host_action_finished', 'This request failed: the member can ask again.'],
      running: ['host_action_busy', 'This request is being carried out.'],
      ...(denying ? {} : { needs_decision: ['host_action_awaiting_decision', 'This request waits for the member to settle a conflict.'] as [string, string] }),
    };
    const refusal = why[row.status];
    if (refusal) throw new Conflict(refusal[1], refusal[0]);
  }
}

/** Absolute on this machine: `/…`, or on Windows `C:\…` or `\\server\share…`. */
function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[a-z]:[\\/]/i.test(p) || p.startsWith('\\\\');
}
