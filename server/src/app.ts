/**
 * createApp(container): the whole HTTP surface.
 *   request id + logging → client address → variant → body limit → bearer auth → envelope (B) →
 *   /api/v1 feature routers, /api/openapi.json, /api/docs, then the built web UI with SPA fallback.
 * One error handler turns domain errors, validation errors and anything unexpected into problems.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Container } from './container.ts';
import { API_BASE, buildApi } from './api.ts';
import type { AppEnv, ApiVariant } from './platform/http/context.ts';
import { DomainError, Invalid } from './platform/http/errors.ts';
import { makeProblem, problemResponse, PROBLEM_CONTENT_TYPE } from './platform/http/problem.ts';
import { openApiDocument } from './platform/http/openapi.ts';
import { renderDocsPage } from './platform/http/docs-page.ts';
import { envelopeVariantB } from './platform/http/variant.ts';
import { sealServices } from './platform/http/services.ts';

/** JSON bodies of ordinary operations; uploads (their own routes) stream and have their own limits. */
export const JSON_BODY_LIMIT = 1024 * 1024;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function clientAddress(c: Context<AppEnv>, trustProxy: boolean): { ip: string; isLocal: boolean } {
  let socketIp = 'unknown';
  try {
    socketIp = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    /* not served over a socket (in-process request): never treated as local */
  }
  const forwarded = c.req.header('x-forwarded-for') ?? c.req.header('forwarded') ?? c.req.header('x-real-ip');
  // A request relayed by a proxy on this machine comes from the proxy's client, not from us: it is
  // never "local", whatever the socket says.
  const isLocal = LOOPBACK.test(socketIp) && !forwarded;
  const ip = trustProxy && c.req.header('x-forwarded-for') ? c.req.header('x-forwarded-for')!.split(',')[0]!.trim() : socketIp;
  return { ip, isLocal };
}

export function createApp(container: Container) {
  const app = new Hono<AppEnv>();
  const api = buildApi();
  // Generated on first request, not at start: building the document from every route's schemas took
  // about 200 ms of a cold start that should reach its first answer within a second.
  let doc: ReturnType<typeof openApiDocument> | null = null;
  let docsHtml: string | null = null;
  const document = () => (doc ??= openApiDocument(api));
  // Requests carry the services sealed: routers open only the ones they declare (routerUsing, router.ts).
  // This file's own middleware (request log, client address, variant, bearer auth, errors) is the
  // composition's and uses the container it is given directly.
  const services = sealServices(container);

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    const log = container.log.child({ request_id: requestId });
    const { ip, isLocal } = clientAddress(c, container.config.trustProxy);
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('container', services);
    c.set('actor', null);
    c.set('rawRoute', false);
    c.set('clientIp', ip);
    c.set('isLocalRequest', isLocal);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    const line = { method: c.req.method, path: c.req.path, status: c.res.status, ms, ip };
    if (c.res.status >= 500) log.error(line, 'request failed');
    else if (c.req.path.startsWith('/api/')) log.info(line, 'request');
  });

  app.use('*', secureHeaders({
      crossOriginResourcePolicy: 'same-origin',
      referrerPolicy: 'same-origin',
      // Homes reach Hearth by IP or a local name, often over plain HTTP: pinning HTTPS would lock them out.
      strictTransportSecurity: false,
    }));

  // Variant first, then the envelope around everything inside (body limit, auth, routes), so that
  // errors raised by inner middleware are enveloped in variant B too.
  app.use('/api/*', async (c, next) => {
    const header = c.req.header('x-api-variant');
    let variant: ApiVariant = container.config.apiVariant;
    if (header !== undefined) {
      const v = header.trim().toUpperCase();
      if (v !== 'A' && v !== 'B') {
        throw new Invalid('X-Api-Variant must be A or B.', [{ field: 'header.x-api-variant', message: 'must be A or B' }]);
      }
      variant = v;
    }
    c.set('variant', variant);
    return next();
  });
  app.use(`${API_BASE}/*`, envelopeVariantB);

  // Uploads stream to disk with their own limits (features/uploads); everything else is small JSON.
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw new DomainError(413, 'payload_too_large', `The request body is larger than ${JSON_BODY_LIMIT} bytes.`);
    },
  });
  // Search by image reads its photo in memory with a limit of its own (features/search: 256 MiB); a model
  // file uploaded on the Models page streams to disk, limited to that file's size (model-installer.ts).
  const MODEL_FILE = new RegExp(`^${API_BASE}/models/[^/]+/files/\\d+$`);
  // A Takeout part's chunk streams to disk, limited by the upload's declared size (takeout-uploads.service.ts).
  const TAKEOUT_CHUNK = new RegExp(`^${API_BASE}/cloud/takeout/uploads/[^/]+$`);
  const ownLimit = (path: string) => path.startsWith(`${API_BASE}/uploads/`) || path === `${API_BASE}/assets/search/by-image` || MODEL_FILE.test(path) || TAKEOUT_CHUNK.test(path);
  app.use('/api/*', (c, next) => (ownLimit(c.req.path) ? next() : jsonBodyLimit(c, next)));
  app.use('/api/*', async (c, next) => {
    const auth = c.req.header('authorization');
    if (auth?.startsWith('Bearer ')) c.set('actor', container.auth.authenticateAccessToken(auth.slice(7).trim()));
    return next();
  });

  app.get('/api/openapi.json', (c) => c.json(document()));
  app.get('/api/docs', (c) => c.html((docsHtml ??= renderDocsPage(document()))));
  app.route('/', api);

  app.all('/api/*', (c) =>
    problemResponse(makeProblem(404, 'route_not_found', `No operation at ${c.req.method} ${c.req.path}.`, { requestId: c.get('requestId') })),
  );

  // The host channel's routes live on a local socket only (features/host-actions): here they do not exist,
  // and the web UI's fallback must not answer them either.
  app.all('/host/*', (c) =>
    problemResponse(makeProblem(404, 'route_not_found', `No operation at ${c.req.method} ${c.req.path}.`, { requestId: c.get('requestId') })),
  );

  mountUi(app, container.config.uiDir);

  app.onError((err, c) => {
    const requestId = c.get('requestId');
    const instance = c.req.path;
    if (err instanceof DomainError) {
      const headers: Record<string, string> = {};
      if (err.extra.retryAfterSeconds) headers['Retry-After'] = String(err.extra.retryAfterSeconds);
      if (err.extra.cacheSeconds) headers['Cache-Control'] = `private, max-age=${err.extra.cacheSeconds}`;
      return problemResponse(
        makeProblem(err.status, err.code, err.message, { errors: err.extra.errors, retryable: err.extra.retryable, instance, requestId, members: err.extra.members }),
        headers,
      );
    }
    if (err instanceof HTTPException) {
      // Hono raises these for malformed input (e.g. unparseable JSON): a client error, said plainly.
      const status = err.status;
      const code = status === 400 ? 'malformed_request' : `http_${status}`;
      const detail = status === 400 && /json/i.test(err.message) ? 'The request body is not valid JSON.' : err.message || 'Request failed.';
      return problemResponse(makeProblem(status, code, detail, { instance, requestId }));
    }
    (c.get('log') ?? container.log).error({ err }, 'unhandled error');
    return problemResponse(makeProblem(500, 'internal_error', 'Something went wrong on the server. It has been logged.', { instance, requestId }));
  });

  app.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? problemResponse(makeProblem(404, 'route_not_found', `No operation at ${c.req.method} ${c.req.path}.`))
      : c.text('Not found', 404),
  );

  return app;
}

/** Serves the built web UI; unknown non-API paths get index.html so client-side routes work on reload. */
function mountUi(app: Hono<AppEnv>, uiDir: string): void {
  const index = path.join(uiDir, 'index.html');
  // Created on first use: the UI may be built after the server starts (npm run dev).
  let statics: ReturnType<typeof serveStatic<AppEnv>> | null = null;
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    const file = path.join(uiDir, path.normalize(c.req.path));
    if (file.startsWith(uiDir + path.sep) && c.req.path !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) {
      // Vite names built assets by content hash: they never change, so browsers may keep them.
      if (c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'public, max-age=31536000, immutable');
      statics ??= serveStatic<AppEnv>({ root: uiDir });
      return statics(c, next);
    }
    if (!fs.existsSync(index)) {
      return c.html(
        '<!doctype html><title>Hearth</title><p>The web UI is not built. Run <code>npm run build:ui</code> (npm start does it for you).</p>',
        503,
      );
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(index, 'utf8'));
  });
}

export { PROBLEM_CONTENT_TYPE };
