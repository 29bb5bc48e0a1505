/**
 * Albums: the caller's own albums, their ordered membership, covers and species albums.
 *
 * | operationId                  | method and path                                  |
 * |------------------------------|--------------------------------------------------|
 * | listAlbums                   | GET    /api/v1/albums                            |
 * | createAlbum                  | POST   /api/v1/albums                            |
 * | getAlbum                     | GET    /api/v1/albums/{id}                       |
 * | updateAlbum                  | PUT    /api/v1/albums/{id}                       |
 * | deleteAlbum                  | DELETE /api/v1/albums/{id}                       |
 * | listAlbumAssets              | GET    /api/v1/albums/{id}/assets                |
 * | addAssetToAlbum              | POST   /api/v1/albums/{id}/assets/{assetId}      |
 * | removeAssetFromAlbum         | DELETE /api/v1/albums/{id}/assets/{assetId}      |
 * | updateAlbumAssetPosition     | PUT    /api/v1/albums/{id}/assets/{assetId}/position |
 * | queueAlbumSpeciesRecognition | POST   /api/v1/albums/{id}/bioclip/rebuild       |
 * | listAssetAlbums              | GET    /api/v1/assets/{id}/albums                |
 * | addAssetToAlbumByAsset       | POST   /api/v1/assets/{id}/albums/{albumId}      |
 *
 * The rules and the decisions taken where the contract is silent are listed in albums.service.ts.
 * Body defaults are applied by the service, not with zod `.default()` (the generated client would
 * make defaulted fields required).
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { AlbumAssetSchema, AlbumSchema, AlbumOfAssetSchema } from './albums.view.ts';
import { multiLine, singleLine } from '../../platform/http/text.ts';
import { pageParams } from '../../platform/http/pagination.ts';

const TAG = 'Albums';
const ASSET_TAG = 'Assets: one asset';

const AlbumId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const AlbumParam = z.object({ id: AlbumId.openapi({ param: ownedPathParam('id', 'album'), example: 1 }) });
const AlbumAssetParams = z.object({
  id: AlbumId.openapi({ param: ownedPathParam('id', 'album'), example: 1 }),
  assetId: z.uuid().openapi({ param: ownedPathParam('assetId', 'asset') }),
});
const AssetParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }) });
const RepositoryQuery = z.uuid().optional().openapi({ description: 'Only the assets of this repository count and are listed.' });

const Message = z.object({ message: z.string() }).openapi('Message');

const AlbumName = singleLine(z.string().trim().min(1).max(200));
const Description = multiLine(z.string().trim().max(2000)).nullable();
const AlbumType = z.enum(['regular', 'bio']);
const Position = z.number().int().min(0).max(1_000_000);

export const listAlbums = defineRoute('user', {
  method: 'get',
  path: '/albums',
  operationId: 'listAlbums',
  summary: 'List your albums, most recently changed first',
  description:
    'Only your own albums. With `repository_id`: only albums holding at least one asset of that repository (not in the Trash), and their counts and covers consider only its assets. Unknown repository: 404.',
  tags: [TAG],
  request: {
    query: z.object({
      ...pageParams({ max: 100, default: 20, noun: 'Albums' }, { max: 1_000_000_000 }),
      repository_id: RepositoryQuery,
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({ albums: z.array(AlbumSchema), limit: z.number().int(), offset: z.number().int(), total: z.number().int() })
        .openapi('AlbumList'),
    ),
    ...errorResponses(404),
  },
});

export const createAlbum = defineRoute('user', {
  method: 'post',
  path: '/albums',
  operationId: 'createAlbum',
  summary: 'Create an album',
  description: 'The album belongs to you. `album_type` is `regular` (the default) or `bio` (a species album: its photos get species recognition). Names need not be unique (the web UI asks before making a second album of the same name). A blank `description` is stored as null.',
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({ album_name: AlbumName, album_type: AlbumType.optional(), description: Description.optional() })
        .openapi('AlbumCreate'),
    ),
  },
  responses: { 201: jsonResponse(AlbumSchema, 'Created') },
});

export const getAlbum = defineRoute('user', {
  method: 'get',
  path: '/albums/{id}',
  operationId: 'getAlbum',
  summary: 'One of your albums',
  description: 'Another user’s album answers 404. With `repository_id`, the count and displayed cover consider only that repository’s assets.',
  tags: [TAG],
  request: { params: AlbumParam, query: z.object({ repository_id: RepositoryQuery }) },
  responses: { 200: jsonResponse(AlbumSchema), ...errorResponses(404) },
});

export const updateAlbum = defineRoute('user', {
  method: 'put',
  path: '/albums/{id}',
  operationId: 'updateAlbum',
  summary: 'Rename an album, change its description, type or cover',
  description: [
    'Give at least one field; the others stay as they are. A blank `description` (empty or only white space) clears it, like null.',
    '`cover_asset_id` must be an asset of this album that is not in the Trash (else 422 `cover_not_in_album`); null clears the choice, and the first asset by position is displayed instead.',
    'Turning an album into a `bio` album queues species recognition for its photos (when species recognition is on).',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: AlbumParam,
    body: jsonBody(
      z
        .strictObject({
          album_name: AlbumName.optional(),
          album_type: AlbumType.optional(),
          description: Description.optional(),
          cover_asset_id: z.uuid().nullable().optional(),
        })
        .refine((b) => Object.keys(b).length > 0, 'give at least one field to change')
        .openapi('AlbumUpdate'),
    ),
  },
  responses: { 200: jsonResponse(AlbumSchema), ...errorResponses(404) },
});

export const deleteAlbum = defineRoute('user', {
  method: 'delete',
  path: '/albums/{id}',
  operationId: 'deleteAlbum',
  summary: 'Delete an album (its assets stay in your library)',
  tags: [TAG],
  request: { params: AlbumParam },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const listAlbumAssets = defineRoute('user', {
  method: 'get',
  path: '/albums/{id}/assets',
  operationId: 'listAlbumAssets',
  summary: 'The assets of an album, in album order',
  description:
    'Each asset carries `added_time` and its album `position`. Assets in the Trash stay members but are left out unless `include_deleted=true`; positions count every member, so a listing without them may skip a number.',
  tags: [TAG],
  request: {
    params: AlbumParam,
    query: z.object({
      repository_id: RepositoryQuery,
      include_deleted: z
        .enum(['true', 'false', '1', '0'])
        .optional()
        .transform((v) => v === 'true' || v === '1')
        .openapi({ description: 'Also list members that are in the Trash. Default false.' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ album_id: z.number().int(), assets: z.array(AlbumAssetSchema), count: z.number().int() }).openapi('AlbumAssets')),
    ...errorResponses(404),
  },
});

const InsertBody = jsonBody(
  z.strictObject({
    position: Position.optional().openapi({ description: 'Insert here (0..member count); the rest shift back. Default: at the end.' }),
  }),
  { required: false },
);
const MoveBody = jsonBody(z.strictObject({ position: Position.openapi({ description: 'The new place, 0 first, up to the last member’s position.' }) }));

export const addAssetToAlbum = defineRoute('user', {
  method: 'post',
  path: '/albums/{id}/assets/{assetId}',
  operationId: 'addAssetToAlbum',
  summary: 'Add one of your assets to an album, at the end or at a position',
  description: [
    'Appends, or inserts at `position` shifting the rest back (422 `position_out_of_range` past the end).',
    'Already a member: 200, nothing changes. Another user’s asset: 404 naming `path.assetId`. An asset in the Trash: 409 `asset_in_trash`.',
    'A photo added to a `bio` album gets species recognition queued (when it has no predictions and species recognition is on).',
  ].join('\n'),
  tags: [TAG],
  request: { params: AlbumAssetParams, body: InsertBody },
  responses: { 200: jsonResponse(Message), ...errorResponses(404, 409) },
});

export const removeAssetFromAlbum = defineRoute('user', {
  method: 'delete',
  path: '/albums/{id}/assets/{assetId}',
  operationId: 'removeAssetFromAlbum',
  summary: 'Take an asset out of an album (it stays in your library)',
  description: 'The members after it move up one place. If it was the cover, the album falls back to its first asset. Not a member: 404 `asset_not_in_album`.',
  tags: [TAG],
  request: { params: AlbumAssetParams },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const updateAlbumAssetPosition = defineRoute('user', {
  method: 'put',
  path: '/albums/{id}/assets/{assetId}/position',
  operationId: 'updateAlbumAssetPosition',
  summary: 'Move an asset to another place in an album',
  description: 'The members in between shift by one. A position past the last member is 422 `position_out_of_range` (not clamped).',
  tags: [TAG],
  request: { params: AlbumAssetParams, body: MoveBody },
  responses: { 200: jsonResponse(Message), ...errorResponses(404) },
});

export const queueAlbumSpeciesRecognition = defineRoute('user', {
  method: 'post',
  path: '/albums/{id}/bioclip/rebuild',
  operationId: 'queueAlbumSpeciesRecognition',
  summary: 'Queue species recognition for the photos of a bio album',
  description: [
    'Queues one species job for each photo of the album that has no species predictions yet (not in the Trash, not failed); a photo already waiting is not queued twice.',
    '`queued_assets` is how many photos now wait for recognition. Without an installed species model the jobs wait as `scheduled` with the reason (see listJobs) until one is installed.',
    'A regular album: 409 `album_not_bio`. Species recognition turned off in the ML settings: 409 `species_disabled`.',
  ].join('\n'),
  tags: [TAG],
  request: { params: AlbumParam },
  responses: {
    200: jsonResponse(
      z
        .object({ message: z.string(), queued_assets: z.number().int(), status: z.literal('queued') })
        .openapi('AlbumSpeciesReceipt'),
      'Queued',
    ),
    ...errorResponses(404, 409),
  },
});

export const listAssetAlbums = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/albums',
  operationId: 'listAssetAlbums',
  summary: 'Your albums that hold an asset',
  description: 'Each album carries the asset’s `added_time` and `position` in it; sorted by album name. Another user’s asset: 404.',
  tags: [TAG],
  request: { params: AssetParam },
  responses: {
    200: jsonResponse(z.object({ albums: z.array(AlbumOfAssetSchema), asset_id: z.string(), count: z.number().int() }).openapi('AssetAlbums')),
    ...errorResponses(404),
  },
});

export const addAssetToAlbumByAsset = defineRoute('user', {
  method: 'post',
  path: '/assets/{id}/albums/{albumId}',
  operationId: 'addAssetToAlbumByAsset',
  summary: 'Add an asset to one of your albums (at the end)',
  description: 'The same rules as addAssetToAlbum, appending; 404s name `path.id` (asset) or `path.albumId` (album).',
  tags: [ASSET_TAG],
  request: {
    params: z.object({
      id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }),
      albumId: AlbumId.openapi({ param: ownedPathParam('albumId', 'album'), example: 1 }),
    }),
  },
  responses: { 200: jsonResponse(Message), ...errorResponses(404, 409) },
});
