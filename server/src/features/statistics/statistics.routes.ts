/**
 * Browsing, search, statistics: filter options, supported types, and the library statistics.
 *
 * | operationId         | method and path                        |
 * |---------------------|----------------------------------------|
 * | getFilterOptions    | GET /api/v1/assets/filter-options      |
 * | getAssetTypes       | GET /api/v1/assets/types               |
 * | getStatsYears       | GET /api/v1/stats/available-years      |
 * | getCameraLensStats  | GET /api/v1/stats/camera-lens          |
 * | getActivityHeatmap  | GET /api/v1/stats/daily-activity       |
 * | getFocalLengthStats | GET /api/v1/stats/focal-length         |
 * | getTimeDistribution | GET /api/v1/stats/time-distribution    |
 *
 * The contract names the statistics and their parameters only (variant B); the response shapes
 * here are ours, documented on each route. Decisions: see statistics.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

const TAG = 'Browsing, search, statistics';
const REPO = z.uuid().optional().openapi({ description: 'Only this repository (404 when unknown).' });
const OWN =
  'Counts your own assets that are not in the Trash (administrators see only their own too), one per media item: a RAW+JPEG pair or a live photo counts once.';
const LOCAL =
  'Times are local wall-clock times of capture: the capture time shifted by its recorded UTC offset (a time without an offset is the camera clock as recorded).';
const repoOnly = { query: z.object({ repository_id: REPO }) };

const IsoDate = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'must be a calendar date YYYY-MM-DD',
  );

// ---- filter options, types ----

export const FilterOptionsSchema = z
  .object({
    camera_makes: z.array(z.string()).openapi({ description: 'Distinct camera makes (manufacturers) of your assets, sorted (case-insensitive, natural order).' }),
    camera_models: z.array(z.string()).openapi({ description: 'Distinct camera models of your assets, sorted (case-insensitive, natural order).' }),
    cameras: z
      .array(
        z.object({
          make: z.string().nullable().openapi({ description: 'The camera make as recorded (the exact value of the `camera_make` filter); null when no file of this model records one.' }),
          model: z.string().openapi({ description: 'The camera model as recorded (the exact value of the `camera_model` filter).' }),
          name: z.string().openapi({ description: 'The camera as people name it: brand and model, the make not repeated when the model already starts with it.', example: 'Nikon D70' }),
        }),
      )
      .openapi({
        description:
          'Beyond the contract (additive): each camera model of your assets with its make and a display name, sorted by name. Filter with both `camera_make` (when not null) and `camera_model`.',
      }),
    lenses: z.array(z.string()).openapi({ description: 'Distinct lens models of your assets, sorted the same way.' }),
  })
  .openapi('FilterOptions');

export const getFilterOptions = defineRoute('user', {
  method: 'get',
  path: '/assets/filter-options',
  operationId: 'getFilterOptions',
  summary: 'Camera makes, models and lenses you can filter by',
  description:
    'The distinct camera makes, camera models and lens models found in the metadata of your own assets (photos and videos, not in the Trash), for the camera and lens filters of the library. Empty lists when none are recorded.',
  tags: [TAG],
  responses: { 200: jsonResponse(FilterOptionsSchema) },
});

const AssetTypeEnum = z.enum(['PHOTO', 'VIDEO', 'AUDIO']);
export const AssetTypesSchema = z
  .object({
    types: z.array(AssetTypeEnum).openapi({ description: 'The asset types, as used by `type`/`types` in asset filters.' }),
    formats: z
      .array(
        z.object({
          type: AssetTypeEnum,
          name: z.string().openapi({ example: 'HEIC / HEIF' }),
          extensions: z.array(z.string()).openapi({ description: 'Usual extensions, lower case, no dot.', example: ['heic', 'heif'] }),
          mime_types: z.array(z.string()).openapi({ description: 'MIME types an asset of this format carries.' }),
          raw: z.boolean().openapi({ description: 'A camera RAW format.' }),
        }),
      )
      .openapi({ description: 'The file formats recognised for each type (by content; the extension only tells TIFF-based RAWs apart).' }),
  })
  .openapi('AssetTypes');

export const getAssetTypes = defineRoute('user', {
  method: 'get',
  path: '/assets/types',
  operationId: 'getAssetTypes',
  summary: 'The asset types and file formats Hearth supports',
  description:
    '`types`: PHOTO, VIDEO, AUDIO (the values of the asset filter). `formats`: each recognised file format with its type, usual extensions and MIME types, and whether it is a camera RAW. Files are recognised by their content, so a misnamed file is still cataloged under its real format.',
  tags: [TAG],
  responses: { 200: jsonResponse(AssetTypesSchema) },
});

// ---- statistics ----

export const StatsYearsSchema = z
  .object({
    years: z.array(z.object({ year: z.number().int(), count: z.number().int() })).openapi({ description: 'Years with at least one item, newest first.' }),
    total: z.number().int().openapi({ description: 'All items counted.' }),
  })
  .openapi('StatsYears');

export const getStatsYears = defineRoute('user', {
  method: 'get',
  path: '/stats/available-years',
  operationId: 'getStatsYears',
  summary: 'The years your library covers, with how much each holds',
  description: [
    'Each year in which you have photos, videos or audio, newest first, with the number of items. The year of an item is that of its capture time, else of when it entered the catalog.',
    OWN,
    LOCAL,
  ].join('\n\n'),
  tags: [TAG],
  request: repoOnly,
  responses: { 200: jsonResponse(StatsYearsSchema), ...errorResponses(404) },
});

export const CameraLensStatsSchema = z
  .object({
    items: z
      .array(z.object({ camera_model: z.string(), lens_model: z.string().nullable().openapi({ description: 'null: no lens recorded (most compacts and phones).' }), count: z.number().int() }))
      .openapi({ description: 'The most used combinations, most photos first (ties: camera, then lens, by name).' }),
    limit: z.number().int(),
    total_combinations: z.number().int().openapi({ description: 'All distinct combinations, including those beyond `limit`.' }),
    total_photos: z.number().int().openapi({ description: 'Photos with a camera model recorded (the sum over all combinations).' }),
  })
  .openapi('CameraLensStats');

export const getCameraLensStats = defineRoute('user', {
  method: 'get',
  path: '/stats/camera-lens',
  operationId: 'getCameraLensStats',
  summary: 'Which cameras and lenses your photos were taken with',
  description: ['Photos per (camera model, lens model) combination, from the photo metadata; photos without a camera model are left out.', OWN].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Combinations to return, 1..100. Default 20.' }),
      repository_id: REPO,
    }),
  },
  responses: { 200: jsonResponse(CameraLensStatsSchema), ...errorResponses(404) },
});

export const ActivityHeatmapSchema = z
  .object({
    start_date: z.string().openapi({ description: 'First day, YYYY-MM-DD.' }),
    end_date: z.string().openapi({ description: 'Last day (inclusive), YYYY-MM-DD.' }),
    days: z.array(z.object({ date: z.string().openapi({ example: '2024-07-14' }), count: z.number().int() })).openapi({ description: 'Every day of the range in order, zeros included.' }),
    total: z.number().int(),
    max_count: z.number().int().openapi({ description: 'The busiest day’s count (0 for an empty range), for scaling the colours.' }),
  })
  .openapi('ActivityHeatmap');

export const ActivityQuerySchema = z.object({
  year: z.coerce.number().int().min(1826).max(9999).optional().openapi({ description: 'A calendar year (1 January to 31 December).' }),
  start_date: IsoDate.optional().openapi({ description: 'First day, YYYY-MM-DD; together with end_date.' }),
  end_date: IsoDate.optional().openapi({ description: 'Last day (inclusive), YYYY-MM-DD; together with start_date.' }),
  days: z.coerce.number().int().min(1).max(3660).optional().openapi({ description: 'Deprecated: the last N days up to today (UTC). Default when nothing else is given: 365.' }),
  repository_id: REPO,
});
export type ActivityQuery = z.output<typeof ActivityQuerySchema>;

export const getActivityHeatmap = defineRoute('user', {
  method: 'get',
  path: '/stats/daily-activity',
  operationId: 'getActivityHeatmap',
  summary: 'How many photos and videos you took each day',
  description: [
    'Items per day for a calendar heatmap: photos, videos and audio by the day of their capture time (else of when they entered the catalog).',
    'Range: `year`, or `start_date` with `end_date` (inclusive, at most 3660 days), or the deprecated `days` (the last N days up to today, UTC); nothing: the last 365 days. Mixing them, one date without the other, or an end before the start: 422 naming the field.',
    OWN,
    LOCAL,
  ].join('\n\n'),
  tags: [TAG],
  request: { query: ActivityQuerySchema },
  responses: { 200: jsonResponse(ActivityHeatmapSchema), ...errorResponses(404) },
});

export const FocalLengthStatsSchema = z
  .object({
    buckets: z
      .array(
        z.object({
          label: z.string().openapi({ example: '24–35 mm' }),
          min_mm: z.number().openapi({ description: 'Lower edge, inclusive.' }),
          max_mm: z.number().nullable().openapi({ description: 'Upper edge, exclusive; null for the last, open bucket.' }),
          count: z.number().int(),
        }),
      )
      .openapi({ description: 'Every bucket in order, zeros included.' }),
    top_values: z.array(z.object({ focal_length: z.number(), count: z.number().int() })).openapi({ description: 'The ten most used exact focal lengths (mm), most photos first.' }),
    total: z.number().int().openapi({ description: 'Photos with a focal length recorded.' }),
    unknown_count: z.number().int().openapi({ description: 'Photos without one.' }),
  })
  .openapi('FocalLengthStats');

export const getFocalLengthStats = defineRoute('user', {
  method: 'get',
  path: '/stats/focal-length',
  operationId: 'getFocalLengthStats',
  summary: 'Which focal lengths your photos were taken at',
  description: [
    'Photos per focal length bucket (<10, 10–16, 16–24, 24–35, 35–50, 50–85, 85–135, 135–200, 200–400, 400+ mm; each bucket includes its lower edge) and the most used exact values.',
    'The focal length is the one the camera recorded, not the 35 mm equivalent: phone lenses (about 2–9 mm) fall in the first bucket.',
    OWN,
  ].join('\n\n'),
  tags: [TAG],
  request: repoOnly,
  responses: { 200: jsonResponse(FocalLengthStatsSchema), ...errorResponses(404) },
});

export const TimeDistributionSchema = z
  .object({
    type: z.enum(['hourly', 'monthly']),
    buckets: z
      .array(z.object({ bucket: z.number().int().openapi({ description: 'Hour of day 0..23, or month 1..12.' }), count: z.number().int() }))
      .openapi({ description: 'Every hour (24) or month (12) in order, zeros included.' }),
    total: z.number().int().openapi({ description: 'Items with a capture time.' }),
  })
  .openapi('TimeDistribution');

export const getTimeDistribution = defineRoute('user', {
  method: 'get',
  path: '/stats/time-distribution',
  operationId: 'getTimeDistribution',
  summary: 'At what hours of the day, or in which months, you take photos',
  description: [
    '`hourly` (default): items per local hour of capture, 0..23. `monthly`: items per month of the year, 1..12, all years together. Only items with a capture time count (the time a file entered the catalog says nothing about when it was taken).',
    OWN,
    LOCAL,
  ].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      type: z.enum(['hourly', 'monthly']).default('hourly').openapi({ description: '`hourly` (default) or `monthly`.' }),
      repository_id: REPO,
    }),
  },
  responses: { 200: jsonResponse(TimeDistributionSchema), ...errorResponses(404) },
});

export type FilterOptions = z.infer<typeof FilterOptionsSchema>;
export type AssetTypes = z.infer<typeof AssetTypesSchema>;
export type StatsYears = z.infer<typeof StatsYearsSchema>;
export type CameraLensStats = z.infer<typeof CameraLensStatsSchema>;
export type ActivityHeatmap = z.infer<typeof ActivityHeatmapSchema>;
export type FocalLengthStats = z.infer<typeof FocalLengthStatsSchema>;
export type TimeDistribution = z.infer<typeof TimeDistributionSchema>;
