import type { Context } from 'hono';
import type { AppEnv } from '../../../platform/http/context.ts';
import { routerUsing } from '../../../platform/http/router.ts';
import * as r from './media-tools.routes.ts';
import type { MediaToolsService } from './media-tools.service.ts';

export function mediaToolsRouter() {
  const { app, services } = routerUsing(['mediaTools']);
  const svc = (c: Context<AppEnv>): MediaToolsService => services(c).mediaTools;
  app.openapi(r.getMediaTools, (c) => c.json(svc(c).report(c.get('actor')!), 200));
  app.openapi(r.recheckMediaTools, (c) => c.json(svc(c).recheck(c.get('actor')!), 200));
  return app;
}
