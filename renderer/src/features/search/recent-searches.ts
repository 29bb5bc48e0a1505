/**
 * Recent text searches, newest first, kept in this browser (localStorage) for the suggestions.
 * Per signed-in member: on a shared family computer one person's searches are not offered to another.
 * A search typed again moves to the top rather than appearing twice (case and spaces ignored).
 */

export const MAX_RECENT = 8;
const KEY_PREFIX = 'hearth.search.recent.';

interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const normal = (q: string) => q.trim().replace(/\s+/g, ' ');
const same = (a: string, b: string) => normal(a).toLowerCase() === normal(b).toLowerCase();

export function readRecent(store: Storage, userId: number | string): string[] {
  try {
    const raw: unknown = JSON.parse(store.getItem(KEY_PREFIX + userId) ?? '[]');
    return Array.isArray(raw) ? raw.filter((q): q is string => typeof q === 'string' && normal(q) !== '').slice(0, MAX_RECENT) : [];
  } catch {
    // Not ours any more (edited by hand, or an older format): start afresh.
    return [];
  }
}

export function rememberSearch(store: Storage, userId: number | string, query: string): string[] {
  const q = normal(query);
  if (!q) return readRecent(store, userId);
  const next = [q, ...readRecent(store, userId).filter((r) => !same(r, q))].slice(0, MAX_RECENT);
  try {
    store.setItem(KEY_PREFIX + userId, JSON.stringify(next));
  } catch {
    // Storage full or refused (private mode): the suggestions just have no history.
  }
  return next;
}

export function forgetRecent(store: Storage, userId: number | string): void {
  store.removeItem(KEY_PREFIX + userId);
}
