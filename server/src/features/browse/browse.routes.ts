/**
 * Browsing, search, statistics: the unified list (queryAssets).
 *
 * | operationId | method and path             |
 * |-------------|-----------------------------|
 * | queryAssets | POST /api/v1/assets/query   |
 *
 * First version: filter, paging and the two sorts. `query`/`search_type` (filename and semantic
 * search) and `viewer_timezone` come with search; until then they are unknown fields (422).
 *
 * Defaults are applied by the service, not with zod `.default()`: the generated client types treat a
 * field with a default as required, which would make every caller send every field.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';
import { GalleryListSchema } from './browse.view.ts';

const TAG = 'Browsing, search, statistics';
const AssetType = z.enum(['PHOTO', 'VIDEO', 'AUDIO']);

export const AssetFilterSchema = z
  .strictObject({
    repository_id: z.uuid().optional().openapi({ description: 'Only this repository.' }),
    type: AssetType.optional(),
    types: z.array(AssetType).min(1).max(3).optional().openapi({ description: 'Any of these types (combines with `type`: both must hold).' }),
    is_deleted: z.boolean().optional().openapi({ description: 'true: the Trash. Default false.' }),
    liked: z.boolean().optional(),
    folder_path: z
      .string()
      .max(4096)
      .refine((p) => !p.split('/').some((s) => s === '..' || s === '.'), 'must not contain . or .. segments')
      .optional()
      .openapi({ description: 'Repository-relative folder (`a/b`, no leading slash; empty for the root). Best combined with repository_id.' }),
    folder_recursive: z.boolean().optional().openapi({ description: 'Include subfolders of folder_path. Default true.' }),
  })
  .openapi('AssetFilter');

export const AssetQuerySchema = z
  .strictObject({
    filter: AssetFilterSchema.optional(),
    pagination: z
      .strictObject({
        limit: z.number().int().min(1).max(200).optional().openapi({ description: 'Items per page, 1..200. Default 50.' }),
        offset: z.number().int().min(0).max(10_000_000).optional().openapi({ description: 'Items to skip. Default 0.' }),
      })
      .optional(),
    sort_by: z.enum(['recently_added', 'date_captured']).optional().openapi({
      description:
        '`recently_added` (the default): newest in the catalog first (upload_time). `date_captured`: newest capture first (taken_time, else upload_time).',
    }),
    stack_mode: z.enum(['collapsed', 'expanded']).optional().openapi({
      description: 'Stacks shown as one item (`collapsed`, the default) or as their members. No stacks exist yet, so both give the same list.',
    }),
  })
  .openapi('AssetQuery');
export type AssetQuery = z.output<typeof AssetQuerySchema>;

export const queryAssets = defineRoute('user', {
  method: 'post',
  path: '/assets/query',
  operationId: 'queryAssets',
  summary: 'List your assets as media items, filtered, sorted and paged',
  description: [
    'The unified list: one row per logical media item (a RAW+JPEG pair or a live photo is one row, shown through its primary asset; an asset still processing or failed stands alone).',
    'Only your own assets. Trash (`is_deleted`) is left out unless asked for. The body is optional; every field has a default.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: { required: false, content: { 'application/json': { schema: AssetQuerySchema } } },
  },
  responses: { 200: { description: 'OK', content: { 'application/json': { schema: GalleryListSchema } } } },
});
