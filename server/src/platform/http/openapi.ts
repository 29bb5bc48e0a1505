/**
 * The OpenAPI 3.1 document, generated from the routes. Post-processing adds what applies to every
 * operation (the `X-Api-Variant` header), drops our internal `x-access` marker into a readable
 * `x-hearth-access` extension, and corrects what the generator gets wrong (openapi-fixes.ts).
 * Path parameters that name one of the caller's own resources carry `x-hearth-owner-scoped`
 * (router.ts `ownedPathParam`); with `x-hearth-access` it is what the permission matrix test checks.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.ts';
import { correctDocument } from './openapi-fixes.ts';

type Doc = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;
type Operation = { parameters?: unknown[]; 'x-access'?: string; 'x-hearth-access'?: string; [k: string]: unknown };

const VARIANT_PARAM = {
  name: 'X-Api-Variant',
  in: 'header',
  required: false,
  description:
    'Response variant for this request. `A` (default): the resource itself. `B`: every JSON response wrapped as `{code, data, error, message}` (code 0 on success), refresh token in the body for refresh and logout. Files and streams are the same in both.',
  schema: { type: 'string', enum: ['A', 'B'] },
};

export function openApiDocument(api: OpenAPIHono<AppEnv>): Doc {
  const doc = api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Hearth API',
      version: '1.0',
      description:
        'The HTTP API of Hearth, a self-hosted photo and video library for one household. Errors are RFC 9457 `application/problem+json` documents with a stable `code`.',
    },
    servers: [{ url: '/' }],
  });
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (!['get', 'put', 'post', 'patch', 'delete', 'head'].includes(method)) continue;
      op.parameters = [...(op.parameters ?? []), VARIANT_PARAM];
      if (op['x-access']) {
        op['x-hearth-access'] = op['x-access'];
        delete op['x-access'];
      }
    }
  }
  correctDocument(doc as unknown as Parameters<typeof correctDocument>[0]);
  return doc;
}
