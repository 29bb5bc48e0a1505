/**
 * Duplicates (issue 14 point 6): copies of one photo, found by the server (exact copies by content,
 * near ones by how they look), shown a group at a time so the person decides.
 *
 * - The header says how many groups and photos wait and how much space keeping one of each recovers
 *   (getDuplicateSummary), with "Find duplicates" (FindDuplicates.tsx).
 * - The pending groups, newest first, 20 at a time with "Show more groups"; each a card with its
 *   photos side by side (DuplicateGroupCard.tsx).
 * - What the last "Keep one" or "Not duplicates" did stays above the list (with the bytes recovered)
 *   until the next one, rather than in a toast that goes by itself: a person resolving a long list
 *   wants to glance back at it.
 * - A photo opens full size in the library's viewer at `/duplicates/photos/<id>`; next and previous
 *   walk the photos of the loaded groups, in the order shown.
 * - On a phone the cards stack and each photo tile is a large tap target (duplicates.css).
 */
import { useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { formatRelative } from '../../lib/format';
import { assetToItem } from '../../photos/library-api';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { useViewerRoute } from '../../photos/viewer-route';
import { DuplicateGroupCard } from './DuplicateGroupCard';
import { useDuplicateSummary, usePendingGroups } from './duplicates-api';
import { flattenGroups } from './group-pages';
import { FindDuplicates } from './FindDuplicates';
import { summarySentence } from './group-facts';
import './duplicates.css';
import { LoadError } from '../../components/LoadError';

export function DuplicatesPage() {
  const summary = useDuplicateSummary();
  const list = usePendingGroups();
  const groups = useMemo(() => flattenGroups(list.data?.pages), [list.data?.pages]);
  const items = useMemo(() => groups.flatMap((g) => g.assets.map((m) => assetToItem(m.asset))), [groups]);
  const { open } = useViewerRoute();
  const [lastResult, setLastResult] = useState<string | null>(null);

  return (
    <>
      <PageHeader title="Duplicates">
        <div className="dup-header">
          <section className="dup-header__summary" aria-label="Duplicates summary">
            {summary.isSuccess && (
              <>
                <p className="dup-header__space">{summarySentence(summary.data)}</p>
                <p className="dup-header__checked">
                  {summary.data.last_detected_at ? `Last looked ${formatRelative(summary.data.last_detected_at)}.` : 'Not looked for yet.'}
                  {summary.data.merged_groups + summary.data.dismissed_groups > 0 &&
                    ` ${summary.data.merged_groups} merged, ${summary.data.dismissed_groups} kept as they are.`}
                </p>
              </>
            )}
            {summary.isError && (
              <LoadError error={summary.error} onRetry={() => void summary.refetch()} as="p" small />
            )}
          </section>
          <FindDuplicates />
        </div>
      </PageHeader>

      <div role="status" className="dup-result">
        {lastResult && (
          <p className="notice notice--success">
            {lastResult}{' '}
            <Button variant="quiet" className="button--small" onClick={() => setLastResult(null)}>
              Dismiss
            </Button>
          </p>
        )}
      </div>

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && !list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && groups.length === 0 && (
        <EmptyState icon="similar" title="No duplicates found">
          <p>Copies of the same photo show up here, so you can keep one and free the space. Hearth looks by itself after new photos arrive.</p>
        </EmptyState>
      )}

      {groups.length > 0 && (
        <section className="dup-groups" aria-label="Duplicate groups">
          {groups.map((g) => (
            <DuplicateGroupCard key={g.group_id} group={g} onOpen={open} onResolved={setLastResult} />
          ))}
        </section>
      )}

      {list.hasNextPage && !list.isFetchNextPageError && (
        <div className="dup-more">
          <Button variant="secondary" onClick={() => void list.fetchNextPage()} busy={list.isFetchingNextPage} busyLabel="Loading more…">
            Show more groups
          </Button>
        </div>
      )}
      {list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.fetchNextPage()} as="p" />
      )}

      <RoutedViewer items={items} />
    </>
  );
}
