/**
 * Public links, the visitor's side: no account, only the link's key (extension operations,
 * server/operations.extensions.md).
 *
 * | operationId            | method and path                                          |
 * |------------------------|----------------------------------------------------------|
 * | getSharedLink          | GET  /api/v1/shared/{key}                                |
 * | unlockSharedLink       | POST /api/v1/shared/{key}/unlock                         |
 * | listSharedLinkAssets   | GET  /api/v1/shared/{key}/photos                         |
 * | getSharedLinkThumbnail | GET  /api/v1/shared/{key}/photos/{photoId}/thumbnail     |
 * | getSharedLinkVideo     | GET  /api/v1/shared/{key}/photos/{photoId}/video         |
 * | getSharedLinkOriginal  | GET  /api/v1/shared/{key}/photos/{photoId}/original      |
 * | downloadSharedLinkZip  | GET  /api/v1/shared/{key}/download                       |
 *
 * `photoId` is the link's own name of a photo, never a catalog asset id (link-secrets.ts). The rules
 * are in links.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { fileResponse as fileAnswer, jsonBody, jsonResponse, rangedFileResponses } from '../../platform/http/responses.ts';

const TAG = 'Sharing: public links';

const Key = z.string().min(1).max(100).openapi({ param: { name: 'key', in: 'path' }, example: 'q3Jx0vN9bW1aQe7T2LmZkA' });
const PhotoId = z.string().min(1).max(100).openapi({ param: { name: 'photoId', in: 'path' }, example: 'Yt6wq0aZ1JbXrP9sL2mN4g' });
const TokenQuery = z.string().max(2000).optional().openapi({ description: 'The link token (or header `X-Link-Token`): needed when the link has a password.' });
const KeyParam = z.object({ key: Key });
const PhotoParams = z.object({ key: Key, photoId: PhotoId });

const fileResponse = (type: string, description: string) => ({ ...rangedFileResponses(type, description), ...errorResponses(401, 403, 404, 416, 429) });

export const getSharedLink = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}',
  operationId: 'getSharedLink',
  summary: 'What a public link shows: its title, how many photos, whether it needs a password',
  description:
    'Unknown, expired and revoked links all answer the same 404 `share_link_not_found`. Without a password the answer carries a `link_token` for the media URLs; with one, unlockSharedLink gives it.',
  tags: [TAG],
  request: { params: KeyParam },
  responses: {
    200: jsonResponse(
      z
        .object({
          title: z.string(),
          asset_count: z.number().int(),
          needs_password: z.boolean(),
          allow_download: z.boolean(),
          expires_at: z.string().nullable(),
          link_token: z.string().nullable(),
          link_token_expires_at: z.string().nullable(),
        })
        .openapi('SharedLink'),
    ),
    ...errorResponses(404),
  },
});

export const unlockSharedLink = defineRoute('public', {
  method: 'post',
  path: '/shared/{key}/unlock',
  operationId: 'unlockSharedLink',
  summary: 'The password of a link → a short-lived link token',
  description:
    'A wrong password: 403 `wrong_password` naming `body.password`. After 5 wrong passwords for one link from one address within 15 minutes, that address waits 5 minutes: 429 `rate_limited` with Retry-After (even for the right password).',
  tags: [TAG],
  request: {
    params: KeyParam,
    body: jsonBody(z.strictObject({ password: z.string().max(200) }).openapi('SharedLinkUnlock')),
  },
  responses: {
    200: jsonResponse(z.object({ link_token: z.string(), expires_at: z.string() }).openapi('SharedLinkToken')),
    ...errorResponses(403, 404, 429),
  },
});

export const SharedPhotoSchema = z
  .object({
    photo_id: z.string().openapi({ description: 'This link’s name of the photo (not a catalog id).' }),
    type: z.enum(['PHOTO', 'VIDEO', 'AUDIO']),
    mime_type: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration: z.number().nullable(),
    taken_time: z.string().nullable(),
    capture_offset_minutes: z.number().int().nullable(),
    file_name: z.string(),
  })
  .openapi('SharedPhoto');

export const listSharedLinkAssets = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}/photos',
  operationId: 'listSharedLinkAssets',
  summary: 'The photos and videos of a public link, in order',
  description: 'A password link without its token: 401 `link_locked`.',
  tags: [TAG],
  request: { params: KeyParam, query: z.object({ lt: TokenQuery }) },
  responses: {
    200: jsonResponse(z.object({ title: z.string(), allow_download: z.boolean(), photos: z.array(SharedPhotoSchema), count: z.number().int() }).openapi('SharedPhotos')),
    ...errorResponses(401, 404),
  },
});

export const getSharedLinkThumbnail = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}/photos/{photoId}/thumbnail',
  operationId: 'getSharedLinkThumbnail',
  summary: 'A thumbnail of a photo of a public link (WebP: small 400, medium 800, large 1920 px)',
  description: 'Always allowed (the large one is the viewer). Not a photo of this link: 404 `photo_not_found`.',
  tags: [TAG],
  request: { params: PhotoParams, query: z.object({ size: z.enum(['small', 'medium', 'large']).default('medium'), lt: TokenQuery }) },
  responses: fileResponse('image/webp', 'The thumbnail'),
});

export const getSharedLinkVideo = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}/photos/{photoId}/video',
  operationId: 'getSharedLinkVideo',
  summary: 'A video of a public link, as a browser plays it (H.264 MP4 when the original needed converting)',
  description:
    'Always allowed, like the large thumbnail: watching is looking (the original file and the zip need `allow_download`). A motion photo gives its clip. Not a video: 404 `wrong_asset_type`; not a photo of this link: 404 `photo_not_found`. Range requests are answered 206.',
  tags: [TAG],
  request: { params: PhotoParams, query: z.object({ lt: TokenQuery }) },
  responses: fileResponse('video/mp4', 'The playable video'),
});

export const getSharedLinkOriginal = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}/photos/{photoId}/original',
  operationId: 'getSharedLinkOriginal',
  summary: 'The original file of a photo of a public link',
  description: 'Only when the link allows downloads: else 403 `download_not_allowed`.',
  tags: [TAG],
  request: { params: PhotoParams, query: z.object({ lt: TokenQuery }) },
  responses: fileResponse('application/octet-stream', 'The original bytes'),
});

export const downloadSharedLinkZip = defineRoute('public', {
  method: 'get',
  path: '/shared/{key}/download',
  operationId: 'downloadSharedLinkZip',
  summary: 'Every original of a public link as one zip (streamed)',
  description: 'Only when the link allows downloads: else 403 `download_not_allowed`. A file gone from its folder: 409 `original_missing`.',
  tags: [TAG],
  request: { params: KeyParam, query: z.object({ lt: TokenQuery }) },
  responses: {
    200: fileAnswer('application/zip', 'The zip archive, as an attachment'),
    ...errorResponses(401, 403, 404, 409, 429),
  },
});
