/**
 * A search result's `match` (why it came back), read from any gallery item: the library's tiles
 * show it when the item came from a search, and nothing otherwise.
 */
import type { GalleryItem } from './library-api';
import type { components } from '../api/schema';

export type SearchMatch = components['schemas']['SearchMatch'];

export function matchOf(item: GalleryItem): SearchMatch | undefined {
  const m = (item as GalleryItem & { match?: SearchMatch | null }).match;
  return m && Array.isArray(m.why) ? m : undefined;
}

/** The phrases as one line: "text 'EXIT' on a sign · looks like your query · filename". */
export function whyLine(match: SearchMatch): string {
  const phrases = match.why.map((w) => w.trim()).filter(Boolean);
  return phrases.length ? phrases.join(' · ') : 'matches your search';
}

/** A video found by one of its frames starts there (seconds), else at the beginning. */
export function startSeconds(match: SearchMatch | undefined): number {
  const ms = match?.frame_ts_ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}
