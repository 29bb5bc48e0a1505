/**
 * Locations: location clusters (see location-clusters.service.ts for the rules).
 *
 * | operationId             | method and path                             |
 * |-------------------------|---------------------------------------------|
 * | listLocationClusters    | GET /api/v1/location-clusters               |
 * | rebuildLocationClusters | POST /api/v1/location-clusters/rebuild      |
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';

const TAG = 'Locations and people';

export const LocationClusterSchema = z
  .object({
    cluster_id: z.string(),
    repository_id: z.string(),
    centroid_latitude: z.number(),
    centroid_longitude: z.number(),
    geohash: z.string().openapi({ description: 'The geohash-7 cell (~150 m) the cluster is.' }),
    precision: z.number().int(),
    photo_count: z.number().int().openapi({ description: 'Photos and videos (a RAW+JPEG pair or live photo counts once).' }),
    label: z.string().nullable().openapi({ description: '"Florence, Italy"; "Tuscany, Italy" away from towns; null where no place was found (open sea).' }),
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable(),
    provider: z.string().openapi({ description: '`geonames-offline`: the GeoNames gazetteer shipped with the server; no network.' }),
    geocode_status: z.enum(['pending', 'disabled', 'cached', 'resolved', 'failed']),
    geocoded_at: z.string().nullable(),
  })
  .openapi('LocationCluster');

export const listLocationClusters = defineRoute('user', {
  method: 'get',
  path: '/location-clusters',
  operationId: 'listLocationClusters',
  summary: 'Your places: photos grouped by where they were taken, with place names',
  description: [
    'Your location clusters as the last rebuild left them (rebuildLocationClusters), most photos first. Only your own, administrators included.',
    '`geohash` keeps the clusters whose cell starts with it (e.g. a precision-5 cell); geohash characters only (422 otherwise).',
  ].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      ...pageParams({ max: 1000, default: 100, noun: 'Clusters' }, { max: 100_000_000 }),
      repository_id: z.uuid().optional().openapi({ description: 'Only this repository.' }),
      geohash: z
        .string()
        .regex(/^[0-9b-hjkmnp-z]{1,12}$/, 'a geohash: 1..12 of 0-9 b-h j k m n p-z')
        .optional()
        .openapi({ description: 'Only clusters whose geohash starts with this.' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ clusters: z.array(LocationClusterSchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() }).openapi('LocationClusterList'),
    ),
    ...errorResponses(),
  },
});

export const rebuildLocationClusters = defineRoute('user', {
  method: 'post',
  path: '/location-clusters/rebuild',
  operationId: 'rebuildLocationClusters',
  summary: 'Queue a rebuild of your location clusters',
  description: [
    'Recreates your clusters from your live geotagged photos and videos (every repository, or `repository_id`), naming them from the offline gazetteer.',
    '`receipt_id` is the job id (getJob follows it). While a rebuild of yours is queued or running, another is 409 `location_rebuild_running`.',
    'An unknown `repository_id` is 422 naming `body.repository_id`.',
  ].join('\n\n'),
  tags: [TAG],
  request: {
    body: jsonBody(z.strictObject({ repository_id: z.uuid().nullable().optional().openapi({ description: 'Only this repository; absent or null: all.' }) }).openapi('LocationRebuildRequest'), {
      required: false,
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({ message: z.string(), receipt_id: z.string(), repository_id: z.string().nullable(), status: z.literal('queued') })
        .openapi('LocationRebuildReceipt'),
      'Queued',
    ),
    ...errorResponses(409),
  },
});
