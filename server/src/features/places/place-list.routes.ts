/**
 * Places: the caller's cities, regions and countries (extensions, server/operations.extensions.md).
 *
 * | operationId    | method and path           |
 * |----------------|---------------------------|
 * | listPlaces     | GET /api/v1/places        |
 * | listPlaceCells | GET /api/v1/places/cells  |
 * | getPlace       | GET /api/v1/places/{place_id} |
 *
 * Decisions: see place-list.service.ts and place-id.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';
import { PLACE_LEVELS } from './place-id.ts';

const TAG = 'Locations and people';

export const PlaceSchema = z
  .object({
    place_id: z.string().openapi({ description: 'Opaque and stable: give it to queryAssets as `filter.place_id` for the place’s photos.' }),
    level: z.enum(PLACE_LEVELS),
    name: z.string().openapi({ description: 'What to call it: the city; the region (or country) where the photos are in no town.' }),
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string(),
    country_code: z.string().openapi({ description: 'ISO 3166-1 alpha-2.' }),
    photo_count: z.number().int().openapi({ description: 'Your photos and videos there, not in the Trash (a RAW+JPEG pair or a live photo counts once).' }),
    cover_asset_id: z.string().openapi({ description: 'The photo to show for it: your best-rated there, then liked, then the newest (a video only where there is no photo).' }),
    latitude: z.number().openapi({ description: 'Centre: the mean position of its photos.' }),
    longitude: z.number(),
    bounds: z.object({ south: z.number(), north: z.number(), west: z.number(), east: z.number() }).openapi({ description: 'The box around its photos (min/max).' }),
    first_taken: z.string().openapi({ description: 'Earliest capture time there (else upload time).' }),
    last_taken: z.string(),
  })
  .openapi('Place');

export const listPlaces = defineRoute('user', {
  method: 'get',
  path: '/places',
  operationId: 'listPlaces',
  summary: 'Your places: cities, regions or countries with photo counts and covers',
  description: [
    'The places your geotagged photos and videos were taken in, named by the offline gazetteer, with counts, a cover photo, centre and box; most photos first, then by name, paged.',
    '`level`: `city` (the default; photos in no town are listed under their region, or country), `region` or `country`.',
    'Only your own photos (administrators too), never the Trash. A photo is in a place as soon as its position is named (moments after it is added), no rebuild needed. `filter.place_id` of queryAssets lists a place’s photos.',
  ].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      ...pageParams({ max: 500, default: 100, noun: 'Places' }, { max: 100_000_000 }),
      level: z.enum(PLACE_LEVELS).default('city').openapi({ description: '`city` (default), `region` or `country`.' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ places: z.array(PlaceSchema), level: z.enum(PLACE_LEVELS), limit: z.number().int(), offset: z.number().int(), total: z.number().int() }).openapi('PlaceList')),
    ...errorResponses(),
  },
});

export const PlaceCellSchema = z
  .object({
    geohash: z.string().openapi({ description: 'The geohash-7 cell (~150 m).' }),
    label: z.string().openapi({ description: '"Lisbon, Portugal"; "Tuscany, Italy" away from towns; the country alone.' }),
    city_place_id: z.string().openapi({ description: 'The listPlaces `city` entry this cell belongs to.' }),
    photo_count: z.number().int(),
  })
  .openapi('PlaceCell');

export const listPlaceCells = defineRoute('user', {
  method: 'get',
  path: '/places/cells',
  operationId: 'listPlaceCells',
  summary: 'The place names of the cells your photos are in, for naming a map’s clusters',
  description: [
    'Each geohash-7 cell (~150 m) holding your geotagged photos or videos (not in the Trash) whose position is named, with its label and city place id, by geohash, paged.',
    'A map computes each point’s geohash-7 and names its clusters from these (getMapPoints points carry no names: they are kept in memory and a cell is named a moment after ingest).',
  ].join('\n\n'),
  tags: [TAG],
  request: { query: z.object({ ...pageParams({ max: 10_000, default: 5_000, noun: 'Cells' }, { max: 100_000_000 }) }) },
  responses: {
    200: jsonResponse(z.object({ cells: z.array(PlaceCellSchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() }).openapi('PlaceCellList')),
    ...errorResponses(),
  },
});

export const getPlace = defineRoute('user', {
  method: 'get',
  path: '/places/{place_id}',
  operationId: 'getPlace',
  summary: 'One of your places: its name, count, cover, centre and box',
  description: [
    'The place a `place_id` of listPlaces names, as listPlaces shows it, from your photos there now.',
    'A malformed id is 422 `invalid_place_id`; a place where you have no photos (not yet, no longer, or never: another member’s) is 404 `place_not_found`.',
  ].join('\n\n'),
  tags: [TAG],
  request: { params: z.object({ place_id: z.string().max(1000).openapi({ param: ownedPathParam('place_id', 'place') }) }) },
  responses: {
    200: jsonResponse(PlaceSchema),
    ...errorResponses(404),
  },
});
