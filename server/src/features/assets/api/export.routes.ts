/**
 * Files made on request from originals: exportAsset (one photo re-encoded) and downloadAssets (a zip of
 * originals). Both stream an attachment; their errors are problem+json in both API variants.
 * Decisions: export.ts, download-zip.ts, assets.service.ts.
 */
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../../platform/http/context.ts';
import { defineRoute, errorResponses } from '../../../platform/http/router.ts';
import { binarySchema, fileResponse, jsonBody } from '../../../platform/http/responses.ts';
import { IdParam, TAG } from './assets.routes.ts';
import { DEFAULT_QUALITY, EXPORT_FORMATS } from './export.ts';

/** File answers are never enveloped (variant B), and neither are their validation errors. */
export const rawRoute: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('rawRoute', true);
  await next();
};

const binary = binarySchema();
const pixels = z.coerce.number().int().min(1).max(65_535);

export const MAX_DOWNLOAD_ASSETS = 1000;

export const exportAsset = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/export',
  operationId: 'exportAsset',
  summary: 'Download a photo re-encoded as JPEG, PNG, WebP or AVIF, optionally smaller',
  description:
    `Decodes the original (HEIC through the wasm decoder, RAW through its embedded preview), applies its orientation, fits it inside max_width × max_height keeping the aspect ratio (never enlarged) and encodes it. ` +
    `quality 1..100 is for the lossy formats (defaults: jpeg ${DEFAULT_QUALITY.jpeg}, webp ${DEFAULT_QUALITY.webp}, avif ${DEFAULT_QUALITY.avif}); with png it is refused (422 naming query.quality). ` +
    'EXIF and GPS are not copied (an export is for sharing); JPEG flattens transparency onto white. The file name is `filename` made safe (or the original\'s name) plus the format\'s extension. ' +
    'Videos and audio answer 422 `export_not_a_photo`; a photo that cannot be decoded 422 `image_not_decodable`. Accepts a media token (`mt`) so that a plain link can download it.',
  tags: [TAG],
  middleware: [rawRoute],
  request: {
    params: IdParam,
    query: z.object({
      format: z.enum(EXPORT_FORMATS),
      quality: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Lossy formats only (jpeg, webp, avif).' }),
      max_width: pixels.optional().openapi({ description: 'Upper bound of the width in pixels.' }),
      max_height: pixels.optional().openapi({ description: 'Upper bound of the height in pixels.' }),
      filename: z.string().min(1).max(200).optional().openapi({ description: 'Base name of the download, without extension; made safe (control characters and the like become `_`), not refused.' }),
      mt: z.string().optional(),
    }),
  },
  responses: {
    200: {
      description: 'The re-encoded image, as an attachment',
      content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary }, 'image/webp': { schema: binary }, 'image/avif': { schema: binary } },
    },
    ...errorResponses(404),
  },
});

export const downloadAssets = defineRoute('user', {
  method: 'post',
  path: '/assets/download',
  operationId: 'downloadAssets',
  summary: 'Download the originals of several assets as one zip (streamed)',
  description:
    `1..${MAX_DOWNLOAD_ASSETS} asset ids (repeated ids are packed once). The zip is streamed as it is read from disk, entries stored uncompressed, with Content-Length; ZIP64 beyond 4 GB. ` +
    'Entries are the original file names, flat; the same name twice gets " (2)", " (3)", … before the extension. Assets in the Trash may be downloaded. ' +
    'Checked before any byte is sent: unknown ids and other users\' ids answer 404 `asset_not_found` naming each (`errors[].field` body.asset_ids.N), files gone from their folders 409 `original_missing` naming each.',
  tags: [TAG],
  middleware: [rawRoute],
  request: {
    body: jsonBody(z.strictObject({ asset_ids: z.array(z.uuid()).min(1).max(MAX_DOWNLOAD_ASSETS) })),
  },
  responses: {
    200: fileResponse('application/zip', 'The zip archive, as an attachment'),
    ...errorResponses(404, 409),
  },
});
