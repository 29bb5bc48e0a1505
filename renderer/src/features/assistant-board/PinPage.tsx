/**
 * One pin's photos (`/board/<pin>`): its title, live or frozen, how many, and the photos in the pin's order
 * (getAgentPinAssets, a page at a time as the end of the grid comes near), opening in the library's viewer at
 * `/board/<pin>/photos/<asset>`, which steps through the pin's photos. An unknown pin, or another member's, is
 * the not-found page (the server answers 404 for both). Photos select as in the library, with the same bulk actions.
 */
import { Suspense, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useLoadMore, useOpenAt } from '../../photos/grid-paging';
import { assetToItem } from '../../photos/library-api';
import { LoadMoreStatus } from '../../photos/LoadMoreStatus';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { Timeline } from '../../photos/Timeline';
import { useViewerRoute } from '../../photos/viewer-route';
import { useSelection } from '../../photos/use-selection';
import { LazySelectionBar as SelectionBar } from '../../photos/lazy-parts';
import { usePin, usePinAssets } from './board-api';
import { BOARD_PATH } from './board-path';
import { dayRange, modeOf, photoCount } from './pin-facts';
import '../../photos/library.css';
import './board.css';

export function PinPage() {
  const id = useParams().pinId ?? '';
  const pin = usePin(id);
  const list = usePinAssets(id);
  const items = useMemo(() => (list.data?.pages ?? []).flatMap((p) => p.assets.map(assetToItem)), [list.data?.pages]);
  const selection = useSelection(items);
  const { open } = useViewerRoute();
  const openAt = useOpenAt(items, open);
  const loadMore = useLoadMore(list);
  const p = pin.data;
  useDocumentTitle(p?.title ?? 'Pin');

  const status = (pin.error as { status?: number } | null)?.status;
  if (status === 404 || status === 422) return <NotFoundPage />;
  const mode = p ? modeOf(p) : null;
  const range = p ? dayRange(p.facets.date_range) : null;

  return (
    <>
      <header className="page-header">
        <Link to={BOARD_PATH} className="pin-page__back">
          ← Board
        </Link>
        <h1 className="page-header__title">{p?.title ?? 'Pin'}</h1>
        {p && mode && (
          <div className="page-header__intro">
            <p>
              {photoCount(p.count, p.facets.types)}
              {range && ` · ${range}`}
              {p.summary && ` · ${p.summary}`}
            </p>
            <p>
              <span className={`badge ${p.mode === 'frozen' ? 'badge--muted' : ''}`}>{mode.label}</span> {mode.meaning}
            </p>
          </div>
        )}
      </header>
      {pin.isError && <LoadError error={pin.error} onRetry={() => void pin.refetch()} />}
      {selection.selected.size > 0 && (
        <Suspense fallback={null}>
          <SelectionBar ids={[...selection.selected]} items={selection.selectedRows} trash={false} onDone={selection.clear} />
        </Suspense>
      )}
      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && !list.isFetchNextPageError && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && items.length === 0 && (
        <EmptyState icon="image" title="No photos">
          <p>{p?.mode === 'live' ? 'Its request finds no photos now.' : 'Its photos are in the Trash or gone.'}</p>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Timeline
          items={items}
          groupByDay={false}
          label={`Photos of ${p?.title ?? 'the pin'}`}
          selected={selection.selectedItems}
          onToggleSelect={selection.toggle}
          onBand={selection.band}
          onOpen={openAt}
          onNearEnd={loadMore}
          hasMore={list.hasNextPage}
        />
      )}
      <LoadMoreStatus loading={list.isFetchingNextPage} failed={list.isFetchNextPageError} error={list.error} onRetry={loadMore} />
      <RoutedViewer items={items} onNearEnd={loadMore} />
    </>
  );
}
