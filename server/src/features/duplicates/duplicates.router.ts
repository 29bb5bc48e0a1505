import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './duplicates.routes.ts';

export function duplicatesRouter() {
  const { app, services } = routerUsing(['duplicates']);
  const svc = (c: Context<AppEnv>) => services(c).duplicates;

  app.openapi(r.getDuplicateSummary, (c) => c.json(svc(c).summary(c.get('actor')!, c.req.valid('query').repository_id ?? null), 200));
  app.openapi(r.listDuplicateGroups, (c) => {
    const q = c.req.valid('query');
    return c.json(svc(c).list(c.get('actor')!, { repositoryId: q.repository_id, status: q.status }, q.limit, q.offset), 200);
  });
  app.openapi(r.getDuplicateGroup, (c) => c.json(svc(c).get(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.detectDuplicates, async (c) => c.json(await svc(c).detect(c.get('actor')!, c.req.valid('json').repository_id), 200));
  app.openapi(r.mergeDuplicateGroup, (c) => c.json(svc(c).merge(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.dismissDuplicateGroup, (c) => c.json(svc(c).dismiss(c.get('actor')!, c.req.valid('param').id), 200));
  return app;
}
