/**
 * "Add photos" from inside an event: the library, newest capture first and by month, in the same
 * picker the albums use (its look: albums.css `picker`). A tap picks a photo, another takes it back;
 * the event's own photos are marked and cannot be picked. The chosen ones are added in one request
 * (addEventAssets takes up to 500); they move here from whatever event held them and stay through
 * rebuilds. A refusal keeps the choice, with the reason.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { utcFormat, wallClockMs } from '../../lib/capture-time';
import { flattenPages, useAssetList, type GalleryItem } from '../library/library-api';
import { Thumbnail } from '../library/Thumbnail';
import '../albums/albums.css';
import { useAddToEvent } from './events-api';

const QUERY = { sort_by: 'date_captured' as const, stack_mode: 'expanded' as const };
/** The API's most per request. */
const MAX_PICK = 500;

function monthOf(item: GalleryItem): string {
  const a = item.media_item.primary_asset;
  const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
  return wall === null ? 'No date' : utcFormat(undefined, { month: 'long', year: 'numeric' }).format(wall);
}

interface Props {
  eventId: string;
  title: string;
  memberIds: ReadonlySet<string>;
  onClose: () => void;
  onAdded: (count: number) => void;
}

export function AddToEventDialog({ eventId, title, memberIds, onClose, onAdded }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const list = useAssetList('event-picker', QUERY);
  const items = useMemo(() => flattenPages(list.data?.pages), [list.data?.pages]);
  const [picked, setPicked] = useState<string[]>([]);
  const add = useAddToEvent(eventId);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver(([e]) => e?.isIntersecting && !isFetchingNextPage && void fetchNextPage(), { root: scroller.current, rootMargin: '600px 0px' });
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

  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length < MAX_PICK ? [...p, id] : p));
  const close = () => !add.isPending && onClose();
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
        <button type="button" className="button button--quiet" aria-label="Close" onClick={close} disabled={add.isPending}>
          <Icon name="close" />
        </button>
        <h2 id={titleId} className="picker__title">
          Add photos to “{title}”
        </h2>
      </div>
      <div ref={scroller} className="picker__body">
        {list.isPending && <p role="status">Loading your photos…</p>}
        {list.isError && <p className="field__error">{messageOf(list.error)}</p>}
        {list.isSuccess && items.length === 0 && <p>There are no photos in your library yet.</p>}
        {months.map(({ month, items: monthItems }, i) => (
          <section key={`${i}:${month}`} className="picker__month" aria-label={month}>
            <h3 className="picker__month-title">{month}</h3>
            <ul className="picker__grid">
              {monthItems.map((item) => {
                const a = item.media_item.primary_asset;
                const member = memberIds.has(a.asset_id);
                const place = picked.indexOf(a.asset_id);
                return (
                  <li key={item.id}>
                    <button
                      type="button"
                      className={['picker__tile', place >= 0 ? 'picker__tile--picked' : '', member ? 'picker__tile--member' : ''].filter(Boolean).join(' ')}
                      aria-pressed={member ? undefined : place >= 0}
                      aria-disabled={member || undefined}
                      aria-label={member ? `${a.original_filename}, already in the event` : a.original_filename}
                      onClick={() => !member && !add.isPending && toggle(a.asset_id)}
                    >
                      <Thumbnail assetId={a.asset_id} size="small" alt="" className="picker__image" fallback={<span className="picker__blank" />} />
                      {member ? (
                        <span className="picker__mark picker__mark--member" aria-hidden="true">
                          In event
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
        {add.isError ? (
          <p className="field__error" role="alert">
            {messageOf(add.error)}
          </p>
        ) : (
          <p className="picker__count" role="status">
            {n === 0 ? 'Tap photos to choose them.' : n === 1 ? '1 photo chosen' : `${n} photos chosen`}
          </p>
        )}
        <Button variant="quiet" onClick={close} disabled={add.isPending}>
          Cancel
        </Button>
        <Button disabled={n === 0} busy={add.isPending} busyLabel="Adding…" onClick={() => add.mutate(picked, { onSuccess: () => onAdded(n) })}>
          {n <= 1 ? 'Add to event' : `Add ${n} to event`}
        </Button>
      </div>
    </dialog>
  );
}
