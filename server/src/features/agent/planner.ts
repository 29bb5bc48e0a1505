/**
 * The planner: what decides which tools to call and what to say. The engine (engine.ts) drives it as a
 * generator: it yields a step (some text, a tool call, token usage), and gets back the tool's result as the
 * value of that `yield`, so a model planner can read each result before choosing the next call, exactly like
 * the deterministic one (deterministic-planner.ts). A model planner (an OpenAI-compatible client) plugs in
 * here; it sees the thread's messages, the mode, the mode's tool descriptors and the mentions as refs, and
 * everything it gets back from tools is data (a receipt: ref id, count, summary), never instructions.
 */
import type { AgentMode } from './agent.store.ts';
import type { ToolDescriptor } from './tools/registry.ts';

export interface PlannerMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
}

/** A mention the server resolved into a ref (`@Anna` → the photos with Anna) or an id (`#Holidays` → an album). */
export interface ResolvedMention {
  type: string;
  label: string;
  ref_id?: string | undefined;
  count?: number | undefined;
  id?: string | number | undefined;
}

export interface PlannerInput {
  messages: PlannerMessage[];
  mode: AgentMode;
  tools: ToolDescriptor[];
  mentions: ResolvedMention[];
}

export type PlanStep =
  /** `continues`: the next piece of text streamed (a model's), appended as it is; else a sentence of its own. */
  | { type: 'text'; text: string; continues?: boolean }
  | { type: 'tool'; name: string; arguments: unknown }
  | { type: 'usage'; promptTokens: number; completionTokens: number };

/** What a tool call gave back: its receipt, or why it failed (the planner may try something else). */
export type StepResult =
  | { ok: true; summary: string; ref_id?: string | undefined; count?: number | undefined; data?: Record<string, unknown> | undefined; awaiting_confirmation?: boolean }
  | { ok: false; error: { code: string; message: string } };

export interface Planner {
  readonly name: string;
  /**
   * Whether the run goes on after the person answers a confirmation: the planner is asked again with the receipt
   * in the thread (a model may have more to do). The deterministic planner proposes one effect per request, whose
   * receipt is the answer.
   */
  readonly continuesAfterConfirmation?: boolean;
  plan(input: PlannerInput, signal: AbortSignal): AsyncGenerator<PlanStep, void, StepResult | undefined>;
}
