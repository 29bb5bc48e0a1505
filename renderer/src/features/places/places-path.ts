/** Where Places lives: `/places` (cities; `?level=country` for countries), a place at `/places/<place_id>`, its photos at `/places/<place_id>/photos/<id>`. */
export const PLACES_PATH = '/places';

export const placePath = (placeId: string) => `${PLACES_PATH}/${encodeURIComponent(placeId)}`;
