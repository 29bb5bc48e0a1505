import type { Context } from 'hono';
import type { Container } from '../../container.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { createRouter } from '../../platform/http/router.ts';
import * as r from './browse.routes.ts';
import { BrowseService } from './browse.service.ts';

/** One service per container, built on first use from its catalog (nothing to wire in container.ts). */
const services = new WeakMap<Container, BrowseService>();
function browse(c: Context<AppEnv>): BrowseService {
  const container = c.get('container');
  let svc = services.get(container);
  if (!svc) services.set(container, (svc = new BrowseService(container.db)));
  return svc;
}

export function browseRouter() {
  const app = createRouter();
  app.openapi(r.queryAssets, (c) => c.json(browse(c).query(c.get('actor')!, c.req.valid('json') ?? {}), 200));
  return app;
}
