/**
 * Shared albums: the members of an album (extension operations, server/operations.extensions.md).
 *
 * | operationId       | method and path                                 |
 * |-------------------|-------------------------------------------------|
 * | listAlbumMembers  | GET    /api/v1/albums/{id}/members              |
 * | addAlbumMember    | POST   /api/v1/albums/{id}/members              |
 * | updateAlbumMember | PUT    /api/v1/albums/{id}/members/{userId}     |
 * | removeAlbumMember | DELETE /api/v1/albums/{id}/members/{userId}     |
 *
 * The rules are in members.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { MemberSchema } from '../users/index.ts';

const TAG = 'Albums: sharing';

const AlbumId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const UserId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const AlbumParam = z.object({ id: AlbumId.openapi({ param: ownedPathParam('id', 'album'), example: 1 }) });
const MemberParams = z.object({
  id: AlbumId.openapi({ param: ownedPathParam('id', 'album'), example: 1 }),
  userId: UserId.openapi({ param: { name: 'userId', in: 'path' }, example: 2 }),
});
const Role = z.enum(['viewer', 'contributor']).openapi({ description: '`viewer` reads the album; `contributor` also adds their own photos and takes out what they added.' });


export const AlbumMemberSchema = MemberSchema.extend({ role: Role, added_at: z.string() }).openapi('AlbumMember');

export const listAlbumMembers = defineRoute('user', {
  method: 'get',
  path: '/albums/{id}/members',
  operationId: 'listAlbumMembers',
  summary: 'The owner and the members of an album',
  description: 'The owner and every member can see who else is in the album. Someone who cannot read the album: 404.',
  tags: [TAG],
  request: { params: AlbumParam },
  responses: {
    200: jsonResponse(z.object({ album_id: z.number().int(), owner: MemberSchema, members: z.array(AlbumMemberSchema), count: z.number().int() }).openapi('AlbumMembers')),
    ...errorResponses(404),
  },
});

export const addAlbumMember = defineRoute('user', {
  method: 'post',
  path: '/albums/{id}/members',
  operationId: 'addAlbumMember',
  summary: 'Share an album with a member, as viewer or contributor',
  description: [
    'The owner only (a member: 403 `album_read_only`). `user_id` must be an active member other than the owner: else 422 `share_with_self` or `not_a_member` naming `body.user_id`.',
    'Already a member: 409 `already_a_member` (use updateAlbumMember).',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: AlbumParam,
    body: jsonBody(z.strictObject({ user_id: UserId, role: Role }).openapi('AlbumMemberAdd')),
  },
  responses: { 201: jsonResponse(AlbumMemberSchema, 'Added'), ...errorResponses(403, 404, 409) },
});

export const updateAlbumMember = defineRoute('user', {
  method: 'put',
  path: '/albums/{id}/members/{userId}',
  operationId: 'updateAlbumMember',
  summary: "Change a member's role in an album",
  description: 'The owner only (a member: 403). Not a member: 404 `album_member_not_found`. A contributor made a viewer keeps what they added.',
  tags: [TAG],
  request: {
    params: MemberParams,
    body: jsonBody(z.strictObject({ role: Role }).openapi('AlbumMemberUpdate')),
  },
  responses: { 200: jsonResponse(AlbumMemberSchema), ...errorResponses(403, 404) },
});

export const removeAlbumMember = defineRoute('user', {
  method: 'delete',
  path: '/albums/{id}/members/{userId}',
  operationId: 'removeAlbumMember',
  summary: 'Remove a member from an album, or leave it',
  description:
    'The owner removes anyone; a member removes only themselves (leaving; anyone else: 403 `album_read_only`). The photos the member added leave the album with them (they stay in their library).',
  tags: [TAG],
  request: { params: MemberParams },
  responses: { 200: jsonResponse(z.object({ message: z.string() })), ...errorResponses(403, 404) },
});
