import type { Context } from 'hono';
import { routerUsing } from '../../../platform/http/router.ts';
import type { AppEnv } from '../../../platform/http/context.ts';
import * as r from './trash.routes.ts';

export function trashRouter() {
  const { app, services } = routerUsing(['trash']);
  const svc = (c: Context<AppEnv>) => services(c).trash;
  app.openapi(r.getTrash, (c) => c.json(svc(c).summary(c.get('actor')!), 200));
  app.openapi(r.deleteAssetsPermanently, (c) => c.json(svc(c).deletePermanently(c.get('actor')!, c.req.valid('json').asset_ids), 200));
  app.openapi(r.emptyTrash, (c) => c.json(svc(c).empty(c.get('actor')!, c.req.valid('json').expected_count), 200));
  return app;
}
