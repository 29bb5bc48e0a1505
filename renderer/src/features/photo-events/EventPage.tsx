/**
 * One event: its title (renamed in place), dates, place and photo count (EventHeader.tsx); its photos
 * in the event's order, as the library's grid, opening the viewer at `/events/<id>/photos/<asset>`;
 * a small map of where they were taken (EventMap.tsx); its people and albums as links (EventRelated.tsx).
 *
 * The person's corrections, each kept by the server through every rebuild:
 * - "Hide" / "Unhide": a hidden event leaves the Events list (its photos stay in the library);
 * - "Add photos" (AddToEventDialog.tsx), and with photos selected "Remove from event";
 * - one photo selected: "Make cover", and "Split here": that photo and every later one become a new
 *   event, linked from the note that follows;
 * - "Reset" drops all of them (title, cover, hidden, added and removed photos, splits) after a
 *   question, and the event is grouped afresh.
 * A retired event's address (merged away by a rebuild) shows its successor, and the address follows.
 */
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/problem';
import { NotFoundPage } from '../../components/NotFoundPage';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { RoutedViewer } from '../../photos/RoutedViewer';
import { Timeline } from '../../photos/Timeline';
import { useSelection } from '../../photos/use-selection';
import { useViewerRoute } from '../../photos/viewer-route';
import '../../photos/library.css';
import { AddToEventDialog } from './AddToEventDialog';
import { photoCount } from './event-dates';
import { EventHeader } from './EventHeader';
import { EventMap } from './EventMap';
import { EventRelated } from './EventRelated';
import { eventPath, EVENTS_PATH } from './events-path';
import { useEvent, useEventPhotos, useRemoveFromEvent, useResetEvent, useSplitEvent, useUpdateEvent } from './events-api';
import './events.css';
import { LoadError } from '../../components/LoadError';

type Note = { text: string; link?: { to: string; label: string } };

export function EventPage() {
  const asked = useParams().eventId ?? '';
  const event = useEvent(asked);
  const id = event.data?.event_id ?? asked;
  const photos = useEventPhotos(id);
  const items = useMemo(() => photos.data?.items ?? [], [photos.data]);
  const selection = useSelection(items);
  const viewer = useViewerRoute();
  const navigate = useNavigate();
  const update = useUpdateEvent(id);
  const split = useSplitEvent(id);
  const remove = useRemoveFromEvent(id);
  const reset = useResetEvent(id);
  const [picking, setPicking] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [note, setNote] = useState<Note | null>(null);

  // A retired id answered with its successor: the address becomes the successor's.
  useEffect(() => {
    if (event.data && event.data.event_id !== asked) void navigate(eventPath(event.data.event_id), { replace: true });
  }, [event.data, asked, navigate]);

  if (event.isError && (event.error as { status?: number }).status === 404) return <NotFoundPage />;
  if (event.isError) {
    return (
      <LoadError error={event.error} onRetry={() => void event.refetch()} />
    );
  }
  const e = event.data;
  if (!e) return <p role="status">Loading…</p>;

  const { selected, clear } = selection;
  const chosen = items.filter((i) => selected.has(i.media_item.primary_asset.asset_id));
  const only = chosen.length === 1 ? chosen[0]! : null;
  const onlyIndex = only ? items.indexOf(only) : -1;
  const busy = update.isPending || split.isPending || remove.isPending || reset.isPending;
  const error = update.error ?? split.error ?? remove.error ?? reset.error;

  const doSplit = () => {
    if (!only) return;
    split.mutate(only.media_item.media_item_id, {
      onSuccess: (r) => {
        clear();
        setNote({ text: `Split: ${only.media_item.primary_asset.original_filename} and the photos after it are a new event.`, link: { to: eventPath(r.created_event_id), label: 'Open the new event' } });
      },
    });
  };
  const doRemove = () => {
    const n = chosen.length;
    remove.mutate(
      chosen.map((i) => i.media_item.media_item_id),
      { onSuccess: () => (clear(), setNote({ text: `Removed ${photoCount(n)} from the event. ${n === 1 ? 'It stays' : 'They stay'} in your library.` })) },
    );
  };

  return (
    <>
      <p className="event-back">
        <Link to={EVENTS_PATH}>← All events</Link>
      </p>
      <EventHeader event={e} />

      {selected.size > 0 ? (
        <div className="selection-bar selection-bar--wrap" role="toolbar" aria-label="Selection">
          <strong>{selected.size === 1 ? '1 selected' : `${selected.size} selected`}</strong>
          {only && (
            <>
              <Button variant="secondary" disabled={busy} onClick={() => update.mutate({ cover_asset_id: only.media_item.primary_asset.asset_id }, { onSuccess: () => (clear(), setNote({ text: 'Cover chosen.' })) })}>
                Make cover
              </Button>
              <Button
                variant="secondary"
                disabled={busy || onlyIndex <= 0}
                busy={split.isPending}
                busyLabel="Splitting…"
                title={onlyIndex <= 0 ? 'The first photo starts the event already: choose a later one.' : 'This photo and the ones after it become a new event.'}
                onClick={doSplit}
              >
                Split here
              </Button>
              {/* A disabled button's reason, said where a phone (no tooltip) shows it too. */}
              {onlyIndex === 0 && <span className="event-hint">The event starts with this photo: choose a later one to split.</span>}
            </>
          )}
          <Button variant="secondary" disabled={busy} busy={remove.isPending} busyLabel="Removing…" onClick={doRemove}>
            Remove from event
          </Button>
          <Button variant="quiet" onClick={clear}>
            Clear selection
          </Button>
        </div>
      ) : (
        <div className="event-actions" role="toolbar" aria-label="Event">
          <Button variant="secondary" onClick={() => (setNote(null), setPicking(true))}>
            Add photos
          </Button>
          <Button
            variant="secondary"
            busy={update.isPending}
            busyLabel={e.is_hidden ? 'Showing…' : 'Hiding…'}
            onClick={() => update.mutate({ is_hidden: !e.is_hidden }, { onSuccess: (r) => setNote({ text: r.event.is_hidden ? 'Hidden: this event no longer shows in Events unless “Show hidden” is on.' : 'This event shows in Events again.' }) })}
          >
            {e.is_hidden ? 'Unhide' : 'Hide'}
          </Button>
          <Button variant="quiet" onClick={() => setConfirmReset(true)}>
            Reset
          </Button>
        </div>
      )}
      <div role="status" className="event-note">
        {note && (
          <p className="notice notice--success">
            {note.text} {note.link && <Link to={note.link.to}>{note.link.label}</Link>}
          </p>
        )}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}

      {photos.isPending && <p role="status">Loading the photos…</p>}
      {photos.isError && (
        <LoadError error={photos.error} onRetry={() => void photos.refetch()} />
      )}
      {photos.isSuccess && items.length === 0 && (
        <EmptyState icon="image" title="No photos in this event">
          <p>Choose “Add photos” to pick some from your library.</p>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Timeline
          items={items}
          groupByDay={false}
          label={`Photos of ${e.title}`}
          selected={selection.selectedItems}
          onToggleSelect={selection.toggle}
          onBand={selection.band}
          onOpen={(index) => items[index] && viewer.open(items[index].media_item.primary_asset.asset_id)}
        />
      )}
      {photos.data && photos.data.more > 0 && <p className="event-more-note">And {photoCount(photos.data.more)} more, not shown here.</p>}

      <div className="event-extras">
        <EventMap items={items} onOpen={viewer.open} />
        <EventRelated eventId={id} />
      </div>

      {picking && (
        <AddToEventDialog
          eventId={id}
          title={e.title}
          memberIds={new Set(items.map((i) => i.media_item.primary_asset.asset_id))}
          onClose={() => setPicking(false)}
          onAdded={(n) => (setPicking(false), setNote({ text: `Added ${photoCount(n)} to the event.` }))}
        />
      )}
      {confirmReset && (
        <ConfirmDialog
          title="Undo your changes to this event?"
          confirmLabel="Reset"
          busy={reset.isPending}
          busyLabel="Resetting…"
          error={reset.isError ? messageOf(reset.error) : null}
          onCancel={() => setConfirmReset(false)}
          onConfirm={() =>
            reset.mutate(undefined, {
              onSuccess: (r) => {
                setConfirmReset(false);
                setNote({ text: 'Your changes are undone; the event is being grouped afresh.' });
                if (r.event.event_id !== id) void navigate(eventPath(r.event.event_id), { replace: true });
              },
            })
          }
        >
          <p>Its title, cover, hidden state, the photos you added or removed and the splits you made go, and Hearth groups it again by itself. The photos stay in your library.</p>
        </ConfirmDialog>
      )}
      <RoutedViewer items={items} />
    </>
  );
}
