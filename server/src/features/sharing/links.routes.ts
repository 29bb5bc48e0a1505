/**
 * Public links, the maker's side (extension operations, server/operations.extensions.md).
 *
 * | operationId     | method and path                  |
 * |-----------------|----------------------------------|
 * | createShareLink | POST   /api/v1/share-links       |
 * | listShareLinks  | GET    /api/v1/share-links       |
 * | updateShareLink | PUT    /api/v1/share-links/{id}  |
 * | deleteShareLink | DELETE /api/v1/share-links/{id}  |
 *
 * The rules are in links.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';

const TAG = 'Sharing: links';

const Id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const IdParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });
const Title = singleLine(z.string().trim().min(1).max(200)).nullable();
const ExpiresAt = z.iso.datetime({ offset: true }).nullable().openapi({ description: 'When the link stops opening (RFC 3339, in the future); null: never.' });
const Password = z.string().min(4).max(200).nullable().openapi({ description: 'Visitors type it before they see anything; null: no password.' });

export const ShareLinkSchema = z
  .object({
    link_id: z.number().int(),
    key: z.string().nullable().openapi({ description: 'The secret part of the link’s address (`/api/v1/shared/{key}`): in createShareLink’s answer only; only its hash is kept.' }),
    kind: z.enum(['album', 'selection']),
    album_id: z.number().int().nullable(),
    album_name: z.string().nullable(),
    title: z.string().nullable(),
    asset_count: z.number().int().openapi({ description: 'What a visitor sees now (your photos of the album, or of the selection, not in the Trash).' }),
    expires_at: z.string().nullable(),
    has_password: z.boolean(),
    allow_download: z.boolean(),
    revoked_at: z.string().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ShareLink');

export const createShareLink = defineRoute('user', {
  method: 'post',
  path: '/share-links',
  operationId: 'createShareLink',
  summary: 'Make a public link to one of your albums or a selection of your photos',
  description: [
    'Give `album_id` (your own album) or `asset_ids` (your own photos), not both: else 422 `link_target`. Someone else’s album or photo: 404 naming the field (403 when it is only shared with you).',
    '`expires_at` in the past: 422 `expiry_in_past`. `allow_download` defaults to true. The answer’s `key` is shown this once.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({
          album_id: Id.optional(),
          asset_ids: z.array(z.uuid()).min(1).max(1000).optional(),
          title: Title.optional(),
          expires_at: ExpiresAt.optional(),
          password: Password.optional(),
          allow_download: z.boolean().optional(),
        })
        .openapi('ShareLinkCreate'),
    ),
  },
  responses: { 201: jsonResponse(ShareLinkSchema, 'Created'), ...errorResponses(403, 404) },
});

export const listShareLinks = defineRoute('user', {
  method: 'get',
  path: '/share-links',
  operationId: 'listShareLinks',
  summary: 'Your public links, newest first',
  description: 'Expired and revoked links stay listed (status) until you delete them. Keys are not shown again.',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ links: z.array(ShareLinkSchema), count: z.number().int() }).openapi('ShareLinks')) },
});

export const updateShareLink = defineRoute('user', {
  method: 'put',
  path: '/share-links/{id}',
  operationId: 'updateShareLink',
  summary: 'Change a link’s title, expiry, password or downloads, or revoke it',
  description: [
    'Give at least one field. `password: null` removes the password; `revoked: true` withdraws the link (false opens it again).',
    'Any change ends the visitors’ link tokens: they unlock again. Not your link: 404.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(
      z
        .strictObject({ title: Title.optional(), expires_at: ExpiresAt.optional(), password: Password.optional(), allow_download: z.boolean().optional(), revoked: z.boolean().optional() })
        .refine((b) => Object.keys(b).length > 0, 'give at least one field to change')
        .openapi('ShareLinkUpdate'),
    ),
  },
  responses: { 200: jsonResponse(ShareLinkSchema), ...errorResponses(404) },
});

export const deleteShareLink = defineRoute('user', {
  method: 'delete',
  path: '/share-links/{id}',
  operationId: 'deleteShareLink',
  summary: 'Delete a public link',
  description: 'The link stops opening at once. Not your link: 404.',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.object({ message: z.string() })), ...errorResponses(404) },
});
