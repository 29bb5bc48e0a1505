/**
 * Events (issue 14 point 6): the library grouped by itself into days and trips ("Lisbon · June 2024"),
 * newest first, as cards (EventCard.tsx). Hidden events stay out of the list unless "Show hidden" is
 * on. The header says where the grouping stands, with Pause/Resume (RebuildControl.tsx). Cards come a
 * page at a time with "Show more events". On a phone the cards stack in one column (events.css).
 *
 * Decision: people and place are read per card as it comes near the screen (use-seen.ts), not for
 * every event of the page at once: one card costs two small requests, cached, and a person rarely
 * scrolls through more than a screenful or two.
 */
import { useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { EventCard } from './EventCard';
import { flattenEvents, useEvents, useRebuildState } from './events-api';
import { RebuildControl } from './RebuildControl';
import './events.css';
import { LoadError } from '../../components/LoadError';

export function EventsPage() {
  const [showHidden, setShowHidden] = useState(false);
  const list = useEvents(showHidden);
  const rebuild = useRebuildState();
  const events = useMemo(() => flattenEvents(list.data?.pages), [list.data?.pages]);
  const waiting = rebuild.data && !rebuild.data.initialized;

  return (
    <>
      <PageHeader title="Events">
        <p>Your days and trips, gathered from when and where the photos were taken.</p>
        <div className="events-toolbar">
          <RebuildControl />
          <label className="events-toggle">
            <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} />
            Show hidden
          </label>
        </div>
      </PageHeader>

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && !list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && events.length === 0 && (
        <EmptyState icon="image" title={waiting ? 'Grouping your photos…' : 'No events yet'}>
          <p>
            {waiting
              ? 'Hearth is gathering your photos into days and trips. They appear here in a moment.'
              : 'Photos taken close together in time and place are gathered into events here, by themselves, once they are added.'}
          </p>
        </EmptyState>
      )}

      {events.length > 0 && (
        <ul className="event-cards" aria-label="Events">
          {events.map((e) => (
            <EventCard key={e.event_id} event={e} />
          ))}
        </ul>
      )}

      {list.hasNextPage && !list.isFetchNextPageError && (
        <div className="events-more">
          <Button variant="secondary" onClick={() => void list.fetchNextPage()} busy={list.isFetchingNextPage} busyLabel="Loading more…">
            Show more events
          </Button>
        </div>
      )}
      {list.isFetchNextPageError && (
        <LoadError error={list.error} onRetry={() => void list.fetchNextPage()} as="p" />
      )}
    </>
  );
}
