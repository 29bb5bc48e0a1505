/**
 * The client without session handling, for the calls that establish or renew a session (bootstrap,
 * register, login, csrf, refresh, logout). They must never go through the refresh-on-401 middleware:
 * a 401 from login means a wrong password, and one from refresh means the session is over.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * Options both clients share. The UI speaks response variant A (plain resources, problem documents,
 * the refresh token in an HttpOnly cookie). An installation may make variant B its default, so
 * every request asks for A explicitly.
 */
export const CLIENT_OPTIONS = {
  baseUrl: '',
  credentials: 'same-origin',
  headers: { 'X-Api-Variant': 'A' },
} as const;

export const bareClient = createClient<paths>(CLIENT_OPTIONS);

/** Session calls hold a cross-tab lock, so they must not hang forever on a stalled connection. */
export const AUTH_CALL_TIMEOUT_MS = 15_000;
