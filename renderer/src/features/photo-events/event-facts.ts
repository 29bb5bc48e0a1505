/**
 * What an event's relations say, in words for a card or the event page: its people (named ones by
 * name; unnamed ones counted) and its albums. Place cells are not named here: the place shown is
 * the cover photo's (usePlaceOf in EventPlace.tsx).
 */
import type { components } from '../../api/schema.d.ts';

type EventRelations = components['schemas']['PhotoEventRelations'];

export interface EventPerson {
  id: string;
  name: string | null;
  /** Photos of the event the person is in. */
  photos: number;
}

export function peopleOf(relations: EventRelations | undefined, names: ReadonlyMap<string, string | null> | undefined): EventPerson[] {
  return (relations?.relations ?? [])
    .filter((r) => r.relation === 'contains_person' && r.to.kind === 'person')
    .map((r) => ({ id: r.to.id, name: names?.get(r.to.id) ?? null, photos: r.facts.distinct_media_items ?? 0 }))
    .sort((a, b) => b.photos - a.photos);
}

export function albumIdsOf(relations: EventRelations | undefined): string[] {
  return (relations?.relations ?? []).filter((r) => r.relation === 'represented_in' && r.to.kind === 'album').map((r) => r.to.id);
}

/** "Anna, Ben and 2 others" for a card: up to three names; unnamed people only counted. */
export function peopleLine(people: readonly EventPerson[]): string | null {
  if (people.length === 0) return null;
  const named = people.filter((p) => p.name).map((p) => p.name!);
  const shown = named.slice(0, 3);
  const rest = people.length - shown.length;
  if (shown.length === 0) return rest === 1 ? '1 person' : `${rest} people`;
  if (rest === 0) return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return `${shown.join(', ')} and ${rest === 1 ? '1 other' : `${rest} others`}`;
}
