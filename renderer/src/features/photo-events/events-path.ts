/** Where the Events screens live: the list, and one event (whose photos open at `/events/<id>/photos/<asset>`). */
export const EVENTS_PATH = '/events';
export const eventPath = (eventId: string) => `${EVENTS_PATH}/${encodeURIComponent(eventId)}`;
