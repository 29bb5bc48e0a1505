/** Handlers of the signed-in devices operations: HTTP in, service call, HTTP out. */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './sessions.routes.ts';

export function sessionsRouter() {
  const { app, services } = routerUsing(['sessions']);
  const svc = (c: Context<AppEnv>) => services(c).sessions;
  const actor = (c: Context<AppEnv>) => c.get('actor')!;

  app.openapi(r.listMySessions, (c) => c.json(svc(c).listMine(actor(c)), 200));
  app.openapi(r.revokeMyOtherSessions, (c) => c.json(svc(c).revokeMyOthers(actor(c)), 200));
  app.openapi(r.revokeMySession, (c) => c.json(svc(c).revokeMine(actor(c), c.req.valid('param').session_id), 200));

  app.openapi(r.listUserSessions, (c) => c.json(svc(c).listFor(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.revokeUserSessions, (c) => c.json(svc(c).revokeAllFor(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.revokeUserSession, (c) => {
    const p = c.req.valid('param');
    return c.json(svc(c).revokeOneFor(actor(c), p.id, p.session_id), 200);
  });

  return app;
}
