import { routerUsing } from '../../platform/http/router.ts';
import * as r from './browse.routes.ts';

export function browseRouter() {
  const { app, services } = routerUsing(['browse', 'search']);
  app.openapi(r.queryAssets, async (c) => {
    const q = c.req.valid('json') ?? {};
    const { browse, search } = services(c);
    // A semantic query is answered by the search's embedding channel (features/search), as a gallery list.
    if (q.search_type === 'semantic' && q.query !== undefined && q.query.trim() !== '') return c.json(await search.semanticList(c.get('actor')!, q), 200);
    return c.json(await browse.query(c.get('actor')!, q), 200);
  });
  app.openapi(r.getAssetQueryYears, async (c) => c.json(await services(c).browse.years(c.get('actor')!, c.req.valid('json') ?? {}), 200));
  app.openapi(r.listLikedAssets, async (c) => c.json(await services(c).browse.liked(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.listAssetsByRating, async (c) => c.json(await services(c).browse.byRating(c.get('actor')!, c.req.valid('param').rating, c.req.valid('query')), 200));
  return app;
}
