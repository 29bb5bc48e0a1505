import type { Context } from 'hono';
import type { AppEnv, AppServices } from '../../platform/http/context.ts';
import { createRouter } from '../../platform/http/router.ts';
import * as r from './browse.routes.ts';
import { BrowseService } from './browse.service.ts';

/** One service per container (it keeps the list cache), built on first use from its catalog. */
const services = new WeakMap<AppServices, BrowseService>();
function browse(c: Context<AppEnv>): BrowseService {
  const container = c.get('container');
  let svc = services.get(container);
  if (!svc) services.set(container, (svc = new BrowseService(container.db)));
  return svc;
}

export function browseRouter() {
  const app = createRouter();
  app.openapi(r.queryAssets, (c) => c.json(browse(c).query(c.get('actor')!, c.req.valid('json') ?? {}), 200));
  app.openapi(r.listLikedAssets, (c) => c.json(browse(c).liked(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.listAssetsByRating, (c) => c.json(browse(c).byRating(c.get('actor')!, c.req.valid('param').rating, c.req.valid('query')), 200));
  return app;
}
