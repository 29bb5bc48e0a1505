/**
 * The search page's state lives in its address, so Back and Forward walk through searches and a
 * search can be reloaded or bookmarked:
 * - `/search?q=beach+2023` — a text query;
 * - `&ignore=<chip id>,<chip id>` — parsed filters the person removed (their words stay in the text);
 * - `&reading=filters|words` — "Search instead for …": the query's understood words read as filters, or
 *   every word searched as words (absent: the server decides, `parsed.reading` says how);
 * - `/search?similar=<asset id>` — photos like one of the library's ("Find similar" in the viewer);
 * - `/search?image=<key>` — a dropped or picked image. The image itself is never in the address
 *   (nor stored anywhere): `key` names it in this tab's memory (image-queries.ts). After a reload the
 *   page asks for the image again.
 */

export const SEARCH_PAGE = '/search';

/** How the query's understood words are read (searchAssets `reading`). */
export type QueryReading = 'filters' | 'words';

export type SearchState =
  | { kind: 'text'; query: string; ignore: string[]; reading?: QueryReading | undefined }
  | { kind: 'similar'; assetId: string }
  | { kind: 'image'; key: string }
  | { kind: 'none' };

export function readSearchState(search: string): SearchState {
  const p = new URLSearchParams(search);
  const similar = p.get('similar');
  if (similar) return { kind: 'similar', assetId: similar };
  const image = p.get('image');
  if (image) return { kind: 'image', key: image };
  const query = (p.get('q') ?? '').trim();
  if (!query) return { kind: 'none' };
  const ignore = (p.get('ignore') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const reading = p.get('reading');
  return { kind: 'text', query, ignore: [...new Set(ignore)], ...(reading === 'filters' || reading === 'words' ? { reading } : {}) };
}

/** The address (path and query string) of a search. */
export function searchHref(state: SearchState): string {
  const p = new URLSearchParams();
  if (state.kind === 'text') {
    p.set('q', state.query.trim());
    if (state.ignore.length) p.set('ignore', state.ignore.join(','));
    if (state.reading) p.set('reading', state.reading);
  } else if (state.kind === 'similar') p.set('similar', state.assetId);
  else if (state.kind === 'image') p.set('image', state.key);
  const qs = p.toString();
  return qs ? `${SEARCH_PAGE}?${qs}` : SEARCH_PAGE;
}
