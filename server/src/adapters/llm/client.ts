/**
 * The one client for OpenAI-compatible chat-completion servers (OpenAI, Ollama, LM Studio, llama.cpp, any base
 * URL): a streamed or whole chat turn with tools, and the server's model list.
 *
 * - Streaming: `stream()` yields the model's text as it comes, then its tool calls (assembled from the deltas and
 *   checked against the offered tools, tool-calls.ts), its token usage, and `done` with the whole turn. A server
 *   that ignores `stream: true` and answers one JSON body is read too.
 * - Usage: asked for with `stream_options.include_usage`; servers that ignore it give no usage, and the turn says
 *   `usage: null` (absent, not zero).
 * - Timeouts: connect and idle (transport.ts). The consumer must read the stream as it comes: a consumer that
 *   stops pulling for the idle timeout is indistinguishable from a silent server.
 * - Retries: 429, 5xx and network failures are retried with backoff (and the server's Retry-After, when it is
 *   short) only while no byte of the answer has arrived. Once text has been yielded the request is never sent
 *   again: a second answer would repeat or contradict what the person already read, so a cut stream is
 *   `interrupted` with the text that had arrived.
 * - Cancelling: `signal`; an abort comes out as the signal's reason.
 * - Errors: errors.ts. The API key goes in the Authorization header of requests to the base URL's origin and
 *   nowhere else; any text of the server's that reaches an error message has the key replaced first, since some
 *   servers echo the key they refused.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  LlmAuthError,
  LlmBadResponseError,
  LlmError,
  LlmInterruptedError,
  LlmModelMissingError,
  LlmNotFoundError,
  LlmRateLimitedError,
  LlmRejectedError,
  LlmServerError,
  LlmTimeoutError,
} from './errors.ts';
import { SseReader } from './sse.ts';
import { ToolCallAssembler, type ToolCall, type ToolSpec } from './tool-calls.ts';
import { DroppedError, send, type Exchange } from './transport.ts';
import { WireShapeError, readChunk, readCompletion, readErrorBody, readModelList, type ChatMessage, type ChunkParts, type FinishReason, type TokenUsage } from './wire.ts';

export interface LlmEndpoint {
  /** Normalised (providers.ts `normaliseBaseUrl`): ends in '/', so `chat/completions` resolves under it. */
  baseUrl: URL;
  model: string;
  apiKey: string | null;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  retry?: RetryPolicy;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  /** No wait is longer; a Retry-After beyond it ends the retries at once (`rate_limited` with its seconds). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  /** `auto` when tools are given. Some servers (Ollama) ignore it. */
  toolChoice?: 'auto' | 'none' | 'required';
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatTurn {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason | null;
  /** null: the server did not say. */
  usage: TokenUsage | null;
  /** The model the server says answered (it may name a version of the one asked for). */
  model: string | null;
}

export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  /** A request is sent again (429, 5xx or network before the answer began): for logs and a "waiting" notice. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'done'; turn: ChatTurn };

/** The most bytes one answer may have: far beyond any chat turn, short of filling memory. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export class LlmClient {
  private readonly retry: RetryPolicy;

  constructor(readonly endpoint: LlmEndpoint) {
    this.retry = endpoint.retry ?? DEFAULT_RETRY;
  }

  /** The whole turn, streamed underneath. */
  async complete(request: ChatRequest): Promise<ChatTurn> {
    for await (const event of this.stream(request)) if (event.type === 'done') return event.turn;
    throw new LlmBadResponseError('The answer ended without a result.');
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatEvent> {
    const signal = request.signal ?? new AbortController().signal;
    const tools = request.tools ?? [];
    const body = JSON.stringify({
      model: this.endpoint.model,
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(tools.length > 0
        ? {
            tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
            tool_choice: request.toolChoice ?? 'auto',
          }
        : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    });
    const exchange = yield* this.sendWithRetries('POST', 'chat/completions', body, signal);
    if (!exchange) throw new LlmBadResponseError('The server answered no chat completion.');
    yield* this.readAnswer(exchange, tools, signal);
  }

  /**
   * The ids of the models the server offers, or null when it has no model list (answers 404 there: a model list
   * is not part of every compatible server).
   */
  async listModels(signal: AbortSignal = new AbortController().signal): Promise<string[] | null> {
    const gen = this.sendWithRetries('GET', 'models', undefined, signal, { listing: true });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    const exchange = step.value;
    if (exchange === null) return null;
    const text = await this.readAll(exchange, 'model list');
    try {
      return readModelList(JSON.parse(text));
    } catch (e) {
      throw this.garbage('model list', text, e);
    }
  }

  /**
   * Sends until an answer with a 2xx status begins, yielding a `retry` event before each retry. Null only for a
   * `listing` the server does not have (404/405).
   */
  private async *sendWithRetries(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    signal: AbortSignal,
    opts: { listing?: boolean } = {},
  ): AsyncGenerator<ChatEvent, Exchange | null> {
    const url = new URL(path, this.endpoint.baseUrl);
    const headers: Record<string, string> = { accept: method === 'POST' ? 'text/event-stream, application/json' : 'application/json', 'user-agent': 'Hearth (assistant)' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.endpoint.apiKey) headers.authorization = `Bearer ${this.endpoint.apiKey}`;
    for (let attempt = 1; ; attempt++) {
      let failure: LlmError;
      try {
        const exchange = await send({ method, url, headers, body, signal, connectTimeoutMs: this.endpoint.connectTimeoutMs, idleTimeoutMs: this.endpoint.idleTimeoutMs });
        if (exchange.status >= 200 && exchange.status < 300) return exchange;
        if (opts.listing && (exchange.status === 404 || exchange.status === 405)) {
          exchange.discard();
          return null;
        }
        const text = await this.readAll(exchange, 'error', 64 * 1024).catch(() => '');
        failure = this.statusError(exchange.status, text, path, retryAfterMs(exchange.headers['retry-after']));
      } catch (e) {
        if (!(e instanceof LlmError)) throw e;
        failure = e;
      }
      // Idle timeouts are not retried: a model that took too long once takes as long again.
      const retryable = failure.retryable && !(failure instanceof LlmTimeoutError && failure.phase === 'idle');
      if (!retryable || attempt >= this.retry.attempts) throw failure;
      const asked = failure instanceof LlmRateLimitedError && failure.retryAfterSeconds !== null ? failure.retryAfterSeconds * 1000 : null;
      if (asked !== null && asked > this.retry.maxDelayMs) throw failure;
      const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      const delayMs = asked ?? Math.round(backoff * (0.75 + Math.random() * 0.5));
      yield { type: 'retry', attempt: attempt + 1, delayMs, reason: failure.message };
      await sleep(delayMs, undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    }
  }

  private async *readAnswer(exchange: Exchange, tools: readonly ToolSpec[], signal: AbortSignal): AsyncGenerator<ChatEvent> {
    const type = String(exchange.headers['content-type'] ?? '');
    // A server that ignored `stream: true` answers the whole completion at once.
    if (type.includes('application/json')) {
      const text = await this.readAll(exchange, 'answer');
      let parts: ChunkParts;
      try {
        parts = readCompletion(JSON.parse(text));
      } catch (e) {
        throw this.garbage('answer', text, e);
      }
      const turn = new TurnBuilder();
      this.take(turn, parts);
      yield* turn.events(tools);
      return;
    }
    const reader = new SseReader();
    const turn = new TurnBuilder();
    let bytes = 0;
    let sawDone = false;
    let head = '';
    const handle = function* (this: LlmClient, data: string): Generator<ChatEvent> {
      if (data.trim() === '[DONE]') {
        sawDone = true;
        return;
      }
      let parts: ChunkParts;
      try {
        parts = readChunk(JSON.parse(data));
      } catch (e) {
        throw this.garbage('stream', data, e);
      }
      this.take(turn, parts);
      if (parts.text !== '') yield { type: 'text', text: parts.text };
    }.bind(this);
    try {
      for await (const chunk of exchange.body) {
        bytes += chunk.length;
        if (head.length < 200) head += chunk.toString('utf8', 0, Math.min(chunk.length, 200));
        if (bytes > MAX_ANSWER_BYTES) throw new LlmBadResponseError('The answer was larger than any chat turn (16 MiB); it was cut off.');
        for (const data of reader.push(chunk)) {
          if (sawDone) break;
          yield* handle(data);
        }
        if (sawDone) break;
      }
      if (!sawDone) for (const data of reader.end()) yield* handle(data);
    } catch (e) {
      exchange.discard();
      if (signal.aborted) throw signal.reason;
      if (e instanceof DroppedError) throw new LlmInterruptedError(`The connection to ${this.endpoint.baseUrl.host} dropped in the middle of the answer.`, turn.text);
      if (e instanceof LlmTimeoutError) throw new LlmTimeoutError(e.phase, e.message, turn.text);
      throw e;
    }
    exchange.discard();
    if (!turn.started) {
      throw reader.strayLines > 0 || head.trim() !== ''
        ? this.garbage('stream', head, new Error('no chat-completion chunks'))
        : new LlmBadResponseError(`${this.endpoint.baseUrl.host} answered with an empty stream.`);
    }
    // The end of the answer is `[DONE]` or a finish reason; a stream that just stops before either was cut.
    if (!sawDone && turn.finishReason === null) {
      throw new LlmInterruptedError(`The answer from ${this.endpoint.baseUrl.host} stopped before its end.`, turn.text);
    }
    yield* turn.events(tools);
  }

  private take(turn: TurnBuilder, parts: ChunkParts): void {
    if (parts.error) throw this.streamError(parts.error);
    turn.add(parts);
  }

  private async readAll(exchange: Exchange, what: string, limit = MAX_ANSWER_BYTES): Promise<string> {
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of exchange.body) {
        total += chunk.length;
        if (total > limit) {
          exchange.discard();
          if (what === 'error') break;
          throw new LlmBadResponseError(`The ${what} was larger than expected; it was cut off.`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof DroppedError) throw new LlmInterruptedError(`The connection to ${this.endpoint.baseUrl.host} dropped while the ${what} arrived.`, '');
      throw e;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The server's words, safe to show: the key replaced, control characters out, at most 300 characters. */
  private serverWords(text: string): string {
    let t = text;
    const key = this.endpoint.apiKey;
    if (key) t = t.split(key).join('[redacted]');
    // eslint-disable-next-line no-control-regex -- stripping control characters from a remote server's text
    t = t.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
    return t.length > 300 ? `${t.slice(0, 300)}…` : t;
  }

  private garbage(what: string, text: string, cause: unknown): LlmBadResponseError {
    const why = cause instanceof WireShapeError ? cause.message : 'it is not JSON';
    const sample = this.serverWords(text).slice(0, 120);
    return new LlmBadResponseError(`${this.endpoint.baseUrl.host} sent a ${what} that is not the OpenAI format (${why})${sample ? `: "${sample}"` : ''}.`);
  }

  private statusError(status: number, text: string, path: string, retryAfter: number | null = null): LlmError {
    let parsed: { message: string; code: string | null } | null = null;
    try {
      parsed = readErrorBody(JSON.parse(text));
    } catch {
      parsed = null;
    }
    const said = this.serverWords(parsed?.message ?? text);
    const host = this.endpoint.baseUrl.host;
    const model = this.endpoint.model;
    const saidPart = said ? ` It said: "${said}"` : '';
    if (status === 401 || status === 403) {
      const message = this.endpoint.apiKey ? `${host} refused the API key (HTTP ${status}).${saidPart}` : `${host} needs an API key (HTTP ${status}).${saidPart}`;
      return new LlmAuthError(message, status, this.endpoint.apiKey ? 'Enter a valid API key for this server.' : 'Enter the API key the provider gave you.');
    }
    if (mentionsMissingModel(parsed, said, model) && (status === 404 || status === 400 || status === 422)) {
      return new LlmModelMissingError(model, `${host} has no model named "${model}".${saidPart}`, status, 'Choose a model the server lists (with Ollama, `ollama pull` it first; with LM Studio, load it).');
    }
    if (status === 404 || status === 405) {
      return new LlmNotFoundError(`Nothing answers at ${new URL(path, this.endpoint.baseUrl).pathname} on ${host} (HTTP ${status}).`, status, 'Check the base URL: for most servers it ends in /v1.');
    }
    if (status === 429) {
      return new LlmRateLimitedError(`${host} says too many requests (HTTP 429).${saidPart}`, retryAfter === null ? null : Math.ceil(retryAfter / 1000));
    }
    if (status >= 500) return new LlmServerError(`${host} failed to answer (HTTP ${status}).${saidPart}`, status);
    const toolsHint = /tool|function/i.test(said) ? 'This model may not support tool calling: choose one that does.' : undefined;
    return new LlmRejectedError(`${host} refused the request (HTTP ${status}).${saidPart}`, status, toolsHint);
  }

  private streamError(error: NonNullable<ChunkParts['error']>): LlmError {
    const said = this.serverWords(error.message);
    if (error.status !== null && error.status >= 400) return this.statusError(error.status, JSON.stringify({ error: { message: error.message, code: error.code } }), 'chat/completions');
    return new LlmServerError(`${this.endpoint.baseUrl.host} reported an error in the middle of the answer: "${said}"`, 502);
  }
}

/** The pieces of one turn as they arrive. */
class TurnBuilder {
  text = '';
  finishReason: FinishReason | null = null;
  usage: TokenUsage | null = null;
  model: string | null = null;
  started = false;
  private readonly calls = new ToolCallAssembler();

  add(parts: ChunkParts): void {
    this.started = true;
    this.text += parts.text;
    for (const delta of parts.toolCallDeltas) this.calls.add(delta);
    if (parts.finishReason !== null) this.finishReason = parts.finishReason;
    if (parts.usage) this.usage = parts.usage;
    if (parts.model) this.model = parts.model;
  }

  *events(tools: readonly ToolSpec[]): Generator<ChatEvent> {
    const toolCalls = this.calls.finish(tools);
    for (const call of toolCalls) yield { type: 'tool_call', call };
    if (this.usage) yield { type: 'usage', usage: this.usage };
    yield { type: 'done', turn: { text: this.text, toolCalls, finishReason: this.finishReason, usage: this.usage, model: this.model } };
  }
}

function mentionsMissingModel(parsed: { code: string | null } | null, said: string, model: string): boolean {
  if (parsed?.code === 'model_not_found') return true;
  const lower = said.toLowerCase();
  if (!lower.includes('model')) return false;
  // Ollama: `model "x" not found, try pulling it first`; OpenAI: "The model `x` does not exist"; LM Studio: "No models loaded".
  return lower.includes('not found') || lower.includes('does not exist') || lower.includes('no such') || lower.includes('not loaded') || (lower.includes(model.toLowerCase()) && lower.includes('unknown'));
}

function retryAfterMs(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
