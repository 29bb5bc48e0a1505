/**
 * A model server for tests: a real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions wire format
 * (`POST /v1/chat/completions`, streamed as SSE `data:` chunks ending in `[DONE]` or as one JSON body;
 * `GET /v1/models`), that answers each chat request with the next reply the test scripted. It does what
 * OpenAI-compatible servers do on the wire: tool calls split across deltas by `index`, a usage chunk when
 * `stream_options.include_usage` asks for one, `{error: {...}}` bodies with the statuses OpenAI and Ollama use.
 * And what they do when things go wrong: refuse the key (401), not know the model (404), say 429 and then answer,
 * hang before or in the middle of an answer, cut the connection mid-stream, send garbage.
 *
 * Every request is recorded (`requests`), so a test can check what the client sent (the key in the header, the
 * tools, where the data sat in the messages).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedCall {
  name: string;
  /** An object is sent as its JSON text; a string is sent as it is (to send broken JSON). */
  arguments: unknown;
  id?: string;
}

export type FakeReply =
  /** Text, streamed in `chunks` pieces (default: one per word). */
  | { text: string; chunks?: number; finish?: 'stop' | 'length'; usage?: { prompt: number; completion: number } | false }
  /** Tool calls (and optional text before them); arguments streamed in `argumentPieces` fragments each. */
  | { toolCalls: ScriptedCall[]; text?: string; argumentPieces?: number; usage?: { prompt: number; completion: number } | false; omitIndex?: boolean }
  /** An HTTP error with an OpenAI-style body (or `body` as given). */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Accept the request and never answer (not even headers). */
  | { hang: true }
  /** Stream this text, then go silent without ending. */
  | { hangAfter: string }
  /** Stream this text, then destroy the connection. */
  | { cutAfter: string }
  /** Answer 200 with this body and content type. */
  | { garbage: string; contentType?: string }
  /** The whole answer as one JSON body even though the client asked for a stream (servers that ignore `stream`). */
  | { wholeJson: { text?: string; toolCalls?: ScriptedCall[] } };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (chat requests), or null. */
  body: any;
}

export interface OpenAiFakeOptions {
  /** The models `/v1/models` lists and chat requests may name. */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401 (whose body echoes the key sent, as some servers do). */
  apiKey?: string | null;
  /** `/v1/models` answers 404 (servers without a model list). */
  noModelList?: boolean;
  /** Ignore `stream_options.include_usage` (servers that never report usage). */
  noUsage?: boolean;
}

type Reply = FakeReply | ((request: RecordedRequest) => FakeReply);

export class OpenAiFake {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: Reply[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;
  private port = 0;

  private constructor(private readonly opts: OpenAiFakeOptions) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(opts: OpenAiFakeOptions = {}): Promise<OpenAiFake> {
    const fake = new OpenAiFake({ models: ['test-model'], ...opts });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** The base URL a client is given (ends in /v1). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Replies to the next chat requests, in order. A function reply sees the request it answers. */
  script(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  get unusedReplies(): number {
    return this.replies.length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    const recorded: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body: raw ? safeJson(raw) : null };
    this.requests.push(recorded);

    if (this.opts.apiKey && req.headers.authorization !== `Bearer ${this.opts.apiKey}`) {
      const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return json(res, 401, { error: { message: `Incorrect API key provided: ${sent}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (req.method === 'GET' && path === '/v1/models') {
      if (this.opts.noModelList) return json(res, 404, { error: { message: 'Not found' } });
      return json(res, 200, { object: 'list', data: this.opts.models!.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })) });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    const body = recorded.body;
    if (!body || typeof body !== 'object') return json(res, 400, { error: { message: 'the body is not JSON' } });
    // As Ollama does, `name` is the model listed as `name:latest`.
    if (!this.opts.models!.includes(body.model) && !this.opts.models!.includes(`${body.model}:latest`)) {
      return json(res, 404, { error: { message: `The model \`${body.model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' } });
    }
    const next = this.replies.shift();
    if (!next) return json(res, 500, { error: { message: 'the fake has no scripted reply left' } });
    const reply = typeof next === 'function' ? next(recorded) : next;
    await this.answer(reply, body, res);
  }

  private async answer(reply: FakeReply, body: any, res: http.ServerResponse): Promise<void> {
    const model = body.model as string;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `scripted HTTP ${reply.status}` } }));
      return;
    }
    if ('hang' in reply) return; // The socket stays open until the client gives up or close() destroys it.
    if ('garbage' in reply) {
      res.writeHead(200, { 'content-type': reply.contentType ?? 'text/event-stream' });
      res.end(reply.garbage);
      return;
    }
    if ('wholeJson' in reply) {
      const calls = (reply.wholeJson.toolCalls ?? []).map((c, i) => wireCall(c, i));
      return json(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.wholeJson.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: calls.length ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    }
    if (body.stream !== true) return json(res, 400, { error: { message: 'the fake streams only (script wholeJson for a whole answer)' } });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: object, finish: string | null = null) =>
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    const wantsUsage = body.stream_options?.include_usage === true && !this.opts.noUsage;
    const finishWith = (finish: string, usage: { prompt: number; completion: number } | false | undefined) => {
      send({}, finish);
      const u = usage === undefined ? { prompt: 12, completion: 7 } : usage;
      if (wantsUsage && u) {
        res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion } })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    };
    send({ role: 'assistant', content: '' });
    if ('hangAfter' in reply || 'cutAfter' in reply) {
      const text = 'hangAfter' in reply ? reply.hangAfter : reply.cutAfter;
      for (const piece of pieces(text, text.split(' ').length)) send({ content: piece });
      // Let the chunks leave before the connection goes.
      await new Promise((resolve) => setTimeout(resolve, 30));
      if ('cutAfter' in reply) res.socket?.destroy();
      return;
    }
    if ('text' in reply && !('toolCalls' in reply)) {
      for (const piece of pieces(reply.text, reply.chunks ?? reply.text.split(' ').length)) send({ content: piece });
      return finishWith(reply.finish ?? 'stop', reply.usage);
    }
    if (reply.text) for (const piece of pieces(reply.text, reply.text.split(' ').length)) send({ content: piece });
    reply.toolCalls.forEach((call, index) => {
      const wire = wireCall(call, index);
      const idx = reply.omitIndex ? {} : { index };
      send({ tool_calls: [{ ...idx, id: wire.id, type: 'function', function: { name: wire.function.name, arguments: '' } }] });
      for (const piece of pieces(wire.function.arguments, reply.argumentPieces ?? 3)) send({ tool_calls: [{ ...idx, function: { arguments: piece } }] });
    });
    finishWith('tool_calls', reply.usage);
  }
}

function wireCall(call: ScriptedCall, index: number) {
  return {
    id: call.id ?? `call_fake_${index + 1}`,
    type: 'function' as const,
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  };
}

/** `text` in `n` pieces that join back to it exactly (some may be empty when n exceeds the length). */
function pieces(text: string, n: number): string[] {
  const count = Math.max(1, n);
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
