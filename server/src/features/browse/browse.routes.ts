/**
 * Browsing, search, statistics: the unified list and the liked / rated lists.
 *
 * | operationId        | method and path                  |
 * |--------------------|----------------------------------|
 * | queryAssets        | POST /api/v1/assets/query        |
 * | getAssetQueryYears | POST /api/v1/assets/query/years  |
 * | listLikedAssets    | GET  /api/v1/assets/liked        |
 * | listAssetsByRating | GET  /api/v1/assets/rating/{rating} |
 *
 * Decisions (see also browse.filter.ts for the filter fields and browse.service.ts for the list):
 * - `pagination.limit` is 1..200 (default 50), `offset` 0..10,000,000; the liked and rated lists
 *   take `limit` 1..200 (default 20) and `offset`.
 * - `search_type: semantic` with a non-empty `query` is answered by the search's embedding channel
 *   (features/search `semanticList`): closest first unless `sort_by` is given, stacks expanded;
 *   without CLIP, 503 `semantic_search_unavailable` (nothing is faked). `filename` (the
 *   default) lists items whose file name contains `query`, ignoring ASCII case; an empty `query` is
 *   no search (the plain list).
 * - The liked and rated lists are one entry per media item (the asset that stands for it, as in
 *   the gallery), library only (not the Trash), newest capture first. Rating 0 lists unrated items.
 *
 * Defaults are applied by the service, not with zod `.default()`: the generated client types treat a
 * field with a default as required, which would make every caller send every field.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { AssetSchema } from '../assets/index.ts';
import { isDateValue } from './browse.filter.ts';
import { GalleryListSchema } from './browse.view.ts';
import { singleLine } from '../../platform/http/text.ts';
import { optionalPageParams } from '../../platform/http/pagination.ts';
import { decodePlaceId } from '../places/index.ts';

const TAG = 'Browsing, search, statistics';
const AssetType = z.enum(['PHOTO', 'VIDEO', 'AUDIO']);
const DateValue = z
  .string()
  .max(40)
  .refine(isDateValue, 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time')
  .openapi({ example: '2024-07-31' });
const Name = singleLine(z.string().trim().min(1).max(200));

export const AssetFilterSchema = z
  .strictObject({
    album_id: z.number().int().min(1).optional().openapi({ description: 'Only assets in this album of yours (another user’s album matches nothing).' }),
    camera_make: Name.optional().openapi({ description: 'Exact camera make (manufacturer), as listed by getFilterOptions.', example: 'Canon' }),
    camera_model: Name.optional().openapi({ description: 'Exact camera model, as listed by getFilterOptions.' }),
    date: z
      .strictObject({ from: DateValue.optional(), to: DateValue.optional() })
      .refine((d) => d.from !== undefined || d.to !== undefined, 'give from, to or both')
      .optional()
      .openapi({
        description:
          'Inclusive range on the capture time (else the upload time). A day (YYYY-MM-DD) is read in `viewer_timezone` (UTC when absent); an RFC 3339 date-time is exact.',
      }),
    event_id: z.uuid().optional().openapi({ description: 'The photos of one of your photo events (a retired event’s id: its successor’s). Another member’s event matches nothing.' }),
    filename: z
      .strictObject({
        operator: z.enum(['contains', 'matches', 'starts_with', 'ends_with']).optional(),
        mode: z.enum(['contains', 'matches', 'starts_with', 'ends_with']).optional().openapi({ description: 'Legacy name of `operator`.' }),
        value: z.string().min(1).max(255),
      })
      .optional()
      .openapi({
        description:
          'File name test, ignoring ASCII case. `matches`: the whole name against a pattern where `*` is any run of characters and `?` one character. Default operator `contains`.',
      }),
    folder_path: z
      .string()
      .max(4096)
      .refine((p) => !p.replace(/\\/g, '/').split('/').some((s) => s === '..' || s === '.'), 'must not contain . or .. segments')
      .optional()
      .openapi({ description: 'Repository-relative folder (`a/b`, no leading slash; empty for the root). Best combined with repository_id.' }),
    folder_recursive: z.boolean().optional().openapi({ description: 'Include subfolders of folder_path. Default true.' }),
    is_deleted: z.boolean().optional().openapi({ description: 'true: the Trash. Default false.' }),
    lens: Name.optional().openapi({ description: 'Exact lens model, as listed by getFilterOptions.' }),
    liked: z.boolean().optional(),
    location: z
      .strictObject({
        south: z.number().min(-90).max(90),
        north: z.number().min(-90).max(90),
        west: z.number().min(-180).max(180),
        east: z.number().min(-180).max(180),
      })
      .refine((l) => l.south <= l.north, { message: 'must not be greater than north', path: ['south'] })
      .optional()
      .openapi({ description: 'Bounding box in degrees; south ≤ north; west > east is a box across the antimeridian. Assets without GPS never match.' }),
    media_item: z
      .strictObject({ composition: z.enum(['contains_raw', 'jpeg_raw', 'raw_unpaired', 'no_raw', 'live_photo']) })
      .optional()
      .openapi({
        description:
          '`contains_raw`: holds a RAW file; `jpeg_raw`: a RAW with a viewable partner (JPEG/HEIC/edit); `raw_unpaired`: a RAW on its own; `no_raw`; `live_photo`. Only files in the listed trash state count.',
      }),
    owner_id: z.number().int().min(1).optional().openapi({ description: 'Only your own id matches anything: photos are private to their owner, administrators included.' }),
    person_id: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .openapi({ description: 'Photos with this person (listPeople). Another member’s person, or an unknown id, matches nothing.' }),
    person_ids: z
      .array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(10)
      .optional()
      .openapi({ description: 'Extension: photos with ALL of these people together (with person_id, that one too).' }),
    place_id: z
      .string()
      .max(1000)
      .refine((id) => decodePlaceId(id) !== null, { message: 'must be a place_id from listPlaces', params: { code: 'invalid_place_id' } })
      .optional()
      .openapi({ description: 'Extension: the photos taken in this place (a `place_id` of listPlaces: a city, region or country).' }),
    rating: z.number().int().min(0).max(5).optional().openapi({ description: 'Exact rating; 0 is unrated.' }),
    rating_min: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .openapi({ description: 'Beyond the contract (additive): rated at least this many stars ("4+ stars"). With `rating`, both must hold.' }),
    repository_id: z.uuid().optional().openapi({ description: 'Only this repository.' }),
    stack: z
      .strictObject({
        kinds: z.array(z.enum(['burst', 'manual'])).min(1).max(2).optional(),
        membership: z.enum(['stacked', 'unstacked']).optional(),
      })
      .optional()
      .openapi({ description: '`stacked`: the item is in a stack (of one of `kinds` when given); `unstacked`: it is not. `kinds` alone means stacked.' }),
    tag_name: Name.max(100).optional().openapi({ description: 'Has this tag (case ignored).' }),
    tag_names: z.array(Name.max(100)).min(1).max(20).optional().openapi({ description: 'Has every one of these tags (case ignored).' }),
    tag_source: z
      .enum(['manual', 'zeroshot', 'bioclip', 'metadata'])
      .optional()
      .openapi({ description: 'With tag_name(s): the tags must come from this source. Alone: has any tag from this source.' }),
    type: AssetType.optional(),
    types: z.array(AssetType).min(1).max(3).optional().openapi({ description: 'Any of these types (combines with `type`: both must hold).' }),
  })
  .openapi('AssetFilter');
export type AssetFilter = z.output<typeof AssetFilterSchema>;

export const AssetQuerySchema = z
  .strictObject({
    filter: AssetFilterSchema.optional(),
    pagination: z
      .strictObject({
        ...optionalPageParams({ max: 200, serviceDefault: 50, in: 'body' }, { max: 10_000_000 }),
      })
      .optional(),
    query: z.string().max(255).optional().openapi({ description: 'Search text. With search_type `filename`: the file name contains it (ASCII case ignored).' }),
    search_type: z.enum(['filename', 'semantic']).optional().openapi({
      description: '`filename` (the default). `semantic` (with a non-empty `query`): photos whose CLIP vectors are near the query, closest first unless `sort_by` is given, every matching photo a row (stacks expanded); without CLIP, 503 `semantic_search_unavailable`.',
    }),
    sort_by: z.enum(['recently_added', 'date_captured']).optional().openapi({
      description:
        '`recently_added` (the default): newest in the catalog first (upload_time). `date_captured`: newest capture first (taken_time, else upload_time).',
    }),
    stack_mode: z.enum(['collapsed', 'expanded']).optional().openapi({
      description:
        '`collapsed` (the default): a stack is one row, shown through its cover (or its first matching member when the cover does not match), with `stack` filled in. `expanded`: every member is a row.',
    }),
    viewer_timezone: z.string().min(1).max(64).optional().openapi({ description: 'IANA time zone in which `filter.date` days are read. Default UTC.', example: 'Europe/Amsterdam' }),
  })
  .openapi('AssetQuery');
export type AssetQuery = z.output<typeof AssetQuerySchema>;

export const queryAssets = defineRoute('user', {
  method: 'post',
  path: '/assets/query',
  operationId: 'queryAssets',
  summary: 'List your assets as media items, filtered, searched, sorted and paged',
  description: [
    'The unified list: one row per logical media item (a RAW+JPEG pair or a live photo is one row, shown through its primary asset; an asset still processing or failed stands alone). Stacks are one row in `collapsed` mode.',
    'Only your own assets (administrators too). Trash (`is_deleted`) is left out unless asked for. The body is optional; every field has a default.',
    'Filters apply to the asset that stands for the item, except `media_item.composition` and `stack`, which look at the whole item. `owner_id` other than yours matches nothing; `event_id` lists the photos of your event; `person_id`/`person_ids` match the photos where your people are; `place_id` the photos taken in one of your places (listPlaces).',
    'Totals: `total_media_items` matching items, `total_files` the files behind them (in the listed trash state), `total_visible` the rows of this stack mode.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(AssetQuerySchema, { required: false }),
  },
  responses: {
    200: jsonResponse(GalleryListSchema),
    ...errorResponses(503),
  },
});

export const AssetYearsQuerySchema = AssetQuerySchema.pick({ filter: true, query: true, stack_mode: true, viewer_timezone: true }).openapi('AssetYearsQuery');
export type AssetYearsQuery = z.output<typeof AssetYearsQuerySchema>;

export const AssetQueryYearsSchema = z
  .object({
    years: z.array(z.object({ year: z.number().int(), count: z.number().int() })).openapi({ description: 'Years with at least one row of the list, newest first.' }),
    total: z.number().int().openapi({ description: 'Rows of the list (its `total_visible`).' }),
  })
  .openapi('AssetQueryYears');
export type AssetQueryYears = z.infer<typeof AssetQueryYearsSchema>;

export const getAssetQueryYears = defineRoute('user', {
  method: 'post',
  path: '/assets/query/years',
  operationId: 'getAssetQueryYears',
  summary: 'The years a list of queryAssets covers, with how many of its rows each holds',
  description: [
    'Beyond the contract: for a date scrubber beside a list (the timeline, Favourites, a place, a filtered timeline). The body is that of queryAssets without paging or sort: the same filter, file-name query and stack mode give the same rows, your partners’ shared photos included where queryAssets lists them.',
    'The year of a row is the local wall-clock year of its capture time (shifted by its recorded offset), else of when it entered the catalog, as getStatsYears counts them and as `date_captured` sorts them.',
  ].join('\n'),
  tags: [TAG],
  request: { body: jsonBody(AssetYearsQuerySchema, { required: false }) },
  responses: { 200: jsonResponse(AssetQueryYearsSchema) },
});

const Paging = z.object(optionalPageParams({ max: 200, serviceDefault: 20 }, { max: 10_000_000 }));

export const AssetPageSchema = z
  .object({
    assets: z.array(AssetSchema),
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
  })
  .openapi('AssetPage');

export const listLikedAssets = defineRoute('user', {
  method: 'get',
  path: '/assets/liked',
  operationId: 'listLikedAssets',
  summary: 'Your liked assets, newest capture first',
  description: 'One asset per media item (the one the gallery shows), library only (not the Trash), newest capture first.',
  tags: [TAG],
  request: { query: Paging },
  responses: { 200: jsonResponse(AssetPageSchema) },
});

export const listAssetsByRating = defineRoute('user', {
  method: 'get',
  path: '/assets/rating/{rating}',
  operationId: 'listAssetsByRating',
  summary: 'Your assets with exactly this rating, newest capture first',
  description: 'Rating 0..5 (0 lists unrated items). One asset per media item, library only, newest capture first.',
  tags: [TAG],
  request: {
    params: z.object({ rating: z.coerce.number().int().min(0).max(5).openapi({ param: { name: 'rating', in: 'path' }, example: 5 }) }),
    query: Paging,
  },
  responses: { 200: jsonResponse(AssetPageSchema) },
});
