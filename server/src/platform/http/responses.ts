/**
 * The JSON shapes every routes file declares: a JSON answer and a JSON request body. One place, so an
 * operation says what it answers (`200: jsonResponse(AlbumSchema)`) instead of the OpenAPI nesting,
 * and every operation's document stays the same shape. Error answers come from `errorResponses`
 * (router.ts), which `defineRoute` also adds for the statuses every operation can answer.
 */
import { z } from '@hono/zod-openapi';

/** A JSON answer of `schema`; `description` is what the status means for this operation. */
export function jsonResponse<S extends z.ZodType>(schema: S, description = 'OK'): { description: string; content: { 'application/json': { schema: S } } } {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON request body of `schema`; required unless said otherwise (an optional body means "all defaults"). */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  opts: { required?: boolean; description?: string } = {},
): { required: boolean; description?: string; content: { 'application/json': { schema: S } } } {
  return { required: opts.required ?? true, ...(opts.description === undefined ? {} : { description: opts.description }), content: { 'application/json': { schema } } };
}

/** The schema of a file's bytes in an OpenAPI document (an image, a video, a zip). */
export const binarySchema = (): z.ZodString => z.string().openapi({ format: 'binary' });

/** A file answer of one media type (`200`), e.g. a zip download. */
export function fileResponse(type: string, description: string): { description: string; content: Record<string, { schema: z.ZodString }> } {
  return { description, content: { [type]: { schema: binarySchema() } } };
}

/**
 * The answers of an operation that serves a file with HTTP caching and byte ranges (thumbnails,
 * originals, video): 200 the whole file, 206 a Range, 304 If-None-Match. Error statuses are the
 * caller's, since who may ask (a member, a link holder) differs.
 */
export function rangedFileResponses(type: string, description: string) {
  return {
    200: fileResponse(type, description),
    206: fileResponse(type, 'Partial content (Range request)'),
    304: { description: 'Not modified (If-None-Match)' },
  };
}
