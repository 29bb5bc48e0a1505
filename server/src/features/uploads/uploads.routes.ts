/**
 * Assets: upload. Every path sits under `/api/v1/uploads/`, where app.ts skips the 1 MiB JSON body
 * limit: multipart bodies stream to disk with their own limits, the JSON operations here take a
 * 4 MiB limit of their own.
 *
 * | operationId         | method and path                      |
 * |---------------------|--------------------------------------|
 * | uploadAsset         | POST /api/v1/uploads/files           |
 * | batchUploadAssets   | POST /api/v1/uploads/batch           |
 * | createUploadSession | POST /api/v1/uploads/sessions        |
 * | getUploadProgress   | GET  /api/v1/uploads/sessions        |
 * | getUploadConfig     | GET  /api/v1/uploads/config          |
 * | precheckUploads     | POST /api/v1/uploads/precheck        |
 * | getUploadStatus     | GET  /api/v1/uploads/receipts        |
 * | streamUploadStatus  | GET  /api/v1/uploads/receipts/stream |
 *
 * Multipart bodies are described with plain JSON schemas, not zod: a zod schema would make the
 * OpenAPI layer validate the form, which buffers the whole body (parseBody).
 */
import { z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../../platform/http/errors.ts';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';

const TAG = 'Assets: upload';
const JSON_LIMIT = 4 * 1024 * 1024;

const jsonLimit = bodyLimit({
  maxSize: JSON_LIMIT,
  onError: () => {
    throw new PayloadTooLarge(`The request body is larger than ${JSON_LIMIT} bytes.`);
  },
});

/** How every multipart upload ends when its body does not arrive whole, or the slots are taken. */
const CUT_OFF =
  ' A body that ends before the form’s closing boundary answers 400 `upload_incomplete`; one that brings no byte for the idle timeout (60 s unless configured) answers 408 `upload_stalled` and closes the connection; ' +
  'either way nothing of it is kept. The server serves `max_in_flight_requests` uploads at once and one member only a share of them (a quarter unless configured): past either, 503 `uploads_busy` with Retry-After.';

const Hash = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (BLAKE3)');
const SessionId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'must be 1-64 letters, digits or -');

/** When the file was last modified (features/uploads/last-modified.ts). */
const LAST_MODIFIED_TEXT =
  'When the file was last modified on the device: epoch milliseconds, or ISO 8601 with its zone ("2024-05-01T14:30:00+02:00"; a numeric offset is taken as the zone the device was in, "Z" as unknown). ' +
  'The date of a photo or video with no date inside (its `time_source` is then `file_modified`). Anything else answers 422 `invalid_last_modified` naming the field.';
const LastModified = z.union([z.string().max(64), z.number().int()]).openapi({ description: LAST_MODIFIED_TEXT });

const idList = (name: string, max: number) =>
  z
    .string()
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(z.string().max(64)).min(1, `${name} needs at least one id`).max(max, `at most ${max} ids`))
    .openapi({ type: 'string', description: `Comma-separated ids (at most ${max}).`, param: { name, in: 'query' } });

export const UploadProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    retryable: z.boolean(),
  })
  .openapi('UploadProblem', { description: 'Why a file did not make it (embedded in results, receipts and sessions).' });

const UploadResultFields = {
  content_hash: z.string().openapi({ description: 'BLAKE3 of the received bytes, computed by the server.' }),
  file_name: z.string().openapi({ description: 'The stored file name (the base name the client gave, made safe).' }),
  message: z.string(),
  receipt_id: z.string(),
  size: z.number().int(),
  status: z.enum(['processing', 'duplicate']),
  asset_id: z.string().nullable().openapi({ description: 'The new asset, or your existing one of a duplicate.' }),
  restored_from_trash: z.boolean().openapi({ description: 'The duplicate was your asset in the Trash: this upload brought it back (`status: duplicate`, `asset_id` is that asset).' }),
};

export const UploadResultSchema = z.object(UploadResultFields).openapi('UploadResult');

export const BatchResultSchema = z
  .object({
    session_id: z.string(),
    success: z.boolean(),
    status: z.enum(['uploading', 'processing', 'duplicate', 'failed']).openapi({ description: '`uploading`: a chunk was stored and the session waits for more.' }),
    file_name: z.string().nullable(),
    receipt_id: z.string().nullable(),
    content_hash: z.string().nullable(),
    size: z.number().int().nullable().openapi({ description: 'Bytes of this part (a chunk), or of the whole file once committed.' }),
    message: z.string(),
    asset_id: z.string().nullable(),
    restored_from_trash: z.boolean().openapi({ description: 'The duplicate was your asset in the Trash: this upload brought it back.' }),
    chunk_index: z.number().int().nullable(),
    received_chunks: z.number().int().nullable().openapi({ description: 'Chunks of the session stored so far (chunk parts).' }),
    problem: UploadProblemSchema.nullable(),
  })
  .openapi('BatchUploadResult');

const SessionSchema = z
  .object({
    session_id: z.string(),
    status: z.enum(['pending', 'uploading', 'merging', 'completed', 'failed']),
    total_chunks: z.number().int(),
    chunk_size: z.number().int().nullable().openapi({ description: 'Bytes of every chunk but the last; null until known.' }),
    received_chunks: z.array(z.number().int()).openapi({ description: 'Chunk indexes stored on the server (0-based).' }),
    bytes_received: z.number().int(),
    receipt_id: z.string(),
    problem: UploadProblemSchema.nullable(),
    result: UploadResultSchema.nullable().openapi({ description: 'Set when this call completed the session (all chunks were already stored).' }),
  })
  .openapi('UploadSession');

const ReceiptStateSchema = z
  .object({
    receipt_id: z.string(),
    file_name: z.string(),
    status: z.enum(['uploading', 'processing', 'queued', 'completed', 'duplicate', 'failed']),
    success: z.boolean().openapi({ description: 'True for completed and duplicate (the content is in the library).' }),
    terminal: z.boolean().openapi({ description: 'True for completed, duplicate and failed.' }),
    problem: UploadProblemSchema.nullable(),
    asset_id: z.string().nullable(),
    content_hash: z.string().nullable(),
    size: z.number().int().nullable(),
    updated_at: z.string(),
  })
  .openapi('UploadReceiptState');

const ReceiptsSchema = z.object({ operations: z.array(ReceiptStateSchema) }).openapi('UploadReceipts');

type PropSchema = { type: 'string'; format?: 'uuid' | 'binary'; description?: string };
const multipart = (description: string, properties: Record<string, PropSchema>, required: string[]) => ({
  required: true,
  description,
  content: { 'multipart/form-data': { schema: { type: 'object' as const, properties, required } } },
});

export const uploadAsset = defineRoute('user', {
  method: 'post',
  path: '/uploads/files',
  operationId: 'uploadAsset',
  summary: 'Upload one file',
  description:
    'Multipart with the file in `file` and optional `repository_id` (default: the primary repository) and `last_modified` (when the file was last modified on the device), which must come before the file. ' +
    'The body streams to the repository’s staging folder and is hashed (BLAKE3) on the way; with `X-Content-Hash` a mismatch answers 422 and keeps nothing. ' +
    'Content you already have in the repository (same hash and size) answers `status: duplicate` with your asset and is not stored again; when that asset is in your Trash, ' +
    'the upload brings it back (`restored_from_trash: true`). Duplicates are per member: content only another member has becomes an asset of yours (stored once on disk). ' +
    'Otherwise the file is committed under ' +
    '`uploads/YYYY/MM/` (never overwriting: `name (1).ext`…), catalogued, and its processing queued (`status: processing`). Follow the receipt with getUploadStatus.' + CUT_OFF,
  tags: [TAG],
  request: {
    headers: z.object({ 'x-content-hash': Hash.optional().openapi({ description: 'BLAKE3 of the file (64 hex), computed by the client.' }) }),
    body: multipart(
      'The file and, before it, the target repository and when the file was last modified.',
      { repository_id: { type: 'string', format: 'uuid' }, last_modified: { type: 'string', description: LAST_MODIFIED_TEXT }, file: { type: 'string', format: 'binary' } },
      ['file'],
    ),
  },
  responses: {
    200: jsonResponse(UploadResultSchema, 'Stored and queued, or recognised as a duplicate'),
    ...errorResponses(404, 408, 415, 503),
  },
});

export const batchUploadAssets = defineRoute('user', {
  method: 'post',
  path: '/uploads/batch',
  operationId: 'batchUploadAssets',
  summary: 'Upload several files and chunks in one request',
  description:
    'Multipart. Text field `repository_id` (optional, default the primary repository; before the files) applies to whole files. File fields:\n\n' +
    '- `single_{session_id}`: a whole file; `session_id` is the client’s own correlation id (letters, digits, `-`), echoed in its result.\n' +
    '- `chunk_{session_id}_{index}_{total}`: chunk `index` (0-based, `index < total`) of a session made with createUploadSession, whose `total_chunks` must equal `total`. ' +
    'Every chunk but the last has the session’s chunk size, the last the rest. A chunk sent again with the same size is read and dropped, answered as received (idempotent); with another size it is refused (409 `chunk_conflict`), and while another request is still receiving that chunk it is 409 `chunk_in_progress` (retryable). ' +
    'Chunks are written in place into one staged file; when the last missing chunk arrives the file is hashed, checked against the session’s `client_hash` and committed like a single upload.\n\n' +
    'Each file part gets a result; one part failing (its `problem` says why: 404 foreign or unknown session, 409, 413, 422) does not fail the others. A chunk cut off mid-way is discarded, not counted.' + CUT_OFF,
  tags: [TAG],
  request: {
    body: multipart(
      'Files named single_{session_id} or chunk_{session_id}_{index}_{total}.',
      {
        repository_id: { type: 'string', format: 'uuid' },
        'last_modified_{session_id}': { type: 'string', description: `Before single_{session_id}: ${LAST_MODIFIED_TEXT}` },
        'single_{session_id}': { type: 'string', format: 'binary' },
        'chunk_{session_id}_{index}_{total}': { type: 'string', format: 'binary' },
      },
      [],
    ),
  },
  responses: {
    200: jsonResponse(z.object({ results: z.array(BatchResultSchema) }), 'One result per file part, in order'),
    ...errorResponses(404, 408, 415, 503),
  },
});

export const createUploadSession = defineRoute('user', {
  method: 'post',
  path: '/uploads/sessions',
  operationId: 'createUploadSession',
  summary: 'Create or resume a chunked upload session',
  description:
    'Without `session_id`, or with a new one: creates a session (201) and its receipt. With the id of one of your sessions and the same file (name, size, chunk count): resumes it (200) ' +
    'and reports the chunks stored on the server, also after a server restart. Chunks then go to batchUploadAssets as `chunk_{session_id}_{index}_{total}`. ' +
    'The resume answer is what counts: a chunk answered shortly before the machine itself went down (a power cut) may be missing from it, and is sent again. ' +
    '`chunk_size` is optional: it is learnt from the first chunk otherwise. `last_modified`: when the file was last modified on the device, the date of a photo or video with no date inside.',
  tags: [TAG],
  middleware: [jsonLimit],
  request: {
    body: jsonBody(
      z.object({
        session_id: SessionId.optional(),
        filename: z.string().min(1).max(1024),
        total_size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        total_chunks: z.number().int().min(1).max(100_000),
        chunk_size: z.number().int().min(1).optional(),
        content_type: z.string().max(255).optional(),
        repository_id: z.uuid().optional(),
        client_hash: Hash.optional().openapi({ description: 'BLAKE3 of the whole file; the assembled file must match it.' }),
        last_modified: LastModified.optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(SessionSchema, 'Resumed'),
    201: jsonResponse(SessionSchema, 'Created'),
    ...errorResponses(404, 409, 503),
  },
});

export const getUploadProgress = defineRoute('user', {
  method: 'get',
  path: '/uploads/sessions',
  operationId: 'getUploadProgress',
  summary: 'Progress of your chunked upload sessions',
  description: 'The given sessions (your own; others are left out), or your active sessions and those active in the last 24 hours. `progress` is a fraction 0..1.',
  tags: [TAG],
  request: { query: z.object({ session_ids: idList('session_ids', 1000).optional() }) },
  responses: {
    200: jsonResponse(
      z.object({
        sessions: z.array(
          z.object({
            session_id: z.string(),
            filename: z.string(),
            status: z.enum(['pending', 'uploading', 'merging', 'completed', 'failed']),
            bytes_done: z.number().int(),
            bytes_total: z.number().int(),
            progress: z.number(),
            received_chunks: z.number().int().openapi({ description: 'How many chunks are stored.' }),
            total_chunks: z.number().int(),
            completed_chunks: z.array(z.number().int()),
            last_activity: z.string(),
            receipt_id: z.string().nullable(),
            problem: UploadProblemSchema.nullable(),
          }),
        ),
        summary: z.object({
          active_sessions: z.number().int(),
          completed_files: z.number().int(),
          failed_sessions: z.number().int(),
          overall_progress: z.number(),
          total_sessions: z.number().int(),
        }),
      }),
    ),
  },
});

export const getUploadConfig = defineRoute('user', {
  method: 'get',
  path: '/uploads/config',
  operationId: 'getUploadConfig',
  summary: 'How clients should upload to this server',
  description:
    'Sizes in bytes. `chunk_size` follows the server’s memory (over 4 GiB: 20 MiB; 2–4 GiB: 10 MiB; 1–2 GiB: 5 MiB; less: 2 MiB). `max_concurrent`: chunk requests per client at once; ' +
    '`max_in_flight_requests`: upload requests the server serves at once (more get 503 with Retry-After); `memory_buffer`: what a client should keep in memory at most; `merge_concurrency`: sessions assembled at once.',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z.object({
        chunk_size: z.number().int(),
        max_concurrent: z.number().int(),
        max_in_flight_requests: z.number().int(),
        memory_buffer: z.number().int(),
        merge_concurrency: z.number().int(),
      }),
    ),
  },
});

export const precheckUploads = defineRoute('user', {
  method: 'post',
  path: '/uploads/precheck',
  operationId: 'precheckUploads',
  summary: 'Which files you already have (advisory)',
  description: 'Client BLAKE3 hashes and sizes against your assets (optionally in one repository). Advisory only: candidates must still be uploaded and are verified then.',
  tags: [TAG],
  middleware: [jsonLimit],
  request: {
    body: jsonBody(
      z.object({
        files: z.array(z.object({ hash: Hash, size: z.number().int().min(0), file_name: z.string().max(1024).optional() })).min(1).max(1000),
        repository_id: z.uuid().optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        duplicate_count: z.number().int(),
        results: z.array(z.object({ asset_id: z.string().nullable(), candidate: z.boolean(), duplicate: z.boolean(), file_name: z.string().nullable(), hash: z.string() })),
      }),
      'One result per file, in order',
    ),
  },
});

export const getUploadStatus = defineRoute('user', {
  method: 'get',
  path: '/uploads/receipts',
  operationId: 'getUploadStatus',
  summary: 'Where your uploaded files are (receipts)',
  description:
    'Your receipts among `receipt_ids` (1–100); unknown ids and other users’ receipts are left out. Terminal states: completed, duplicate, failed. ' +
    'An upload the server’s stop (a crash, a power cut) cut off before it was stored is `failed` with problem code `upload_interrupted` (retryable: send the file again); ' +
    'one stored just before the stop completes after the restart as usual. A chunked session stays resumable across a stop.',
  tags: [TAG],
  request: { query: z.object({ receipt_ids: idList('receipt_ids', 100) }) },
  responses: { 200: jsonResponse(ReceiptsSchema) },
});

export const streamUploadStatus = defineRoute('user', {
  method: 'get',
  path: '/uploads/receipts/stream',
  operationId: 'streamUploadStatus',
  summary: 'Follow your receipts as server-sent events',
  description:
    'A `text/event-stream` (the same in both variants; errors before the stream starts are problem+json). Events, each `data` a JSON object:\n\n' +
    '- `receipts`: `{operations: [receipt state]}` exactly as getUploadStatus, sent first and then whenever anything changes (checked every 500 ms).\n' +
    '- `heartbeat`: `{at}` after 15 s without another event.\n' +
    '- `done`: `{receipt_ids, all_terminal: true}` once every receipt shown is terminal (completed, duplicate, failed); the stream then ends.\n' +
    '- `error`: a problem object; the stream then ends.\n\nUnknown and other users’ receipt ids are left out, as in getUploadStatus.',
  tags: [TAG],
  request: { query: z.object({ receipt_ids: idList('receipt_ids', 100) }) },
  responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } } },
});
