import { createRouter } from '../../platform/http/router.ts';
import * as r from './browse.routes.ts';

export function browseRouter() {
  const app = createRouter();
  app.openapi(r.queryAssets, async (c) => c.json(await c.get('container').browse.query(c.get('actor')!, c.req.valid('json') ?? {}), 200));
  app.openapi(r.listLikedAssets, async (c) => c.json(await c.get('container').browse.liked(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.listAssetsByRating, async (c) => c.json(await c.get('container').browse.byRating(c.get('actor')!, c.req.valid('param').rating, c.req.valid('query')), 200));
  return app;
}
