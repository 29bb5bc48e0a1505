/**
 * What the household should know about an answer: semantic search unavailable (the answer came from
 * the words channels only), and indexing still under way (results may be missing photos).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { pendingOf } from './indexing-progress';

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
