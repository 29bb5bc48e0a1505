/**
 * The typed client for everything except establishing a session (see bare-client.ts).
 *
 * Its middleware puts the in-memory access token on each request and, when the server answers 401
 * (the token expired while the tab slept, or was revoked by a role change), renews the session once
 * and replays the request. If renewal fails the session manager signs out, and the caller gets the
 * original 401 as an ApiError.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { CLIENT_OPTIONS } from './bare-client';
import { session } from './session';

/** Copies of outgoing requests, by openapi-fetch request id, kept until the answer is in for a replay. */
const pending = new Map<string, { copy: Request; token: string }>();

const bearer: Middleware = {
  async onRequest({ request, id }) {
    const token = await session.tokenForRequest();
    if (!token) return request;
    request.headers.set('Authorization', `Bearer ${token}`);
    // The body of a Request can be read once; keep an unread copy in case it must be sent again.
    pending.set(id, { copy: request.clone(), token });
    return request;
  },

  async onResponse({ response, id }) {
    const sent = pending.get(id);
    pending.delete(id);
    if (response.status !== 401 || !sent) return undefined;
    const token = await session.tokenAfterRejection(sent.token);
    if (!token) return undefined;
    const retry = new Request(sent.copy);
    retry.headers.set('Authorization', `Bearer ${token}`);
    return fetch(retry);
  },

  onError({ id }) {
    pending.delete(id);
  },
};

export const api = createClient<paths>(CLIENT_OPTIONS);
api.use(bearer);
