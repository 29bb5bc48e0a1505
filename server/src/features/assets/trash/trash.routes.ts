/**
 * The Trash beyond soft delete and restore (extension operations, server/operations.extensions.md):
 * what is in it and when it empties itself, deleting items for good, emptying it. Decisions:
 * trash.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../../platform/http/responses.ts';

const TAG = 'Assets: one asset';
/** As many as a selection of the Trash can hold in one request. */
export const MAX_PERMANENT_DELETE = 1000;

const TrashSummarySchema = z
  .object({
    count: z.number().int().openapi({ description: 'Files of yours in the Trash (a RAW+JPEG pair counts two).' }),
    retention_days: z.number().int().openapi({ description: 'Items are deleted for good this many days after they went to the Trash; 0 = kept until the Trash is emptied.' }),
    oldest_deleted_at: z.string().nullable().openapi({ description: 'When the oldest item went to the Trash (null when empty).' }),
    next_deletion_at: z.string().nullable().openapi({ description: 'When the oldest item goes by itself (null when empty or kept forever).' }),
  })
  .openapi('TrashSummary');

const TrashDeletionSchema = z
  .object({
    deleted: z.array(z.string()).openapi({ description: 'Asset ids deleted for good: files removed from their folders, catalog rows gone.' }),
    failed: z
      .array(
        z.object({
          asset_id: z.string(),
          original_filename: z.string(),
          code: z.enum(['repository_unavailable', 'file_not_deleted', 'asset_not_in_trash', 'asset_processing']),
          message: z.string(),
        }),
      )
      .openapi({ description: 'Items kept in the Trash, each with why: their files are still on disk (or their folder is offline), so their catalog rows stay.' }),
  })
  .openapi('TrashDeletion');

export const getTrash = defineRoute('user', {
  method: 'get',
  path: '/assets/trash',
  operationId: 'getTrash',
  summary: 'What is in your Trash and when items leave it by themselves',
  tags: [TAG],
  responses: { 200: jsonResponse(TrashSummarySchema) },
});

export const deleteAssetsPermanently = defineRoute('user', {
  method: 'post',
  path: '/assets/trash/delete',
  operationId: 'deleteAssetsPermanently',
  summary: 'Delete items of your Trash for good (their files are removed from the folder)',
  description:
    'Only your own assets, only in the Trash: another member’s answers 404 `asset_not_found` (403 `asset_read_only` when it is shared with you), one not in the Trash 409 `asset_not_in_trash`, each naming `body.asset_ids.N`; then nothing is deleted. ' +
    'Components of the same media item that are in the Trash too (the RAW of a pair, the clip of a live photo) go with it. ' +
    'A file that cannot be removed (read-only or offline folder) is listed in `failed` and stays in the Trash. Emits `asset.deleted` for each asset deleted.',
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ asset_ids: z.array(z.uuid()).min(1).max(MAX_PERMANENT_DELETE) }).openapi('DeleteAssetsPermanentlyRequest')) },
  responses: { 200: jsonResponse(TrashDeletionSchema, 'What was deleted, and what was kept with why'), ...errorResponses(403, 404, 409) },
});

export const emptyTrash = defineRoute('user', {
  method: 'post',
  path: '/assets/trash/empty',
  operationId: 'emptyTrash',
  summary: 'Delete everything in your Trash for good (the files are removed from the folder)',
  description:
    '`expected_count` is the number of files the person confirmed (getTrash `count`): when the Trash holds another number by now, nothing is deleted and 409 `trash_changed` names `body.expected_count`. ' +
    'A file that cannot be removed (read-only or offline folder) is listed in `failed` and stays in the Trash.',
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ expected_count: z.number().int().min(0) }).openapi('EmptyTrashRequest')) },
  responses: { 200: jsonResponse(TrashDeletionSchema, 'What was deleted, and what was kept with why'), ...errorResponses(409) },
});
