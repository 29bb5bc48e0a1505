/**
 * One asset: detail, files, EXIF, reprocessing, trash, edits, media item. Export, download and the edit
 * sidecar are in export.routes.ts and sidecar.routes.ts. Decisions on contract gaps: assets.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../../platform/http/router.ts';
import { jsonBody, jsonResponse, rangedFileResponses } from '../../../platform/http/responses.ts';
import { SpecificMetadataEditSchema } from './asset-updates.ts';
import { AssetDetailSchema, MediaItemSchema } from '../assets.view.ts';
import { multiLine } from '../../../platform/http/text.ts';

export const TAG = 'Assets: one asset';
export const IdParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }) });
const Message = z.object({ message: z.string() });
const messageResponse = (description: string) => jsonResponse(Message, description);
const Rating = z.number().int().min(0).max(5).openapi({ description: '0 (none) to 5 stars.' });
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1'));
const fileResponse = (type: string, description: string) => ({ ...rangedFileResponses(type, description), ...errorResponses(404, 416) });

export const getAsset = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}',
  operationId: 'getAsset',
  summary: 'One asset with its details',
  description:
    'Each include flag adds one field: `thumbnails`, `tags` (tag links), `albums` (the caller\'s albums holding the asset, with added_time and position), `species_predictions` (best first), `ocr_result` (the text lines OCR read, with boxes normalised 0..1 and confidence; null while OCR has not read the photo) and `face_result` (the faces found, boxes normalised 0..1, with their person; null while the face task has not read the photo). `stack` is always present (null when not stacked). Assets in the Trash are readable by their owner; another user\'s asset answers 404.',
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
    200: jsonResponse(AssetDetailSchema),
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
    200: jsonResponse(z.object({ asset_id: z.string(), exif_raw: z.record(z.string(), z.unknown()) })),
    ...errorResponses(404),
  },
});

export const getAssetThumbnail = defineRoute('media', {
  method: 'get',
  path: '/assets/{id}/thumbnail',
  operationId: 'getAssetThumbnail',
  summary: 'Thumbnail (WebP): small 400, medium 800, large 1920 px on the long edge',
  description:
    'While the asset is being processed the answer is 404 `thumbnail_not_ready` (ask again later). When its processing failed it is 404 `thumbnail_failed`, with `Cache-Control: private, max-age=300`: there is none until the asset is processed again, and a browser need not ask again meanwhile.',
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
  description: 'For a motion photo (a still with its clip embedded in the same file, `specific_metadata.motion_photo`), the clip.',
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
    body: jsonBody(
      z.strictObject({
        force_full_retry: z.boolean().optional(),
        tasks: z.array(z.enum(['analyze', 'derivatives', 'enrich', 'metadata', 'thumbnails', 'transcode'])).max(10).optional(),
      }),
      { required: false },
    ),
  },
  responses: {
    200: jsonResponse(z.object({ asset_id: z.string(), message: z.string(), receipt_id: z.string(), status: z.literal('queued') }), 'Queued'),
    ...errorResponses(404),
  },
});

export const deleteAsset = defineRoute('user', {
  method: 'delete',
  path: '/assets/{id}',
  operationId: 'deleteAsset',
  summary: 'Move an asset to the Trash (soft delete; the file is not touched)',
  description:
    'Sets is_deleted and deleted_at. The file stays in its folder; albums, tags, likes and ratings are kept for a restore. Deleting an asset already in the Trash answers 200 and changes nothing. The other component of a RAW+JPEG pair or live photo is not deleted with it.',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: messageResponse('In the Trash'), ...errorResponses(404) },
});

export const restoreAsset = defineRoute('user', {
  method: 'post',
  path: '/assets/{id}/restore',
  operationId: 'restoreAsset',
  summary: 'Restore an asset from the Trash',
  description:
    'Only from the Trash: a live asset answers 409 `asset_not_in_trash`. An asset whose file is gone from its folder (that is why it went to the Trash) answers 409 `original_missing`; putting the file back restores it by itself.',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: messageResponse('Restored'), ...errorResponses(404, 409) },
});

export const updateAssetMetadata = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}',
  operationId: 'updateAssetMetadata',
  summary: "Correct an asset's specific metadata (photo, video or audio fields)",
  description:
    'A patch of `specific_metadata`: fields not sent keep their values, null clears one. Photos: camera_make, camera_model, lens_model, description, exposure_time, f_number, focal_length, iso_speed, exposure_compensation; videos: camera_make, camera_model; audio: title, artist, album. `is_raw` and `content_identifier` are read from the file and refused, as are fields of another type (422 naming the field). Changed field names are listed in `specific_metadata.edited_fields`. 409 `asset_processing` while the asset is being processed, 409 `asset_in_trash` in the Trash.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ specific_metadata: SpecificMetadataEditSchema })) },
  responses: { 200: messageResponse('Updated'), ...errorResponses(404, 409) },
});

export const updateAssetDescription = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/description',
  operationId: 'updateAssetDescription',
  summary: "Set an asset's description (caption)",
  description: 'Trimmed; an empty text clears the description. 409 `asset_in_trash` in the Trash.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ description: multiLine(z.string().max(10_000)) })) },
  responses: { 200: messageResponse('Updated'), ...errorResponses(404, 409) },
});

export const updateAssetLike = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/like',
  operationId: 'updateAssetLike',
  summary: 'Like or unlike an asset',
  description: '409 `asset_in_trash` in the Trash.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ liked: z.boolean() })) },
  responses: { 200: messageResponse('Updated'), ...errorResponses(404, 409) },
});

export const updateAssetRating = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/rating',
  operationId: 'updateAssetRating',
  summary: 'Rate an asset (0..5)',
  description: 'A rating outside 0..5 answers 422 naming body.rating. 409 `asset_in_trash` in the Trash.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ rating: Rating })) },
  responses: { 200: messageResponse('Updated'), ...errorResponses(404, 409) },
});

export const updateAssetRatingAndLike = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/rating-and-like',
  operationId: 'updateAssetRatingAndLike',
  summary: 'Rate and like (or unlike) an asset in one change',
  description: 'Both fields are required. 409 `asset_in_trash` in the Trash.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ liked: z.boolean(), rating: Rating })) },
  responses: { 200: messageResponse('Updated'), ...errorResponses(404, 409) },
});

export const getAssetMediaItem = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/media-item',
  operationId: 'getAssetMediaItem',
  summary: 'The logical media item an asset belongs to (RAW+JPEG pair, live photo, or itself)',
  description: 'All components are listed, also those in the Trash. `media_item` is null until the asset has been processed.',
  tags: [TAG],
  request: { params: IdParam },
  responses: {
    200: jsonResponse(z.object({ asset_id: z.string(), media_item: MediaItemSchema.nullable() })),
    ...errorResponses(404),
  },
});
