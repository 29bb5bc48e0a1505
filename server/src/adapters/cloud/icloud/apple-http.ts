/**
 * One HTTP exchange with Apple, as a signed-in browser makes it: the session's cookies go out, the
 * cookies and sign-in headers that come back are kept in the session. Failures that are not about the
 * answer's meaning (network, 503, a redirect elsewhere) become ProviderErrors here; the callers read
 * the rest. Nothing secret goes into an error message: only status codes and Apple's public error codes.
 */
import { ProviderError } from '../provider.ts';
import { CookieJar } from './cookies.ts';
import type { AppleAuthHeaders, ICloudSession } from './session.ts';

export type FetchLike = typeof fetch;

export interface AppleAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface AppleRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** A JSON body (sent as a string), or a raw string body. */
  body?: unknown;
  headers?: Record<string, string>;
  signal: AbortSignal;
}

/** How long one API call may take before the service counts as unreachable. */
const CALL_TIMEOUT_MS = 30_000;

const AUTH_HEADERS: [string, keyof AppleAuthHeaders][] = [
  ['scnt', 'scnt'],
  ['x-apple-id-session-id', 'sessionId'],
  ['x-apple-session-token', 'sessionToken'],
  ['x-apple-id-account-country', 'accountCountry'],
  ['x-apple-twosv-trust-token', 'trustToken'],
];

/** Rethrows the caller's abort as it is; anything else thrown by fetch is the network's fault. */
export function networkError(e: unknown, signal: AbortSignal, what: string): never {
  if (signal.aborted) throw signal.reason;
  if (e instanceof ProviderError) throw e;
  const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
  throw new ProviderError('unreachable', timeout ? `${what} did not answer in time.` : `${what} cannot be reached.`, true);
}

export class AppleHttp {
  private readonly jar: CookieJar;

  constructor(
    private readonly session: ICloudSession,
    private readonly fetchImpl: FetchLike,
  ) {
    this.jar = new CookieJar(session.cookies);
  }

  async call(url: string, req: AppleRequest, what = "Apple's service"): Promise<AppleAnswer> {
    const target = new URL(url);
    const headers: Record<string, string> = { Accept: 'application/json, text/javascript, */*', ...req.headers };
    const cookie = this.jar.headerFor(target.hostname);
    if (cookie) headers.Cookie = cookie;
    let body: string | undefined;
    if (req.body !== undefined) {
      body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      headers['Content-Type'] ??= 'application/json';
    }
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(target, {
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: 'manual',
        signal: AbortSignal.any([req.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
      });
      text = await res.text();
    } catch (e) {
      networkError(e, req.signal, what);
    }
    this.keep(target.hostname, res.headers);
    if (res.status >= 300 && res.status < 400) {
      throw new ProviderError('redirect_refused', `${what} sent the request elsewhere (HTTP ${res.status}); not followed.`);
    }
    if (res.status === 503 || res.status === 429) {
      // Said to the member as it is (the problem's detail): a plain sentence, no status code.
      throw new ProviderError('service_unavailable', `${what} is busy or paused for maintenance right now. Try again in a few minutes.`, true);
    }
    return { status: res.status, headers: res.headers, text };
  }

  /** Cookies and sign-in headers of an answer, into the session. */
  keep(host: string, headers: Headers): void {
    this.jar.store(host, headers.getSetCookie());
    this.session.cookies = this.jar.toJSON();
    for (const [header, key] of AUTH_HEADERS) {
      const v = headers.get(header);
      if (v) this.session.auth[key] = v;
    }
  }

  cookieHeader(host: string): string | null {
    return this.jar.headerFor(host);
  }
}

/** The answer's JSON, or null when it is not JSON (Apple answers some calls with HTML or nothing). */
export function jsonOf(answer: AppleAnswer): Record<string, unknown> | null {
  if (!answer.text) return null;
  try {
    const v: unknown = JSON.parse(answer.text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
