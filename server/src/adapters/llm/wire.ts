/**
 * The OpenAI chat-completions wire format, as much of it as Hearth sends and reads: the messages and tools of a
 * request, and the chunks of a streamed answer (or the one body of an answer that is not streamed). Every field
 * read from a server is checked here before use: servers that call themselves OpenAI-compatible differ in what
 * they omit (a tool call's `index` or `id`, `usage`), and a wrong shape must fail as `bad_response`, not as a
 * TypeError deep in the assistant.
 */

/** A tool call as it travels in an assistant message (arguments are the model's JSON text, unparsed). */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** JSON Schema of a tool's arguments (an object schema), as the model is told it. */
export type JsonSchema = Record<string, unknown>;

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** One chunk of a stream (or the one answer), reduced to what the assembler needs. */
export interface ChunkParts {
  text: string;
  toolCallDeltas: ToolCallDelta[];
  finishReason: FinishReason | null;
  usage: TokenUsage | null;
  model: string | null;
  /** The server put an error object in the stream instead of a chunk. */
  error: { message: string; code: string | null; status: number | null } | null;
}

export interface ToolCallDelta {
  index: number | null;
  id: string | null;
  name: string | null;
  argumentsFragment: string;
}

/** Why a value is not a chunk, in words; thrown by the readers below. */
export class WireShapeError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function finishReason(v: unknown): FinishReason | null {
  if (v === null || v === undefined) return null;
  if (v === 'stop' || v === 'tool_calls' || v === 'length' || v === 'content_filter') return v;
  // Old servers say `function_call`; anything else still ends the answer.
  return v === 'function_call' ? 'tool_calls' : 'other';
}

function usage(v: unknown): TokenUsage | null {
  if (!isObject(v)) return null;
  const prompt = Number(v.prompt_tokens);
  const completion = Number(v.completion_tokens);
  if (!Number.isFinite(prompt) || !Number.isFinite(completion)) return null;
  const total = Number.isFinite(Number(v.total_tokens)) ? Number(v.total_tokens) : prompt + completion;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: total };
}

function errorObject(v: unknown): ChunkParts['error'] {
  if (typeof v === 'string') return { message: v, code: null, status: null };
  if (!isObject(v)) return { message: 'the server reported an error', code: null, status: null };
  const code = typeof v.code === 'string' ? v.code : typeof v.type === 'string' ? v.type : null;
  const status = typeof v.code === 'number' ? v.code : typeof v.status === 'number' ? v.status : null;
  return { message: typeof v.message === 'string' ? v.message : JSON.stringify(v).slice(0, 300), code, status };
}

function toolCallDeltas(v: unknown): ToolCallDelta[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new WireShapeError('`tool_calls` is not a list');
  return v.map((raw) => {
    if (!isObject(raw)) throw new WireShapeError('a tool call is not an object');
    const fn = isObject(raw.function) ? raw.function : {};
    const args = fn.arguments;
    return {
      index: typeof raw.index === 'number' ? raw.index : null,
      id: typeof raw.id === 'string' && raw.id !== '' ? raw.id : null,
      name: typeof fn.name === 'string' && fn.name !== '' ? fn.name : null,
      // Some servers send the arguments as an object rather than JSON text: the same thing, said differently.
      argumentsFragment: typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
    };
  });
}

/** A streamed chunk (`chat.completion.chunk`): the first choice's delta, finish reason and usage. */
export function readChunk(value: unknown): ChunkParts {
  if (!isObject(value)) throw new WireShapeError('a chunk is not a JSON object');
  if (value.error !== undefined) return { text: '', toolCallDeltas: [], finishReason: null, usage: null, model: null, error: errorObject(value.error) };
  const choices = value.choices;
  if (choices !== undefined && !Array.isArray(choices)) throw new WireShapeError('`choices` is not a list');
  const parts: ChunkParts = { text: '', toolCallDeltas: [], finishReason: null, usage: usage(value.usage), model: typeof value.model === 'string' ? value.model : null, error: null };
  // The usage chunk of `stream_options.include_usage` has no choices; any other chunk has at least one.
  if (!choices || choices.length === 0) {
    if (!parts.usage) throw new WireShapeError('a chunk has neither choices nor usage');
    return parts;
  }
  const first = choices[0];
  if (!isObject(first)) throw new WireShapeError('a choice is not an object');
  const delta = isObject(first.delta) ? first.delta : isObject(first.message) ? first.message : null;
  if (!delta && first.finish_reason === undefined) throw new WireShapeError('a choice has no delta');
  if (delta) {
    if (typeof delta.content === 'string') parts.text = delta.content;
    else if (delta.content !== undefined && delta.content !== null) throw new WireShapeError('`content` is not text');
    parts.toolCallDeltas = toolCallDeltas(delta.tool_calls);
  }
  parts.finishReason = finishReason(first.finish_reason);
  return parts;
}

/** An answer that was not streamed (`chat.completion`): read as one chunk holding the whole message. */
export function readCompletion(value: unknown): ChunkParts {
  if (!isObject(value)) throw new WireShapeError('the answer is not a JSON object');
  if (value.error !== undefined) return readChunk(value);
  if (!Array.isArray(value.choices) || value.choices.length === 0) throw new WireShapeError('the answer has no choices');
  const first = value.choices[0];
  if (!isObject(first) || !isObject(first.message)) throw new WireShapeError('the answer has no message');
  const parts = readChunk({ ...value, choices: [{ delta: first.message, finish_reason: first.finish_reason ?? 'stop' }] });
  // A whole message numbers its tool calls by position, whatever `index` says (most servers omit it there).
  parts.toolCallDeltas = parts.toolCallDeltas.map((d, i) => ({ ...d, index: i }));
  return parts;
}

/** The ids of a `GET /models` answer (`{data: [{id}]}`); Ollama's native `{models: [{name}]}` is read too. */
export function readModelList(value: unknown): string[] {
  if (!isObject(value)) throw new WireShapeError('the model list is not a JSON object');
  const list = Array.isArray(value.data) ? value.data : Array.isArray(value.models) ? value.models : null;
  if (!list) throw new WireShapeError('the model list has no `data`');
  return list.flatMap((m) => (isObject(m) && typeof m.id === 'string' ? [m.id] : isObject(m) && typeof m.name === 'string' ? [m.name] : []));
}

/** The error object of a failed answer (`{error: {message, code}}`, or `{error: "text"}`), if the body has one. */
export function readErrorBody(value: unknown): { message: string; code: string | null } | null {
  if (!isObject(value)) return null;
  if (value.error !== undefined) {
    const e = errorObject(value.error);
    return e ? { message: e.message, code: e.code } : null;
  }
  if (typeof value.message === 'string') return { message: value.message, code: typeof value.code === 'string' ? value.code : null };
  if (typeof value.detail === 'string') return { message: value.detail, code: null };
  return null;
}
