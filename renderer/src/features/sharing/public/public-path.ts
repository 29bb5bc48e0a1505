/**
 * The public link page's address: `/s/<key>`, the key as createShareLink gave it. main.tsx asks
 * this before anything else, so a visitor's page never loads the signed-in app (its session module
 * would try to renew a session when another tab signs in).
 */
export const PUBLIC_LINK_PREFIX = '/s/';

/** The link key of a public page's path, or null for every other path. */
export function publicLinkKey(pathname: string): string | null {
  const m = /^\/s\/([A-Za-z0-9_-]{1,100})\/?$/.exec(pathname);
  return m ? m[1]! : null;
}
