/**
 * A page of assets from the unified query: the Photos timeline, Favourites, Trash. Virtualised grid
 * (Timeline), paging as the end comes near, multi-select with bulk actions, and the viewer.
 */
import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import type { IconName } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useUploadSettled } from '../upload/use-uploads';
import { flattenPages, libraryKeys, useAssetList, type AssetFilter, type SortBy, type StackMode } from './library-api';
import { SelectionBar } from './SelectionBar';
import { Timeline } from './Timeline';
import { Viewer } from './Viewer';
import './library.css';

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
  // The open item by id, not position: when the list changes under the viewer (a member taken out
  // of a stack becomes a row of its own, a new upload lands) it keeps showing the same item. When
  // the item left the list (moved to the trash), the one now at its place shows.
  const [opened, setOpened] = useState<{ id: string; index: number } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useUploadSettled(useCallback(() => void queryClient.invalidateQueries({ queryKey: libraryKeys.all }), [queryClient]));

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const toggle = useCallback(
    (index: number, range: boolean) => {
      setSelected((prev) => {
        const next = new Set(prev);
        if (range && anchor !== null) {
          const [a, b] = anchor < index ? [anchor, index] : [index, anchor];
          for (let i = a; i <= b; i++) next.add(items[i]!.media_item.primary_asset.asset_id);
        } else {
          const id = items[index]!.media_item.primary_asset.asset_id;
          if (next.has(id)) next.delete(id);
          else next.add(id);
        }
        return next;
      });
      setAnchor(index);
    },
    [anchor, items],
  );
  const selectedRows = useMemo(() => items.filter((i) => selected.has(i.media_item.primary_asset.asset_id)), [items, selected]);
  const selectedItems = useMemo(() => new Set(selectedRows.map((i) => i.id)), [selectedRows]);
  const found = opened ? items.findIndex((i) => i.id === opened.id) : -1;
  const openIndex = !opened ? -1 : found >= 0 ? found : Math.min(opened.index, items.length - 1);
  const open = openIndex >= 0 ? items[openIndex] : undefined;
  const openAt = useCallback((index: number) => setOpened(items[index] ? { id: items[index].id, index } : null), [items]);

  return (
    <>
      <PageHeader title={title}>{items.length > 0 && <p>{describe(total)}</p>}</PageHeader>

      {toolbar}
      {selected.size > 0 && <SelectionBar ids={[...selected]} items={selectedRows} trash={trash} onDone={() => setSelected(new Set())} />}

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(list.error)}{' '}
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
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
          selected={selectedItems}
          onToggleSelect={toggle}
          onOpen={openAt}
          onNearEnd={loadMore}
        />
      )}
      <div className="grid__more">
        {isFetchingNextPage && <p role="status">Loading more…</p>}
        {list.isFetchNextPageError && (
          <p className="field__error">
            {messageOf(list.error)}{' '}
            <Button variant="secondary" onClick={loadMore}>
              Try again
            </Button>
          </p>
        )}
      </div>

      {open && (
        <Viewer
          item={open}
          trash={trash}
          onClose={() => setOpened(null)}
          onPrevious={openIndex > 0 ? () => openAt(openIndex - 1) : undefined}
          onNext={
            openIndex < items.length - 1
              ? () => {
                  if (openIndex >= items.length - 5) loadMore();
                  openAt(openIndex + 1);
                }
              : undefined
          }
        />
      )}
    </>
  );
}
