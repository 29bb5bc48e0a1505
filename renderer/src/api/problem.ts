/**
 * Turns what openapi-fetch hands back into either data or an ApiError carrying the server's
 * problem document, so every screen reports failures the same way: `detail` for people, field
 * errors next to their inputs, `code` for the few places that branch on a specific failure.
 */
import type { Problem } from './types';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Field errors keyed by the field name without its location, e.g. `password` for `body.password`. */
  readonly fieldErrors: Record<string, string>;
  /** The problem's extension members a screen acts on (`run_id`, `fingerprint`; the server's Problem schema names them). */
  readonly members: Pick<Problem, 'run_id' | 'fingerprint'>;

  constructor(status: number, code: string, detail: string, fieldErrors: Record<string, string> = {}, members: Pick<Problem, 'run_id' | 'fingerprint'> = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.members = members;
  }

  get detail(): string {
    return this.message;
  }
}

const NETWORK_MESSAGE = 'Hearth could not be reached. Check the connection and try again.';

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'detail' in value && 'status' in value;
}

/** `body.registration.invite_code` → `registration.invite_code`; the first message per field wins. */
function fieldErrorsOf(problem: Problem): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of problem.errors ?? []) {
    const name = e.field.replace(/^(body|query|path|header)\./, '');
    out[name] ??= sentence(e.message);
  }
  return out;
}

/** Server messages are fragments ("must be at least 10 characters"); shown under a field they read as sentences. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function toApiError(error: unknown, response: Response): ApiError {
  if (isProblem(error)) {
    const members = { ...(error.run_id ? { run_id: error.run_id } : {}), ...(error.fingerprint ? { fingerprint: error.fingerprint } : {}) };
    return new ApiError(response.status, error.code, error.detail, fieldErrorsOf(error), members);
  }
  // Not a problem document: a proxy in front of Hearth, or the server not running behind the dev server.
  const detail =
    response.status >= 500 ? 'Hearth ran into a problem answering. Try again in a moment.' : `The request failed (HTTP ${response.status}).`;
  return new ApiError(response.status, `http_${response.status}`, detail);
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Awaits an openapi-fetch call and returns its data, or throws ApiError (also for a network failure,
 * which fetch reports as a TypeError with a browser-specific message nobody should have to read).
 */
export async function request<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e instanceof DOMException && (e.name === 'AbortError' || e.name === 'TimeoutError')) {
      throw new ApiError(0, 'timeout', 'Hearth took too long to answer. Try again.');
    }
    throw new ApiError(0, 'network', NETWORK_MESSAGE);
  }
  if (result.response.ok) return result.data as T;
  throw toApiError(result.error, result.response);
}

/** A message for anything a query or mutation may throw. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return 'Something went wrong. Try again.';
}
