/**
 * Photos: the newest assets first (queryAssets, recently added), in a plain grid of square
 * thumbnails, loaded 100 at a time as the end of the grid scrolls into view (or with the button).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useUploadSettled } from '../upload/use-uploads';
import { flattenPages, libraryKeys, useRecentAssets } from './library-api';
import { MediaOverlay } from './MediaOverlay';
import { PhotoTile } from './PhotoTile';
import './library.css';

export function PhotosPage() {
  const list = useRecentAssets();
  const items = flattenPages(list.data?.pages);
  const total = list.data?.pages.at(-1)?.total_visible ?? 0;
  const [openId, setOpenId] = useState<string | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const queryClient = useQueryClient();

  // Uploads go on while this page is open: show each file as soon as it is in the library.
  useUploadSettled(useCallback(() => void queryClient.invalidateQueries({ queryKey: libraryKeys.all }), [queryClient]));

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: '600px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, loadMore]);

  const openIndex = openId ? items.findIndex((i) => i.id === openId) : -1;
  const open = openIndex >= 0 ? items[openIndex] : undefined;

  return (
    <>
      <PageHeader title="Photos">
        {items.length > 0 && (
          <p>
            {total === 1 ? '1 photo or video' : `${total.toLocaleString()} photos and videos`}, newest first.
          </p>
        )}
      </PageHeader>

      {list.isPending && <p role="status">Loading your photos…</p>}
      {list.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(list.error)}{' '}
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      )}

      {list.isSuccess && items.length === 0 && (
        <EmptyState icon="photos" title="No photos yet">
          <p>
            Photos and videos you add appear here, newest first. <Link to="/upload">Upload from this device</Link>, or ask the
            administrator to add a folder that already holds your pictures.
          </p>
        </EmptyState>
      )}

      {items.length > 0 && (
        <ul className="grid" aria-label="Photos and videos">
          {items.map((item) => (
            <PhotoTile key={item.id} item={item} onOpen={() => setOpenId(item.id)} />
          ))}
        </ul>
      )}

      <div ref={sentinel} className="grid__more">
        {hasNextPage && (
          <Button variant="secondary" busy={isFetchingNextPage} busyLabel="Loading…" onClick={loadMore}>
            Load more
          </Button>
        )}
        {list.isFetchNextPageError && <p className="field__error">{messageOf(list.error)}</p>}
      </div>

      {open && (
        <MediaOverlay
          item={open}
          onClose={() => setOpenId(null)}
          onPrevious={openIndex > 0 ? () => setOpenId(items[openIndex - 1]!.id) : undefined}
          onNext={openIndex < items.length - 1 ? () => setOpenId(items[openIndex + 1]!.id) : undefined}
        />
      )}
    </>
  );
}
