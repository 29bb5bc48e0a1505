/** What other features may use of places (eslint's layer rules): geohashes for the ingest pipeline, place names and the place channel's lookup for search and assets. */
export { geohash, geohashFields } from './geohash.ts';
/** The box around geohash cells (search: "in Lisbon" as a location filter). */
export { boundsOf, type Box } from './geohash-bounds.ts';
/** Place ids of listPlaces, for queryAssets' `filter.place_id` (features/browse). */
export { decodePlaceId, placeCellTerm, type PlaceKey } from './place-id.ts';
/** Place names to positions, and the process's geocoder (features/assets/corrections: a place set by name). */
export { searchPlaceNames, type PlaceSuggestion } from './geocoder/place-search.ts';
export { reverseGeocoder } from './geocoder/reverse-geocoder.ts';
