/**
 * The JSON shapes every routes file declares: a JSON answer and a JSON request body. One place, so an
 * operation says what it answers (`200: jsonResponse(AlbumSchema)`) instead of the OpenAPI nesting,
 * and every operation's document stays the same shape. Error answers come from `errorResponses`
 * (router.ts), which `defineRoute` also adds for the statuses every operation can answer.
 */
import type { z } from '@hono/zod-openapi';

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
