/**
 * What the household should know about an answer: semantic search unavailable (the answer came from
 * the words channels only), and indexing still under way (results may be missing photos).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { pendingOf } from './indexing-progress';
import type { SearchResponse } from './search-api';

type Parsed = SearchResponse['parsed'];

/**
 * How the query was read, and the other way to read it: "Showing results for the words “DJI_FLIR”.
 * Search instead with Camera FLIR", or, under filters, "Search instead for the words “red videos”"
 * (offered when that reading found something, or was not tried).
 */
export function ReadingNote({ parsed, hrefFor }: { parsed: Parsed; hrefFor: (reading: 'filters' | 'words') => string }) {
  const other = parsed.other_reading;
  if (!other) return null;
  if (parsed.reading === 'words' && other.reading === 'filters') {
    return (
      <p className="search-reading" role="status">
        Showing results for the words “{parsed.rest}”.{' '}
        <Link to={hrefFor('filters')}>Search instead with {other.chips.map((c) => c.label).join(', ')}</Link>
      </p>
    );
  }
  if (parsed.reading === 'filters' && other.reading === 'words' && other.results_total !== 0) {
    return (
      <p className="search-reading" role="status">
        <Link to={hrefFor('words')}>Search instead for the words “{other.rest}”</Link>
      </p>
    );
  }
  return null;
}

/** Results came back, but none has every word of the query as a word: say so, so the grid is not taken for a match. */
export function WeakMatchNote() {
  return (
    <p className="notice notice--info search-notice search-weak" role="status">
      Nothing matched well: these results have only some of your words, or look only a little like what you asked for.
    </p>
  );
}

/** Engineer E's admin page for installing models. */
export const MODELS_PAGE = '/admin/models';

export function DegradedNotice({ reason, isAdmin, byImage }: { reason: string | null | undefined; isAdmin: boolean; byImage: boolean }) {
  const text = byImage
    ? 'Finding photos by how they look needs the image model, which is not installed.'
    : 'Searching by text only: the image model is not installed.';
  return (
    <div className="notice notice--info search-notice" role="status" data-reason={reason ?? undefined}>
      {text}{' '}
      {isAdmin ? (
        <Link to={MODELS_PAGE}>Install it on the Models page</Link>
      ) : (
        'An administrator can install it.'
      )}
    </div>
  );
}

/** While photos wait to be read (OCR) or looked at (semantic), a search can miss them: say so, with the figures. */
export function IndexingNote() {
  const stats = useQuery({
    queryKey: ['search', 'indexing-stats'],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/indexing/stats', { signal })),
    staleTime: 15_000,
    refetchInterval: (q) => (q.state.data && pendingOf(q.state.data) ? 15_000 : false),
  });
  const pending = stats.data ? pendingOf(stats.data) : null;
  if (!pending) return null;
  return (
    <p className="search-indexing" role="status">
      Hearth is still reading your photos ({pending.done.toLocaleString()} of {pending.total.toLocaleString()} done): some may not be found yet.
    </p>
  );
}
