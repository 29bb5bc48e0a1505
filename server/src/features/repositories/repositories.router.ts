import { routerUsing } from '../../platform/http/router.ts';
import * as r from './repositories.routes.ts';

export function repositoriesRouter() {
  const { app, services } = routerUsing(['repositories']);
  app.openapi(r.listScopeRepositories, (c) => c.json(services(c).repositories.list(c.get('actor')!), 200));
  app.openapi(r.listReindexRepositories, (c) => c.json(services(c).repositories.listForReindex(c.get('actor')!), 200));
  app.openapi(r.createRepository, (c) => c.json(services(c).repositories.create(c.get('actor')!, c.req.valid('json')), 201));
  app.openapi(r.scanRepository, (c) => {
    const body = (c.req.valid('json') as { force?: boolean } | undefined) ?? {};
    const result = services(c).repositories.requestScan(c.get('actor')!, c.req.valid('param').id, body);
    return result.created ? c.json(result, 202) : c.json(result, 200);
  });
  app.openapi(r.listRepositoryScans, (c) => {
    const q = c.req.valid('query');
    return c.json(services(c).repositories.listScans(c.get('actor')!, c.req.valid('param').id, q.limit, q.offset), 200);
  });
  app.openapi(r.getLatestRepositoryScan, (c) =>
    c.json(services(c).repositories.latestScan(c.get('actor')!, c.req.valid('param').id), 200),
  );
  return app;
}
