import { createRouter } from '../../platform/http/router.ts';
import * as r from './folders.routes.ts';
import { FoldersService } from './folders.service.ts';

export function foldersRouter() {
  const app = createRouter();
  app.openapi(r.listFolders, (c) => c.json(new FoldersService(c.get('container').db).list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.getFolder, (c) => c.json(new FoldersService(c.get('container').db).get(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}
