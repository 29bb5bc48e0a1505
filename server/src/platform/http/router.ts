/**
 * Router factory and route definition helper.
 *
 * `defineRoute(access, config)` is `createRoute` plus the rules every operation must follow: it
 * declares who may call (and enforces it with a route middleware), the bearer security scheme, and
 * the error responses that follow from it (401, 403, 422 for validated input and the variant header,
 * 400/413/415 for a body, 500), so the
 * OpenAPI document lists every error status an operation can answer.
 */
import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Actor, AppEnv, ServiceName } from './context.ts';
import { Forbidden, Invalid, Unauthorized, type FieldError } from './errors.ts';
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from './problem.ts';
import { servicesOf } from './services.ts';

/**
 * Who may call an operation.
 * - `public`: anyone, also before sign-in (login, health, bootstrap).
 * - `user`: any signed-in, active account (bearer access token).
 * - `admin`: administrators only.
 * - `media`: signed-in, by bearer token or by a short-lived media token in `?mt=` (for <img>/<video>).
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'media';

const TARGET_PREFIX: Record<string, string> = {
  json: 'body',
  form: 'body',
  query: 'query',
  param: 'path',
  header: 'header',
  cookie: 'cookie',
};

export function zodIssuesToFieldErrors(
  target: string,
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string; params?: Record<string, unknown> }[],
): FieldError[] {
  const prefix = TARGET_PREFIX[target] ?? target;
  return issues.map((i) => ({
    field: [prefix, ...i.path.map(String)].join('.'),
    message: i.code === 'invalid_type' && /received undefined$/.test(i.message) ? 'is required' : i.message,
    // A refinement may name its own stable code (for example `control_characters`, see text.ts).
    code: typeof i.params?.code === 'string' ? i.params.code : i.code,
  }));
}

export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const errors = zodIssuesToFieldErrors(result.target, result.error.issues);
        // Readable on its own: "Check body.username (must be at least 3 characters); body.password (is required)."
        const parts = errors.slice(0, 5).map((e) => `${e.field} (${e.message})`);
        const more = errors.length > 5 ? `; and ${errors.length - 5} more` : '';
        throw new Invalid(`Check ${parts.join('; ')}${more}.`, errors);
      }
    },
  });
}

/**
 * A feature router and the services its handlers use, declared like a job's `uses`:
 * `const { app, services } = routerUsing(['albums', 'albumMembers'])`, then `services(c).albums` in a
 * handler. `services(c)` holds the declared services and nothing else (services.ts); the whole container
 * is not reachable from a handler. Keep the list to what the handlers call.
 */
export function routerUsing<const U extends ServiceName>(uses: readonly U[]) {
  return { app: createRouter(), services: servicesOf(uses) };
}

function problemContent(description: string) {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } } };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (for example unparseable JSON)',
  401: 'Not signed in, or the token expired or was revoked',
  403: 'Signed in but not allowed',
  404: 'Not found (also for resources of other users)',
  408: 'The request body stopped arriving (idle timeout); send it again',
  409: 'Conflicts with the current state',
  413: 'Request body too large',
  415: 'The body is not of the declared media type',
  422: 'Validation failed; `errors` names each field',
  429: 'Too many attempts; retry after the `Retry-After` seconds',
  500: 'Unexpected server error',
  502: 'A service outside Hearth answered with an error or nonsense; retry later',
  503: 'A dependency is unavailable; retry later',
  507: 'The disk is full; free space and start again',
};

/** Problem responses for the given statuses, for a route's `responses`. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, problemContent(ERROR_DESCRIPTIONS[s] ?? 'Error')]),
  ) as Record<number, ReturnType<typeof problemContent>>;
}

/** The access check reads media tokens (`?mt=`) through the auth service, and needs nothing else. */
const accessServices = servicesOf(['auth']);

export function requireAccess(access: RouteAccess): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (access === 'public') return next();
    let actor: Actor | null = c.get('actor');
    if (!actor && access === 'media') {
      const mt = c.req.query('mt');
      if (mt) actor = await accessServices(c).auth.authenticateMediaToken(mt);
      if (actor) c.set('actor', actor);
    }
    if (!actor || (actor.via === 'media_token' && access !== 'media')) throw new Unauthorized();
    if (access === 'admin' && actor.role !== 'admin') throw new Forbidden('Administrators only.', 'admin_only');
    return next();
  };
}

/**
 * The resources a signed-in caller owns privately: another member (administrators included) gets 404
 * for them, so their existence does not leak. Shared resources (repositories, tag names) and
 * administrators' resources (users, jobs) are not listed. Each has its rule in platform/access
 * (rules.ts), except `place`, which is a query over the reader's own photos (place-list.service.ts).
 */
export const OWNED_RESOURCES = ['asset', 'album', 'person', 'face', 'photo_event', 'duplicate_group', 'place', 'cloud_credential', 'import_run', 'takeout_upload', 'host_action', 'agent_thread', 'agent_pin', 'agent_effect'] as const;
export type OwnedResource = (typeof OWNED_RESOURCES)[number];

/**
 * A path parameter that names one of the caller's own resources. The OpenAPI document carries it as
 * `x-hearth-owner-scoped: <resource>` on the parameter, and the permission matrix test
 * (test/server/access/permission-matrix.test.ts) checks from it that no one else reads or changes it.
 */
export function ownedPathParam<const N extends string>(name: N, resource: OwnedResource) {
  return { name, in: 'path' as const, 'x-hearth-owner-scoped': resource };
}

/**
 * A query parameter that names one of the caller's own resources (the assistant's `thread_id` beside a ref
 * id): carried and checked as ownedPathParam's are.
 */
export function ownedQueryParam<const N extends string>(name: N, resource: OwnedResource) {
  return { name, in: 'query' as const, 'x-hearth-owner-scoped': resource };
}

/**
 * A body field (an id, or an array of ids) that names the caller's own resources, for `.openapi()` on the
 * field's schema. The document carries `x-hearth-owner-scoped: <resource>` on the field, and the
 * permission matrix puts the owner's real ids there (test/server/access/requests.ts), so an owner's call
 * reaches past validation and another member's call is refused for the resource, not for the shape.
 */
export function ownedBodyField(resource: OwnedResource) {
  return { 'x-hearth-owner-scoped': resource } as const;
}

type RoutedWithAccess<R extends RouteConfig> = R & { 'x-access': RouteAccess };

export function defineRoute<const R extends RouteConfig>(access: RouteAccess, config: R): RoutedWithAccess<R> {
  const statuses = new Set<number>([500]);
  if (access !== 'public') statuses.add(401);
  if (access === 'admin') statuses.add(403);
  // A change to something shared with the caller (a shared album, a partner's photo) that their
  // role does not allow is 403: they can see it, so saying so leaks nothing (platform/access).
  if (access !== 'public' && config.method !== 'get') statuses.add(403);
  // Every operation validates its X-Api-Variant header (and its parameters): 422.
  statuses.add(422);
  const req = config.request;
  if (req?.body) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  const own = new Set(Object.keys(config.responses).map(Number));
  const extra = errorResponses(...[...statuses].filter((s) => !own.has(s)));
  const middleware = [requireAccess(access), ...(config.middleware ? [config.middleware].flat() : [])];
  const route = createRoute({
    ...config,
    middleware,
    security: access === 'public' ? [] : access === 'media' ? [{ bearerAuth: [] }, { mediaToken: [] }] : [{ bearerAuth: [] }],
    responses: { ...config.responses, ...extra },
    'x-access': access,
  } as R & { 'x-access': RouteAccess });
  return route as RoutedWithAccess<R>;
}

/** The JSON body every "Message" response has. */
export function message(text: string) {
  return { message: text };
}
