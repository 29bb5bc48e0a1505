/**
 * Google Takeout parts uploaded from the browser, resumable (extensions; decisions in takeout-uploads.service.ts).
 *
 * | operationId         | method and path                                       |
 * |---------------------|-------------------------------------------------------|
 * | listTakeoutUploads  | GET    /api/v1/cloud/takeout/uploads (ext.)           |
 * | createTakeoutUpload | POST   /api/v1/cloud/takeout/uploads (ext.)           |
 * | getTakeoutUpload    | GET    /api/v1/cloud/takeout/uploads/{id} (ext.)      |
 * | uploadTakeoutChunk  | PUT    /api/v1/cloud/takeout/uploads/{id} (ext.)      |
 * | cancelTakeoutUpload | DELETE /api/v1/cloud/takeout/uploads/{id} (ext.)      |
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { TakeoutUploadSchema } from './cloud-import.view.ts';

const TAG = 'Cloud import';
const UploadParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'takeout_upload') }) });
/** 2^50 bytes (a petabyte): far past any Takeout part, well inside a JavaScript number. */
const MAX_SIZE = 2 ** 50;

export const listTakeoutUploads = defineRoute('user', {
  method: 'get',
  path: '/cloud/takeout/uploads',
  operationId: 'listTakeoutUploads',
  summary: 'Your unfinished Takeout uploads, the latest activity first (choose the same file again to go on)',
  description: [
    'Only your own (an administrator’s too), with the bytes each has (`received` of `size`) and when it is removed if nothing more arrives (`expires_at`, a day after the last chunk). Finished uploads are not listed: their parts are in listTakeoutArchives.',
    'createTakeoutUpload with the same repository, name and size answers the upload listed here, to go on from `received`; cancelTakeoutUpload discards it.',
  ].join('\n'),
  tags: [TAG],
  request: { query: z.object({ repository_id: z.uuid().optional().openapi({ description: 'Only the uploads into this repository (an unknown one lists none).' }) }) },
  responses: { 200: jsonResponse(z.object({ uploads: z.array(TakeoutUploadSchema) }).openapi('TakeoutUploadList')), ...errorResponses(422) },
});

export const createTakeoutUpload = defineRoute('user', {
  method: 'post',
  path: '/cloud/takeout/uploads',
  operationId: 'createTakeoutUpload',
  summary: 'Start uploading a Google Takeout part into a repository (or go on with your unfinished upload of it)',
  description: [
    'Then send the file in chunks with uploadTakeoutChunk, in order. When the last chunk arrives the part is moved to `Takeout/<filename>` in the repository (`Takeout/2/<filename>`… when that name is taken) and listTakeoutArchives lists it.',
    'Your unfinished upload of the same file (repository, name, size) is answered as it is (200), with the bytes it has: go on from `received`. A new one: 201.',
    'A name that is not a plain Takeout part name (`takeout-….zip|.tgz|.tar.gz`; no folders, `..` or control characters): 422 `takeout_upload_bad_name`. Less free space on the repository’s disk than `size`: 507 `insufficient_storage`.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({ repository_id: z.uuid(), filename: z.string().min(1).max(255), size: z.number().int().min(1).max(MAX_SIZE) })
        .openapi('TakeoutUploadCreate'),
    ),
  },
  responses: { 200: jsonResponse(TakeoutUploadSchema, 'Your unfinished upload of this file'), 201: jsonResponse(TakeoutUploadSchema, 'Created'), ...errorResponses(404, 422, 503, 507) },
});

export const getTakeoutUpload = defineRoute('user', {
  method: 'get',
  path: '/cloud/takeout/uploads/{id}',
  operationId: 'getTakeoutUpload',
  summary: 'How far one of your Takeout uploads got (after a cut, go on from `received`)',
  tags: [TAG],
  request: { params: UploadParam },
  responses: { 200: jsonResponse(TakeoutUploadSchema), ...errorResponses(404) },
});

export const uploadTakeoutChunk = defineRoute('user', {
  method: 'put',
  path: '/cloud/takeout/uploads/{id}',
  operationId: 'uploadTakeoutChunk',
  summary: 'Send the next chunk of a Takeout upload',
  description: [
    'The body is the bytes (`application/octet-stream`) at `Content-Range: bytes <first>-<last>/<size>`; `first` must be the upload’s `received` (else 409 `takeout_upload_offset_mismatch`, with `received` in the problem). Streamed to disk as it arrives; a chunk cut off keeps what arrived (getTakeoutUpload says how much).',
    'Another chunk of the upload still arriving: 409 `takeout_upload_busy` (retryable). A body longer than its range or than the size: 413 `takeout_upload_too_large`; a full disk: 507 `insufficient_storage`; both remove the upload and what arrived of it. A missing or malformed range: 422 `takeout_upload_bad_range`; another total than the size: 422 `takeout_upload_size_mismatch`.',
    'The last chunk completes the upload: the answer is `complete` with its `part_path`. A chunk sent to a complete upload is answered with the upload as it is.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: UploadParam,
    headers: z.object({ 'content-range': z.string().max(64).optional().openapi({ description: '`bytes <first>-<last>/<size>` (required).', example: 'bytes 0-8388607/52428800' }) }),
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: { 200: jsonResponse(TakeoutUploadSchema, 'Stored: the upload now'), ...errorResponses(404, 409, 413, 422, 503, 507) },
});

export const cancelTakeoutUpload = defineRoute('user', {
  method: 'delete',
  path: '/cloud/takeout/uploads/{id}',
  operationId: 'cancelTakeoutUpload',
  summary: 'Cancel a Takeout upload: what arrived of it is removed (a finished part stays in the repository)',
  tags: [TAG],
  request: { params: UploadParam },
  responses: { 200: jsonResponse(z.object({ message: z.string() }).openapi('TakeoutUploadCancelled')), ...errorResponses(404, 409) },
});
