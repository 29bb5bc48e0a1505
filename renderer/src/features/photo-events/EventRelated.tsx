/**
 * Who and what an event is related to (getEventRelations): its people, as links to their pages
 * (/people/<id>), and the albums holding its photos, as links to them. Unnamed people show as
 * "Someone" with how many photos they are in, so they can be opened and named.
 */
import { Link } from 'react-router';
import { useAlbums } from '../albums';
import { albumIdsOf, peopleOf } from './event-facts';
import { useEventRelations, usePeopleNames } from './events-api';

export function EventRelated({ eventId }: { eventId: string }) {
  const relations = useEventRelations(eventId);
  const names = usePeopleNames();
  const albums = useAlbums();
  const people = peopleOf(relations.data, names.data);
  const albumIds = new Set(albumIdsOf(relations.data));
  const related = (albums.data?.albums ?? []).filter((a) => albumIds.has(String(a.album_id)));
  if (people.length === 0 && related.length === 0) return null;

  return (
    <div className="event-related">
      {people.length > 0 && (
        <section aria-label="People">
          <h2 className="event-section__title">People</h2>
          <ul className="event-chips">
            {people.map((p) => (
              <li key={p.id}>
                <Link className="event-chip" to={`/people/${encodeURIComponent(p.id)}`}>
                  {p.name ?? 'Someone'} <span className="event-chip__count">{p.photos}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {related.length > 0 && (
        <section aria-label="Albums">
          <h2 className="event-section__title">In albums</h2>
          <ul className="event-chips">
            {related.map((a) => (
              <li key={a.album_id}>
                <Link className="event-chip" to={`/albums/${a.album_id}`}>
                  {a.album_name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
