/** The photo events feature's public surface: its pages (routed by the app); no other feature uses it. */
export { EventPage } from './EventPage';
export { EventsPage } from './EventsPage';
