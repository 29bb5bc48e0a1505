/**
 * Browsing, search, statistics: photos on a map.
 *
 * | operationId  | method and path               |
 * |--------------|-------------------------------|
 * | getMapPoints | GET /api/v1/assets/map-points |
 *
 * Decisions: see places.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';

const TAG = 'Browsing, search, statistics';

const lat = (name: string) => z.coerce.number().min(-90).max(90).optional().openapi({ description: `${name} latitude of the viewport, -90..90.` });
const lon = (name: string) => z.coerce.number().min(-180).max(180).optional().openapi({ description: `${name} longitude of the viewport, -180..180.` });

export const MapPointsQuerySchema = z.object({
  ...pageParams({ max: 5000, default: 1000, noun: 'Points' }, { max: 100_000_000 }),
  repository_id: z.uuid().optional().openapi({ description: 'Only this repository (404 when unknown).' }),
  south: lat('Southern'),
  north: lat('Northern'),
  west: lon('Western'),
  east: lon('Eastern'),
});
export type MapPointsQuery = z.output<typeof MapPointsQuerySchema>;

export const MapPointSchema = z
  .object({
    asset_id: z.string(),
    gps_latitude: z.number(),
    gps_longitude: z.number(),
    original_filename: z.string(),
    taken_time: z.string().nullable(),
    upload_time: z.string(),
  })
  .openapi('MapPoint');

export const MapPointsSchema = z
  .object({
    limit: z.number().int(),
    offset: z.number().int(),
    points: z.array(MapPointSchema),
    total: z.number().int().openapi({ description: 'All matching points (every page).' }),
  })
  .openapi('MapPoints');
export type MapPoints = z.infer<typeof MapPointsSchema>;

export const getMapPoints = defineRoute('user', {
  method: 'get',
  path: '/assets/map-points',
  operationId: 'getMapPoints',
  summary: 'Where your photos and videos were taken, for a map',
  description: [
    'Your geotagged photos and videos (not in the Trash), one point per media item (a RAW+JPEG pair or a live photo is one point), newest capture first, paged with limit/offset; `total` counts all matching points.',
    'Optional viewport: all four of south, north, west, east, or none (422 naming the missing ones). south ≤ north. west > east is a box across the antimeridian (west 170, east -170).',
    'A position of exactly (0, 0) is treated as "no position" (an empty GPS block) and never shown. Only your own assets, administrators included.',
  ].join('\n\n'),
  tags: [TAG],
  request: { query: MapPointsQuerySchema },
  responses: {
    200: jsonResponse(MapPointsSchema),
    ...errorResponses(404),
  },
});
