/**
 * The search page, `/search?…` (search-url.ts holds its state in the address): the query's chips
 * (filters understood in the text, removable; or the query image / photo), a notice when semantic
 * search is unavailable, "Best results" (top_items), then every result (result_items) in the
 * library's grid with its selection and bulk actions, paged as the end comes near. Each result says
 * why it matched (TileWhy.tsx). The viewer opens at `/search/photos/<id>?…` like any list's.
 *
 * Search by image: drop an image anywhere on the page, or pick one. The image is sent, embedded and
 * discarded by the server; here it lives in memory only (image-queries.ts).
 */
import { LazySelectionBar as SelectionBar } from '../../photos/lazy-parts';
import { Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/problem';
import { useMe } from '../../api/use-me';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { Timeline } from '../../photos/Timeline';
import { useSelection } from '../../photos/use-selection';
import { useThumbnailSize } from '../../photos/thumbnail-size';
import { useViewerRoute } from '../../photos/viewer-route';
import { BestResults } from './BestResults';
import { queryImage } from './image-queries';
import { ImageChip, ParsedChips, SimilarChip } from './QueryChips';
import { useSearch, type ParsedChip, type SearchInput, type SearchItem } from './search-api';
import { readSearchState, searchHref, SEARCH_PAGE, type SearchState } from './search-url';
import { DegradedNotice, IndexingNote, ReadingNote, WeakMatchNote } from './SearchNotices';
import { ImageFileInput } from './ImageFileInput';
import { dragHasFiles, firstFile, useImageSearch } from './use-image-search';
import { LoadMoreStatus } from '../../photos/LoadMoreStatus';
import { useLoadMore, useOpenAt } from '../../photos/grid-paging';
import '../../photos/library.css';
import './search.css';
import { LoadError } from '../../components/LoadError';



function inputOf(state: SearchState): SearchInput | null | 'image-gone' {
  if (state.kind === 'text') return { kind: 'text', query: state.query, ignoreParsed: state.ignore, reading: state.reading };
  if (state.kind === 'similar') return { kind: 'similar', assetId: state.assetId };
  if (state.kind === 'image') {
    const file = queryImage(state.key);
    return file ? { kind: 'image', key: state.key, file } : 'image-gone';
  }
  return null;
}

const imageModelMissing = (e: unknown) => e instanceof ApiError && e.code === 'semantic_unavailable';

function titleOf(state: SearchState): string {
  if (state.kind === 'text') return `Search: ${state.query}`;
  if (state.kind === 'similar' || state.kind === 'image') return 'Similar photos';
  return 'Search';
}

/** Every result once, in the grid's order; a best result not yet among the loaded pages comes after them. */
function allResults(pages: readonly { result_items: SearchItem[]; top_items: SearchItem[] }[] | undefined) {
  const seen = new Set<string>();
  const results: SearchItem[] = [];
  for (const p of pages ?? []) {
    for (const item of p.result_items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      results.push(item);
    }
  }
  const top = pages?.[0]?.top_items ?? [];
  const extra = top.filter((t) => !seen.has(t.id));
  return { results, top, forViewer: extra.length ? [...results, ...extra] : results };
}

export function SearchPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const state = useMemo(() => readSearchState(location.search), [location.search]);
  const input = useMemo(() => inputOf(state), [state]);
  const search = useSearch(input === 'image-gone' ? null : input);
  const { results, top, forViewer } = useMemo(() => allResults(search.data?.pages), [search.data?.pages]);
  const first = search.data?.pages[0];
  const total = search.data?.pages.at(-1)?.results_total_visible ?? 0;
  const selection = useSelection(results);
  const size = useThumbnailSize();
  const zoomStep = useCallback((delta: 1 | -1) => size.setStep((s) => s + delta), [size.setStep]);
  const { open: openPhoto } = useViewerRoute();
  const searchImage = useImageSearch();
  const picker = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const { hasNextPage, isFetchingNextPage } = search;

  const loadMore = useLoadMore(search);
  const openAt = useOpenAt(results, openPhoto);
  const go = (next: SearchState) => void navigate(searchHref(next));
  const removeChip = (chip: ParsedChip) => {
    if (state.kind === 'text') go({ ...state, ignore: [...state.ignore, chip.id] });
  };

  const pickButton = (
    <Button variant="secondary" onClick={() => picker.current?.click()}>
      Search by image
    </Button>
  );
  const meta = first?.top_results_meta;
  const degraded = meta?.degraded === true;

  return (
    <div
      className={dropping ? 'search-page search-page--drop' : 'search-page'}
      onDragOver={(e) => {
        if (!dragHasFiles(e)) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDropping(false);
      }}
      onDrop={(e) => {
        const file = firstFile(e.dataTransfer.files);
        setDropping(false);
        if (!file) return;
        e.preventDefault();
        searchImage(file);
      }}
    >
      <PageHeader title={titleOf(state)}>
        {search.isSuccess && (
          <div className="page-header__row">
            <p>{total === 1 ? '1 result.' : `${total.toLocaleString()} results.`}</p>
          </div>
        )}
      </PageHeader>
      <ImageFileInput inputRef={picker} onImage={searchImage} />

      <div className="search-query">
        {state.kind === 'text' && <ParsedChips chips={first?.parsed?.chips ?? []} onRemove={removeChip} />}
        {input !== null && input !== 'image-gone' && input.kind === 'image' && <ImageChip file={input.file} onRemove={() => go({ kind: 'none' })} />}
        {state.kind === 'similar' && <SimilarChip assetId={state.assetId} onRemove={() => go({ kind: 'none' })} />}
        {state.kind === 'text' && state.ignore.length > 0 && (
          <Link className="search-query__restore" to={searchHref({ ...state, ignore: [] })}>
            Use the filters again
          </Link>
        )}
      </div>
      {state.kind === 'text' && first?.parsed && (
        <ReadingNote parsed={first.parsed} hrefFor={(reading) => searchHref({ ...state, reading })} />
      )}
      {dropping && (
        <p className="search-page__drop-hint" aria-hidden="true">
          Drop the image to find photos like it
        </p>
      )}

      {degraded && <DegradedNotice reason={meta?.reason} isAdmin={me?.role === 'admin'} byImage={state.kind !== 'text'} />}
      {input !== null && <IndexingNote />}

      {input === null && (
        <EmptyState icon="search" title="Search your library">
          <p>Type in the search field above (press / to get there): words in photos, what is in them, places, “videos from last summer”. Or drop a photo here to find ones like it.</p>
          {pickButton}
        </EmptyState>
      )}
      {input === 'image-gone' && (
        <EmptyState icon="image" title="The image is no longer here">
          <p>Images searched by are not kept. Drop the image here again, or pick it.</p>
          {pickButton}
        </EmptyState>
      )}

      {search.isPending && input !== null && input !== 'image-gone' && <p role="status">Searching…</p>}
      {/* Search by image and "Find similar" need the image model: without it the server refuses them (503). */}
      {search.isError && imageModelMissing(search.error) && <DegradedNotice reason="semantic_unavailable" isAdmin={me?.role === 'admin'} byImage />}
      {search.isError && !search.isFetchNextPageError && !imageModelMissing(search.error) && (
        <LoadError error={search.error} onRetry={() => void search.refetch()} />
      )}
      {search.isSuccess && results.length === 0 && top.length === 0 && (
        <EmptyState icon="search" title="Nothing found">
          <p>
            No photo or video matches this search.
            {state.kind === 'text' && (first?.parsed?.chips.length ?? 0) > 0 ? ' Remove a filter above to widen it.' : ' Try other words, or fewer of them.'}
          </p>
        </EmptyState>
      )}

      {selection.selected.size > 0 && (
        <Suspense fallback={null}>
          <SelectionBar ids={[...selection.selected]} items={selection.selectedRows} trash={false} onDone={selection.clear} />
        </Suspense>
      )}

      {search.isSuccess && results.length > 0 && meta?.matched_well === false && <WeakMatchNote />}
      <BestResults items={top} onOpen={openPhoto} />

      {results.length > 0 && (
        <section className="search-results" aria-labelledby="search-results-title">
          <h2 id="search-results-title" className="best-results__title">
            All results
          </h2>
          <Timeline
            items={results}
            groupByDay={false}
            label="Search results"
            selected={selection.selectedItems}
            onToggleSelect={selection.toggle}
            onBand={selection.band}
            onOpen={openAt}
            onNearEnd={loadMore}
            rowHeight={size.rowHeight}
            onZoomStep={zoomStep}
            hasMore={hasNextPage}
          />
        </section>
      )}
      <LoadMoreStatus loading={isFetchingNextPage} failed={search.isFetchNextPageError} error={search.error} onRetry={loadMore} />

      <RoutedViewer items={forViewer} onNearEnd={loadMore} />
    </div>
  );
}

export { SEARCH_PAGE };
