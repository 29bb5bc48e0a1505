import { routerUsing } from '../../platform/http/router.ts';
import * as r from './indexing.routes.ts';

export function indexingRouter() {
  const { app, services } = routerUsing(['indexing']);
  app.openapi(r.rebuildAssetIndex, (c) => {
    const body = c.req.valid('json') ?? { limit: 200, missing_only: false, reset_semantic: false };
    const result = services(c).indexing.requestRebuild(c.get('actor')!, {
      limit: body.limit ?? 200,
      missing_only: body.missing_only ?? false,
      reset_semantic: body.reset_semantic ?? false,
      repository_id: body.repository_id ?? null,
      tasks: body.tasks,
    });
    return c.json(result, 200);
  });
  app.openapi(r.getIndexingStats, (c) => c.json(services(c).indexing.stats(c.get('actor')!, c.req.valid('query').repository_id), 200));
  return app;
}
