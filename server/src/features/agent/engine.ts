/**
 * The assistant's engine: one run of a thread, from the member's message to `done`.
 *
 * A chat (`prepareChat`, then `run`): the thread is found (or started), a run starts (one active run per
 * thread: a second is 409 `agent_run_active`), the mentions and the context become refs (what cannot be
 * resolved comes back as `dropped_mentions`), and the planner is driven step by step (planner.ts): its text
 * is streamed in `message` chunks, each tool call is shown as a `side_event` (running, then success or error,
 * with its parameters and duration), a `show` adds a `widget_show` side event; `heartbeat`s whenever the stream
 * was silent for HEARTBEAT_MS (a tool running, a model thinking).
 * An effect does not run: the run pauses `awaiting_confirmation`, the confirmation goes out in a `message`'s
 * `action`, and the stream ends. A resume (`prepareResume`, then `resume`) commits or declines (effects.ts);
 * then a planner that goes on after a confirmation (a model's) is asked again, with the receipt in the thread,
 * in the same run: it may answer, call more tools, or ask for another yes.
 *
 * A stream never hangs: whatever fails (the planner, a tool, the store), the run is `failed`, an `error`
 * event goes out, then `done`; a cancel (cancelAgentChat) or a client that goes away stops the run at the
 * next step (`cancelled`). The thread stays usable after any of them.
 */
import crypto from 'node:crypto';
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Invalid, NotFound } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MarksStore } from '../assets/index.ts';
import type { AgentMode, AgentStore, EffectRow, RunRow, ThreadRow } from './agent.store.ts';
import { EffectCommitter, effectKey, type Receipt } from './effects.ts';
import { AGENT_NAME, type Emit } from './events.ts';
import type { LibraryStore } from './library.store.ts';
import type { Planner, PlannerMessage, ResolvedMention, StepResult } from './planner.ts';
import type { AgentLibrary } from './ports.ts';
import { planOf, RefBook } from './refs.ts';
import { descriptorOf, modeOf, toolNamed, toolsFor } from './tools/registry.ts';
import type { EffectProposal, ToolContext } from './tools/tool.ts';

/** Conversation memory: the planner sees the messages of the last 2 hours (the reference's TTL). */
const MEMORY_MS = 2 * 3600_000;
const HEARTBEAT_MS = 5_000;

export interface ChatRequest {
  thread_id?: string | undefined;
  query?: string | undefined;
  mode?: string | undefined;
  timezone?: string | undefined;
  context?: { type: string; asset_ids: string[]; label?: string | undefined }[] | undefined;
  mentions?: { type: string; id?: string | number | undefined; label?: string | undefined }[] | undefined;
  tool_call?: { name: string; arguments?: unknown } | undefined;
}

export interface ResumeRequest {
  thread_id: string;
  run_id?: string | undefined;
  targets: Record<string, { approved: boolean }>;
}

export interface Dropped {
  type: string;
  id?: unknown;
  label?: string;
  reason: string;
}

interface Prepared {
  actor: Actor;
  thread: ThreadRow;
  run: RunRow;
  mode: AgentMode;
  timeZone: string;
  req: ChatRequest;
}

export interface EngineDeps {
  db: Db;
  store: AgentStore;
  access: Access;
  lib: AgentLibrary;
  library: LibraryStore;
  marks: MarksStore;
  planner: () => Planner;
  log: Logger;
  now?: () => number;
  heartbeatMs?: number;
}

export class AgentEngine {
  private readonly controllers = new Map<string, AbortController>();
  private readonly committer: EffectCommitter;
  private readonly now: () => number;

  constructor(private readonly deps: EngineDeps) {
    this.committer = new EffectCommitter(deps.db, deps.store, deps.access, deps.lib);
    this.now = deps.now ?? Date.now;
  }

  // ------------------------------------------------------------------ chat

  /** Checks and starts a run (before the stream: failures here are problem+json answers). */
  prepareChat(actor: Actor, req: ChatRequest): Prepared {
    const { store } = this.deps;
    const now = this.now();
    const timeZone = req.timezone ?? 'UTC';
    if (!isTimeZone(timeZone)) throw new Invalid('timezone is not a time zone this server knows.', [{ field: 'body.timezone', message: 'unknown IANA time zone' }]);
    const mode = modeOf(req.mode);
    let thread: ThreadRow;
    if (req.thread_id) {
      this.deps.access.require(actor, 'agent_thread', req.thread_id, 'change', 'body.thread_id');
      thread = store.thread(req.thread_id, actor.userId)!;
    } else {
      const title = (req.query ?? req.tool_call?.name ?? 'Conversation').replace(/\s+/g, ' ').trim().slice(0, 80) || 'Conversation';
      thread = { thread_id: crypto.randomUUID(), owner_id: actor.userId, title, mode, status: 'active', created_at: now, updated_at: now };
      store.insertThread(thread);
    }
    const run: RunRow = { run_id: crypto.randomUUID(), thread_id: thread.thread_id, owner_id: actor.userId, status: 'running', mode, time_zone: timeZone, error: null, created_at: now, updated_at: now };
    if (!store.startRun(run)) {
      const active = store.activeRun(thread.thread_id);
      throw new Conflict('This conversation is still answering (or waiting for your confirmation): wait, confirm, or cancel it first.', 'agent_run_active', active ? { run_id: active.run_id } : {});
    }
    store.setThread(thread.thread_id, { status: 'active', mode }, now);
    return { actor, thread, run, mode, timeZone, req };
  }

  /** Drives a prepared run to its end, emitting its events. Never throws: failures are events. */
  async run(p: Prepared, emit: Emit, clientGone: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const ac = this.track(p.run.run_id, clientGone);
    const { safeEmit, stopBeating } = this.beating(emit);
    try {
      const ctx = this.toolContext(p.actor, p.thread.thread_id, p.timeZone, ac.signal);
      const { mentions, dropped } = await this.resolveMentions(ctx, p.req);
      if (mentions.length > 0) store.setRunMentions(p.run.run_id, JSON.stringify(mentions));
      await safeEmit({ event: 'session_info', data: { thread_id: p.thread.thread_id, run_id: p.run.run_id, ...(dropped.length ? { dropped_mentions: dropped } : {}) } });
      await safeEmit({ event: 'run_status', data: { run_id: p.run.run_id, status: 'running' } });
      const userText = p.req.query ?? `(tool ${p.req.tool_call!.name})`;
      store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: p.run.run_id, role: 'user', content: userText, created_at: this.now() });

      let said = '';
      let paused = false;
      if (p.req.tool_call) {
        const r = await this.callTool(ctx, p, p.req.tool_call.name, p.req.tool_call.arguments ?? {}, safeEmit);
        paused = r.paused;
        if (!paused) said = r.result.ok ? r.result.summary : `That did not work: ${r.result.error.message}`;
        if (said) await this.say(said, safeEmit);
      } else {
        ({ said, paused } = await this.drive(ctx, p, this.deps.planner(), mentions, safeEmit, ac.signal));
      }
      if (said) store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: p.run.run_id, role: 'assistant', content: said, created_at: this.now() });
      if (paused) {
        await safeEmit({ event: 'run_status', data: { run_id: p.run.run_id, status: 'awaiting_confirmation' } });
      } else await this.finish(p.run, p.thread.thread_id, ac.signal.aborted ? 'cancelled' : 'completed', safeEmit);
    } catch (e) {
      // Stopped (cancelAgentChat, or the client went away) while the planner or a tool waited: the abort is how
      // it stopped, not a failure.
      if (ac.signal.aborted) await this.finish(p.run, p.thread.thread_id, 'cancelled', safeEmit);
      else await this.fail(p.run, p.thread.thread_id, e, safeEmit);
    } finally {
      stopBeating();
      this.controllers.delete(p.run.run_id);
      await safeEmit({ event: 'done', data: {} });
    }
  }

  /**
   * Drives the planner over the thread's recent messages until it answers without a tool, an effect waits for
   * the person's yes (`paused`), or the run is stopped. Its text is streamed as it comes.
   */
  private async drive(ctx: ToolContext, p: Prepared, planner: Planner, mentions: ResolvedMention[], safeEmit: Emit, signal: AbortSignal): Promise<{ said: string; paused: boolean }> {
    const messages: PlannerMessage[] = this.deps.store.messages(p.thread.thread_id, this.now() - MEMORY_MS).map((m) => ({ role: m.role, content: m.content }));
    const gen = planner.plan({ messages, mode: p.mode, tools: toolsFor(p.mode).map(descriptorOf), mentions }, signal);
    let said = '';
    let feed: StepResult | undefined;
    for (;;) {
      if (signal.aborted) break;
      const step = await gen.next(feed);
      feed = undefined;
      if (step.done) break;
      const s = step.value;
      if (s.type === 'text' && s.continues) {
        // A model's streamed text: each piece goes out as it came (a word may be cut between two).
        await safeEmit({ event: 'message', data: { agent_name: AGENT_NAME, output: s.text } });
        said += s.text;
      } else if (s.type === 'text') {
        await this.say((said ? ' ' : '') + s.text, safeEmit);
        said += (said ? ' ' : '') + s.text;
      } else if (s.type === 'usage') {
        await safeEmit({ event: 'side_event', data: { type: 'token_usage', timestamp: this.now(), usage: { promptTokens: s.promptTokens, completionTokens: s.completionTokens, totalTokens: s.promptTokens + s.completionTokens } } });
      } else {
        const r = await this.callTool(ctx, p, s.name, s.arguments, safeEmit);
        if (r.paused) {
          await gen.return(undefined);
          return { said, paused: true };
        }
        feed = r.result;
      }
    }
    return { said, paused: false };
  }

  /**
   * The stream's sender with heartbeats: one whenever nothing was sent for the heartbeat period (a tool running,
   * a model thinking: a local model may take half a minute before its first word), so no proxy or client takes
   * the stream for dead. Sending never throws (a client gone is the run's abort signal, not an error here).
   */
  private beating(emit: Emit): { safeEmit: Emit; stopBeating: () => void } {
    const beatMs = this.deps.heartbeatMs ?? HEARTBEAT_MS;
    let lastSent = Date.now();
    const safeEmit = quiet(async (e) => {
      lastSent = Date.now();
      await emit(e);
    });
    const beat = setInterval(() => {
      if (Date.now() - lastSent >= beatMs) void safeEmit({ event: 'heartbeat', data: { timestamp: this.now() } });
    }, Math.max(50, Math.round(beatMs / 5)));
    return { safeEmit, stopBeating: () => clearInterval(beat) };
  }

  // ------------------------------------------------------------------ resume and cancel

  /** The effects a resume decides, checked before the stream. */
  prepareResume(actor: Actor, req: ResumeRequest): { actor: Actor; thread: ThreadRow; effects: { effect: EffectRow; approved: boolean }[] } {
    this.deps.access.require(actor, 'agent_thread', req.thread_id, 'change', 'body.thread_id');
    const thread = this.deps.store.thread(req.thread_id, actor.userId)!;
    const effects = Object.entries(req.targets).map(([id, t]) => {
      const effect = this.deps.store.effect(id, actor.userId);
      if (!effect || effect.thread_id !== thread.thread_id) throw new NotFound(`No such confirmation in this conversation: ${id}.`, 'agent_effect_not_found');
      if (req.run_id && effect.run_id !== req.run_id) throw new NotFound(`No such confirmation in run ${req.run_id}: ${id}.`, 'agent_effect_not_found');
      return { effect, approved: t.approved };
    });
    return { actor, thread, effects };
  }

  async resume(p: ReturnType<AgentEngine['prepareResume']>, emit: Emit, clientGone: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const runId = p.effects[0]!.effect.run_id;
    const run = store.run(runId, p.actor.userId)!;
    const ac = this.track(runId, clientGone);
    const { safeEmit, stopBeating } = this.beating(emit);
    try {
      await safeEmit({ event: 'session_info', data: { thread_id: p.thread.thread_id, run_id: runId } });
      const texts: string[] = [];
      for (const { effect, approved } of p.effects) {
        const executionId = crypto.randomUUID();
        let receipt: Receipt | null;
        if (effect.status !== 'pending') receipt = this.committer.receiptOf(effect);
        else receipt = this.committer.decide(p.actor, effect, approved, this.now()) ?? this.committer.receiptOf(store.effect(effect.effect_id, p.actor.userId)!);
        await safeEmit({
          event: 'side_event',
          data: {
            type: 'tool_execution',
            timestamp: this.now(),
            tool: { name: effect.tool_name, executionId },
            execution: receipt.status === 'failed' ? { status: 'error', error: { code: 'effect_failed', message: receipt.message } } : { status: 'success', message: receipt.message },
            data: { count: receipt.count, receipt },
          },
        });
        texts.push(receipt.status === 'cancelled' ? 'That was cancelled before it was confirmed: nothing was changed.' : receipt.message);
        store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: runId, role: 'tool', content: JSON.stringify({ name: effect.tool_name, receipt }), created_at: this.now() });
      }
      const text = texts.join(' ');
      await this.say(text, safeEmit);
      const failed = store.effectsOfRun(runId).find((e) => e.status === 'failed');
      store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: runId, role: 'assistant', content: text, created_at: this.now() });
      if (failed) {
        // The commit failed and was rolled back: the run failed, and the stream says so like any failure.
        await this.fail(run, p.thread.thread_id, new DomainError(409, 'effect_failed', this.committer.receiptOf(failed).message), safeEmit);
        return;
      }
      // Nothing of the run waits any more (a cancel may have ended it already): a planner that goes on from the
      // answer (a model: "make the album, then tag them") is asked again with the receipts in the thread;
      // otherwise the receipt was the answer and the run is over.
      const waiting = store.pendingEffects(p.thread.thread_id).some((e) => e.run_id === runId);
      const planner = this.deps.planner();
      if (!waiting && planner.continuesAfterConfirmation && store.moveRun(runId, ['awaiting_confirmation'], 'running', this.now())) {
        await this.continueAfter(p, { ...run, status: 'running' }, planner, safeEmit, ac.signal);
        return;
      }
      if (!waiting && store.moveRun(runId, ['awaiting_confirmation'], 'completed', this.now())) store.setThread(p.thread.thread_id, { status: 'completed' }, this.now());
      const after = store.run(runId, p.actor.userId)!;
      await safeEmit({ event: 'run_status', data: { run_id: runId, status: after.status } });
    } catch (e) {
      if (ac.signal.aborted) await this.finish(run, p.thread.thread_id, 'cancelled', safeEmit);
      else await this.fail(run, p.thread.thread_id, e, safeEmit);
    } finally {
      stopBeating();
      this.controllers.delete(runId);
      await safeEmit({ event: 'done', data: {} });
    }
  }

  /** The run, running again after its confirmations: the planner goes on in the run's own mode and time zone. */
  private async continueAfter(p: ReturnType<AgentEngine['prepareResume']>, run: RunRow, planner: Planner, safeEmit: Emit, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    store.setThread(p.thread.thread_id, { status: 'active' }, this.now());
    await safeEmit({ event: 'run_status', data: { run_id: run.run_id, status: 'running' } });
    const prepared: Prepared = { actor: p.actor, thread: p.thread, run, mode: run.mode, timeZone: run.time_zone, req: {} };
    const ctx = this.toolContext(p.actor, p.thread.thread_id, run.time_zone, signal);
    // The request's mentions again, as the planner had them: the people, albums and photos it was pointed at.
    const { said, paused } = await this.drive(ctx, prepared, planner, mentionsOf(run), safeEmit, signal);
    if (said) store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: run.run_id, role: 'assistant', content: said, created_at: this.now() });
    if (paused) await safeEmit({ event: 'run_status', data: { run_id: run.run_id, status: 'awaiting_confirmation' } });
    else await this.finish(run, p.thread.thread_id, signal.aborted ? 'cancelled' : 'completed', safeEmit);
  }

  /**
   * Cancel: a running run stops at its next step; one waiting for a confirmation is cancelled with its pending
   * effects, in one transaction (a commit that came first stands: the run was no longer waiting).
   */
  cancel(actor: Actor, req: { thread_id: string; run_id: string }): { run_id: string; status: 'cancel_requested'; thread_id: string } {
    const { store, db } = this.deps;
    this.deps.access.require(actor, 'agent_thread', req.thread_id, 'change', 'body.thread_id');
    const run = store.run(req.run_id, actor.userId);
    if (!run || run.thread_id !== req.thread_id) throw new NotFound(`No such run in this conversation: ${req.run_id}.`, 'agent_run_not_found');
    const now = this.now();
    db.transaction(() => {
      if (store.moveRun(run.run_id, ['awaiting_confirmation'], 'cancelled', now)) {
        for (const e of store.pendingEffects(run.thread_id)) {
          if (e.run_id === run.run_id) store.decideEffect(e.effect_id, 'cancelled', { effect_id: e.effect_id, tool_name: e.tool_name, status: 'cancelled', count: 0, message: 'Cancelled: nothing was changed.' }, now);
        }
        store.setThread(run.thread_id, { status: 'cancelled' }, now);
      } else if (store.moveRun(run.run_id, ['running'], 'cancel_requested', now)) {
        this.controllers.get(run.run_id)?.abort(new Error('cancelled'));
      }
    }).immediate();
    return { run_id: run.run_id, status: 'cancel_requested', thread_id: run.thread_id };
  }

  // ------------------------------------------------------------------ parts

  toolContext(actor: Actor, threadId: string, timeZone: string, signal: AbortSignal): ToolContext {
    const { store, access, lib, library, marks } = this.deps;
    return { actor, refs: new RefBook(store, access, actor.userId, threadId, this.now), lib, library, marks, access, timeZone, signal };
  }

  private track(runId: string, clientGone: AbortSignal): AbortController {
    const ac = new AbortController();
    this.controllers.set(runId, ac);
    if (clientGone.aborted) ac.abort(new Error('client gone'));
    else clientGone.addEventListener('abort', () => ac.abort(new Error('client gone')), { once: true });
    return ac;
  }

  /** Runs one tool call with its side events; `paused` when it proposed an effect (now waiting for a yes). */
  private async callTool(ctx: ToolContext, p: Prepared, name: string, args: unknown, emit: Emit): Promise<{ paused: boolean; result: StepResult }> {
    const executionId = crypto.randomUUID();
    const started = this.now();
    const tool = { name: String(name).slice(0, 100), executionId };
    await emit({ event: 'side_event', data: { type: 'tool_execution', timestamp: started, tool, execution: { status: 'running', parameters: args } } });
    const failed = async (code: string, message: string, hint?: string) => {
      await emit({ event: 'side_event', data: { type: 'tool_execution', timestamp: this.now(), tool, execution: { status: 'error', error: { code, message, ...(hint ? { hint } : {}) }, parameters: args, duration: this.now() - started } } });
      this.deps.store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: p.run.run_id, role: 'tool', content: JSON.stringify({ name: tool.name, ok: false, code, message }), created_at: this.now() });
      return { paused: false, result: { ok: false as const, error: { code, message } } };
    };
    const def = toolNamed(p.mode, name);
    if (!def) return failed('unknown_tool', `There is no tool ${tool.name} in mode ${p.mode}.`, `Tools of this mode: ${toolsFor(p.mode).map((t) => t.name).join(', ')}`);
    const parsed = def.schema.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
      return failed('invalid_arguments', `The arguments of ${def.name} do not fit its schema: ${issues.join('; ')}.`, 'See getAgentToolSchemas.');
    }
    // (heartbeats while it runs: the run's own, see run())
    let out;
    try {
      out = await def.run(parsed.data, ctx);
    } catch (e) {
      if (e instanceof DomainError) return failed(e.code, e.message);
      throw e;
    }
    const duration = this.now() - started;
    await emit({ event: 'side_event', data: { type: 'tool_execution', timestamp: this.now(), tool, execution: { status: 'success', message: out.summary, parameters: args, duration }, data: { ...(out.ref_id ? { refId: out.ref_id } : {}), ...(out.count !== undefined ? { count: out.count } : {}) } } });
// A card's widget and title are kept with its receipt: a reopened conversation shows the card again while its ref lives (thread-history.ts).
    const card = out.widget ? { widget: out.widget.widget, title: out.widget.title } : {};
    this.deps.store.addMessage({ thread_id: p.thread.thread_id, owner_id: p.actor.userId, run_id: p.run.run_id, role: 'tool', content: JSON.stringify({ name: def.name, ok: true, summary: out.summary, ref_id: out.ref_id, count: out.count, ...card }), created_at: this.now() });
    if (out.widget) {
      await emit({ event: 'side_event', data: { type: 'widget_show', timestamp: this.now(), tool, data: { refId: out.widget.ref_id, count: out.widget.count, widget: out.widget.widget, title: out.widget.title, params: out.widget.params ?? {} } } });
    }
    if (out.proposal) {
      const effect = this.propose(p, out.proposal);
      await emit({
        event: 'message',
        data: { agent_name: AGENT_NAME, action: { type: 'interrupt', interrupt_id: effect.effect_id, effect_id: effect.effect_id, tool_name: effect.tool_name, confirmation: out.proposal.confirmation, resume: { thread_id: p.thread.thread_id, run_id: p.run.run_id } } },
      });
      return { paused: true, result: { ok: true, summary: out.summary, ref_id: out.ref_id, count: out.count, awaiting_confirmation: true } };
    }
    return { paused: false, result: { ok: true, summary: out.summary, ref_id: out.ref_id, count: out.count, data: out.data } };
  }

  /** Stores the pending effect (the same proposal in the same run is the same effect) and pauses the run. */
  private propose(p: Prepared, proposal: EffectProposal): EffectRow {
    const { store, db } = this.deps;
    const key = effectKey(p.actor.userId, p.thread.thread_id, p.run.run_id, proposal.tool_name, proposal.payload, proposal.asset_ids);
    const now = this.now();
    return db
      .transaction(() => {
        const existing = store.effectByKey(p.actor.userId, key);
        const effect: EffectRow = existing ?? {
          effect_id: crypto.randomUUID(),
          thread_id: p.thread.thread_id,
          run_id: p.run.run_id,
          owner_id: p.actor.userId,
          effect_key: key,
          tool_name: proposal.tool_name,
          payload: JSON.stringify({ ...proposal.payload, ref_id: proposal.ref_id, confirmation: proposal.confirmation }),
          asset_ids: JSON.stringify(proposal.asset_ids),
          status: 'pending',
          receipt: null,
          created_at: now,
          decided_at: null,
        };
        if (!existing) store.insertEffect(effect);
        store.moveRun(p.run.run_id, ['running'], 'awaiting_confirmation', now);
        store.setThread(p.thread.thread_id, { status: 'awaiting_confirmation' }, now);
        return effect;
      })
      .immediate();
  }

  private async say(text: string, emit: Emit): Promise<void> {
    for (const chunk of chunks(text)) await emit({ event: 'message', data: { agent_name: AGENT_NAME, output: chunk } });
  }

  private async finish(run: RunRow, threadId: string, status: 'completed' | 'cancelled', emit: Emit): Promise<void> {
    const { store } = this.deps;
    const now = this.now();
    const moved = store.moveRun(run.run_id, ['running', 'cancel_requested'], status === 'completed' && store.run(run.run_id, run.owner_id)?.status === 'cancel_requested' ? 'cancelled' : status, now);
    const final = store.run(run.run_id, run.owner_id)!.status;
    if (moved) store.setThread(threadId, { status: final === 'cancelled' ? 'cancelled' : 'completed' }, now);
    await emit({ event: 'run_status', data: { run_id: run.run_id, status: final } });
  }

  private async fail(run: RunRow, threadId: string, e: unknown, emit: Emit): Promise<void> {
    const message = e instanceof DomainError ? e.message : 'The assistant failed on this request; the conversation can go on.';
    if (!(e instanceof DomainError)) this.deps.log.error({ err: e, run_id: run.run_id }, 'an assistant run failed');
    try {
      const now = this.now();
      if (this.deps.store.moveRun(run.run_id, ['running', 'cancel_requested', 'awaiting_confirmation'], 'failed', now, message)) this.deps.store.setThread(threadId, { status: 'failed' }, now);
    } catch (err) {
      this.deps.log.error({ err, run_id: run.run_id }, 'an assistant run could not be marked failed');
    }
    await emit({ event: 'error', data: { error: message, ...(e instanceof DomainError ? { code: e.code } : {}) } });
    await emit({ event: 'run_status', data: { run_id: run.run_id, status: 'failed' } });
  }

  // ------------------------------------------------------------------ mentions

  /** Mentions (given, and `@name` / `#album` in the text) and context become refs; the rest is dropped with why. */
  private async resolveMentions(ctx: ToolContext, req: ChatRequest): Promise<{ mentions: ResolvedMention[]; dropped: Dropped[] }> {
    const mentions: ResolvedMention[] = [];
    const dropped: Dropped[] = [];
    const given = [...(req.mentions ?? [])];
    for (const m of (req.query ?? '').matchAll(/(^|\s)([@#])([\p{L}\p{N}][\p{L}\p{N}_'-]*)/gu)) given.push({ type: m[2] === '@' ? 'person' : 'album', label: m[3]! });
    const refOf = async (type: string, label: string, filter: Record<string, unknown>) => {
      const rows = await ctx.lib.rows(ctx.actor, filter, ctx.timeZone);
      const ref = ctx.refs.create('filter_assets', planOf('filter_assets', { filter }, ctx.actor.userId), ctx.library.assetIdsOfRows(rows, 10_001));
      mentions.push({ type, label, ref_id: ref.ref_id, count: ref.count, id: Object.values(filter)[0] as number });
    };
    for (const m of given) {
      const label = m.label ?? String(m.id ?? '');
      if (m.type === 'person') {
        const p = ctx.lib.people(ctx.actor).find((x) => (m.id !== undefined ? x.person_id === Number(m.id) : x.name?.toLowerCase() === label.toLowerCase()));
        if (p) await refOf('person', p.name ?? label, { person_ids: [p.person_id] });
        else dropped.push({ type: m.type, ...(m.id !== undefined ? { id: m.id } : {}), label, reason: 'not_found' });
      } else if (m.type === 'album') {
        const a = ctx.lib.albums(ctx.actor).find((x) => (m.id !== undefined ? x.album_id === Number(m.id) : x.album_name.toLowerCase() === label.toLowerCase()));
        if (a && a.owner_id === ctx.actor.userId) await refOf('album', a.album_name, { album_id: a.album_id });
        else dropped.push({ type: m.type, ...(m.id !== undefined ? { id: m.id } : {}), label, reason: 'not_found' });
      } else if (m.type === 'pin') {
        const pin = m.id !== undefined ? this.deps.store.pin(String(m.id), ctx.actor.userId) : undefined;
        if (pin) {
          const ref = ctx.refs.create('pin', planOf('pin', { pin_id: pin.pin_id }, ctx.actor.userId), JSON.parse(pin.asset_ids) as string[]);
          mentions.push({ type: 'pin', label: pin.title, ref_id: ref.ref_id, count: ref.count, id: pin.pin_id });
        } else dropped.push({ type: 'pin', id: m.id, label, reason: 'not_found' });
      } else if (m.type === 'camera') {
        const catalog = await ctx.lib.catalog(ctx.actor);
        const cam = catalog.cameras.find((c) => c.model.toLowerCase() === label.toLowerCase() || c.name.toLowerCase() === label.toLowerCase());
        if (cam) await refOf('camera', cam.name, { camera_model: cam.model });
        else dropped.push({ type: 'camera', label, reason: 'not_found' });
      } else dropped.push({ type: m.type, ...(m.id !== undefined ? { id: m.id } : {}), label, reason: 'unsupported' });
    }
    for (const c of req.context ?? []) {
      const ref = ctx.refs.create('context', planOf('context', { label: c.label ?? null }, ctx.actor.userId), c.asset_ids);
      if (ref.count < new Set(c.asset_ids).size) dropped.push({ type: 'context', label: c.label ?? 'context', reason: `${new Set(c.asset_ids).size - ref.count} not found` });
      mentions.push({ type: 'context', label: c.label ?? 'selected photos', ref_id: ref.ref_id, count: ref.count });
    }
    return { mentions, dropped };
  }
}

/** Text in chunks of a few words, as a model streams it. */
function chunks(text: string): string[] {
  const words = text.split(/(?<=\s)/);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    cur += w;
    if (cur.length >= 24) {
      out.push(cur);
      cur = '';
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Emitting to a client that went away must not end the run's bookkeeping. */
function quiet(emit: Emit): Emit {
  return async (e) => {
    try {
      await emit(e);
    } catch {
      // the client is gone; the run notices through its signal
    }
  };
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The mentions a run kept (setRunMentions); none when it kept none or what it kept cannot be read. */
function mentionsOf(run: RunRow): ResolvedMention[] {
  try {
    const kept: unknown = JSON.parse(run.mentions ?? '[]');
    return Array.isArray(kept) ? (kept as ResolvedMention[]) : [];
  } catch {
    return [];
  }
}
