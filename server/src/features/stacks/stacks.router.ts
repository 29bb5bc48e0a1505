import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './stacks.routes.ts';

export function stacksRouter() {
  const { app, services } = routerUsing(['stacks']);
  const svc = (c: Context<AppEnv>) => services(c).stacks;

  app.openapi(r.createStack, (c) => c.json(svc(c).create(c.get('actor')!, c.req.valid('json').asset_ids), 201));
  app.openapi(r.getAssetStack, (c) => c.json(svc(c).getForAsset(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.removeAssetFromStack, (c) => c.json(svc(c).removeAsset(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.detectRepositoryStacks, (c) => c.json(svc(c).detect(c.get('actor')!, c.req.valid('param').id), 200));
  return app;
}
