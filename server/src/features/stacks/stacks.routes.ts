/**
 * Stacks: presentation groups of the caller's media items (bursts found by detection, manual stacks).
 *
 * | operationId            | method and path                                   |
 * |------------------------|---------------------------------------------------|
 * | getAssetStack          | GET    /api/v1/assets/{id}/stack                  |
 * | removeAssetFromStack   | DELETE /api/v1/assets/{id}/stack                  |
 * | createStack            | POST   /api/v1/assets/stacks                      |
 * | detectRepositoryStacks | POST   /api/v1/repositories/{id}/stacks/detect    |
 *
 * The rules and the decisions taken where the contract is silent are listed in stacks.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';

const TAG = 'Assets: stacks';
const AssetParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }) });
const RepositoryParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const Message = z.object({ message: z.string() }).openapi('Message');

export const StackSchema = z
  .object({
    stack_id: z.string(),
    stack_kind: z.enum(['burst', 'manual']),
    member_count: z.number().int().openapi({ description: 'Members in the library (items whose files are all in the Trash are not listed).' }),
    cover_media_item_id: z.string().openapi({ description: 'The member shown for the stack: the first by position unless one was chosen.' }),
    members: z.array(z.object({ media_item_id: z.string(), position: z.number().int(), primary_asset_id: z.string() })),
  })
  .openapi('Stack');

export const getAssetStack = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/stack',
  operationId: 'getAssetStack',
  summary: 'The stack the asset’s media item belongs to',
  description: '`stack` is null when the item is in no stack (or the asset is not linked into a media item yet). Another user’s asset answers 404.',
  tags: [TAG],
  request: { params: AssetParam },
  responses: {
    200: jsonResponse(z.object({ asset_id: z.string(), stack: StackSchema.nullable() }).openapi('AssetStack')),
    ...errorResponses(404),
  },
});

export const removeAssetFromStack = defineRoute('user', {
  method: 'delete',
  path: '/assets/{id}/stack',
  operationId: 'removeAssetFromStack',
  summary: 'Take the asset’s media item out of its stack (it becomes standalone)',
  description: [
    'The rest of the stack closes up (positions compacted; the cover goes back to the first member if it was this item).',
    'A stack left with one member dissolves. A detected burst taken apart is not detected again.',
    '404 `stack_not_found` when the item is in no stack.',
  ].join('\n'),
  tags: [TAG],
  request: { params: AssetParam },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const createStack = defineRoute('user', {
  method: 'post',
  path: '/assets/stacks',
  operationId: 'createStack',
  summary: 'Stack your assets by hand',
  description: [
    'Stacks the media items of `asset_ids` (2..500 of your assets, in the library, processed) in that order; the first is the cover.',
    'Two files of one media item (a RAW and its JPEG) count once: at least two different media items are needed (422 `stack_too_small`).',
    'Items already in another stack are moved here; a stack they leave with one member dissolves.',
    'Unknown or another user’s asset: 404. An asset in the Trash (409 `asset_in_trash`) or not processed yet (409 `asset_not_ready`) cannot be stacked.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(z.strictObject({ asset_ids: z.array(z.uuid()).min(2).max(500) }).openapi('CreateStackRequest')),
  },
  responses: { 201: jsonResponse(StackSchema, 'Created'), ...errorResponses(404, 409) },
});

export const detectRepositoryStacks = defineRoute('user', {
  method: 'post',
  path: '/repositories/{id}/stacks/detect',
  operationId: 'detectRepositoryStacks',
  summary: 'Detect media items and burst stacks in a repository now',
  description: [
    'Runs the detection synchronously and answers with what it found: RAW+JPEG pairs, edit iterations and live photos linked into media items,',
    'bursts (by EXIF burst id, else by consecutive file numbers of one camera at most 1 s apart, at least 3 frames).',
    'Administrators run it over every owner’s assets in the repository; a member over their own assets only (`owner_id`).',
    'Running it again creates nothing new. Detection also runs by itself (as a job) after new files are processed.',
  ].join('\n'),
  tags: [TAG],
  request: { params: RepositoryParam },
  responses: {
    200: jsonResponse(
      z
        .object({
          repository_id: z.string(),
          owner_id: z.number().int().nullable().openapi({ description: 'Whose assets were looked at; null: everyone’s (administrators).' }),
          photos_scanned: z.number().int(),
          media_items_merged: z.number().int().openapi({ description: 'Media items that disappeared by being linked into another (pairs, edits, live photos).' }),
          bursts_found: z.number().int().openapi({
            description: 'Bursts among photos in no stack: stacked now, or left alone because they were taken apart before or a neighbouring frame is still processing.',
          }),
          stacks_created: z.number().int(),
          stacks_extended: z.number().int().openapi({ description: 'EXIF bursts that got frames added.' }),
          stacks_dissolved: z.number().int(),
        })
        .openapi('StackDetectionResult'),
    ),
    ...errorResponses(404),
  },
});
