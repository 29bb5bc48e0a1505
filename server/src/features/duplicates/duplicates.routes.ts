/**
 * Duplicates: copies of one photo (exact and near) found per repository, merged or dismissed by their owner.
 *
 * | operationId           | method and path                                   |
 * |-----------------------|---------------------------------------------------|
 * | getDuplicateSummary   | GET  /api/v1/duplicates/summary                   |
 * | listDuplicateGroups   | GET  /api/v1/duplicates/groups                    |
 * | getDuplicateGroup     | GET  /api/v1/duplicates/groups/{id}               |
 * | detectDuplicates      | POST /api/v1/duplicates/detect                    |
 * | mergeDuplicateGroup   | POST /api/v1/duplicates/groups/{id}/merge         |
 * | dismissDuplicateGroup | POST /api/v1/duplicates/groups/{id}/dismiss       |
 *
 * The algorithm is in detect.ts; the rules and the decisions taken where the contract is silent are in
 * duplicates.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';
import { AssetSchema } from '../assets/index.ts';

const TAG = 'Duplicates';
const GroupParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'duplicate_group'), description: 'Duplicate group id' }) });
const Message = z.object({ message: z.string() }).openapi('Message');
const Status = z.enum(['pending', 'merged', 'dismissed']);

const EdgeSchema = z
  .object({
    asset_id_a: z.string(),
    asset_id_b: z.string(),
    confidence: z.number().openapi({ description: '1 − distance/64 (1 for exact copies).' }),
    distance: z.number().openapi({ description: 'Differing bits of the two pHashes (0 for exact copies).' }),
    method: z.enum(['exact', 'phash']),
  })
  .openapi('DuplicateEdge');

export const DuplicateGroupSchema = z
  .object({
    group_id: z.string(),
    repository_id: z.string(),
    status: Status,
    method: z.enum(['exact', 'phash', 'mixed']).openapi({ description: '`mixed`: linked by both exact and near evidence.' }),
    detection_version: z.string().openapi({ example: 'duplicates-v2' }),
    detected_at: z.string(),
    resolved_at: z.string().nullable(),
    keeper_asset_id: z.string().nullable().openapi({ description: 'The keeper chosen at merge; null until merged.' }),
    recommended_keeper_asset_id: z.string().nullable().openapi({ description: 'Larger file, then more pixels, higher rating, earlier capture, smaller id.' }),
    asset_count: z.number().int(),
    total_size: z.number().int(),
    recoverable_bytes: z.number().int().openapi({ description: 'Pending groups: the bytes merging into the recommended keeper would move to the Trash.' }),
    assets: z.array(z.object({ asset: AssetSchema, file_size: z.number().int(), role: z.enum(['keeper', 'candidate', 'duplicate']) })),
    edges: z.array(EdgeSchema),
  })
  .openapi('DuplicateGroup');

export const getDuplicateSummary = defineRoute('user', {
  method: 'get',
  path: '/duplicates/summary',
  operationId: 'getDuplicateSummary',
  summary: 'Your duplicate groups in numbers, and the space merging would recover',
  description: 'Over your groups in one repository (`repository_id`) or in all of them. `last_detected_at`: when detection last looked at your photos there.',
  tags: [TAG],
  request: { query: z.object({ repository_id: z.uuid().optional() }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          dismissed_groups: z.number().int(),
          last_detected_at: z.string().nullable(),
          merged_groups: z.number().int(),
          pending_assets: z.number().int(),
          pending_groups: z.number().int(),
          recoverable_assets: z.number().int(),
          recoverable_bytes: z.number().int(),
        })
        .openapi('DuplicateSummary'),
    ),
  },
});

export const listDuplicateGroups = defineRoute('user', {
  method: 'get',
  path: '/duplicates/groups',
  operationId: 'listDuplicateGroups',
  summary: 'Your duplicate groups, newest first',
  description: 'Only your own groups (another member’s are never listed). `status` defaults to `pending`.',
  tags: [TAG],
  request: {
    query: z.object({
      repository_id: z.uuid().optional(),
      status: Status.default('pending'),
      ...pageParams({ max: 100, default: 20, noun: 'Groups' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ groups: z.array(DuplicateGroupSchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() }).openapi('DuplicateGroupPage'),
    ),
  },
});

export const getDuplicateGroup = defineRoute('user', {
  method: 'get',
  path: '/duplicates/groups/{id}',
  operationId: 'getDuplicateGroup',
  summary: 'One duplicate group with its photos and the evidence linking them',
  description: 'Another member’s group answers 404 like an unknown id.',
  tags: [TAG],
  request: { params: GroupParam },
  responses: { 200: jsonResponse(DuplicateGroupSchema), ...errorResponses(404) },
});

export const detectDuplicates = defineRoute('user', {
  method: 'post',
  path: '/duplicates/detect',
  operationId: 'detectDuplicates',
  summary: 'Detect duplicates in a repository now',
  description: [
    'Exact copies (same content hash and size) and near copies (pHash at most 6 bits apart) of one owner, never two files of one media item or stack.',
    'Replaces the repository’s pending groups (a group found again with the same photos keeps its id); merged and dismissed groups stay, and photos resolved together are not proposed again.',
    'Administrators detect over every owner’s photos in the repository, members over their own. Detection also runs by itself after new files are processed.',
    '409 `duplicate_detection_running` while a detection runs for the repository.',
  ].join('\n'),
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ repository_id: z.uuid() }).openapi('DetectDuplicatesRequest')) },
  responses: {
    200: jsonResponse(
      z
        .object({
          assets_affected: z.number().int(),
          exact_groups: z.number().int(),
          generated_at: z.string(),
          groups: z.number().int(),
          mixed_groups: z.number().int(),
          phash_groups: z.number().int(),
        })
        .openapi('DuplicateDetectionResult'),
    ),
    ...errorResponses(404, 409),
  },
});

const Flag = z.boolean().optional();

export const mergeDuplicateGroup = defineRoute('user', {
  method: 'post',
  path: '/duplicates/groups/{id}/merge',
  operationId: 'mergeDuplicateGroup',
  summary: 'Keep one photo of the group; the others go to the Trash with their albums, tags, rating, like and description given to it',
  description: [
    '`duplicate_asset_ids` defaults to every other photo of the group. Policy defaults: everything on except `faces`; faces move only for exact copies.',
    'All or nothing, in one transaction. A keeper that is not in the group: 422 `keeper_not_member` naming `body.keeper_asset_id`; a keeper in the Trash: 409 `asset_in_trash`.',
    'A group already merged or dismissed: 409 `duplicate_group_resolved`. `recovered_bytes`: what this merge moved to the Trash.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: GroupParam,
    body: jsonBody(
      z
        .strictObject({
          keeper_asset_id: z.uuid(),
          duplicate_asset_ids: z.array(z.uuid()).min(1).max(1000).optional(),
          policy: z.strictObject({ albums: Flag, tags: Flag, rating: Flag, liked: Flag, description: Flag, faces: Flag }).optional(),
        })
        .openapi('MergeDuplicateGroupRequest'),
    ),
  },
  responses: {
    200: jsonResponse(
      z
        .object({ group_id: z.string(), keeper_asset_id: z.string(), merged_duplicates: z.array(z.string()), recovered_bytes: z.number().int() })
        .openapi('DuplicateMergeResult'),
    ),
    ...errorResponses(404, 409),
  },
});

export const dismissDuplicateGroup = defineRoute('user', {
  method: 'post',
  path: '/duplicates/groups/{id}/dismiss',
  operationId: 'dismissDuplicateGroup',
  summary: 'These are not duplicates: keep them all and do not propose them again',
  description: 'No photo is changed. A group already merged or dismissed: 409 `duplicate_group_resolved`.',
  tags: [TAG],
  request: { params: GroupParam },
  responses: { 200: jsonResponse(Message), ...errorResponses(404, 409) },
});
