/**
 * One HTTP exchange with a model server, with the two timeouts a streamed answer needs: `connectTimeoutMs` until
 * the connection stands, then `idleTimeoutMs` of silence at most, while waiting for the answer to begin (a local
 * model reading a long prompt) and between its chunks. Node's http is used rather than fetch because its socket
 * shows both phases; no keep-alive agent, since requests are seconds apart and a socket the server closed while
 * idle would fail the next request before its first byte for nothing.
 *
 * Failures come out as the client's errors (errors.ts); an abort by the caller comes out as the signal's reason,
 * unchanged, so a cancelled run is told apart from a failed one.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { LlmTimeoutError, LlmUnreachableError, type LlmError } from './errors.ts';

export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  /**
   * The body's bytes. Throws the idle timeout, a dropped connection (`dropped` is true: the caller says what it
   * means mid-stream) or the abort.
   */
  body: AsyncIterable<Buffer>;
  /** Stops reading and closes the connection. */
  discard(): void;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

/** The connection went away before the body's end (no timeout, no abort). */
export class DroppedError extends Error {
  constructor(readonly causeCode: string) {
    super('the connection dropped');
  }
}

const NETWORK_WORDS: Record<string, string> = {
  ENOTFOUND: 'the name does not resolve',
  EAI_AGAIN: 'the name does not resolve',
  ECONNREFUSED: 'nothing answers at that address (is the server started?)',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'there is no route to it',
  ENETUNREACH: 'there is no route to it',
  EHOSTDOWN: 'there is no route to it',
  ENETDOWN: 'this machine has no network',
  EPIPE: 'the connection was closed',
};

export function send(req: ExchangeRequest): Promise<Exchange> {
  const { url, signal } = req;
  const where = url.host;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    // Set once a timer fires, so whatever error the destroyed socket then raises is reported as the timeout.
    let timedOut: LlmTimeoutError | null = null;
    let connectTimer: NodeJS.Timeout | null = null;
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request(url, { method: req.method, headers: req.headers, signal, agent: false });

    const fail = (e: unknown): unknown => {
      if (signal.aborted) return signal.reason;
      if (timedOut) return timedOut;
      return networkError(e, where);
    };
    const idle = (socket: Socket) => {
      socket.setTimeout(req.idleTimeoutMs, () => {
        timedOut ??= new LlmTimeoutError('idle', `${where} stopped answering: nothing came for ${seconds(req.idleTimeoutMs)}.`);
        outgoing.destroy(timedOut);
      });
    };
    outgoing.on('socket', (socket: Socket) => {
      if (!socket.connecting) return idle(socket);
      connectTimer = setTimeout(() => {
        timedOut = new LlmTimeoutError('connect', `${where} did not accept a connection within ${seconds(req.connectTimeoutMs)}.`);
        outgoing.destroy(timedOut);
      }, req.connectTimeoutMs);
      socket.once('connect', () => {
        if (connectTimer) clearTimeout(connectTimer);
        idle(socket);
      });
    });
    outgoing.on('error', (e) => {
      if (connectTimer) clearTimeout(connectTimer);
      reject(fail(e));
    });
    outgoing.on('response', (response) => {
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: bodyOf(response, fail),
        discard: () => {
          response.destroy();
          outgoing.destroy();
        },
      });
    });
    outgoing.end(req.body);
  });
}

async function* bodyOf(response: http.IncomingMessage, fail: (e: unknown) => unknown): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) yield chunk;
  } catch (e) {
    const mapped = fail(e);
    throw mapped instanceof LlmUnreachableError ? new DroppedError(String((e as { code?: unknown }).code ?? 'aborted')) : mapped;
  }
  // A body cut short without an error event (the peer closed a chunked answer early).
  if (!response.complete) {
    const mapped = fail(new Error('aborted'));
    throw mapped instanceof LlmUnreachableError ? new DroppedError('incomplete') : mapped;
  }
}

function networkError(e: unknown, where: string): LlmError {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_WORDS[code]) return new LlmUnreachableError(`${where} could not be reached: ${NETWORK_WORDS[code]}.`, hintFor(code));
  if (typeof code === 'string' && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('CERT') || code === 'EPROTO')) {
    return new LlmUnreachableError(`A secure connection to ${where} could not be set up (${code}).`, 'Check that the address starts with https only if the server serves HTTPS.');
  }
  if ((e as Error).message === 'socket hang up') return new LlmUnreachableError(`${where} closed the connection before answering.`);
  return new LlmUnreachableError(`Talking to ${where} failed (${typeof code === 'string' ? code : (e as Error).message}).`);
}

function hintFor(code: string): string | undefined {
  if (code === 'ECONNREFUSED') return 'Start the model server, or check the port in the base URL.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Check the host name in the base URL.';
  return undefined;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
