export { PhotoEventsService, type EventView, type EventDetail, type RebuildState } from './photo-events.service.ts';
export type { PlaceNameAt } from './titles.ts';
export type { PeopleOfItems } from './relations.ts';
