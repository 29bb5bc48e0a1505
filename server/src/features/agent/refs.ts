/**
 * Refs: what tools pass each other instead of data. A ref is an immutable, ordered snapshot of asset ids,
 * named `r<seq>` within its thread, scoped to the member and the thread (the reference's limits):
 * - at most 10,000 ids (more are cut, `truncated`);
 * - at most 64 per thread (the least recently used go first);
 * - kept 2 hours after their last use.
 * Ids enter a ref only through the access layer (the member may read each one), and are checked again each
 * time a ref is read, so a photo whose sharing ended since never comes back out of one.
 * `plan` is the envelope of the call that made it: a live pin replays it (pins.ts).
 */
import type { Access, PermittedAssetId } from '../../platform/access/index.ts';
import { NotFound } from '../../platform/http/errors.ts';
import type { AgentStore, RefRow } from './agent.store.ts';

export const REF_MAX_IDS = 10_000;
export const REF_MAX_PER_THREAD = 64;
export const REF_TTL_MS = 2 * 3600_000;

/** The producer plan a ref came from (`op` the tool; `payload` its arguments), in the reference's envelope. */
export interface Plan {
  schema_version: 1;
  tool_version: 'agent-tools/v1';
  op: string;
  payload: Record<string, unknown>;
  authorization_scope: { user_id: number };
  creation_policy_version: 1;
  parents: string[];
}

export interface Ref {
  ref_id: string;
  op: string;
  plan: Plan;
  ids: PermittedAssetId[];
  count: number;
  truncated: boolean;
  created_at: number;
}

/** The tools that make a ref from the library alone: a ref of one of these can be replayed (a live pin). */
export const PRODUCERS = new Set(['filter_assets', 'search_semantic', 'search_text', 'search_people', 'search_places', 'search_events']);

export function planOf(op: string, payload: Record<string, unknown>, userId: number, parents: string[] = []): Plan {
  return { schema_version: 1, tool_version: 'agent-tools/v1', op, payload, authorization_scope: { user_id: userId }, creation_policy_version: 1, parents };
}

export class RefBook {
  constructor(
    private readonly store: AgentStore,
    private readonly access: Access,
    private readonly userId: number,
    readonly threadId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new ref of the ids the member may read, in the order given (duplicates once). */
  create(op: string, plan: Plan, ids: readonly string[]): Ref {
    const permitted = this.access.permitted({ userId: this.userId }, 'asset', [...new Set(ids)], 'read');
    const truncated = permitted.length > REF_MAX_IDS;
    const kept = truncated ? permitted.slice(0, REF_MAX_IDS) : permitted;
    const now = this.now();
    const ref_id = `r${this.store.nextRefSeq(this.threadId)}`;
    this.store.insertRef({
      thread_id: this.threadId,
      ref_id,
      owner_id: this.userId,
      op,
      plan: JSON.stringify(plan),
      asset_ids: JSON.stringify(kept),
      count: kept.length,
      truncated: truncated ? 1 : 0,
      created_at: now,
      last_used_at: now,
      expires_at: now + REF_TTL_MS,
    });
    this.store.pruneRefs(this.threadId, REF_MAX_PER_THREAD, now);
    return { ref_id, op, plan, ids: kept, count: kept.length, truncated, created_at: now };
  }

  /** A ref of this thread (404 `agent_ref_not_found` when unknown, expired or another's); its ids re-checked. */
  get(refId: string): Ref {
    const row = this.store.ref(this.threadId, refId, this.userId, this.now());
    if (!row) throw new NotFound(`No such ref in this thread: ${refId}.`, 'agent_ref_not_found');
    this.store.touchRef(this.threadId, refId, this.now(), REF_TTL_MS);
    return refOfRow(row, this.access, this.userId);
  }
}

export function refOfRow(row: RefRow, access: Access, userId: number): Ref {
  const ids = access.permitted({ userId }, 'asset', JSON.parse(row.asset_ids) as string[], 'read');
  return { ref_id: row.ref_id, op: row.op, plan: JSON.parse(row.plan) as Plan, ids, count: ids.length, truncated: row.truncated === 1, created_at: row.created_at };
}
