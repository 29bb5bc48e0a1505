/**
 * RFC 9457 problem documents (`application/problem+json`). Every error response of the API is one,
 * built here; internals (stack traces, SQL) never reach a response.
 */
import { z } from '@hono/zod-openapi';
import type { FieldError } from './errors.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  retryable?: boolean;
  /** RFC 9457 extension members a client acts on, named in ProblemSchema (never secrets). */
  run_id?: string;
  fingerprint?: string;
  received?: number;
}

/** The extension members a problem may carry beside its standard ones: each is documented on ProblemSchema. */
export type ProblemMembers = Pick<Problem, 'run_id' | 'fingerprint' | 'received'>;

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'urn:hearth:problem:validation_failed' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().openapi({ description: 'Stable machine-readable error code.' }),
    instance: z.string().optional(),
    request_id: z.string().optional(),
    retryable: z.boolean().optional(),
    run_id: z.string().optional().openapi({ description: 'The run a 409 `import_run_active` refers to: the import already going on, to show instead of starting another.' }),
    fingerprint: z
      .string()
      .optional()
      .openapi({ description: 'The SHA-256 fingerprint (colon hex) of the certificate a 422 `cloud_tls_untrusted` refused: the value to compare and, if it is the server’s own, to trust.' }),
    received: z.number().int().optional().openapi({ description: 'The bytes of a Takeout upload the server has (409 `takeout_upload_offset_mismatch`, `takeout_upload_busy`): send from there.' }),
    errors: z
      .array(z.object({ field: z.string(), message: z.string(), code: z.string().optional() }))
      .optional()
      .openapi({ description: 'Per-field validation errors; `field` is `body.x`, `query.x`, `path.x` or `header.x`.' }),
  })
  .openapi('Problem');

export function problemTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

export function makeProblem(
  status: number,
  code: string,
  detail: string,
  extra: { errors?: FieldError[]; retryable?: boolean; instance?: string; requestId?: string; members?: ProblemMembers } = {},
): Problem {
  const p: Problem = {
    type: `urn:hearth:problem:${code}`,
    title: problemTitle(status),
    status,
    detail,
    code,
  };
  if (extra.instance) p.instance = extra.instance;
  if (extra.requestId) p.request_id = extra.requestId;
  if (extra.errors?.length) p.errors = extra.errors;
  if (extra.retryable !== undefined) p.retryable = extra.retryable;
  if (extra.members) Object.assign(p, extra.members);
  return p;
}

export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(p), {
    status: p.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}
