/**
 * Tool calls: the tools a model is offered, the calls assembled from a stream's deltas, and the check of each call
 * against the tool it names.
 *
 * A stream sends a call in pieces: the first delta of a call carries its `index`, `id` and name, later ones carry
 * fragments of the arguments' JSON text for the same `index`. Calls are only complete when the stream ends, so
 * they are checked then. A call is never dropped: one that names a tool that was not offered, whose arguments are
 * not JSON, or whose arguments the tool's validator refuses, comes back with a `status` that says so and the
 * validator's words, so the caller can tell the model (messages.ts `toolCallRefused`) and let it correct itself.
 */
import type { JsonSchema, ToolCallDelta, WireToolCall } from './wire.ts';

/** What a tool's validator says about a call's arguments: the value to use, or what is wrong in words. */
export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

export interface ToolSpec {
  /** `^[a-zA-Z0-9_-]{1,64}$`, as the wire format allows. */
  name: string;
  description: string;
  /** JSON Schema (an object schema) of the arguments, sent to the model. */
  parameters: JsonSchema;
  /**
   * The caller's check of parsed arguments against `parameters` (a zod schema's safeParse, say). The client does
   * not interpret JSON Schema itself: the caller owns the schema and its validator, so the two cannot disagree.
   */
  validate(args: unknown): ArgumentsCheck;
}

export type ToolCallStatus = 'ok' | 'unknown_tool' | 'invalid_json' | 'invalid_arguments';

export interface ToolCall {
  /** The model's id for the call (made up as `call_<n>` when the server sent none): the tool result answers it. */
  id: string;
  name: string;
  /** The arguments exactly as the model wrote them. */
  argumentsText: string;
  status: ToolCallStatus;
  /** The validated arguments, when `status` is `ok`. */
  arguments?: unknown;
  /** What is wrong with the call, in words a model can act on, when `status` is not `ok`. */
  problems?: string[];
}

/** The calls of an assistant message as they go back to the model in the next request. */
export function wireToolCalls(calls: readonly ToolCall[]): WireToolCall[] {
  return calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.argumentsText } }));
}

interface Partial {
  id: string | null;
  name: string;
  args: string;
}

/** Gathers the deltas of one answer into whole calls. */
export class ToolCallAssembler {
  private readonly calls: Partial[] = [];
  private readonly byIndex = new Map<number, Partial>();

  add(delta: ToolCallDelta): void {
    const call = this.callFor(delta);
    if (delta.id !== null) call.id = delta.id;
    // The name comes whole in the first delta of a call; arguments come in fragments to be joined.
    if (delta.name !== null) call.name = delta.name;
    call.args += delta.argumentsFragment;
  }

  private callFor(delta: ToolCallDelta): Partial {
    if (delta.index !== null) {
      let call = this.byIndex.get(delta.index);
      if (!call) {
        call = { id: null, name: '', args: '' };
        this.byIndex.set(delta.index, call);
        this.calls.push(call);
      }
      return call;
    }
    // Without an index: another id, or a name when the last call has one (names come whole, in a call's first
    // delta), starts a new call; anything else continues the last one.
    const last = this.calls.at(-1);
    const startsNew = !last || (delta.id !== null ? last.id !== null && delta.id !== last.id : delta.name !== null && last.name !== '');
    if (!startsNew) return last;
    const call: Partial = { id: null, name: '', args: '' };
    this.calls.push(call);
    return call;
  }

  get count(): number {
    return this.calls.length;
  }

  /** The whole calls, each checked against the offered tools. */
  finish(tools: readonly ToolSpec[]): ToolCall[] {
    return this.calls.map((c, i) => checkToolCall({ id: c.id ?? `call_${i + 1}`, name: c.name, argumentsText: c.args }, tools));
  }
}

export function checkToolCall(call: { id: string; name: string; argumentsText: string }, tools: readonly ToolSpec[]): ToolCall {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    const offered = tools.map((t) => t.name).join(', ') || 'none';
    return { ...call, status: 'unknown_tool', problems: [`There is no tool named "${call.name}". The tools are: ${offered}.`] };
  }
  let parsed: unknown;
  try {
    // An empty argument string is how several servers send "no arguments".
    parsed = call.argumentsText.trim() === '' ? {} : JSON.parse(call.argumentsText);
  } catch (e) {
    return { ...call, status: 'invalid_json', problems: [`The arguments are not valid JSON (${(e as Error).message}).`] };
  }
  const verdict = tool.validate(parsed);
  if (!verdict.ok) return { ...call, status: 'invalid_arguments', problems: verdict.problems };
  return { ...call, status: 'ok', arguments: verdict.value };
}
