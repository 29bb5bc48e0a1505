/** One asset: detail, files, EXIF, reprocessing. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { AssetSchema } from './assets.view.ts';

const TAG = 'Assets: one asset';
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1'));
const fileResponse = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } },
  206: { description: 'Partial content (Range request)', content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } },
  304: { description: 'Not modified (If-None-Match)' },
  ...errorResponses(404, 416),
});

export const getAsset = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}',
  operationId: 'getAsset',
  summary: 'One asset with its details',
  tags: [TAG],
  request: {
    params: IdParam,
    query: z.object({
      include_thumbnails: bool(true),
      include_tags: bool(true),
      include_albums: bool(true),
      include_species: bool(true),
      include_ocr: bool(false),
      include_faces: bool(false),
    }),
  },
  responses: {
    200: {
      description: 'OK',
      content: {
        'application/json': {
          schema: AssetSchema.extend({
            thumbnails: z.array(z.object({ thumbnail_id: z.string(), size: z.string(), mime_type: z.string(), storage_path: z.string() })).optional(),
            tags: z.array(z.object({ tag_id: z.number().int(), tag_name: z.string(), source: z.string(), confidence: z.number() })).optional(),
            albums: z.array(z.object({ album_id: z.number().int(), album_name: z.string(), added_time: z.string(), position: z.number().int() })).optional(),
            ocr_result: z.unknown().optional(),
            face_result: z.unknown().optional(),
          }).openapi('AssetDetail'),
        },
      },
    },
    ...errorResponses(404),
  },
});

export const getAssetExif = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/exif',
  operationId: 'getAssetExif',
  summary: 'Raw EXIF, IPTC and XMP of a photo',
  tags: [TAG],
  request: { params: IdParam },
  responses: {
    200: { description: 'OK', content: { 'application/json': { schema: z.object({ asset_id: z.string(), exif_raw: z.record(z.string(), z.unknown()) }) } } },
    ...errorResponses(404),
  },
});

export const getAssetThumbnail = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/thumbnail',
  operationId: 'getAssetThumbnail',
  summary: 'Thumbnail (WebP): small 400, medium 800, large 1920 px on the long edge',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ size: z.enum(['small', 'medium', 'large']).default('medium'), mt: z.string().optional() }) },
  responses: fileResponse('image/webp', 'The thumbnail'),
});

export const getAssetOriginal = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/original',
  operationId: 'getAssetOriginal',
  summary: 'The original file, byte for byte (Range requests supported)',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ mt: z.string().optional() }) },
  responses: fileResponse('application/octet-stream', 'The original bytes'),
});

export const getAssetWebVideo = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/video/web',
  operationId: 'getAssetWebVideo',
  summary: 'Browser-playable video (H.264/AAC MP4, or the original when it already plays)',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ mt: z.string().optional() }) },
  responses: fileResponse('video/mp4', 'The video'),
});

export const getAssetWebAudio = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/audio/web',
  operationId: 'getAssetWebAudio',
  summary: 'Browser-playable audio (MP3, or the original when it already plays)',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ mt: z.string().optional() }) },
  responses: fileResponse('audio/mpeg', 'The audio'),
});

export const reprocessAsset = defineRoute('user', {
  method: 'post',
  path: '/assets/{id}/reprocess',
  operationId: 'reprocessAsset',
  summary: 'Run the processing pipeline of an asset again',
  description: 'Every task name (analyze, derivatives, enrich, metadata, thumbnails, transcode) runs the whole idempotent pipeline; `receipt_id` is the queued job id (see getJob).',
  tags: [TAG],
  request: {
    params: IdParam,
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z.strictObject({
            force_full_retry: z.boolean().optional(),
            tasks: z.array(z.enum(['analyze', 'derivatives', 'enrich', 'metadata', 'thumbnails', 'transcode'])).max(10).optional(),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: 'Queued',
      content: { 'application/json': { schema: z.object({ asset_id: z.string(), message: z.string(), receipt_id: z.string(), status: z.literal('queued') }) } },
    },
    ...errorResponses(404),
  },
});
