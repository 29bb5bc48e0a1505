import { routerUsing } from '../../platform/http/router.ts';
import * as r from './users.routes.ts';

export function usersRouter() {
  const { app, services } = routerUsing(['users']);
  app.openapi(r.listUsers, (c) => {
    const q = c.req.valid('query');
    return c.json(services(c).users.list(c.get('actor')!, q.limit, q.offset), 200);
  });
  app.openapi(r.createUser, async (c) => c.json(await services(c).users.create(c.get('actor')!, c.req.valid('json')), 201));
  app.openapi(r.updateUser, (c) =>
    c.json(services(c).users.update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(r.resetUserAccess, async (c) =>
    c.json(await services(c).users.resetAccess(c.get('actor')!, c.req.valid('param').id), 200),
  );
  return app;
}
