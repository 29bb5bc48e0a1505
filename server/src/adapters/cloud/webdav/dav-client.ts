/**
 * HTTP to one WebDAV account: Basic auth, a keep-alive agent, an idle timeout per request, redirects followed
 * only within the account's origin, and every failure turned into a ProviderError the feature can act on.
 * The password goes in the Authorization header of requests to the account's origin and nowhere else: not in a
 * URL, a message or a log line.
 */
import http from 'node:http';
import https from 'node:https';
import { ProviderError } from '../provider.ts';
import { TrustingAgent } from './trusting-agent.ts';

export interface DavAccount {
  /** Normalised: http(s), no credentials, path ending in '/'. */
  base: URL;
  username: string;
  password: string;
  /** `AB:CD:…`, or null. */
  trustedFingerprint: string | null;
}

export interface DavClientOptions {
  /** A request with no byte moving for this long fails as `unreachable` (retryable). */
  idleTimeoutMs?: number;
}

export interface DavRequest {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface DavResponse {
  response: http.IncomingMessage;
  /** Where the answer came from after same-origin redirects. */
  url: URL;
}

const MAX_REDIRECTS = 5;
/** A folder of 10,000 entries answers about 5 MB; beyond this the answer is not a listing we should hold. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

export class DavClient {
  private readonly agent: http.Agent;
  private readonly authorization: string;
  readonly idleTimeoutMs: number;

  constructor(
    readonly account: DavAccount,
    opts: DavClientOptions = {},
  ) {
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
    this.agent =
      account.base.protocol === 'https:'
        ? new TrustingAgent(account.trustedFingerprint, this.idleTimeoutMs)
        : new http.Agent({ keepAlive: true, maxSockets: 8 });
    this.authorization = `Basic ${Buffer.from(`${account.username}:${account.password}`, 'utf8').toString('base64')}`;
  }

  /** Sends the request, following redirects within the origin. The caller reads or discards the body. */
  async request(req: DavRequest): Promise<DavResponse> {
    let url = req.url;
    for (let hops = 0; ; hops++) {
      const response = await this.once(req, url);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (![301, 302, 303, 307, 308].includes(status) || !location) return { response, url };
      response.resume();
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ProviderError('protocol', 'The server redirected to an address that does not parse.');
      }
      if (next.origin !== this.account.base.origin) {
        throw new ProviderError(
          'redirect_refused',
          `The server sent us on to ${next.origin}, another address than ${this.account.base.origin}. ` +
            'Hearth does not follow it, so your password is never sent there: enter the address the server redirects to if you trust it.',
        );
      }
      if (hops + 1 >= MAX_REDIRECTS) throw new ProviderError('protocol', 'The server redirected too many times.');
      url = next;
    }
  }

  private once(req: DavRequest, url: URL): Promise<http.IncomingMessage> {
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const outgoing = send(url, {
        method: req.method,
        agent: this.agent,
        signal: req.signal,
        timeout: this.idleTimeoutMs,
        headers: {
          authorization: this.authorization,
          'user-agent': 'Hearth (WebDAV import)',
          ...(req.body !== undefined ? { 'content-type': 'application/xml; charset=utf-8', 'content-length': String(Buffer.byteLength(req.body)) } : {}),
          ...req.headers,
        },
      });
      outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
      outgoing.on('error', (e) => reject(asProviderError(e, req.signal, url)));
      outgoing.on('response', (response) => {
        // The idle timeout goes on while the body streams: a stalled transfer fails instead of hanging a run.
        response.socket.setTimeout(this.idleTimeoutMs);
        resolve(response);
      });
      outgoing.end(req.body);
    });
  }

  /** Closes idle keep-alive sockets (and any still in use). */
  close(): void {
    this.agent.destroy();
  }
}

/** The body as text, or `protocol` when it is larger than any listing. */
export async function readBody(response: http.IncomingMessage, signal: AbortSignal, url: URL): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > MAX_BODY_BYTES) {
        response.destroy();
        throw new ProviderError('protocol', 'The server answered more than any folder listing holds.');
      }
      chunks.push(chunk);
    }
  } catch (e) {
    throw asProviderError(e, signal, url);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A failure while talking to the server, as the feature should see it. An abort stays the abort it was. */
export function asProviderError(e: unknown, signal: AbortSignal, url: URL): unknown {
  if (signal.aborted) return signal.reason;
  if (e instanceof ProviderError) return e;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) {
    return new ProviderError('unreachable', `${url.host} could not be reached (${describeNetworkCode(code)}).`, true, { cause: code });
  }
  if ((e as Error).message === 'aborted' || (e as Error).message === 'socket hang up') {
    return new ProviderError('unreachable', `The connection to ${url.host} was dropped.`, true, { cause: 'dropped' });
  }
  if (typeof code === 'string' && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO')) {
    return new ProviderError('unreachable', `A secure connection to ${url.host} could not be set up (${code}).`, true, { cause: code });
  }
  return new ProviderError('unreachable', `Talking to ${url.host} failed (${typeof code === 'string' ? code : 'unknown error'}).`, true);
}

function describeNetworkCode(code: string): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the name does not resolve';
    case 'ECONNREFUSED':
      return 'nothing answers at that address';
    case 'ETIMEDOUT':
      return 'it did not answer in time';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'no route to it';
    default:
      return 'the connection was dropped';
  }
}

/** An unexpected HTTP status as a ProviderError; `authFailure` says what 401/403 means at this step. */
export function statusError(status: number, what: string, authFailure: 'auth_failed' | 'session_expired' = 'auth_failed'): ProviderError {
  if (status === 401 || status === 403) {
    const message =
      authFailure === 'session_expired'
        ? 'The server no longer accepts the stored password: reconnect with the password or a new app token.'
        : 'The server refused the user name or password.';
    return new ProviderError(authFailure, message, false, { status: String(status) });
  }
  if (status === 404 || status === 410) return new ProviderError('not_found', `${what} does not exist on the server.`, false, { status: String(status) });
  if (status === 429 || status === 502 || status === 503 || status === 504) {
    return new ProviderError('service_unavailable', `The server is busy or unavailable (HTTP ${status}); try again later.`, true, { status: String(status) });
  }
  return new ProviderError('protocol', `The server answered HTTP ${status} for ${what}, which a WebDAV server does not.`, false, { status: String(status) });
}
