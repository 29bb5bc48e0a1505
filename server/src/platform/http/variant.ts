/**
 * Variant B envelope. Handlers always answer in variant A (the resource itself); for a variant B
 * request this middleware wraps JSON answers as `{code, data, error, message}`: code 0 and the
 * resource in `data` on success, the HTTP status in `code` and the problem document in `data` on
 * failure. File and stream routes (`rawRoute`) are left alone in both variants, their errors stay
 * problem+json.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { PROBLEM_CONTENT_TYPE, type Problem } from './problem.ts';

export const envelopeVariantB: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.get('variant') !== 'B' || c.get('rawRoute')) return;
  const type = c.res.headers.get('content-type') ?? '';
  const isProblem = type.startsWith(PROBLEM_CONTENT_TYPE);
  if (!isProblem && !type.startsWith('application/json')) return;
  const payload = (await c.res.clone().json()) as unknown;
  const envelope = isProblem
    ? { code: c.res.status, data: payload, error: (payload as Problem).code, message: (payload as Problem).detail }
    : { code: 0, data: payload, error: '', message: 'success' };
  const headers = new Headers(c.res.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  c.res = new Response(JSON.stringify(envelope), { status: c.res.status, headers });
};
