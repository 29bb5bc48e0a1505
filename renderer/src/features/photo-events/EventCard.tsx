/**
 * One event in the list: its cover, title, dates, place, photo count and people. The whole card is
 * one link to the event (a large tap target on a phone). People and place are asked for once the
 * card comes near the screen (use-seen.ts).
 */
import { Link } from 'react-router';
import { Thumbnail } from '../../photos/Thumbnail';
import { dateRange, photoCount } from './event-dates';
import { peopleLine, peopleOf } from './event-facts';
import { usePlaceOf } from './EventPlace';
import { eventPath } from './events-path';
import { useEventRelations, usePeopleNames, type PhotoEvent } from './events-api';
import { useSeen } from './use-seen';

export function EventCard({ event }: { event: PhotoEvent }) {
  const { ref, seen } = useSeen<HTMLLIElement>();
  const relations = useEventRelations(event.event_id, seen);
  const names = usePeopleNames(seen);
  const place = usePlaceOf(event.cover_asset_id, seen);
  const people = peopleLine(peopleOf(relations.data, names.data));
  const dates = dateRange(event.start_at, event.end_at, event.timezone);

  return (
    <li ref={ref} className={event.is_hidden ? 'event-card event-card--hidden' : 'event-card'}>
      <Link to={eventPath(event.event_id)} className="event-card__link">
        <span className="event-card__cover">
          {event.cover_asset_id ? (
            <Thumbnail assetId={event.cover_asset_id} size="medium" alt="" className="event-card__image" fallback={<span className="event-card__blank" />} />
          ) : (
            <span className="event-card__blank" />
          )}
          {event.is_hidden && <span className="event-card__badge">Hidden</span>}
        </span>
        <span className="event-card__text">
          <strong className="event-card__title">{event.title}</strong>
          <span className="event-card__dates">{dates}</span>
          {place && <span className="event-card__place">{place}</span>}
          <span className="event-card__count">{photoCount(event.canonical_media_count)}</span>
          {people && <span className="event-card__people">With {people}</span>}
        </span>
      </Link>
    </li>
  );
}
