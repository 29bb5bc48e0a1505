/**
 * | operationId      | method and path             |
 * |------------------|-----------------------------|
 * | searchPlaceNames | GET /api/v1/place-names     |
 *
 * Towns by name from the offline gazetteer (geocoder/place-search.ts), for setting where a photo was taken
 * by typing a place (features/assets/corrections). Geography, not anyone's photos: any signed-in member.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

export const PlaceSuggestionSchema = z
  .object({
    name: z.string(),
    region: z.string().nullable(),
    country: z.string(),
    country_code: z.string().openapi({ description: 'ISO 3166-1 alpha-2.' }),
    latitude: z.number(),
    longitude: z.number(),
  })
  .openapi('PlaceSuggestion');

export const searchPlaceNames = defineRoute('user', {
  method: 'get',
  path: '/place-names',
  operationId: 'searchPlaceNames',
  summary: 'Towns whose name matches what was typed (offline gazetteer)',
  description:
    'Accents and case do not matter ("zurich" finds Zürich). Exact names first, then names starting with `q`, then names with a word starting with it. The gazetteer has no population: every "Paris" is listed, each with its region and country.',
  tags: ['Browsing, search, statistics'],
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(100),
      limit: z.coerce.number().int().min(1).max(50).default(10),
    }),
  },
  responses: { 200: jsonResponse(z.object({ places: z.array(PlaceSuggestionSchema) })) },
});
