/** The places feature's public surface: its addresses (the map links to a place). */
export { PLACES_PATH, placePath } from './places-path';
