/**
 * One person's page (`/people/<id>`): their face, their name edited in place (naming confirms them), how
 * many photos, Hide or Show, and their photos by the day they were taken (queryPersonAssets, paged as the
 * end of the grid comes near). Photos select as in the library (the same bulk actions) and open in the
 * library's viewer at `/people/<id>/photos/<asset>`, stepping through this person's photos.
 * An unknown id, or another member's person, is the not-found page (the server answers 404 for both).
 */
import { LazySelectionBar as SelectionBar } from '../../photos/lazy-parts';
import { Suspense, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { NotFoundPage } from '../../components/NotFoundPage';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { useDocumentTitle } from '../../lib/use-document-title';
import { EditableText } from '../albums';
import { flattenPages } from '../../photos/library-api';
import { LoadMoreStatus } from '../../photos/LoadMoreStatus';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { Timeline } from '../../photos/Timeline';
import { useLoadMore, useOpenAt } from '../../photos/grid-paging';
import { useSelection } from '../../photos/use-selection';
import { useViewerRoute } from '../../photos/viewer-route';
import { usePerson, usePersonAssets, useUpdatePerson } from './people-api';
import { personLabel, photoCount } from './people-facts';
import { PEOPLE_PATH } from './people-path';
import { NAME_MAX, nameError } from './PersonCard';
import { PersonCover } from './PersonCover';
import '../../photos/library.css';
import './people.css';
import { LoadError } from '../../components/LoadError';



export function PersonPage() {
  const id = Number(useParams().personId);
  const person = usePerson(id);
  const list = usePersonAssets(id);
  const update = useUpdatePerson();
  const items = useMemo(() => flattenPages(list.data?.pages), [list.data?.pages]);
  const selection = useSelection(items);
  const { open } = useViewerRoute();
  const openAt = useOpenAt(items, open);
  const loadMore = useLoadMore(list);
  const p = person.data;
  useDocumentTitle(p ? personLabel(p) : 'Person');

  const status = (person.error as { status?: number } | null)?.status;
  if (!Number.isInteger(id) || id < 1 || status === 404 || status === 422) return <NotFoundPage />;

  return (
    <>
      <header className="page-header person-header">
        <Link to={PEOPLE_PATH} className="person-header__back">
          ← People
        </Link>
        {p ? (
          <div className="person-header__main">
            <PersonCover person={p} />
            <div className="person-header__text">
              <EditableText
                className="person-header__name"
                value={p.name ?? ''}
                label="Name"
                placeholder="Add a name"
                editLabel="Rename"
                editable
                maxLength={NAME_MAX}
                onSave={(name) => update.mutateAsync({ id, change: { name: name || null } })}
                errorOf={nameError}
                render={(text) => <h1 className="page-header__title">{text}</h1>}
              />
              {/* The page's one h1 even before a name is given. */}
              {!p.name && <h1 className="visually-hidden">Unnamed person</h1>}
              <p>
                {photoCount(p.asset_count)}
                {p.is_hidden && ' · hidden from People and search'}
              </p>
              <Button variant="secondary" className="button--small" busy={update.isPending && update.variables?.change.is_hidden !== undefined} busyLabel="Saving…" onClick={() => update.mutate({ id, change: { is_hidden: !p.is_hidden } })}>
                {p.is_hidden ? 'Show this person' : 'Hide this person'}
              </Button>
              {update.isError && update.variables?.change.is_hidden !== undefined && (
                <p className="field__error" role="alert">
                  {messageOf(update.error)}
                </p>
              )}
            </div>
          </div>
        ) : (
          <h1 className="page-header__title">Person</h1>
        )}
      </header>
      {person.isError && status !== 404 && (
        <LoadError error={person.error} onRetry={() => void person.refetch()} />
      )}

      {selection.selected.size > 0 && (
        <Suspense fallback={null}>
          <SelectionBar ids={[...selection.selected]} items={selection.selectedRows} trash={false} onDone={selection.clear} />
        </Suspense>
      )}

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && !list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && items.length === 0 && (
        <EmptyState icon="users" title="No photos">
          <p>The photos this person was found in are in the Trash or gone.</p>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Timeline
          items={items}
          groupByDay
          label={`Photos of ${p ? personLabel(p) : 'this person'}`}
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
