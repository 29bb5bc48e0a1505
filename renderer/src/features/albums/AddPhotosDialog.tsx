/**
 * "Add photos" from inside an album: the library, newest capture first and by month (each photo's
 * own clock, lib/capture-time.ts; months rather than days, so a library with a photo a day still
 * fills the rows), in a dialog that fills a phone's screen. A tap or click picks a photo and
 * another takes it back; photos already in the album are marked and cannot be picked. The chosen ones
 * are added at the end of the album in the order they were picked (decision: the picking order is the
 * one the person had in mind; "Reorder" changes it after), one request each with the progress shown.
 * If one is refused the rest stay picked, with the reason, so trying again adds only what is missing.
 *
 * Stacks are shown expanded: every photo of a burst can be chosen, not only its cover.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { messageOf, request } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { utcFormat, wallClockMs } from '../../lib/capture-time';
import { flattenPages, libraryKeys, useAssetList, type GalleryItem } from '../library/library-api';
import { Thumbnail } from '../library/Thumbnail';
import { albumKeys } from './albums-api';

interface AddPhotosDialogProps {
  albumId: number;
  albumName: string;
  /** Assets already in the album (shown as such, not pickable). */
  memberIds: ReadonlySet<string>;
  onClose: () => void;
  /** After the chosen photos were added (how many). */
  onAdded: (count: number) => void;
}

const QUERY = { sort_by: 'date_captured' as const, stack_mode: 'expanded' as const };

function monthOf(item: GalleryItem): string {
  const a = item.media_item.primary_asset;
  const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
  return wall === null ? 'No date' : utcFormat(undefined, { month: 'long', year: 'numeric' }).format(wall);
}

export function AddPhotosDialog({ albumId, albumName, memberIds, onClose, onAdded }: AddPhotosDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const queryClient = useQueryClient();
  const list = useAssetList('album-picker', QUERY);
  const items = useMemo(() => flattenPages(list.data?.pages), [list.data?.pages]);
  const [picked, setPicked] = useState<string[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const adding = progress !== null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  // The next page loads as the end of the grid comes near (the dialog scrolls, not the page).
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver(
      ([e]) => {
        if (e?.isIntersecting && !isFetchingNextPage) void fetchNextPage();
      },
      { root: scroller.current, rootMargin: '600px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, items.length]);

  const months = useMemo(() => {
    const out: { month: string; items: GalleryItem[] }[] = [];
    for (const item of items) {
      const month = monthOf(item);
      if (out.at(-1)?.month !== month) out.push({ month, items: [] });
      out.at(-1)!.items.push(item);
    }
    return out;
  }, [items]);

  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));

  const add = async () => {
    setError(null);
    const chosen = picked.slice();
    setProgress({ done: 0, total: chosen.length });
    const left = [...chosen];
    try {
      for (const assetId of chosen) {
        await request(api.POST('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } }, body: {} }));
        left.shift();
        setProgress({ done: chosen.length - left.length, total: chosen.length });
      }
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      setPicked(left);
      await queryClient.invalidateQueries({ queryKey: albumKeys.all });
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    }
    if (left.length === 0) onAdded(chosen.length);
  };

  const close = () => {
    if (!adding) onClose();
  };
  const n = picked.length;

  return (
    <dialog
      ref={dialog}
      className="picker"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <div className="picker__bar">
        <button type="button" className="button button--quiet" aria-label="Close" onClick={close} disabled={adding}>
          <Icon name="close" />
        </button>
        <h2 id={titleId} className="picker__title">
          Add photos to “{albumName}”
        </h2>
      </div>
      <div ref={scroller} className="picker__body">
        {list.isPending && <p role="status">Loading your photos…</p>}
        {list.isError && <p className="field__error">{messageOf(list.error)}</p>}
        {list.isSuccess && items.length === 0 && <p>There are no photos in your library yet. Upload some first.</p>}
        {months.map(({ month, items: monthItems }, i) => (
          // Undated photos sort by their upload time, so "No date" may come more than once.
          <section key={`${i}:${month}`} className="picker__month" aria-label={month}>
            <h3 className="picker__month-title">{month}</h3>
            <ul className="picker__grid">
              {monthItems.map((item) => {
                const a = item.media_item.primary_asset;
                const inAlbum = memberIds.has(a.asset_id);
                const place = picked.indexOf(a.asset_id);
                return (
                  <li key={item.id}>
                    <button
                      type="button"
                      className={['picker__tile', place >= 0 ? 'picker__tile--picked' : '', inAlbum ? 'picker__tile--member' : ''].filter(Boolean).join(' ')}
                      aria-pressed={inAlbum ? undefined : place >= 0}
                      aria-disabled={inAlbum || undefined}
                      aria-label={inAlbum ? `${a.original_filename}, already in the album` : a.original_filename}
                      onClick={() => !inAlbum && !adding && toggle(a.asset_id)}
                    >
                      <Thumbnail assetId={a.asset_id} size="small" alt="" className="picker__image" fallback={<span className="picker__blank" />} />
                      {a.type === 'VIDEO' && (
                        <span className="picker__video" aria-hidden="true">
                          <Icon name="play" size={14} />
                        </span>
                      )}
                      {inAlbum ? (
                        <span className="picker__mark picker__mark--member" aria-hidden="true">
                          In album
                        </span>
                      ) : (
                        place >= 0 && (
                          <span className="picker__mark" aria-hidden="true">
                            {place + 1}
                          </span>
                        )
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
        <div ref={sentinel} />
        {isFetchingNextPage && <p role="status">Loading more…</p>}
      </div>
      <div className="picker__foot">
        {error ? (
          <p className="field__error" role="alert">
            {messageOf(error)}
          </p>
        ) : (
          <p className="picker__count" role="status">
            {adding ? `Adding ${Math.min(progress.done + 1, progress.total)} of ${progress.total}…` : n === 0 ? 'Tap photos to choose them.' : n === 1 ? '1 photo chosen' : `${n} photos chosen`}
          </p>
        )}
        <Button variant="quiet" onClick={close} disabled={adding}>
          Cancel
        </Button>
        <Button onClick={() => void add()} disabled={n === 0} busy={adding} busyLabel="Adding…">
          {n <= 1 ? 'Add to album' : `Add ${n} to album`}
        </Button>
      </div>
    </dialog>
  );
}
