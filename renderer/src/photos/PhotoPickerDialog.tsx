/**
 * Choosing photos of the library to add somewhere (an album, an event): the library newest capture first
 * and by month (each photo's own clock, lib/capture-time.ts; months rather than days, so a library with a
 * photo a day still fills the rows), in a dialog that fills a phone's screen. A tap or click picks a photo
 * and another takes it back; the place's own photos are marked and cannot be picked. Stacks are shown
 * expanded: every photo of a burst can be chosen, not only its cover.
 *
 * The caller keeps the choice (`picked`, in picking order) so that after a partial failure it can leave
 * only what is still missing picked, and says what adding does (`onAdd`, `busy`, `status`, `error`).
 */
import { useEffect, useId, useMemo, useRef, type Dispatch, type SetStateAction } from 'react';
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { utcFormat, wallClockMs } from '../lib/capture-time';
import { flattenPages, useAssetList, type GalleryItem } from './library-api';
import { Thumbnail } from './Thumbnail';
import './photo-picker.css';

const QUERY = { sort_by: 'date_captured' as const, stack_mode: 'expanded' as const };

function monthOf(item: GalleryItem): string {
  const a = item.media_item.primary_asset;
  const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
  return wall === null ? 'No date' : utcFormat(undefined, { month: 'long', year: 'numeric' }).format(wall);
}

export interface PhotoPickerDialogProps {
  /** The dialog's heading: "Add photos to “Summer”". */
  title: string;
  /** Names the library list this picker keeps (its own cache entry). */
  listKey: string;
  /** Photos already there: marked with `memberMark` ("In album"), not pickable. */
  memberIds: ReadonlySet<string>;
  memberMark: string;
  /** Read after a member's file name: "already in the album". */
  memberLabel: string;
  picked: string[];
  setPicked: Dispatch<SetStateAction<string[]>>;
  /** The most that can be picked (an API's per-request limit). */
  max?: number;
  /** Adding is under way: the choice and the dialog stay as they are. */
  busy: boolean;
  /** What the foot says while adding ("Adding 2 of 5…"); the count of chosen photos otherwise. */
  status?: string | null;
  error: unknown;
  /** The add button's words for `n` chosen photos. */
  addLabel: (n: number) => string;
  onAdd: () => void;
  onClose: () => void;
}

export function PhotoPickerDialog({ title, listKey, memberIds, memberMark, memberLabel, picked, setPicked, max = Infinity, busy, status, error, addLabel, onAdd, onClose }: PhotoPickerDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const list = useAssetList(listKey, QUERY);
  const items = useMemo(() => flattenPages(list.data?.pages), [list.data?.pages]);
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

  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length < max ? [...p, id] : p));
  const close = () => {
    if (!busy) onClose();
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
        <button type="button" className="button button--quiet" aria-label="Close" onClick={close} disabled={busy}>
          <Icon name="close" />
        </button>
        <h2 id={titleId} className="picker__title">
          {title}
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
                const member = memberIds.has(a.asset_id);
                const place = picked.indexOf(a.asset_id);
                return (
                  <li key={item.id}>
                    <button
                      type="button"
                      className={['picker__tile', place >= 0 ? 'picker__tile--picked' : '', member ? 'picker__tile--member' : ''].filter(Boolean).join(' ')}
                      aria-pressed={member ? undefined : place >= 0}
                      aria-disabled={member || undefined}
                      aria-label={member ? `${a.original_filename}, ${memberLabel}` : a.original_filename}
                      onClick={() => !member && !busy && toggle(a.asset_id)}
                    >
                      <Thumbnail assetId={a.asset_id} size="small" alt="" className="picker__image" fallback={<span className="picker__blank" />} />
                      {a.type === 'VIDEO' && (
                        <span className="picker__video" aria-hidden="true">
                          <Icon name="play" size={14} />
                        </span>
                      )}
                      {member ? (
                        <span className="picker__mark picker__mark--member" aria-hidden="true">
                          {memberMark}
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
            {status ?? (n === 0 ? 'Tap photos to choose them.' : n === 1 ? '1 photo chosen' : `${n} photos chosen`)}
          </p>
        )}
        <Button variant="quiet" onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onAdd} disabled={n === 0} busy={busy} busyLabel="Adding…">
          {addLabel(n)}
        </Button>
      </div>
    </dialog>
  );
}
