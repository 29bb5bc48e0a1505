import { routerUsing } from '../../platform/http/router.ts';
import * as r from './folders.routes.ts';

export function foldersRouter() {
  const { app, services } = routerUsing(['folders']);
  app.openapi(r.listFolders, async (c) => c.json(await services(c).folders.list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.getFolder, async (c) => c.json(await services(c).folders.get(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}
