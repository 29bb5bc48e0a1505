/**
 * The assistant's tables (migration 0038): threads, messages, runs, refs, effects and pins. Only SQL here;
 * who may read which row is decided before a call (the access layer's `agent_*` kinds), and every method
 * that takes an owner also filters by it, so a row of another member is never read by mistake.
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';

export type AgentMode = 'free' | 'review' | 'organize' | 'analyze' | 'curate';
export type ThreadStatus = 'active' | 'awaiting_confirmation' | 'completed' | 'cancelled' | 'failed';
export type RunStatus = 'running' | 'cancel_requested' | 'awaiting_confirmation' | 'cancelled' | 'completed' | 'failed';
export type EffectStatus = 'pending' | 'committed' | 'rejected' | 'cancelled' | 'failed';
export type Widget = 'cover_card' | 'number_card' | 'spark_card' | 'mosaic_card';

export interface ThreadRow {
  thread_id: string;
  owner_id: number;
  title: string;
  mode: AgentMode;
  status: ThreadStatus;
  created_at: number;
  updated_at: number;
}

export interface MessageRow {
  message_id: number;
  thread_id: string;
  run_id: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  created_at: number;
}

export interface RunRow {
  run_id: string;
  thread_id: string;
  owner_id: number;
  status: RunStatus;
  mode: AgentMode;
  /** The IANA zone the run's request was read in (dates in a continuation after a confirmation read the same). */
  time_zone: string;
  error: string | null;
  created_at: number;
  updated_at: number;
  /** The mentions the request resolved (JSON of ResolvedMention[]; written after the run starts, '[]' until then). */
  mentions?: string;
}

export interface RefRow {
  thread_id: string;
  ref_id: string;
  owner_id: number;
  op: string;
  plan: string;
  asset_ids: string;
  count: number;
  truncated: number;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

export interface EffectRow {
  effect_id: string;
  thread_id: string;
  run_id: string;
  owner_id: number;
  effect_key: string;
  tool_name: string;
  payload: string;
  asset_ids: string;
  status: EffectStatus;
  receipt: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface PinRow {
  pin_id: string;
  owner_id: number;
  thread_id: string | null;
  ref_id: string | null;
  title: string;
  widget: Widget;
  mode: 'live' | 'frozen';
  op: string;
  plan: string;
  asset_ids: string;
  count: number;
  truncated: number;
  layout_x: number;
  layout_y: number;
  layout_w: number;
  layout_h: number;
  last_successful_refresh_at: number | null;
  created_at: number;
  seq: number;
}

export class AgentStore {
  constructor(readonly db: Db) {}

  // ------------------------------------------------------------------ threads and messages

  insertThread(t: ThreadRow): void {
    this.db
      .prepare('INSERT INTO agent_threads (thread_id, owner_id, title, mode, status, created_at, updated_at) VALUES (@thread_id, @owner_id, @title, @mode, @status, @created_at, @updated_at)')
      .run(t);
  }

  thread(threadId: string, ownerId: number): ThreadRow | undefined {
    return prepared(this.db, 'SELECT * FROM agent_threads WHERE thread_id = ? AND owner_id = ?').get(threadId, ownerId) as ThreadRow | undefined;
  }

  /** The member's conversations, the latest first, one page of them, and how many there are. */
  threadsOf(ownerId: number, page: { limit: number; offset: number }): { rows: ThreadRow[]; total: number } {
    const rows = this.db.prepare('SELECT * FROM agent_threads WHERE owner_id = ? ORDER BY updated_at DESC, thread_id LIMIT ? OFFSET ?').all(ownerId, page.limit, page.offset) as ThreadRow[];
    const total = this.db.prepare('SELECT count(*) FROM agent_threads WHERE owner_id = ?').pluck().get(ownerId) as number;
    return { rows, total };
  }

  /** The last `limit` messages of a thread, in order, and how many it holds. */
  lastMessages(threadId: string, limit: number): { rows: MessageRow[]; total: number } {
    const rows = (this.db.prepare('SELECT message_id, thread_id, run_id, role, content, created_at FROM agent_messages WHERE thread_id = ? ORDER BY message_id DESC LIMIT ?').all(threadId, limit) as MessageRow[]).reverse();
    const total = this.db.prepare('SELECT count(*) FROM agent_messages WHERE thread_id = ?').pluck().get(threadId) as number;
    return { rows, total };
  }

  /** Forgets a thread: its messages, runs, refs and effects go with it (ON DELETE CASCADE); pins stay. */
  deleteThread(threadId: string, ownerId: number): boolean {
    return this.db.prepare('DELETE FROM agent_threads WHERE thread_id = ? AND owner_id = ?').run(threadId, ownerId).changes === 1;
  }

  setThread(threadId: string, fields: { status?: ThreadStatus; mode?: AgentMode }, now: number): void {
    this.db
      .prepare('UPDATE agent_threads SET status = coalesce(@status, status), mode = coalesce(@mode, mode), updated_at = @now WHERE thread_id = @threadId')
      .run({ threadId, status: fields.status ?? null, mode: fields.mode ?? null, now });
  }

  addMessage(m: Omit<MessageRow, 'message_id'> & { owner_id: number }): void {
    this.db
      .prepare('INSERT INTO agent_messages (thread_id, owner_id, run_id, role, content, created_at) VALUES (@thread_id, @owner_id, @run_id, @role, @content, @created_at)')
      .run(m);
  }

  /** The last `limit` messages of a thread, oldest first, not older than `since` (the conversation memory). */
  messages(threadId: string, since: number, limit = 200): MessageRow[] {
    return (
      this.db
        .prepare('SELECT message_id, thread_id, run_id, role, content, created_at FROM agent_messages WHERE thread_id = ? AND created_at >= ? ORDER BY message_id DESC LIMIT ?')
        .all(threadId, since, limit) as MessageRow[]
    ).reverse();
  }

  // ------------------------------------------------------------------ runs

  /** A new running run, or null when the thread has an active one (the partial unique index decides). */
  startRun(r: RunRow): boolean {
    try {
      this.db
        .prepare('INSERT INTO agent_runs (run_id, thread_id, owner_id, status, mode, time_zone, error, created_at, updated_at) VALUES (@run_id, @thread_id, @owner_id, @status, @mode, @time_zone, @error, @created_at, @updated_at)')
        .run(r);
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw e;
    }
  }

  /** The mentions the run's request resolved, kept for a continuation after a confirmation (engine.ts continueAfter). */
  setRunMentions(runId: string, mentionsJson: string): void {
    this.db.prepare('UPDATE agent_runs SET mentions = ? WHERE run_id = ?').run(mentionsJson, runId);
  }

  run(runId: string, ownerId: number): RunRow | undefined {
    return this.db.prepare('SELECT * FROM agent_runs WHERE run_id = ? AND owner_id = ?').get(runId, ownerId) as RunRow | undefined;
  }

  activeRun(threadId: string): RunRow | undefined {
    return this.db.prepare("SELECT * FROM agent_runs WHERE thread_id = ? AND status IN ('running', 'cancel_requested', 'awaiting_confirmation')").get(threadId) as RunRow | undefined;
  }

  /** Moves a run from one of `from` to `to`; false when it was in none of them (someone else moved it first). */
  moveRun(runId: string, from: readonly RunStatus[], to: RunStatus, now: number, error: string | null = null): boolean {
    const placeholders = from.map(() => '?').join(', ');
    return this.db.prepare(`UPDATE agent_runs SET status = ?, error = coalesce(?, error), updated_at = ? WHERE run_id = ? AND status IN (${placeholders})`).run(to, error, now, runId, ...from).changes === 1;
  }

  /** Runs a stop left active (the process ended mid-run): they failed. Effects waiting for a yes stay waiting. */
  failInterruptedRuns(now: number): number {
    return this.db.prepare("UPDATE agent_runs SET status = 'failed', error = 'interrupted', updated_at = ? WHERE status IN ('running', 'cancel_requested')").run(now).changes;
  }

  // ------------------------------------------------------------------ refs

  nextRefSeq(threadId: string): number {
    const row = this.db.prepare("SELECT max(CAST(substr(ref_id, 2) AS INTEGER)) AS n FROM agent_refs WHERE thread_id = ?").get(threadId) as { n: number | null };
    return (row.n ?? 0) + 1;
  }

  insertRef(r: RefRow): void {
    this.db
      .prepare(
        `INSERT INTO agent_refs (thread_id, ref_id, owner_id, op, plan, asset_ids, count, truncated, created_at, last_used_at, expires_at)
         VALUES (@thread_id, @ref_id, @owner_id, @op, @plan, @asset_ids, @count, @truncated, @created_at, @last_used_at, @expires_at)`,
      )
      .run(r);
  }

  ref(threadId: string, refId: string, ownerId: number, now: number): RefRow | undefined {
    return this.db.prepare('SELECT * FROM agent_refs WHERE thread_id = ? AND ref_id = ? AND owner_id = ? AND expires_at > ?').get(threadId, refId, ownerId, now) as RefRow | undefined;
  }

  touchRef(threadId: string, refId: string, now: number, ttlMs: number): void {
    this.db.prepare('UPDATE agent_refs SET last_used_at = ?, expires_at = ? WHERE thread_id = ? AND ref_id = ?').run(now, now + ttlMs, threadId, refId);
  }

  /** Keeps the `keep` most recently used refs of a thread (LRU) and drops the expired ones everywhere. */
  pruneRefs(threadId: string, keep: number, now: number): void {
    this.db.prepare('DELETE FROM agent_refs WHERE expires_at <= ?').run(now);
    this.db
      .prepare('DELETE FROM agent_refs WHERE thread_id = ? AND ref_id NOT IN (SELECT ref_id FROM agent_refs WHERE thread_id = ? ORDER BY last_used_at DESC, created_at DESC LIMIT ?)')
      .run(threadId, threadId, keep);
  }

  // ------------------------------------------------------------------ effects

  insertEffect(e: EffectRow): void {
    this.db
      .prepare(
        `INSERT INTO agent_effects (effect_id, thread_id, run_id, owner_id, effect_key, tool_name, payload, asset_ids, status, receipt, created_at, decided_at)
         VALUES (@effect_id, @thread_id, @run_id, @owner_id, @effect_key, @tool_name, @payload, @asset_ids, @status, @receipt, @created_at, @decided_at)`,
      )
      .run(e);
  }

  effect(effectId: string, ownerId: number): EffectRow | undefined {
    return this.db.prepare('SELECT * FROM agent_effects WHERE effect_id = ? AND owner_id = ?').get(effectId, ownerId) as EffectRow | undefined;
  }

  effectByKey(ownerId: number, key: string): EffectRow | undefined {
    return this.db.prepare('SELECT * FROM agent_effects WHERE owner_id = ? AND effect_key = ?').get(ownerId, key) as EffectRow | undefined;
  }

  pendingEffects(threadId: string): EffectRow[] {
    return this.db.prepare("SELECT * FROM agent_effects WHERE thread_id = ? AND status = 'pending' ORDER BY created_at").all(threadId) as EffectRow[];
  }

  effectsOfRun(runId: string): EffectRow[] {
    return this.db.prepare('SELECT * FROM agent_effects WHERE run_id = ? ORDER BY created_at').all(runId) as EffectRow[];
  }

  /** Decides a pending effect; false when it was no longer pending (the other answer won). */
  decideEffect(effectId: string, status: Exclude<EffectStatus, 'pending'>, receipt: unknown, now: number): boolean {
    return (
      this.db
        .prepare("UPDATE agent_effects SET status = ?, receipt = ?, decided_at = ? WHERE effect_id = ? AND status = 'pending'")
        .run(status, receipt === null ? null : JSON.stringify(receipt), now, effectId).changes === 1
    );
  }

  // ------------------------------------------------------------------ pins

  insertPin(p: Omit<PinRow, 'seq'>): void {
    this.db
      .prepare(
        `INSERT INTO agent_pins (pin_id, owner_id, thread_id, ref_id, title, widget, mode, op, plan, asset_ids, count, truncated, layout_x, layout_y, layout_w, layout_h, last_successful_refresh_at, created_at, seq)
         VALUES (@pin_id, @owner_id, @thread_id, @ref_id, @title, @widget, @mode, @op, @plan, @asset_ids, @count, @truncated, @layout_x, @layout_y, @layout_w, @layout_h, @last_successful_refresh_at, @created_at,
                 (SELECT coalesce(max(seq), 0) + 1 FROM agent_pins WHERE owner_id = @owner_id))`,
      )
      .run(p);
  }

  pins(ownerId: number): PinRow[] {
    return this.db.prepare('SELECT * FROM agent_pins WHERE owner_id = ? ORDER BY seq').all(ownerId) as PinRow[];
  }

  pin(pinId: string, ownerId: number): PinRow | undefined {
    return this.db.prepare('SELECT * FROM agent_pins WHERE pin_id = ? AND owner_id = ?').get(pinId, ownerId) as PinRow | undefined;
  }

  /** The lowest free row of the owner's board (a new pin goes below the others). */
  boardBottom(ownerId: number): number {
    return (this.db.prepare('SELECT coalesce(max(layout_y + layout_h), 0) AS y FROM agent_pins WHERE owner_id = ?').get(ownerId) as { y: number }).y;
  }

  updatePin(pinId: string, fields: { title?: string | undefined; widget?: Widget | undefined }): void {
    this.db.prepare('UPDATE agent_pins SET title = coalesce(?, title), widget = coalesce(?, widget) WHERE pin_id = ?').run(fields.title ?? null, fields.widget ?? null, pinId);
  }

  layoutPin(pinId: string, l: { x: number; y: number; w: number; h: number }): void {
    this.db.prepare('UPDATE agent_pins SET layout_x = ?, layout_y = ?, layout_w = ?, layout_h = ? WHERE pin_id = ?').run(l.x, l.y, l.w, l.h, pinId);
  }

  refreshedPin(pinId: string, now: number): void {
    this.db.prepare('UPDATE agent_pins SET last_successful_refresh_at = ? WHERE pin_id = ?').run(now, pinId);
  }

  deletePin(pinId: string): void {
    this.db.prepare('DELETE FROM agent_pins WHERE pin_id = ?').run(pinId);
  }
}
