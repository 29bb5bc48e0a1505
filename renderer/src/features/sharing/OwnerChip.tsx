/**
 * The initials of whose photo a tile shows: a partner's photo in the timeline (the server's
 * `media_item.owner`), or who added a photo to a shared album. The tile's accessible name says it
 * in words (PhotoTile), so the chip itself is decorative.
 */
import './sharing.css';

export interface PersonLike {
  display_name: string;
  initials: string;
}

export function OwnerChip({ person, belowStack = false }: { person: PersonLike; belowStack?: boolean }) {
  return (
    <span className={belowStack ? 'tile__owner tile__owner--below-stack' : 'tile__owner'} aria-hidden="true" title={person.display_name}>
      {person.initials}
    </span>
  );
}
