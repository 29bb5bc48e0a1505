import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './tags.routes.ts';

export function tagsRouter() {
  const { app, services } = routerUsing(['tags']);
  const svc = (c: Context<AppEnv>) => services(c).tags;

  app.openapi(r.searchTags, (c) => c.json(svc(c).search(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.listTagSummaries, (c) => c.json(svc(c).summaries(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.listAssetTags, (c) => c.json(svc(c).list(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.addAssetTag, (c) => c.json(svc(c).add(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').tag_name), 200));
  app.openapi(r.removeAssetTag, (c) => {
    const p = c.req.valid('param');
    return c.json(svc(c).remove(c.get('actor')!, p.id, p.tagId), 200);
  });
  return app;
}
