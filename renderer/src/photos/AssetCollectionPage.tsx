/**
 * A page of assets from the unified query: the Photos timeline, Favourites, Trash, a folder.
 * Virtualised grid (Timeline), paging as the end comes near, multi-select with bulk actions
 * (use-selection.ts), and the viewer at `<this page's path>/photos/<id>` (viewer-route.ts).
 * Thumbnail size: a slider in the header (desktops), a pinch on the grid (phones); remembered
 * (thumbnail-size.ts). A list grouped by day gets the date scrubber, fed by getAssetQueryYears with
 * the list's own filter and stack mode: its years are the list's (Favourites of 2008 show 2008, not
 * every year of the library; the timeline counts a partner's shared photos it shows).
 */
import { Suspense, useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import { EmptyState } from '../components/EmptyState';
import type { IconName } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { flattenPages, libraryKeys, useAssetList, type AssetFilter, type SortBy, type StackMode } from './library-api';
import { RoutedViewer } from './RoutedViewer';
import { Timeline } from './Timeline';
import { ThumbnailSizeSlider } from './ThumbnailSizeSlider';
import { useThumbnailSize } from './thumbnail-size';
import { useSelection } from './use-selection';
import { useViewerRoute } from './viewer-route';
import { LoadMoreStatus } from './LoadMoreStatus';
import { useLoadMore, useOpenAt } from './grid-paging';
import './library.css';
import { LoadError } from '../components/LoadError';

// The bulk actions (albums, tags, stacks, zip) load with the first selection, not with the grid.
import { LazySelectionBar as SelectionBar } from './lazy-parts';
import { gridSlots } from './viewer-slots';

export interface CollectionProps {
  name: string;
  title: string;
  /** The grid's accessible name (default: the title). */
  listLabel?: string;
  /** "12 photos and videos" → the sentence under the title. */
  describe: (total: number) => string;
  filter?: AssetFilter;
  sortBy: SortBy;
  /** Stacks as one tile each (the server's default) or every member its own tile. */
  stackMode?: StackMode;
  groupByDay: boolean;
  empty: { icon: IconName; title: string; text: React.ReactNode };
  /** The Trash offers restore instead of delete. */
  trash?: boolean;
  /** Shown above the grid (the filters of the timeline). */
  toolbar?: React.ReactNode;
}

/** Dates in filters are the viewer's days: the server reads them in this zone. */
const VIEWER_TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function AssetCollectionPage({ name, title, listLabel, describe, filter, sortBy, stackMode, groupByDay, empty, trash = false, toolbar }: CollectionProps) {
  const query = useMemo(
    () => ({
      ...(filter ? { filter } : {}),
      sort_by: sortBy,
      ...(stackMode ? { stack_mode: stackMode } : {}),
      ...(filter?.date && VIEWER_TIMEZONE ? { viewer_timezone: VIEWER_TIMEZONE } : {}),
    }),
    [filter, sortBy, stackMode],
  );
  const list = useAssetList(name, query);
  const items = useMemo(() => flattenPages(list.data?.pages), [list.data?.pages]);
  const total = list.data?.pages.at(-1)?.total_visible ?? 0;
  const selection = useSelection(items);
  const { open: openPhoto } = useViewerRoute();
  const queryClient = useQueryClient();
  const { hasNextPage, isFetchingNextPage } = list;
  const size = useThumbnailSize();
  const zoomStep = useCallback((delta: 1 | -1) => size.setStep((s) => s + delta), [size.setStep]);
  // Rows per year for the scrubber, of this very list: counted by the server, not by paging.
  const yearsQuery = useMemo(() => {
    const { sort_by: _sort, ...same } = query;
    return same;
  }, [query]);
  const years = useQuery({
    queryKey: [...libraryKeys.list(name, query), 'years'],
    queryFn: ({ signal }) => request(api.POST('/api/v1/assets/query/years', { body: yearsQuery, signal })),
    enabled: groupByDay,
    staleTime: 60_000,
  });

  gridSlots().useUploadSettled(useCallback(() => void queryClient.invalidateQueries({ queryKey: libraryKeys.all }), [queryClient]));

  const loadMore = useLoadMore(list);

  const openAt = useOpenAt(items, openPhoto);

  return (
    <>
      <PageHeader title={title}>
        {items.length > 0 && (
          <div className="page-header__row">
            <p>{describe(total)}</p>
            <ThumbnailSizeSlider step={size.step} onChange={size.setStep} />
          </div>
        )}
      </PageHeader>

      {toolbar}
      {selection.selected.size > 0 && (
        <Suspense fallback={null}>
          <SelectionBar ids={[...selection.selected]} items={selection.selectedRows} trash={trash} onDone={selection.clear} />
        </Suspense>
      )}

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && items.length === 0 && (
        <EmptyState icon={empty.icon} title={empty.title}>
          <p>{empty.text}</p>
        </EmptyState>
      )}

      {items.length > 0 && (
        <Timeline
          items={items}
          groupByDay={groupByDay}
          label={listLabel ?? title}
          selected={selection.selectedItems}
          onToggleSelect={selection.toggle}
          onBand={selection.band}
          onOpen={openAt}
          onNearEnd={loadMore}
          rowHeight={size.rowHeight}
          onZoomStep={zoomStep}
          years={groupByDay ? years.data?.years : undefined}
          hasMore={hasNextPage}
        />
      )}
      <LoadMoreStatus loading={isFetchingNextPage} failed={list.isFetchNextPageError} error={list.error} onRetry={loadMore} />

      <RoutedViewer items={items} trash={trash} onNearEnd={loadMore} />
    </>
  );
}
