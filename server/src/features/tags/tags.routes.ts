/**
 * Tags: shared tag names, per-asset links with a source.
 *
 * | operationId      | method and path                          |
 * |------------------|------------------------------------------|
 * | searchTags       | GET    /api/v1/assets/tags               |
 * | listTagSummaries | GET    /api/v1/assets/tag-summaries      |
 * | listAssetTags    | GET    /api/v1/assets/{id}/tags          |
 * | addAssetTag      | POST   /api/v1/assets/{id}/tags          |
 * | removeAssetTag   | DELETE /api/v1/assets/{id}/tags/{tagId}  |
 *
 * The rules and the decisions taken where the contract is silent are listed in tags.service.ts.
 * Query defaults are applied by the service, not with zod `.default()` (the generated client would
 * make defaulted fields required).
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { TAG_SOURCES } from './tags.store.ts';
import { singleLine } from '../../platform/http/text.ts';
import { optionalPageParams } from '../../platform/http/pagination.ts';

const ASSET_TAG = 'Assets: one asset';
const BROWSE_TAG = 'Browsing, search, statistics';
const AssetParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }) });
const Message = z.object({ message: z.string() }).openapi('Message');
const Source = z.enum(TAG_SOURCES);
const Substring = z.string().max(100).optional();

export const TagLinkSchema = z
  .object({
    tag_id: z.number().int(),
    tag_name: z.string(),
    source: Source.openapi({ description: '`manual` (a person), `zeroshot` (classifier), `bioclip` (species), `metadata` (keywords in the file).' }),
    confidence: z.number().openapi({ description: '0..1; 1 for manual tags.' }),
  })
  .openapi('TagLink');

export const listAssetTags = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/tags',
  operationId: 'listAssetTags',
  summary: 'The tags of one of your assets',
  description: 'Sorted by name. Another user’s asset answers 404.',
  tags: [ASSET_TAG],
  request: { params: AssetParam },
  responses: { 200: jsonResponse(z.object({ tags: z.array(TagLinkSchema) })), ...errorResponses(404) },
});

export const addAssetTag = defineRoute('user', {
  method: 'post',
  path: '/assets/{id}/tags',
  operationId: 'addAssetTag',
  summary: 'Tag one of your assets (by name; the tag is created if needed)',
  description: [
    'The name is trimmed and matched without regard to case (ASCII letters): "beach" links the existing "Beach".',
    '1..100 characters, no control characters. The link is `manual` with confidence 1; tagging again changes nothing,',
    'and a machine tag (zeroshot, bioclip, metadata) confirmed this way becomes manual.',
  ].join('\n'),
  tags: [ASSET_TAG],
  request: {
    params: AssetParam,
    body: jsonBody(z.strictObject({ tag_name: singleLine(z.string().trim().max(400)) }).openapi('AddTagRequest')),
  },
  responses: { 200: jsonResponse(TagLinkSchema), ...errorResponses(404) },
});

export const removeAssetTag = defineRoute('user', {
  method: 'delete',
  path: '/assets/{id}/tags/{tagId}',
  operationId: 'removeAssetTag',
  summary: 'Remove a tag from one of your assets',
  description: 'Whatever its source. 404 `tag_not_linked` when the asset does not carry the tag.',
  tags: [ASSET_TAG],
  request: {
    params: z.object({
      id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }),
      tagId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ param: { name: 'tagId', in: 'path' }, example: 1 }),
    }),
  },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const TagSummarySchema = z
  .object({
    tag_id: z.number().int(),
    tag_name: z.string(),
    source: Source,
    asset_count: z.number().int().openapi({ description: 'Your assets in the library (not the Trash) carrying the tag from this source.' }),
    cover_asset_id: z.string().openapi({ description: 'The most recently captured of those assets.' }),
    last_used_at: z.string().openapi({ description: 'When the tag was last put on one of those assets (ISO 8601).' }),
  })
  .openapi('TagSummary');

export const listTagSummaries = defineRoute('user', {
  method: 'get',
  path: '/assets/tag-summaries',
  operationId: 'listTagSummaries',
  summary: 'Your tags with how many of your assets carry them',
  description: [
    'One row per tag and source, counted over your own assets in the library (not the Trash); most used first, then by name.',
    '`q` keeps names containing it (case-insensitive), `source` one source, `repository_id` assets of one repository.',
    '`total` is the number of rows over all pages.',
  ].join('\n'),
  tags: [BROWSE_TAG],
  request: {
    query: z.object({
      repository_id: z.uuid().optional(),
      source: Source.optional(),
      q: Substring.openapi({ description: 'Substring of the tag name.' }),
      ...optionalPageParams({ max: 200, serviceDefault: 50, noun: 'Tags' }, { max: 10_000_000 }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ tags: z.array(TagSummarySchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() }).openapi('TagSummaryList')),
  },
});

export const searchTags = defineRoute('user', {
  method: 'get',
  path: '/assets/tags',
  operationId: 'searchTags',
  summary: 'Find your tags by name (for autocomplete)',
  description: [
    'Only tags on your own assets in the library: another member’s tags are never suggested.',
    '`q` (case-insensitive substring; empty: all) ranks names starting with it first, then by how many of your assets carry the tag.',
  ].join('\n'),
  tags: [BROWSE_TAG],
  request: {
    query: z.object({
      q: Substring.openapi({ description: 'Substring of the tag name.' }),
      limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: '1..100, default 20.' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({ tags: z.array(z.object({ tag_id: z.number().int(), tag_name: z.string(), asset_count: z.number().int() }).openapi('TagMatch')) })
        .openapi('TagSearchResult'),
    ),
  },
});
