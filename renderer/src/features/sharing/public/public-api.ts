/**
 * What the public link page asks the server: only the link's own operations (getSharedLink,
 * unlockSharedLink, listSharedLinkAssets and the media URLs), through the client without a session
 * (bare-client.ts): no bearer token, no refresh on 401, nothing of an account.
 *
 * The link token (for a password link, after unlocking) is kept in this tab's sessionStorage until
 * it expires, so a reload does not ask for the password again; it is the visitor's, not an account's.
 */
import { bareClient } from '../../../api/bare-client';
import { ApiError, request, toApiError } from '../../../api/problem';
import type { components } from '../../../api/schema';

export type SharedLinkInfo = components['schemas']['SharedLink'];
export type SharedPhoto = components['schemas']['SharedPhoto'];

const base = (key: string) => `/api/v1/shared/${encodeURIComponent(key)}`;

export function describeLink(key: string, signal?: AbortSignal) {
  return request(bareClient.GET('/api/v1/shared/{key}', { params: { path: { key } }, ...(signal ? { signal } : {}) }));
}

export function listLinkPhotos(key: string, token: string | null, signal?: AbortSignal) {
  return request(
    bareClient.GET('/api/v1/shared/{key}/photos', {
      params: { path: { key } },
      ...(token ? { headers: { 'X-Link-Token': token } } : {}),
      ...(signal ? { signal } : {}),
    }),
  );
}

/** Minutes (rounded up) in words, for "wait N minutes". */
const minutes = (seconds: number) => {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return m === 1 ? 'a minute' : `${m} minutes`;
};

/** The password → a link token; a lockout (429) is said in plain words with how long to wait. */
export async function unlockLink(key: string, password: string): Promise<{ link_token: string; expires_at: string }> {
  let result;
  try {
    result = await bareClient.POST('/api/v1/shared/{key}/unlock', { params: { path: { key } }, body: { password } });
  } catch {
    throw new ApiError(0, 'network', 'Hearth could not be reached. Check the connection and try again.');
  }
  const { response } = result;
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    throw new ApiError(429, 'rate_limited', `Too many wrong passwords were tried. For your safety this link is locked for a while: wait ${minutes(Number.isFinite(wait) && wait > 0 ? wait : 300)} and try again.`);
  }
  if (response.status === 403) throw new ApiError(403, 'wrong_password', 'That is not the password of this link. Check it and try again.', { password: 'That is not the password.' });
  if (response.ok && result.data) return result.data;
  throw toApiError(result.error, response);
}

const q = (token: string | null) => (token ? `lt=${encodeURIComponent(token)}` : '');
const withQuery = (path: string, ...parts: string[]) => {
  const query = parts.filter(Boolean).join('&');
  return query ? `${path}?${query}` : path;
};

export const linkUrls = {
  thumbnail: (key: string, photoId: string, size: 'small' | 'medium' | 'large', token: string | null) =>
    withQuery(`${base(key)}/photos/${encodeURIComponent(photoId)}/thumbnail`, `size=${size}`, q(token)),
  video: (key: string, photoId: string, token: string | null) => withQuery(`${base(key)}/photos/${encodeURIComponent(photoId)}/video`, q(token)),
  original: (key: string, photoId: string, token: string | null) => withQuery(`${base(key)}/photos/${encodeURIComponent(photoId)}/original`, q(token)),
  zip: (key: string, token: string | null) => withQuery(`${base(key)}/download`, q(token)),
};

const storageKey = (key: string) => `hearth.link-token.${key}`;

export const keptTokens = {
  get(key: string): string | null {
    try {
      const kept = JSON.parse(sessionStorage.getItem(storageKey(key)) ?? 'null') as { token: string; expires_at: string } | null;
      if (kept && Date.parse(kept.expires_at) - Date.now() > 60_000) return kept.token;
    } catch {
      // Storage blocked or garbled: ask again.
    }
    return null;
  },
  set(key: string, token: string, expiresAt: string) {
    try {
      sessionStorage.setItem(storageKey(key), JSON.stringify({ token, expires_at: expiresAt }));
    } catch {
      // Private mode without storage: the token lives as long as the page.
    }
  },
  drop(key: string) {
    try {
      sessionStorage.removeItem(storageKey(key));
    } catch {
      // Nothing kept.
    }
  },
};
