/**
 * What People says about people, faces and places, without React or the network (test/renderer/people-ui.test.ts):
 * names and counts as shown, the pages of listPeople flattened, which person a merge keeps by default, the
 * people of a photo from its faces, and a photo's place in words.
 */
import type { components } from '../../api/schema.d.ts';

export type Person = components['schemas']['RecognisedPerson'];
export type Face = components['schemas']['Face'];
type PeoplePage = components['schemas']['PeoplePage'];

/** A person as the page names them: their name, or what to press to give one. */
export const personLabel = (p: Pick<Person, 'name'>) => p.name ?? 'Unnamed person';

/** "12 photos". */
export const photoCount = (n: number) => (n === 1 ? '1 photo' : `${n.toLocaleString()} photos`);

/** Pages flattened; a person who moved to a later page meanwhile (renamed: named people come first) shows once. */
export function flattenPeople(pages: readonly PeoplePage[] | undefined): Person[] {
  const seen = new Set<number>();
  return (pages ?? []).flatMap((p) => p.people).filter((p) => !seen.has(p.person_id) && Boolean(seen.add(p.person_id)));
}

/**
 * The person a merge keeps unless the person chooses another: the one dropped on (a drag), else the first
 * named one (a name is what people recognise), else the one with the most photos.
 */
export function defaultSurvivor(people: readonly Person[], preferred?: number): number {
  if (preferred !== undefined && people.some((p) => p.person_id === preferred)) return preferred;
  const named = people.find((p) => p.name);
  if (named) return named.person_id;
  return [...people].sort((a, b) => b.asset_count - a.asset_count)[0]!.person_id;
}

/** A face box's name: its person's, "Unnamed person", or "Not recognised" for a face with no one. */
export const faceName = (f: Face) => (f.person_id === null ? 'Not recognised' : (f.person_name ?? 'Unnamed person'));

export interface Named {
  person_id: number;
  name: string | null;
}

/** Each person found in a photo once, in the order of their faces. */
export function peopleIn(faces: readonly Face[]): Named[] {
  const seen = new Map<number, Named>();
  for (const f of faces) if (f.person_id !== null && !seen.has(f.person_id)) seen.set(f.person_id, { person_id: f.person_id, name: f.person_name });
  return [...seen.values()];
}

/** The place line is shared with the viewer's details (lib/format.ts). */
export { placeLine } from '../../lib/format.ts';
