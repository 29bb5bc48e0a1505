/**
 * Below a paged grid (the library's lists, search results): "Loading more…" while the next page comes, or why it
 * failed with a "Try again" that asks for it again. A failed page is visible and retryable, never silent.
 */
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';

export function LoadMoreStatus({ loading, failed, error, onRetry }: { loading: boolean; failed: boolean; error: unknown; onRetry: () => void }) {
  return (
    <div className="grid__more">
      {loading && <p role="status">Loading more…</p>}
      {failed && (
        <p className="field__error">
          {messageOf(error)}{' '}
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </p>
      )}
    </div>
  );
}
