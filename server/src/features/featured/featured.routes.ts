/**
 * Browsing, search, statistics: featured photos.
 *
 * | operationId       | method and path             |
 * |-------------------|-----------------------------|
 * | getFeaturedPhotos | GET /api/v1/assets/featured |
 *
 * Decisions: see featured.service.ts; the algorithm: weighted-aes.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { AssetSchema } from '../assets/index.ts';

const TAG = 'Browsing, search, statistics';

export const FeaturedQuerySchema = z.object({
  count: z.coerce.number().int().min(1).max(24).default(8).openapi({ description: 'Photos to feature, 1..24. Default 8.' }),
  candidate_limit: z.coerce.number().int().min(16).max(1000).default(240).openapi({ description: 'Recent photos to draw from, 16..1000. Default 240.' }),
  days: z.coerce.number().int().min(0).max(36500).default(3650).openapi({ description: 'Only photos from the last N days (capture time, else upload time), 0..36500; 0: no cutoff. Default 3650.' }),
  seed: z.string().min(1).max(200).optional().openapi({ description: 'Any text; the same seed gives the same selection. Default: today’s UTC date, YYYY-MM-DD.', example: '2026-11-21' }),
  repository_id: z.uuid().optional().openapi({ description: 'Only this repository (404 when unknown).' }),
  on_this_day: z
    .string()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      'must be a calendar date YYYY-MM-DD',
    )
    .optional()
    .openapi({
      description:
        'Beyond the contract (additive): "On this day" memories. The viewer’s today, YYYY-MM-DD: candidates are then the photos taken on the same month and day in earlier years (local date of capture; photos without a capture time are left out), newest first, instead of the recently added ones; `days` is ignored. 29 February matches only 29 February.',
      example: '2026-11-25',
    }),
});
export type FeaturedQuery = z.output<typeof FeaturedQuerySchema>;

export const FeaturedPhotosSchema = z
  .object({
    assets: z.array(AssetSchema),
    candidate_count: z.number().int().openapi({ description: 'Photos the selection was drawn from.' }),
    count: z.number().int().openapi({ description: 'Photos returned (at most the `count` asked for).' }),
    generated_at_time: z.string().openapi({ description: 'When this answer was made, ISO 8601.' }),
    seed: z.string(),
    strategy: z.literal('weighted_aes_v1'),
  })
  .openapi('FeaturedPhotos');
export type FeaturedPhotos = z.infer<typeof FeaturedPhotosSchema>;

export const getFeaturedPhotos = defineRoute('user', {
  method: 'get',
  path: '/assets/featured',
  operationId: 'getFeaturedPhotos',
  summary: 'A varied selection of your recent photos for the home page',
  description: [
    'Deterministic weighted sampling (`weighted_aes_v1`): each candidate is weighted by recency (half-life 120 days), quality (rating, liked, resolution) and metadata richness; ranks come from Efraimidis–Spirakis keys −ln(u)/weight with u from SHA-256 of `seed:asset_id`; the walk by rank keeps at most 2 photos per day, 3 per camera and 4 per aspect (landscape, portrait, squareish), then fills any remaining slots by rank.',
    'Candidates: your own photos with ready thumbnails, not in the Trash, one per media item, the `candidate_limit` most recently added within `days`. The seed defaults to today’s UTC date, so the selection changes once a day; the same seed over the same library gives the same list.',
    'With `on_this_day` (beyond the contract): candidates are your photos taken on that month and day in earlier years, newest first, at most `candidate_limit`; the same weighting and caps pick among them.',
  ].join('\n\n'),
  tags: [TAG],
  request: { query: FeaturedQuerySchema },
  responses: {
    200: jsonResponse(FeaturedPhotosSchema),
    ...errorResponses(404),
  },
});
