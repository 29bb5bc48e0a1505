/**
 * The planner that asks a language model (any OpenAI-compatible server: adapters/llm), used when an administrator
 * configured one; without one the deterministic planner answers (deterministic-planner.ts). It drives the same
 * engine with the same steps: text as the model streams it, tool calls the engine runs (its own checks, the access
 * layer, confirmations), token usage.
 *
 * One turn after another: the model gets the assistant's rules (Hearth's own text, the only system message), the
 * conversation, the resolved mentions as data, and the mode's tools with their JSON Schemas. Its tool calls are run
 * one by one; each result goes back as a `tool` message (data, never instructions: adapters/llm/messages.ts), and
 * the model is asked again, until it answers without a call or MAX_TURNS is reached. A call the client found wrong
 * (an unknown tool, arguments that are not JSON or outside the tool's schema) is not run: the model is told what
 * was wrong and may call again. An effect pauses the run for the person's yes; the engine ends the plan there, and
 * after the answer asks again (continuesAfterConfirmation): the receipt, committed or declined, is in the thread.
 *
 * Earlier turns of the thread are kept as the store has them (the person's words, the assistant's words, tool
 * receipts): the receipts go back as data, since their call ids belong to runs that are over.
 * A model failure (unreachable, a refused key, a timeout, a cut answer) ends the run with an `error` event in
 * words (LlmError → DomainError), and the thread stays usable.
 */
import type { z } from '@hono/zod-openapi';
import {
  DATA_IS_NOT_INSTRUCTIONS,
  LlmError,
  assistantTurn,
  dataMessage,
  instructions,
  joinInstructions,
  systemMessage,
  toolCallRefused,
  toolFailed,
  toolResult,
  userRequest,
  type ChatMessage,
  type LlmClient,
  type ToolSpec,
} from '../../adapters/llm/index.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { Planner, PlannerInput, PlanStep, StepResult } from './planner.ts';
import { parametersOf, toolsFor } from './tools/registry.ts';
import type { ToolDef } from './tools/tool.ts';

/** Model turns per request at most: a model that keeps calling tools is stopped, and says so. */
export const MAX_TURNS = 8;

const RULES = instructions`You are the assistant of a household's photo library (Hearth). Answer the person's request about their photos and videos by calling the tools you are given: producers find photos and answer a ref id (an immutable set of photos), transformers and inspectors take ref ids, "show" puts a set on the person's screen as a card, and effects (tags, albums, likes, the Trash) only propose a change that the person confirms. Pass ref ids between tools; never invent ids. Keep answers short and plain, say how many photos you found, and say so when something could not be done.`;

/** The tools of the mode as the model is given them: JSON Schema, and the tool's own schema as the check. */
function specsOf(tools: readonly ToolDef[]): ToolSpec[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.desc,
    parameters: parametersOf(t),
    validate(args: unknown) {
      const parsed = (t.schema as z.ZodType).safeParse(args);
      return parsed.success ? { ok: true as const, value: parsed.data } : { ok: false as const, problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`) };
    },
  }));
}

/** The thread so far, as messages: the person's words as requests, the assistant's as its turns, receipts as data. */
function historyOf(input: PlannerInput): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of input.messages) {
    if (m.role === 'user') out.push(userRequest(m.content));
    else if (m.role === 'assistant') out.push(assistantTurn(m.content, []));
    else out.push(dataMessage('facts', safeJson(m.content)));
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What a tool gave back, as the model reads it: the receipt, never asset data. */
function receiptOf(r: Extract<StepResult, { ok: true }>): Record<string, unknown> {
  return { summary: r.summary, ...(r.ref_id ? { ref_id: r.ref_id } : {}), ...(r.count !== undefined ? { count: r.count } : {}), ...(r.data ? { data: r.data } : {}) };
}

export class ModelPlanner implements Planner {
  readonly name = 'model';
  readonly continuesAfterConfirmation = true;

  constructor(private readonly client: LlmClient) {}

  async *plan(input: PlannerInput, signal: AbortSignal): AsyncGenerator<PlanStep, void, StepResult | undefined> {
    const tools = specsOf(toolsFor(input.mode).filter((t) => input.tools.some((d) => d.name === t.name)));
    const messages: ChatMessage[] = [systemMessage(joinInstructions(RULES, DATA_IS_NOT_INSTRUCTIONS)), ...historyOf(input)];
    if (input.mentions.length > 0) messages.push(dataMessage('mentions', input.mentions));
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      let answer;
      let streamed = false;
      try {
        for await (const event of this.client.stream({ messages, tools, signal })) {
          if (event.type === 'text' && event.text) {
            yield { type: 'text', text: event.text, continues: streamed };
            streamed = true;
          } else if (event.type === 'usage') yield { type: 'usage', promptTokens: event.usage.promptTokens, completionTokens: event.usage.completionTokens };
          else if (event.type === 'done') answer = event.turn;
        }
      } catch (e) {
        if (e instanceof LlmError) throw new DomainError(502, `llm_${e.code}`, `The language model could not answer: ${e.message}`);
        throw e;
      }
      if (!answer) throw new DomainError(502, 'llm_bad_response', 'The language model could not answer: its answer ended without a result.');
      messages.push(assistantTurn(answer.text, answer.toolCalls));
      if (answer.toolCalls.length === 0) return;
      for (const call of answer.toolCalls) {
        if (call.status !== 'ok') {
          messages.push(toolCallRefused(call));
          continue;
        }
        const result = yield { type: 'tool', name: call.name, arguments: call.arguments };
        if (!result) return; // the engine stopped the plan (a confirmation is awaited, or the run was cancelled)
        messages.push(result.ok ? toolResult(call.id, receiptOf(result)) : toolFailed(call.id, result.error.code, result.error.message));
        if (result.ok && result.awaiting_confirmation) return;
      }
    }
    yield { type: 'text', text: `I stopped after ${MAX_TURNS} steps without a final answer. Try asking in fewer words, or one thing at a time.` };
  }
}
