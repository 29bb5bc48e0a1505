/**
 * Search: hybrid search, search by image, the zero-shot classifier preview.
 *
 * | operationId         | method and path                          |
 * |---------------------|------------------------------------------|
 * | searchAssets        | POST /api/v1/assets/search               |
 * | searchAssetsByImage | POST /api/v1/assets/search/by-image      |
 * | previewClassifier   | POST /api/v1/classifiers/preview         |
 *
 * Decisions (see search.service.ts for how a search runs):
 * - `query` is at most 1,000 characters (a 10,000-character paste is refused, 422 naming
 *   `body.query`, rather than cut without the user knowing). Empty (or only white space) with no
 *   `similar_to_asset_id`: 422 naming `body.query` (there is nothing to search for).
 * - `top_results_limit` 1..200 (default 20); `pagination.limit` 1..200 (default 50), `offset` up to
 *   10,000 (the candidate pool holds at most 1,000 results).
 * - `sort_by`: `relevance` (default, the fused order), `recently_added`, `date_captured`.
 * - The classifier preview is open to every member (the contract says bearer): it only ever scores
 *   the caller's own visible library. 1..16 prompts per side of at most 200 characters; threshold
 *   −1..1 (a difference of two cosines).
 * - Search by image: the multipart body is read in memory (at most 256 MiB), never written to disk.
 */
import { z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../../platform/http/errors.ts';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { AssetFilterSchema, GalleryItemSchema } from '../browse/index.ts';

const TAG = 'Browsing, search, statistics';

export const MAX_QUERY_CHARS = 1000;
export const MAX_TOP_RESULTS = 200;
/** The largest query image (contract: max upload 256 MiB). */
export const MAX_QUERY_IMAGE_BYTES = 256 * 1024 * 1024;

const TopResults = z.number().int().min(1).max(MAX_TOP_RESULTS);
const TimeZone = z.string().min(1).max(64).openapi({ description: 'IANA time zone: dates in the query and `filter.date` days are read there. Default UTC.', example: 'Europe/Amsterdam' });

export const SearchRequestSchema = z
  .strictObject({
    debug: z.boolean().optional().openapi({ description: 'Fill `top_results_meta.debug` with each result’s rank and scores per channel.' }),
    enhancement_mode: z.enum(['auto', 'off', 'only']).optional().openapi({
      description:
        '`auto` (default): the parts of the query the plain-language parser understands (dates, media types, ratings, favourites, cameras, lenses, file types) become filters, the rest is searched. `off`: the whole query is searched. `only`: the understood filters alone, the rest is not searched. No language model is used.',
    }),
    filter: AssetFilterSchema.optional().openapi({ description: 'Restricts the search; where it and the parsed query set the same field, this one wins.' }),
    pagination: z
      .strictObject({
        limit: z.number().int().min(1).max(200).optional().openapi({ description: 'Results per page, 1..200. Default 50.' }),
        offset: z.number().int().min(0).max(10_000).optional().openapi({ description: 'Results to skip, 0..10,000. Default 0.' }),
      })
      .optional(),
    query: z.string().max(MAX_QUERY_CHARS).optional().openapi({ description: `What to find, at most ${MAX_QUERY_CHARS} characters. Required unless similar_to_asset_id is given.` }),
    similar_to_asset_id: z.string().min(1).max(64).optional().openapi({ description: 'Find photos that look like this one (one you can read); it is not in its own answer.' }),
    sort_by: z.enum(['relevance', 'recently_added', 'date_captured']).optional().openapi({ description: 'Order of `result_items`. Default `relevance`.' }),
    top_results_limit: TopResults.optional().openapi({ description: 'Size of `top_items`, 1..200. Default 20.' }),
    viewer_timezone: TimeZone.optional(),
    ignore_parsed: z
      .array(z.string().min(1).max(100))
      .max(50)
      .optional()
      .openapi({ description: 'Ids of parsed chips (`parsed.chips[].id`) the user removed: their words are searched as text instead.' }),
    reading: z.enum(['auto', 'filters', 'words']).optional().openapi({
      description:
        'Hearth extension. How understood words are read (with `enhancement_mode: auto`): `filters` applies them as filters (the chips) and searches the rest; `words` searches the whole query as words, no filter parsed; `auto` (default) uses the words reading when it finds the words themselves as words of a file name, a photo\'s text, a tag, description or album name, or as a place ("DJI_FLIR" is a file name, not the camera FLIR), else the filters reading. `parsed.reading` says which was used.',
    }),
  })
  .refine((b) => (b.query ?? '').trim() !== '' || b.similar_to_asset_id !== undefined, {
    message: 'give a query (or similar_to_asset_id)',
    path: ['query'],
  })
  .openapi('SearchRequest');
export type SearchRequestBody = z.output<typeof SearchRequestSchema>;

export const MatchSchema = z
  .object({
    score: z.number().openapi({ description: 'Fused reciprocal-rank score (0 when the answer is a filtered list).' }),
    why: z.array(z.string()).openapi({ description: 'Short phrases saying why it was found, e.g. "text \'EXIT\'", "looks like your query", "filename", "tag \'beach\'".' }),
    sources: z.array(z.string()).openapi({ description: 'The channels that found it: `embedding`, `place`, `ocr`, `filename`, `text`.' }),
    frame_ts_ms: z.number().int().nullable().openapi({ description: 'For a video: the time of the frame that matched best.' }),
  })
  .openapi('SearchMatch');

export const SearchItemSchema = GalleryItemSchema.extend({ match: MatchSchema }).openapi('SearchItem');

const ContributionSchema = z.object({ rank: z.number().int(), raw_score: z.number(), rrf_score: z.number(), weight: z.number() });

export const SearchResponseSchema = z
  .object({
    limit: z.number().int(),
    offset: z.number().int(),
    result_items: z.array(SearchItemSchema),
    results_total_media_items: z.number().int(),
    results_total_visible: z.number().int(),
    top_items: z.array(SearchItemSchema),
    top_results_meta: z.object({
      candidate_count: z.number().int().openapi({ description: 'Assets any channel found.' }),
      candidate_pool_size: z.number().int().openapi({ description: 'How many of them the answer keeps: max(50, (limit+offset)·4), at most 1000.' }),
      debug: z
        .array(z.object({ asset_id: z.string(), contributions: z.record(z.string(), ContributionSchema), score: z.number() }))
        .optional()
        .openapi({ description: 'With `debug: true`: per shown result, its rank and scores per channel.' }),
      degraded: z.boolean(),
      enabled: z.boolean().openapi({ description: 'Semantic search is switched on in the ML settings.' }),
      reason: z.string().nullable().openapi({ description: '`semantic_unavailable` when degraded.' }),
      source_types: z.array(z.string()),
      matched_well: z.boolean().openapi({
        description:
          'Hearth extension. Some result is a strong match: every word of the query (little words like "on", "a" aside) found as a word of a file name, a photo\'s text or your words, a place named by the whole query, or a close likeness. Only strong matches are in `top_items`; false when the channels found nothing strong (`top_items` is then empty). A filtered list (nothing to search) matched well when it lists anything.',
      }),
      sources: z.array(
        z.object({
          candidate_count: z.number().int(),
          duration_ms: z.number(),
          error: z.string().nullable(),
          type: z.string(),
          weight: z.number(),
        }),
      ),
    }),
    parsed: z.object({
      rest: z.string().openapi({ description: 'The words searched as text.' }),
      filter: z.record(z.string(), z.unknown()).openapi({ description: 'The asset filter the parser read from the query.' }),
      chips: z.array(
        z.object({
          id: z.string().openapi({ description: 'Send it in `ignore_parsed` to undo this part.' }),
          kind: z.string().openapi({ description: '`date`, `media_type`, `live_photo`, `screenshot`, `favourite`, `rating`, `file_type`, `camera_make`, `camera_model`, `lens`, `place` ("in Lisbon": a location box around your photos taken there), `person` (one of your named people: "Anna", "with Anna"; several together are photos with all of them).' }),
          label: z.string(),
          text: z.string().openapi({ description: 'The words of the query it came from.' }),
        }),
      ),
      reading: z.enum(['filters', 'words']).openapi({
        description: 'Hearth extension. The reading used: `filters` (the chips applied, `rest` searched) or `words` (the whole query searched as words; `chips` is then empty and the understood filters are in `other_reading`).',
      }),
      other_reading: z
        .object({
          reading: z.enum(['filters', 'words']),
          rest: z.string().openapi({ description: 'The words that reading searches.' }),
          chips: z.array(z.object({ id: z.string(), kind: z.string(), label: z.string(), text: z.string() })).openapi({ description: 'The filters that reading applies.' }),
          results_total: z.number().int().nullable().openapi({ description: 'How many results that reading found, when it was run; else null.' }),
        })
        .nullable()
        .openapi({ description: 'Hearth extension. The other reading of a query with understood words, to offer as "Search instead for …" (send `reading` to ask for it); null when there is none.' }),
    }),
  })
  .openapi('SearchResponse');

export const searchAssets = defineRoute('user', {
  method: 'post',
  path: '/assets/search',
  operationId: 'searchAssets',
  summary: 'Hybrid search: what is in your photos, their text, names and your words',
  description: [
    'Searches your library (and what partners share into your timeline) through five channels: `embedding` (CLIP: what the photo looks like), `place` (the town, region or country where it was taken: "Lisbon", "Portugal", "Tuscany"), `ocr` (text in the photo), `filename`, `text` (descriptions, tags, album names). They are fused by weighted reciprocal rank (k = 60; weights 1.0, 0.8, 0.7, 0.6, 0.8).',
    '"in Lisbon" (after in, at, near, around) becomes a `place` chip: a location filter around your photos taken there.',
    '`top_items`: the best `top_results_limit` among the strong matches (every word of the query, little words aside, found as a word; a place named by the whole query; a close likeness), `top_results_meta.matched_well` false when there is none; `result_items`: every match under `sort_by`, paged. Every item carries `match` (score, why, sources, the best video frame).',
    'Words the parser could take as filters are also searched as words: `parsed.reading` says which reading answered, `parsed.other_reading` the one to offer instead (`reading` asks for one).',
    'Without CLIP the answer is `degraded: true, reason: semantic_unavailable` and the other channels answer.',
  ].join('\n'),
  tags: [TAG],
  request: { body: jsonBody(SearchRequestSchema) },
  responses: { 200: jsonResponse(SearchResponseSchema), ...errorResponses(404) },
});

/** The query image's limit plus room for the form's other fields and boundaries (app.ts leaves this path to it). */
const byImageLimit = bodyLimit({
  maxSize: MAX_QUERY_IMAGE_BYTES + 1024 * 1024,
  onError: () => {
    throw new PayloadTooLarge(`The query image may be at most ${MAX_QUERY_IMAGE_BYTES} bytes.`);
  },
});

type PropSchema = { type: 'string'; format?: 'binary'; description?: string };
const byImageProperties: Record<string, PropSchema> = {
  image: { type: 'string', format: 'binary', description: 'The photo to search by (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC, or a RAW with an embedded preview).' },
  filter: { type: 'string', description: 'An asset filter as JSON.' },
  limit: { type: 'string', description: 'Results per page, 1..200 (default 50).' },
  offset: { type: 'string', description: 'Results to skip, 0..10,000.' },
  top_results_limit: { type: 'string', description: 'Size of top_items, 1..200 (default 20).' },
  viewer_timezone: { type: 'string', description: 'IANA time zone for filter dates.' },
};

export const searchAssetsByImage = defineRoute('user', {
  method: 'post',
  path: '/assets/search/by-image',
  operationId: 'searchAssetsByImage',
  summary: 'Find photos that look like a photo you give',
  description:
    'Multipart: `image` (required, at most 256 MiB), `filter` (JSON asset filter), `limit`, `offset`, `top_results_limit` (≤ 200), `viewer_timezone`. The photo is decoded in memory (upright by its orientation; HEIC and RAW as at ingest), embedded and discarded: it is never written to disk. Not an image, or an image over 200 megapixels: 422 naming `body.image`. Needs CLIP: 503 `semantic_unavailable` without it.',
  tags: [TAG],
  middleware: [byImageLimit],
  request: { body: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' as const, properties: byImageProperties, required: ['image'] } } } } },
  responses: { 200: jsonResponse(SearchResponseSchema), ...errorResponses(413, 503) },
});

const Prompt = z.string().trim().min(1).max(200);

export const ClassifierPreviewRequestSchema = z
  .strictObject({
    positive: z.array(Prompt).min(1).max(16).openapi({ description: 'What the class looks like ("a receipt", "a shop receipt").' }),
    negative: z.array(Prompt).max(16).optional().openapi({ description: 'What it must be told apart from; default a generic background ("a photo", "an image"…).' }),
    threshold: z.number().min(-1).max(1).openapi({ description: 'Least margin cos(positive) − cos(negative) that matches (the seeded classifiers use 0.03).' }),
  })
  .openapi('ClassifierPreviewRequest');

export const ClassifierPreviewSchema = z
  .object({
    count: z.number().int().openapi({ description: 'Your photos and videos that match.' }),
    matches: z.array(z.object({ asset_id: z.string(), score: z.number() })).openapi({ description: 'Best first, at most 200.' }),
  })
  .openapi('ClassifierPreview');

export const previewClassifier = defineRoute('user', {
  method: 'post',
  path: '/classifiers/preview',
  operationId: 'previewClassifier',
  summary: 'Try a zero-shot classifier on your library',
  description:
    'Scores each of your visible photos (a video by its best frame) with the zero-shot margin: cos(image, mean of the positive prompts) − cos(image, mean of the negative prompts, or a generic background), and lists those at or above `threshold`, best first. Needs CLIP: 503 `semantic_unavailable` without it.',
  tags: [TAG],
  request: { body: jsonBody(ClassifierPreviewRequestSchema) },
  responses: { 200: jsonResponse(ClassifierPreviewSchema), ...errorResponses(503) },
});
