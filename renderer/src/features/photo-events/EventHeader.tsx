/**
 * An event's heading: its title (the page's one h1), renamed in place (EditableText: Enter or
 * leaving the field saves, Escape cancels; an empty title goes back to the generated one), then its
 * dates, place and photo count.
 */
import { ApiError, messageOf } from '../../api/problem';
import { useDocumentTitle } from '../../lib/use-document-title';
import { EditableText } from '../albums';
import { dateRange, photoCount } from './event-dates';
import { usePlaceOf } from './EventPlace';
import { useUpdateEvent, type PhotoEventDetail } from './events-api';

/** The server's limit (events.routes.ts). */
const TITLE_MAX = 200;

export function EventHeader({ event }: { event: PhotoEventDetail }) {
  useDocumentTitle(event.title);
  const update = useUpdateEvent(event.event_id);
  const place = usePlaceOf(event.cover_asset_id);
  const facts = [dateRange(event.start_at, event.end_at, event.timezone), place, photoCount(event.canonical_media_count), event.is_hidden ? 'Hidden' : null];

  return (
    <header className="page-header event-header">
      <EditableText
        className="event-header__title"
        value={event.title}
        label="Event title"
        editLabel="Rename event"
        editable
        maxLength={TITLE_MAX}
        // Decision: clearing the title asks for the generated one back, as the API does with null.
        onSave={(title) => update.mutateAsync({ title_override: title || null })}
        errorOf={(e) => (e instanceof ApiError && e.fieldErrors['title_override']) || messageOf(e)}
        render={(text) => <h1 className="page-header__title">{text}</h1>}
      />
      <p className="page-header__intro event-header__facts">{facts.filter(Boolean).join(' · ')}</p>
    </header>
  );
}
